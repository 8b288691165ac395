// The self-collision response (self_collision.c) on hand-placed particles, its stages run one by
// one: particle A touches B (depth b along x) and C (depth c along y), every other particle is
// metres away. A's move is the sum of its pushes over their worth in pushes (sizes / the largest):
// the mean of equal pushes, the whole push of a lone contact, and no jump when a contact opens
// (a plain mean halves the remaining push while a vanishing one still counts). Under gravity the
// upper particle of a vertical pair takes 3/4 of its push (stacking).
#include <math.h>

#include "self_collision.h"
#include "solver.h"
#include "test.h"
#include "weft/weft.h"
#include "world_internal.h"

enum { GRID = 16, A = 2 * GRID + 2, B = 2 * GRID + 12, C = 12 * GRID + 2 };

typedef struct moved {
	float x, y, z;
	float thickness;
	float b, c; // B's x and C's y after the pass (each pushed by A)
} moved;

// Stage over the particles [0, n) cut into `slices` slices, as that many threads run it.
static void sliced(void (*stage)(weft_world*, int32_t, int32_t), weft_world* world, int32_t n, int32_t slices) {
	for (int32_t k = 0; k < slices; ++k) stage(world, n * k / slices, n * (k + 1) / slices);
}

// A's move in one pass of the stages, depths in thicknesses (≤ 0: that contact is open); the lists
// built by list_slices threads (each its region), the response run in response_slices slices.
// slip: how far A moved along z over the substep (thicknesses; B and C did not move). gravity:
// the default (down y; C is above A), else none (even shares).
static moved push_sliced(int32_t simd_width, float depth_b, float depth_c, int32_t list_slices, int32_t response_slices,
                         float slip, bool gravity) {
	weft_world_def def = weft_default_world_def();
	def.self_collision = true;
	if (!gravity) def.gravity = (weft_vec3){0.0f, 0.0f, 0.0f};
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = GRID;
	cloth.pin = WEFT_PIN_NONE;
	weft_world* world = NULL;
	moved out = {NAN, NAN, NAN, NAN, NAN, NAN};
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	if (world == NULL) return out;
	const float t = world->thickness;
	float* x = world->positions;
	for (int32_t p = 0; p < world->particle_count; ++p) {
		x[4 * p] = 10.0f + (float)p;
		x[4 * p + 1] = x[4 * p + 2] = 0.0f;
	}
	x[4 * A] = x[4 * A + 1] = x[4 * A + 2] = 0.0f;
	x[4 * B] = t * (1.0f - depth_b);
	x[4 * C] = 0.0f;
	x[4 * C + 1] = t * (1.0f - depth_c);
	memcpy(world->previous_positions, x, 4 * sizeof(float) * (size_t)world->particle_count); // no slip
	world->previous_positions[4 * A + 2] = -slip * t;
	world->simd_width = simd_width;
	const int32_t n = world->particle_count;
	weft_self_collision_bounds(world, 0, weft_self_collision_patch_count(world));
	weft_self_collision_decide(world);
	weft_self_collision_keys(world, 0, n);
	for (int32_t thread = 0; thread < list_slices; ++thread) {
		weft_self_collision_sort(world, thread, list_slices); // as that many threads run it
	}
	for (int32_t thread = 0; thread < list_slices; ++thread) {
		weft_self_collision_lists(world, thread, list_slices); // as that many threads run it
	}
	sliced(weft_self_collision_contacts, world, n, response_slices);
	sliced(weft_self_collision_apply, world, n, response_slices);
	out = (moved){x[4 * A], x[4 * A + 1], x[4 * A + 2], t, x[4 * B], x[4 * C + 1]};
	weft_world_destroy(world);
	return out;
}

static moved push_of(int32_t simd_width, float depth_b, float depth_c) {
	return push_sliced(simd_width, depth_b, depth_c, 1, 1, 0.0f, false);
}

// A's move along z (thicknesses) from its lone contact with B (depth 0.1) while it slips along z.
static float friction_of(int32_t simd_width, float slip) {
	const moved m = push_sliced(simd_width, 0.1f, -0.1f, 1, 1, slip, false);
	return m.z / m.thickness;
}

TEST(static_friction_between_layers) {
	// Friction 0.4, depth 0.1: a slip of at most 0.04 stops (A takes its half, equal masses); a
	// larger one loses friction × A's half of it. Every path alike.
	const int32_t widths[] = {0, 4, 8};
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; ++k) {
		if (widths[k] > weft_simd_width()) continue;
		CHECK_NEAR(friction_of(widths[k], 0.03f), -0.5 * 0.03, 1e-6);
		CHECK_NEAR(friction_of(widths[k], 0.1f), -0.4 * 0.5 * 0.1, 1e-6);
	}
}

static void check_pushes(int32_t simd_width) {
	// Equal depths: the mean of the two pushes (each half the depth: equal masses).
	moved m = push_of(simd_width, 0.1f, 0.1f);
	CHECK_NEAR(m.x / m.thickness, -0.025, 1e-6);
	CHECK_NEAR(m.y / m.thickness, -0.025, 1e-6);
	CHECK(m.z == 0.0f);
	// A lone contact: its whole push.
	m = push_of(simd_width, 0.1f, -0.1f);
	CHECK_NEAR(m.x / m.thickness, -0.05, 1e-6);
	CHECK(m.y == 0.0f);
	// A contact about to open (depth 1e-5) takes almost nothing from the other: A moves as with
	// the lone contact (a plain mean: -0.025, half).
	m = push_of(simd_width, 0.1f, 1e-5f);
	CHECK_NEAR(m.x / m.thickness, -0.05, 1e-5);
	CHECK(fabsf(m.y / m.thickness) < 1e-5);
	// In between where the depths differ, and no more than the largest push (no friction here).
	m = push_of(simd_width, 0.1f, 0.05f);
	CHECK(m.x / m.thickness < -0.025 && m.x / m.thickness > -0.05);
	CHECK(hypotf(m.x, m.y) <= 0.05f * m.thickness);
}

TEST(pushes_scalar) { check_pushes(0); }

// Under gravity, A under C (a vertical pair, depth 0.1) moves 1/4 of the depth down and C 3/4 up
// (inverse masses × 1 ∓ 0.5); the horizontal pair A–B still halves its depth. Every path alike.
TEST(upper_layer_takes_more) {
	const int32_t widths[] = {0, 4, 8};
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; ++k) {
		if (widths[k] > weft_simd_width()) continue;
		moved m = push_sliced(widths[k], -0.1f, 0.1f, 1, 1, 0.0f, true);
		CHECK_NEAR(m.y / m.thickness, -0.025, 1e-6);
		CHECK_NEAR(m.c / m.thickness, 0.9 + 0.075, 1e-6);
		m = push_sliced(widths[k], 0.1f, -0.1f, 1, 1, 0.0f, true);
		CHECK_NEAR(m.x / m.thickness, -0.05, 1e-6);
		CHECK_NEAR(m.b / m.thickness, 0.9 + 0.05, 1e-6);
	}
}

TEST(pushes_simd_same_bits) {
	const int32_t width = weft_simd_width();
	const float depths[][2] = {{0.1f, 0.1f}, {0.1f, 1e-5f}, {0.1f, 0.05f}, {0.3f, 0.02f}};
	for (size_t k = 0; k < sizeof depths / sizeof depths[0]; ++k) {
		for (int gravity = 0; gravity <= 1; ++gravity) {
			const moved scalar = push_sliced(0, depths[k][0], depths[k][1], 1, 1, 0.0f, gravity);
			const moved simd = push_sliced(width, depths[k][0], depths[k][1], 1, 1, 0.0f, gravity);
			CHECK(memcmp(&scalar, &simd, sizeof scalar) == 0);
		}
	}
	if (width > 0) check_pushes(width);
}

// The response visits only the particles with a non-empty list when its slices are the lists'
// (as threads run them), and every particle when they are not: the same bits either way.
TEST(pushes_any_slices) {
	const int32_t slices[][2] = {{2, 2}, {3, 3}, {2, 1}, {1, 3}, {3, 2}};
	const moved whole = push_of(0, 0.1f, 0.05f);
	CHECK(whole.x != 0.0f && whole.y != 0.0f);
	for (size_t k = 0; k < sizeof slices / sizeof slices[0]; ++k) {
		const moved m = push_sliced(0, 0.1f, 0.05f, slices[k][0], slices[k][1], 0.0f, false);
		CHECK(memcmp(&whole, &m, sizeof m) == 0);
	}
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(pushes_scalar);
	RUN_TEST(upper_layer_takes_more);
	RUN_TEST(pushes_simd_same_bits);
	RUN_TEST(pushes_any_slices);
	RUN_TEST(static_friction_between_layers);
	return TEST_SUMMARY();
}
