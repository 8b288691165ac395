// Picking: a ray against the cloth's triangles (Möller–Trumbore), both faces, nearest hit wins.
#include <math.h>

#include "vec3.h"
#include "world_internal.h"

weft_result weft_world_raycast(const weft_world* world, weft_vec3 origin, weft_vec3 direction, int32_t* out_particle,
                               float* out_distance) {
	if (world == NULL || out_particle == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world or out_particle is NULL");
	}
	if (!weft_is_finite_vec3(origin) || !weft_is_finite_vec3(direction) || weft_length2(direction) < 1e-20f) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "ray origin and direction must be finite, direction non-zero");
	}
	const float* x = world->positions;
	float best_t = INFINITY;
	int32_t best = -1;
	// A world that went NaN has no surface to hit (and NaN would slip through the tests below).
	const int32_t triangles = weft_world_is_finite(world) ? world->index_count : 0;
	for (int32_t t = 0; t < triangles; t += 3) {
		const uint32_t corner[3] = {world->indices[t], world->indices[t + 1], world->indices[t + 2]};
		const weft_vec3 a = weft_load3(&x[4 * corner[0]]), b = weft_load3(&x[4 * corner[1]]),
		                c = weft_load3(&x[4 * corner[2]]);
		weft_vec3 e1 = weft_sub(b, a), e2 = weft_sub(c, a);
		weft_vec3 pvec = weft_cross(direction, e2);
		float det = weft_dot(e1, pvec);
		// Every test is written to fail for NaN (a far ray can overflow to inf − inf).
		if (!(fabsf(det) >= 1e-12f)) {
			continue;
		}
		float inverse_det = 1.0f / det;
		weft_vec3 tvec = weft_sub(origin, a);
		float u = weft_dot(tvec, pvec) * inverse_det;
		if (!(u >= 0.0f && u <= 1.0f)) {
			continue;
		}
		weft_vec3 qvec = weft_cross(tvec, e1);
		float v = weft_dot(direction, qvec) * inverse_det;
		if (!(v >= 0.0f && u + v <= 1.0f)) {
			continue;
		}
		float hit = weft_dot(e2, qvec) * inverse_det;
		if (!(hit > 0.0f && hit < best_t)) {
			continue;
		}
		best_t = hit;
		// The corner with the largest barycentric weight is the one nearest to the hit point.
		float weights[3] = {1.0f - u - v, u, v};
		int k = weights[1] > weights[0] ? 1 : 0;
		k = weights[2] > weights[k] ? 2 : k;
		best = (int32_t)corner[k];
	}
	*out_particle = best;
	if (out_distance != NULL) {
		*out_distance = best >= 0 ? best_t : INFINITY;
	}
	return WEFT_OK;
}
