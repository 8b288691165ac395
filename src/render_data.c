// Render arrays straight from the core: area-weighted vertex normals (the cross product of two
// triangle edges has twice the triangle's area as its length, so summing unnormalised face normals
// weights them by area) and per-vertex strain for the heatmap.
#include <math.h>
#include <string.h>

#include "world_internal.h"

static void update_normals(weft_world* world) {
	float* normals = world->normals;
	const float* x = world->positions;
	memset(normals, 0, (size_t)world->particle_count * 4 * sizeof(float));
	for (int32_t t = 0; t < world->index_count; t += 3) {
		uint32_t i0 = world->indices[t], i1 = world->indices[t + 1], i2 = world->indices[t + 2];
		const float *a = &x[4 * i0], *b = &x[4 * i1], *c = &x[4 * i2];
		float ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
		float vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
		float nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
		uint32_t corners[3] = {i0, i1, i2};
		for (int k = 0; k < 3; ++k) {
			float* n = &normals[4 * corners[k]];
			n[0] += nx;
			n[1] += ny;
			n[2] += nz;
		}
	}
	for (int32_t p = 0; p < world->particle_count; ++p) {
		float* n = &normals[4 * p];
		float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		if (length > 1e-20f) {
			n[0] /= length;
			n[1] /= length;
			n[2] /= length;
		} else {
			n[0] = 0.0f;
			n[1] = 0.0f;
			n[2] = 1.0f;
		}
	}
}

static void update_strain(weft_world* world) {
	float* strain = world->strain;
	const float* x = world->positions;
	memset(strain, 0, (size_t)world->particle_count * sizeof(float));
	for (int32_t k = 0; k < world->constraint_count; ++k) {
		if (world->types[k] != WEFT_STRETCH) {
			continue;
		}
		const weft_constraint c = world->constraints[k];
		const float *a = &x[4 * c.a], *b = &x[4 * c.b];
		float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
		float e = (sqrtf(dx * dx + dy * dy + dz * dz) - c.rest_length) / c.rest_length;
		strain[c.a] += e;
		strain[c.b] += e;
	}
	for (int32_t p = 0; p < world->particle_count; ++p) {
		if (world->strain_counts[p] > 0) {
			strain[p] /= (float)world->strain_counts[p];
		}
	}
}

void weft_world_update_render_data(weft_world* world) {
	if (world == NULL) {
		return;
	}
	update_normals(world);
	update_strain(world);
}
