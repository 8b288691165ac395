// Self-collision (self_collision.c): a folding cloth keeps its thickness between layers, a corner
// dragged over a lying cloth does not pass through it, free motion is unchanged, and every path
// (threads, SIMD) gives the same bits. The oracles (cloth_contacts.h) do not use the solver's hash.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cloth_contacts.h"
#include "test.h"
#include "weft/weft.h"

// The fold scene; thickness in grid spacings (0: the default, one spacing).
static weft_world* fold_world_thick(int32_t grid, bool self_collision, int32_t threads, float thickness) {
	weft_scene_def scene;
	weft_world* world = NULL;
	CHECK(weft_scene("fold", grid, &scene) == WEFT_OK);
	CHECK(scene.world.self_collision); // on in the fold scene
	scene.world.self_collision = self_collision;
	scene.world.thread_count = threads;
	scene.cloth.thickness = thickness / (float)(grid - 1); // the scene's cloth is 1 m square
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	return world;
}

static weft_world* fold_world(int32_t grid, bool self_collision, int32_t threads) {
	return fold_world_thick(grid, self_collision, threads, 0.0f);
}

static void step(weft_world* world, int32_t frames) {
	for (int32_t f = 0; f < frames; ++f) weft_world_step(world, 1.0f / 60.0f);
}

// The settled fold: layers stay a thickness apart, no two triangles cross, and at least a third of
// the cloth lies on top of other cloth. thickness: in grid spacings, 0 for the default (one).
static void check_settled_fold(int32_t grid, float thickness) {
	weft_world* world = fold_world_thick(grid, true, 1, thickness);
	step(world, 300);
	const weft_self_collision_view view = weft_world_self_collision(world);
	CHECK(view.enabled);
	CHECK_NEAR(view.thickness, (thickness > 0.0f ? thickness : 1.0) / (grid - 1), 1e-6); // default: the spacing
	// The widest lists (the GPU's): 2 thicknesses, or up to the rest distance (two spacings) where
	// that is nearer, never below the least reach.
	CHECK_NEAR(view.largest_reach, fmax(view.reach, fmin(2.0 * view.thickness, view.rest_distance)), 1e-6);
	CHECK(thickness > 1.0f ? view.largest_reach < 1.9f * view.thickness : view.largest_reach > 1.99f * view.thickness);
	const double closest = closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * view.thickness);
	CHECK(closest >= 0.5 * view.thickness);
	CHECK(intersecting_triangle_pairs(world, 3.0 * view.thickness) == 0);
	CHECK(layered_fraction(world, 2.5 * view.thickness) >= 1.0 / 3.0);
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
	// Without self-collision the same fold passes through itself (so the checks above can fail).
	world = fold_world_thick(grid, false, 1, thickness);
	step(world, 300);
	CHECK(closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * view.thickness) < 0.5 * view.thickness);
	weft_world_destroy(world);
}

TEST(fold_40) { check_settled_fold(40, 0.0f); }
TEST(fold_64) { check_settled_fold(64, 0.0f); }
// Coarse steps (3 substeps a frame: a layer lands up to about a thickness deep in one): the pile
// stays apart under its own weight (the upper particle of a vertical pair takes more of its push;
// with even shares this pile ends with 4 600 pairs of triangles through each other).
TEST(fold_64_coarse_steps) {
	weft_scene_def scene;
	CHECK(weft_scene("fold", 64, &scene) == WEFT_OK);
	scene.world.substeps = 3;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	if (world == NULL) return;
	step(world, 300);
	const weft_self_collision_view view = weft_world_self_collision(world);
	CHECK(closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * view.thickness) >= 0.5 * view.thickness);
	CHECK(intersecting_triangle_pairs(world, 3.0 * view.thickness) == 0);
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
}

// A cloth thicker than its spacing (the thickness that keeps `fold` 256² apart at 10 substeps): its
// lists' skin is capped to stay within the rest-pose limit (self_collision.c, largest_skin).
TEST(fold_40_thick) { check_settled_fold(40, 1.3f); }

// An unpinned horizontal 1 m cloth of grid² particles at height y.
static weft_world* flat_cloth(weft_world_def def, int32_t grid, float y) {
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = grid;
	cloth.origin = (weft_vec3){-0.5f, y, -0.5f};
	cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
	cloth.pin = WEFT_PIN_NONE;
	def.tethers = false;
	weft_world* world = NULL;
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	return world;
}

// A cloth lying on the floor, one corner grabbed, dragged over the middle and let go.
static int64_t drag_corner_across(bool self_collision) {
	weft_world_def def = weft_default_world_def();
	def.self_collision = self_collision;
	weft_world* world = flat_cloth(def, 32, 0.01f);
	step(world, 30);
	const float* x = weft_world_positions(world);
	weft_vec3 start = {x[0], x[1], x[2]};
	CHECK(weft_world_grab(world, 0, start) == WEFT_OK);
	const weft_vec3 end = {0.3f, 0.04f, 0.3f}; // past the middle, low over the cloth
	for (int32_t f = 1; f <= 60; ++f) {
		float s = (float)f / 60.0f;
		weft_vec3 target = {start.x + (end.x - start.x) * s, 0.04f + 0.1f * s * (1.0f - s),
		                    start.z + (end.z - start.z) * s};
		CHECK(weft_world_grab_move(world, target) == WEFT_OK);
		step(world, 1);
	}
	weft_world_release(world);
	step(world, 180);
	CHECK(weft_world_is_finite(world));
	int64_t crossings = intersecting_triangle_pairs(world, 3.0 / 31.0);
	weft_world_destroy(world);
	return crossings;
}

TEST(drag_corner_across) {
	CHECK(drag_corner_across(true) == 0);
	CHECK(drag_corner_across(false) > 0); // the drag does fold the cloth through itself without it
}

// Free fall from 2 m (no ground, no damping): self-collision changes nothing (within 1%).
static double fall(bool self_collision) {
	weft_world_def def = weft_default_world_def();
	def.ground_enabled = false;
	def.damping = 0.0f;
	def.self_collision = self_collision;
	weft_world* world = flat_cloth(def, 24, 2.0f);
	step(world, 30);
	double y = 0.0;
	const float* x = weft_world_positions(world);
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) y += x[4 * p + 1];
	y /= weft_world_particle_count(world);
	weft_world_destroy(world);
	return 2.0 - y;
}

// The settled `fold` 40² pile's largest move over frames 300-600 (m), gravity pulling sideways by
// `tilt` g.
static float settled_move(float tilt) {
	weft_scene_def scene;
	CHECK(weft_scene("fold", 40, &scene) == WEFT_OK);
	scene.world.gravity.x = tilt * 9.81f;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	if (world == NULL) return INFINITY;
	const int32_t n = weft_world_particle_count(world);
	const float* x = weft_world_positions(world);
	step(world, 300);
	float* settled = malloc((size_t)n * 4 * sizeof(float));
	CHECK(settled != NULL);
	if (settled == NULL) return INFINITY;
	memcpy(settled, x, (size_t)n * 4 * sizeof(float));
	step(world, 300);
	float farthest = 0.0f;
	for (int32_t p = 0; p < n; ++p) {
		const float dx = x[4 * p] - settled[4 * p], dy = x[4 * p + 1] - settled[4 * p + 1],
		            dz = x[4 * p + 2] - settled[4 * p + 2];
		farthest = fmaxf(farthest, sqrtf(dx * dx + dy * dy + dz * dz));
	}
	free(settled);
	weft_world_destroy(world);
	return farthest;
}

TEST(settled_fold_stays_put) {
	// Static friction (a substep's slip of at most friction × the contact's push stops): the settled
	// pile stays where it lies. Removing a share of the slip let it creep over the floor: 1549 of
	// its 1600 particles moved more than 1 mm, up to 4.3 cm. Pulled sideways by 0.2 g, the floor
	// holds the bottom layer and the layers' own static friction the rest (without it they slid
	// 6.2 cm).
	const float still = settled_move(0.0f), pulled = settled_move(0.2f);
	printf("fold 40², frames 300-600: the particle that moved most moved %.5f m (%.5f m pulled by 0.2 g)\n",
	       (double)still, (double)pulled);
	CHECK(still < 2e-3f);
	CHECK(pulled < 4e-3f);
}

TEST(free_fall_unchanged) {
	double off = fall(false), on = fall(true);
	CHECK(off > 1.0); // it did fall (½ g t² = 1.23 m in 0.5 s)
	CHECK_NEAR(on, off, 0.01 * off);
}

// Threads and SIMD do not change the bits of a fold (pile, rebuilds and all).
TEST(fold_deterministic) {
#if defined(__wasm__)
	const int32_t max_threads = 1; // no threads in wasm (test_determinism checks they are refused)
#else
	const int32_t max_threads = 3;
#endif
	uint64_t hashes[3];
	for (int32_t threads = 1; threads <= 3; ++threads) {
		if (threads > max_threads) {
			hashes[threads - 1] = hashes[0];
			continue;
		}
		weft_world* world = fold_world(40, true, threads);
		step(world, 150);
		hashes[threads - 1] = weft_world_state_hash(world);
		weft_world_destroy(world);
	}
	CHECK(hashes[0] == hashes[1]);
	CHECK(hashes[0] == hashes[2]);
	// Scalar, and each vector width this build and CPU have (8 and 16: two particles' contacts at once).
	static const int32_t widths[] = {0, 4, 8, 16};
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; ++k) {
		if (weft_set_simd_width(widths[k]) != WEFT_OK) {
			continue;
		}
		weft_world* world = fold_world(40, true, 1);
		step(world, 150);
		CHECK(weft_world_state_hash(world) == hashes[0]);
		weft_world_destroy(world);
	}
	weft_set_simd_width(1);
	weft_world* world;
	// The 150 frames have contacts (the SIMD candidate scan, contacts and patch boxes all ran):
	// without self-collision the state differs.
	world = fold_world(40, false, 1);
	step(world, 150);
	CHECK(weft_world_state_hash(world) != hashes[0]);
	weft_world_destroy(world);
}

// Turned on while running (set_def allocates once), it separates a cloth that was let through.
TEST(switched_on_live) {
	weft_world* world = fold_world(32, false, 1);
	step(world, 300);
	weft_self_collision_view view = weft_world_self_collision(world);
	CHECK(!view.enabled);
	weft_world_def def = weft_world_get_def(world);
	def.self_collision = true;
	CHECK(weft_world_set_def(world, &def) == WEFT_OK);
	CHECK(weft_world_self_collision(world).enabled);
	step(world, 2);
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
}

// Bad settings are refused with a message that names the field.
TEST(thickness_validated) {
	weft_world_def def = weft_default_world_def();
	weft_cloth_def cloth = weft_default_cloth_def();
	weft_world* world = NULL;
	const float bad[] = {-0.01f, 1.0f, 1e30f};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
		cloth.thickness = bad[k];
		CHECK(weft_world_create(&def, &cloth, &world) == WEFT_ERROR_INVALID_ARGUMENT);
		CHECK(world == NULL);
		CHECK(strstr(weft_last_error(), "thickness") != NULL);
	}
	cloth.thickness = 0.02f;
	def.self_collision = true;
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	CHECK_NEAR(weft_world_self_collision(world).thickness, 0.02, 1e-9);
	weft_world_destroy(world);
}

// The fastest particle, m/s.
static float fastest(weft_world* world) {
	const float* v = weft_world_velocities(world);
	float most = 0.0f;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
		most = fmaxf(most, sqrtf(v[4 * p] * v[4 * p] + v[4 * p + 1] * v[4 * p + 1] + v[4 * p + 2] * v[4 * p + 2]));
	}
	return most;
}

// Set live (weft_world_set_thickness): the settled 32² fold made twice as thick spreads its layers
// to the new thickness (it starts closer than that: the pile at one spacing), worked up to ×1.1 a
// frame (WEFT_THICKNESS_RAMP: at once, the pile jumped at 6.0 m/s, its top from 0.13 to 0.29 m), without a NaN
// or a crossing made; thinner, and 0 (the spacing), at once; bad values change nothing.
TEST(thickness_set_live) {
	weft_world* world = fold_world(32, true, 1);
	step(world, 300);
	const float spacing = weft_world_self_collision(world).thickness;
	const float thick = 2.0f * spacing;
	const double rest_limit = 1.01 * weft_world_self_collision(world).rest_distance;
	CHECK(closest_non_neighbours(world, rest_limit, 2.0 * thick) < 0.5 * thick);
	CHECK(weft_world_set_thickness(world, thick) == WEFT_OK);
	CHECK(weft_world_thickness(world) == thick);
	CHECK(weft_world_self_collision(world).thickness == spacing); // not yet in force
	float expected = spacing, most = 0.0f;
	bool ramped = true;
	for (int32_t f = 0; f < 120; ++f) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		expected = fminf(expected * WEFT_THICKNESS_RAMP, thick);
		ramped &= weft_world_self_collision(world).thickness == expected;
		most = fmaxf(most, fastest(world));
	}
	const weft_self_collision_view view = weft_world_self_collision(world);
	CHECK(ramped && view.thickness == thick && view.reach == 1.5f * thick);
	const double closest = closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * thick);
	printf("fold 32², thickness %.4f m set live after 300 frames: closest non-neighbours %.4f m after 120 more, the "
	       "fastest particle %.2f m/s\n",
	       (double)thick, closest, (double)most);
	CHECK(closest >= 0.5 * thick);
	CHECK(most < 3.0f);
	CHECK(intersecting_triangle_pairs(world, 3.0 * thick) == 0);
	CHECK(weft_world_is_finite(world));
	CHECK(weft_world_set_thickness(world, 0.0f) == WEFT_OK);
	CHECK(weft_world_self_collision(world).thickness == spacing && weft_world_thickness(world) == spacing);
	CHECK(!weft_world_advance_thickness_ramp(world));
	const float bad[] = {-0.01f, 1.0f, NAN};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
		CHECK(weft_world_set_thickness(world, bad[k]) == WEFT_ERROR_INVALID_ARGUMENT);
		CHECK(strstr(weft_last_error(), "thickness") != NULL);
	}
	CHECK(weft_world_self_collision(world).thickness == spacing);
	CHECK(weft_world_set_thickness(NULL, 0.01f) == WEFT_ERROR_INVALID_ARGUMENT);
	// At once when asked (the GPU solver's choice), and from rest.
	CHECK(weft_world_set_thickness_gradually(world, thick, false) == WEFT_OK);
	CHECK(weft_world_self_collision(world).thickness == thick);
	weft_world_reset(world);
	CHECK(weft_world_set_thickness(world, 3.0f * spacing) == WEFT_OK);
	CHECK(weft_world_self_collision(world).thickness == 3.0f * spacing);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(fold_40);
	RUN_TEST(fold_64);
	RUN_TEST(fold_40_thick);
	RUN_TEST(fold_64_coarse_steps);
	RUN_TEST(drag_corner_across);
	RUN_TEST(settled_fold_stays_put);
	RUN_TEST(free_fall_unchanged);
	RUN_TEST(fold_deterministic);
	RUN_TEST(switched_on_live);
	RUN_TEST(thickness_validated);
	RUN_TEST(thickness_set_live);
	return TEST_SUMMARY();
}
