// Tethers (long-range attachments): each free particle may not move farther from its nearest
// pinned particle than it was in the rest pose (plus a little slack). Coloured Gauss-Seidel with
// one iteration per substep propagates a correction only a few constraints per substep, so a tall
// cloth would sag and stretch far beyond its stiffness; a tether pulls the whole chain back at once.
// Anchors are pinned (inverse mass 0) so tethers never touch each other's particles: they form one
// batch that is parallel without colouring.
#include <math.h>

#include "world_internal.h"

// Tethers only limit stretch beyond this fraction of the rest distance, so they do not fight the
// distance constraints near rest.
#define TETHER_SLACK 0.01f
// Candidate anchors are capped so building stays O(particles × cap) even when a whole edge is pinned.
#define MAX_ANCHOR_CANDIDATES 256

void weft_tethers_build(weft_world* world) {
	const int32_t n = world->particle_count;
	int32_t pinned_count = 0;
	for (int32_t p = 0; p < n; ++p) {
		world->tether_anchor[p] = -1;
		world->tether_max_distance[p] = 0.0f;
		if (world->rest_positions[4 * p + 3] == 0.0f) {
			pinned_count++;
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
		const float* x = &world->rest_positions[4 * p];
		if (x[3] == 0.0f) {
			continue;
		}
		float best = INFINITY;
		int32_t best_anchor = -1;
		for (int32_t k = 0; k < candidate_count; ++k) {
			const float* y = &world->rest_positions[4 * candidates[k]];
			float dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
			float d2 = dx * dx + dy * dy + dz * dz;
			if (d2 < best) {
				best = d2;
				best_anchor = candidates[k];
			}
		}
		world->tether_anchor[p] = best_anchor;
		world->tether_max_distance[p] = sqrtf(best) * (1.0f + TETHER_SLACK);
	}
}
