// Picking: a ray against the cloth's triangles (Möller–Trumbore), both faces, nearest hit wins.
#include <math.h>

#include "world_internal.h"

static float dot3(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const float* a, const float* b, float* out) {
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

weft_result weft_world_raycast(const weft_world* world, weft_vec3 origin, weft_vec3 direction,
                               int32_t* out_particle, float* out_distance) {
	if (world == NULL || out_particle == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world or out_particle is NULL");
	}
	if (!weft_is_finite_vec3(origin) || !weft_is_finite_vec3(direction) ||
	    direction.x * direction.x + direction.y * direction.y + direction.z * direction.z < 1e-20f) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "ray origin and direction must be finite, direction non-zero");
	}
	const float o[3] = {origin.x, origin.y, origin.z}, d[3] = {direction.x, direction.y, direction.z};
	const float* x = world->positions;
	float best_t = INFINITY;
	int32_t best = -1;
	for (int32_t t = 0; t < world->index_count; t += 3) {
		const uint32_t corner[3] = {world->indices[t], world->indices[t + 1], world->indices[t + 2]};
		const float *a = &x[4 * corner[0]], *b = &x[4 * corner[1]], *c = &x[4 * corner[2]];
		float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
		float pvec[3], qvec[3];
		cross3(d, e2, pvec);
		float det = dot3(e1, pvec);
		if (fabsf(det) < 1e-12f) {
			continue;
		}
		float inverse_det = 1.0f / det;
		float tvec[3] = {o[0] - a[0], o[1] - a[1], o[2] - a[2]};
		float u = dot3(tvec, pvec) * inverse_det;
		if (u < 0.0f || u > 1.0f) {
			continue;
		}
		cross3(tvec, e1, qvec);
		float v = dot3(d, qvec) * inverse_det;
		if (v < 0.0f || u + v > 1.0f) {
			continue;
		}
		float hit = dot3(e2, qvec) * inverse_det;
		if (hit <= 0.0f || hit >= best_t) {
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
