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
// distance constraints near rest.
#define TETHER_SLACK 0.01f
// Candidate anchors are capped so building stays O(particles × cap) even when a whole edge is pinned.
#define MAX_ANCHOR_CANDIDATES 256

void weft_tethers_build(weft_world* world) {
	const int32_t n = world->particle_count;
	const int32_t per = WEFT_TETHERS_PER_PARTICLE;
	int32_t pinned_count = 0;
	for (int32_t k = 0; k < n * per; ++k) {
		world->tether_anchor[k] = -1;
		world->tether_max_distance[k] = 0.0f;
	}
	for (int32_t p = 0; p < n; ++p) {
		pinned_count += world->rest_positions[4 * p + 3] == 0.0f;
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
		const float* x = &world->rest_positions[4 * p];
		if (x[3] == 0.0f) {
			continue;
		}
		// Insertion into a short sorted list of the nearest anchors.
		float best[WEFT_TETHERS_PER_PARTICLE];
		int32_t best_anchor[WEFT_TETHERS_PER_PARTICLE];
		for (int32_t k = 0; k < per; ++k) {
			best[k] = INFINITY;
			best_anchor[k] = -1;
		}
		for (int32_t c = 0; c < candidate_count; ++c) {
			const float* y = &world->rest_positions[4 * candidates[c]];
			float dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
			float d2 = dx * dx + dy * dy + dz * dz;
			int32_t slot = per;
			while (slot > 0 && d2 < best[slot - 1]) {
				if (slot < per) {
					best[slot] = best[slot - 1];
					best_anchor[slot] = best_anchor[slot - 1];
				}
				slot--;
			}
			if (slot < per) {
				best[slot] = d2;
				best_anchor[slot] = candidates[c];
			}
		}
		for (int32_t k = 0; k < per; ++k) {
			world->tether_anchor[p * per + k] = best_anchor[k];
			world->tether_max_distance[p * per + k] = best_anchor[k] >= 0 ? sqrtf(best[k]) * (1.0f + TETHER_SLACK) : 0.0f;
		}
	}
}
