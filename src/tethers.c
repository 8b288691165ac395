// Tethers (long-range attachments): each free particle may not move farther from its nearest
// pinned particles than it was in the rest pose (plus a little slack). Coloured Gauss-Seidel with
// one iteration per substep propagates a correction only a few constraints per substep, so a tall
// cloth would sag and stretch far beyond its stiffness; a tether pulls the whole chain back at once.
// Anchors are pinned (inverse mass 0) so tethers never touch each other's particles: they form one
// batch that is parallel without colouring. A particle is tethered to more than one anchor: with a
// single nearest anchor, the particles on either side of the line where the nearest anchor
// changes are pulled towards different pins and tear the cloth open along that seam.
#include <math.h>

#include "world_internal.h"

// Tethers only limit stretch beyond this fraction of the rest distance, so they do not fight the
// distance constraints near rest. It is small: the settled 128² `hang` stretches at most the slack
// plus what one sweep leaves (1.7%; with 1% of slack the band between the corners sagged to 4.1%,
// with none the tethers fight the last colour and 2.1% is left); bench/stiffness.c has the table.
#define TETHER_SLACK 0.003f
// Candidate anchors are capped so building stays O(particles × cap) even when a whole edge is pinned.
#define MAX_ANCHOR_CANDIDATES 256
// Nearest pins each particle is tethered to (the rest of its tethers go to the outermost pins).
#define TETHER_NEAREST 2

// Keeps the smallest distances in a short sorted list (best[0] nearest).
static void insert_nearest(float* best, int32_t* best_anchor, int32_t size, float d2, int32_t anchor) {
	int32_t slot = size;
	while (slot > 0 && d2 < best[slot - 1]) {
		if (slot < size) {
			best[slot] = best[slot - 1];
			best_anchor[slot] = best_anchor[slot - 1];
		}
		slot--;
	}
	if (slot < size) {
		best[slot] = d2;
		best_anchor[slot] = anchor;
	}
}

static float rest_distance2(const weft_world* world, int32_t p, int32_t q) {
	const float* x = &world->rest_positions[4 * p];
	const float* y = &world->rest_positions[4 * q];
	float dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
	return dx * dx + dy * dy + dz * dz;
}

void weft_tethers_build(weft_world* world) {
	const int32_t n = world->particle_count;
	const int32_t per = WEFT_TETHERS_PER_PARTICLE;
	int32_t pinned_count = 0, first_pin = -1, last_pin = -1;
	for (int32_t k = 0; k < n * per; ++k) {
		world->tether_anchor[k] = -1;
		world->tether_max_distance[k] = 0.0f;
	}
	for (int32_t p = 0; p < n; ++p) {
		if (world->rest_positions[4 * p + 3] == 0.0f) {
			pinned_count++;
			first_pin = first_pin < 0 ? p : first_pin;
			last_pin = p;
		}
	}
	if (!world->def.tethers || pinned_count == 0) {
		return;
	}
	int32_t stride = (pinned_count + MAX_ANCHOR_CANDIDATES - 1) / MAX_ANCHOR_CANDIDATES;
	int32_t candidates[MAX_ANCHOR_CANDIDATES];
	int32_t candidate_count = 0, seen = 0;
	for (int32_t q = 0; q < n && candidate_count < MAX_ANCHOR_CANDIDATES; ++q) {
		if (world->rest_positions[4 * q + 3] == 0.0f && (seen++ % stride) == 0) {
			candidates[candidate_count++] = q;
		}
	}
	for (int32_t p = 0; p < n; ++p) {
		if (world->rest_positions[4 * p + 3] == 0.0f) {
			continue;
		}
		// The nearest pins hold the particle locally; the outermost pins (first and last in grid
		// order: the corners of an edge) hold it across the cloth, so a tall flag cannot sag and
		// stretch across the tethers' direction.
		float best[TETHER_NEAREST];
		int32_t best_anchor[TETHER_NEAREST];
		for (int32_t k = 0; k < TETHER_NEAREST; ++k) {
			best[k] = INFINITY;
			best_anchor[k] = -1;
		}
		for (int32_t c = 0; c < candidate_count; ++c) {
			insert_nearest(best, best_anchor, TETHER_NEAREST, rest_distance2(world, p, candidates[c]), candidates[c]);
		}
		int32_t anchors[WEFT_TETHERS_PER_PARTICLE], count = 0;
		const int32_t proposals[] = {best_anchor[0], best_anchor[1], first_pin, last_pin};
		_Static_assert(sizeof proposals / sizeof proposals[0] == WEFT_TETHERS_PER_PARTICLE, "one proposal per tether");
		for (int32_t k = 0; k < WEFT_TETHERS_PER_PARTICLE; ++k) {
			bool duplicate = proposals[k] < 0;
			for (int32_t j = 0; j < count && !duplicate; ++j) {
				duplicate = anchors[j] == proposals[k];
			}
			if (!duplicate) {
				anchors[count++] = proposals[k];
			}
		}
		for (int32_t k = 0; k < count; ++k) {
			world->tether_anchor[p * per + k] = anchors[k];
			world->tether_max_distance[p * per + k] =
			    sqrtf(rest_distance2(world, p, anchors[k])) * (1.0f + TETHER_SLACK);
		}
	}
}
