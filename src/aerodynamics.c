// Aerodynamics: drag and lift on every cloth triangle from the air's velocity relative to it.
//
// For a triangle of area A, unit normal n and velocity v (the mean of its corners'), in a wind w:
// d = w − v, cos θ = n·d/|d| and, with the dynamic pressure q = ½ ρ |d|²,
//   drag = q A C_d |cos θ| d/|d|          (along the relative wind)
//   lift = q A C_l cos θ (n − cos θ d/|d|)  (across it, in the plane of d and n; |·| = sin θ)
// Both are two-sided (flipping n changes nothing) and use the velocity, not the displacement of a
// substep, so they do not depend on the time step. Each corner takes a third of the force, times
// its inverse mass, as an acceleration. A stage computes the force of every triangle (triangles are
// the slices), and integrate gathers the six triangles around each particle: no two writers.
//
// Gusts: the wind's speed and direction vary in time by a deterministic turbulence, the sum of three
// sines per axis with frequencies and phases drawn from the seed (0.1–1.5 Hz), scaled by
// gust_strength × |wind|; uniform in space (a gust is metres wide, a cloth is not).
#include <math.h>
#include <string.h>

#include "aerodynamics.h"
#include "vec3.h"

// Below this relative air speed (m/s) the air does nothing.
#define MIN_AIR_SPEED 1e-6f
#define GUST_WAVES 3

weft_result weft_aero_prepare(weft_world* world) {
	if (world->triangle_forces != NULL) {
		return WEFT_OK;
	}
	const size_t triangles = (size_t)world->index_count / 3;
	world->triangle_forces = weft_alloc(&world->allocator, (triangles > 0 ? triangles : 1) * 4 * sizeof(float));
	if (world->triangle_forces == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the air forces of %zu triangles", triangles);
	}
	memset(world->triangle_forces, 0, (triangles > 0 ? triangles : 1) * 4 * sizeof(float));
	return WEFT_OK;
}

bool weft_aero_active(const weft_world_def* def) {
	return def->air_density > 0.0f && (def->drag > 0.0f || def->lift > 0.0f);
}

// A number in [0, 1) from the seed and a counter (a 32-bit integer hash: the same everywhere).
static float seeded(uint32_t seed, uint32_t k) {
	uint32_t h = seed * 0x9e3779b9u + k * 0x85ebca6bu;
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return (float)(h >> 8) * (1.0f / 16777216.0f);
}

weft_vec3 weft_aero_wind(const weft_world_def* def, double time) {
	weft_vec3 wind = def->wind;
	if (def->gust_strength <= 0.0f) {
		return wind;
	}
	const float speed = weft_length(wind);
	const float two_pi = 6.28318530717959f;
	float gust[3] = {0.0f, 0.0f, 0.0f};
	for (int axis = 0; axis < 3; ++axis) {
		for (int k = 0; k < GUST_WAVES; ++k) {
			const uint32_t n = (uint32_t)(axis * GUST_WAVES + k);
			const float frequency = 0.1f + 1.4f * seeded(def->gust_seed, 2 * n); // Hz
			const float phase = two_pi * seeded(def->gust_seed, 2 * n + 1);
			// Reduce the time to one period first, so a long run keeps its precision.
			const double period = 1.0 / (double)frequency;
			const float t = (float)(time - period * floor(time / period));
			gust[axis] += weft_sin(two_pi * frequency * t + phase) / (float)GUST_WAVES;
		}
	}
	const float scale = def->gust_strength * speed;
	wind.x += scale * gust[0];
	wind.y += 0.3f * scale * gust[1]; // vertical gusts are weaker near the ground
	wind.z += scale * gust[2];
	return wind;
}

void weft_phase_aero_forces(weft_world* world, int32_t begin, int32_t end) {
	const weft_world_def* def = &world->def;
	const float* x = world->positions;
	const float* v = world->velocities;
	const uint32_t* index = world->indices;
	const weft_vec3 wind = world->air_wind;
	const float half_density = 0.5f * def->air_density;
	float* out = world->triangle_forces;
	for (int32_t t = begin; t < end; ++t) {
		const uint32_t a = index[3 * t], b = index[3 * t + 1], c = index[3 * t + 2];
		const weft_vec3 xa = weft_load3(&x[4 * a]);
		const weft_vec3 cross = weft_cross(weft_sub(weft_load3(&x[4 * b]), xa), weft_sub(weft_load3(&x[4 * c]), xa));
		const float twice_area = weft_length(cross);
		const weft_vec3 velocity = weft_scale(
		    weft_add(weft_add(weft_load3(&v[4 * a]), weft_load3(&v[4 * b])), weft_load3(&v[4 * c])), 1.0f / 3.0f);
		const weft_vec3 d = weft_sub(wind, velocity);
		const float speed = weft_length(d);
		float* f = &out[4 * t];
		// Degenerate or overflowing triangles (a cloth flung beyond float range) feel no air.
		if (!(twice_area > 0.0f && twice_area < INFINITY) || !(speed > MIN_AIR_SPEED && speed < INFINITY)) {
			f[0] = f[1] = f[2] = f[3] = 0.0f;
			continue;
		}
		const weft_vec3 n = weft_scale(cross, 1.0f / twice_area);
		const weft_vec3 direction = weft_scale(d, 1.0f / speed);
		const float cosine = weft_dot(n, direction);
		const float pressure_area = half_density * speed * speed * (0.5f * twice_area); // q A
		const weft_vec3 drag = weft_scale(direction, pressure_area * def->drag * fabsf(cosine));
		const weft_vec3 lift =
		    weft_scale(weft_sub(n, weft_scale(direction, cosine)), pressure_area * def->lift * cosine);
		weft_store3(f, weft_scale(weft_add(drag, lift), 1.0f / 3.0f)); // a third to each corner
		f[3] = speed;
	}
}

weft_vec3 weft_aero_acceleration(const weft_world* world, int32_t p) {
	// The grid's triangles around particle (i, j): quad q = j (w−1) + i holds triangles 2q
	// (p00, p01, p10) and 2q + 1 (p10, p01, p11).
	const int32_t w = world->width, h = world->height, i = p % w, j = p / w;
	const float* f = world->triangle_forces;
	weft_vec3 force = {0.0f, 0.0f, 0.0f};
	const int32_t quads = w - 1;
#define ADD(tri) force = weft_add(force, weft_load3(&f[4 * (tri)]))
	if (i + 1 < w && j + 1 < h) ADD(2 * (j * quads + i)); // p00 of its quad
	if (i > 0 && j + 1 < h) {                             // p10 of the quad on its left
		ADD(2 * (j * quads + i - 1));
		ADD(2 * (j * quads + i - 1) + 1);
	}
	if (i + 1 < w && j > 0) { // p01 of the quad above
		ADD(2 * ((j - 1) * quads + i));
		ADD(2 * ((j - 1) * quads + i) + 1);
	}
	if (i > 0 && j > 0) ADD(2 * ((j - 1) * quads + i - 1) + 1); // p11 of the quad above-left
#undef ADD
	return weft_scale(force, world->positions[4 * p + 3]);
}

bool weft_world_air_active(const weft_world* world) { return world != NULL && weft_aero_active(&world->def); }

weft_vec3 weft_world_air_wind(const weft_world* world, double time) {
	return world != NULL ? weft_aero_wind(&world->def, time) : (weft_vec3){0.0f, 0.0f, 0.0f};
}

weft_result weft_world_air_forces(weft_world* world, double time, float* out, int32_t capacity) {
	if (world == NULL || out == NULL || !weft_aero_active(&world->def) || world->triangle_forces == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_air_forces: no air in this world");
	}
	const int32_t triangles = world->index_count / 3;
	if (capacity < 4 * triangles) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_air_forces: %d floats for %d triangles", capacity,
		                 triangles);
	}
	// The scratch forces and the substep's wind are both recomputed before the next integrate reads them.
	world->air_wind = weft_aero_wind(&world->def, time);
	weft_phase_aero_forces(world, 0, triangles);
	memcpy(out, world->triangle_forces, (size_t)triangles * 4 * sizeof(float));
	return WEFT_OK;
}
