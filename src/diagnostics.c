// Whole-state measurements: stretch, finiteness and the determinism hash.
#include <math.h>
#include <string.h>

#include "world_internal.h"

float weft_world_max_stretch(const weft_world* world) {
	if (world == NULL) {
		return 0.0f;
	}
	float worst = 0.0f;
	const float* x = world->positions;
	for (int32_t k = 0; k < world->constraint_count; ++k) {
		if (world->types[k] != WEFT_STRETCH) {
			continue;
		}
		const weft_constraint c = world->constraints[k];
		float dx = x[4 * c.a] - x[4 * c.b], dy = x[4 * c.a + 1] - x[4 * c.b + 1],
		      dz = x[4 * c.a + 2] - x[4 * c.b + 2];
		float e = fabsf(sqrtf(dx * dx + dy * dy + dz * dz) - c.rest_length) / c.rest_length;
		if (!(e <= worst)) { // also catches NaN
			worst = e;
		}
	}
	return worst;
}

bool weft_world_is_finite(const weft_world* world) {
	if (world == NULL) {
		return false;
	}
	for (int64_t k = 0; k < 4 * (int64_t)world->particle_count; ++k) {
		if (!isfinite(world->positions[k]) || !isfinite(world->velocities[k])) {
			return false;
		}
	}
	return true;
}

static uint64_t fnv1a(uint64_t hash, const void* data, size_t size) {
	const unsigned char* bytes = data;
	for (size_t k = 0; k < size; ++k) {
		hash ^= bytes[k];
		hash *= 1099511628211ull;
	}
	return hash;
}

uint64_t weft_world_state_hash(const weft_world* world) {
	uint64_t hash = 14695981039346656037ull;
	if (world == NULL) {
		return hash;
	}
	size_t bytes = (size_t)world->particle_count * 4 * sizeof(float);
	hash = fnv1a(hash, world->positions, bytes);
	return fnv1a(hash, world->velocities, bytes);
}
