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
		float dx = x[4 * c.a] - x[4 * c.b], dy = x[4 * c.a + 1] - x[4 * c.b + 1], dz = x[4 * c.a + 2] - x[4 * c.b + 2];
		float e = fabsf(sqrtf(dx * dx + dy * dy + dz * dz) - c.rest_length) / c.rest_length;
		if (isnan(e)) {
			return e; // a NaN is the truth about the whole cloth; no later constraint may hide it
		}
		worst = e > worst ? e : worst;
	}
	return worst;
}

// True if no float of the array is NaN or infinite: its exponent bits are not all ones. Integer
// tests with no early exit, so the loop vectorises (the check at the end of every step is this pass).
static bool all_finite(const float* values, size_t count) {
	uint32_t bad = 0;
	for (size_t k = 0; k < count; ++k) {
		uint32_t bits;
		memcpy(&bits, &values[k], sizeof bits);
		bad |= (uint32_t)((~bits & 0x7f800000u) == 0u);
	}
	return bad == 0;
}

bool weft_finite_range(const weft_world* world, int32_t begin, int32_t end) {
	const size_t first = 4 * (size_t)begin, count = 4 * (size_t)(end - begin);
	return all_finite(&world->positions[first], count) && all_finite(&world->velocities[first], count);
}

// The first particle of array (float4 per particle) with a non-finite component, or -1.
static int32_t first_non_finite(const float* array, int32_t particle_count) {
	if (all_finite(array, 4 * (size_t)particle_count)) {
		return -1;
	}
	for (int32_t p = 0; p < particle_count; ++p) {
		if (!all_finite(&array[4 * p], 4)) {
			return p;
		}
	}
	return -1;
}

bool weft_world_is_finite(const weft_world* world) {
	if (world == NULL) {
		return false;
	}
	return first_non_finite(world->positions, world->particle_count) < 0 &&
	       first_non_finite(world->velocities, world->particle_count) < 0;
}

weft_result weft_check_finite(const weft_world* world) {
	const float* arrays[2] = {world->positions, world->velocities};
	const char* const names[2] = {"positions", "velocities"};
	for (int a = 0; a < 2; ++a) {
		int32_t p = first_non_finite(arrays[a], world->particle_count);
		if (p >= 0) {
			const float* v = &arrays[a][4 * p];
			return weft_fail(WEFT_ERROR_NON_FINITE,
			                 "the world is not finite: %s of particle %d (column %d, row %d) are (%g, %g, %g, %g) "
			                 "at frame %lld; reset it or write finite values back",
			                 names[a], (int)p, (int)(p % world->width), (int)(p / world->width), (double)v[0],
			                 (double)v[1], (double)v[2], (double)v[3], (long long)world->frame);
		}
	}
	return WEFT_OK;
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
