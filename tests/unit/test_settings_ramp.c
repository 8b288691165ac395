// Substeps and iterations raised on a world that has stepped are worked up to (WEFT_SETTINGS_RAMP a
// frame, frame_substeps.c): a cloth left stretched by 1 substep (draped on the stopped sphere) is
// not thrown up when it gets 40 (at once: 30 m/s, the speed clamp, and its top from 1.2 m to 8.7 m
// at 24² over the next second; worked up to, 12 m/s and 1.6 m). Lowered
// ones, and any set before the first frame, take effect at once.
#include <math.h>

#include "test.h"
#include "weft/weft.h"

// `sphere` at grid², the sphere stopped, `frames` frames at 1 substep and 1 iteration.
static weft_world* draped_at_one_substep(int32_t grid, int32_t frames) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", grid, &world) == WEFT_OK);
	if (world == NULL) return NULL;
	CHECK(weft_world_set_sphere_moving(world, (weft_sphere_id){0}, false) == WEFT_OK);
	weft_world_def def = weft_world_get_def(world);
	def.substeps = 1;
	def.iterations = 1;
	CHECK(weft_world_set_def(world, &def) == WEFT_OK);
	for (int32_t f = 0; f < frames; ++f) CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	return world;
}

static void set_counts(weft_world* world, int32_t substeps, int32_t iterations) {
	weft_world_def def = weft_world_get_def(world);
	def.substeps = substeps;
	def.iterations = iterations;
	CHECK(weft_world_set_def(world, &def) == WEFT_OK);
}

// The fastest particle (m/s) and the highest (m) now.
static void fastest_and_highest(weft_world* world, float* fastest, float* highest) {
	const float* x = weft_world_positions(world);
	const float* v = weft_world_velocities(world);
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
		*fastest =
		    fmaxf(*fastest, sqrtf(v[4 * p] * v[4 * p] + v[4 * p + 1] * v[4 * p + 1] + v[4 * p + 2] * v[4 * p + 2]));
		*highest = fmaxf(*highest, x[4 * p + 1]);
	}
}

TEST(raised_substeps_are_worked_up_to) {
	weft_world* world = draped_at_one_substep(24, 150);
	if (world == NULL) return;
	const float stretched = weft_world_max_stretch(world);
	set_counts(world, 40, 1);
	CHECK(weft_world_frame_substeps(world) == 1); // the last frame's, until the next
	// ceil(1.15 × the last frame's) until 40 (the sphere scene's max_substeps, 32, is below the
	// substeps asked for: no adaptive substeps on top).
	const int32_t expected[] = {2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 18, 21, 25, 29, 34, 40, 40};
	float fastest = 0.0f, highest = 0.0f;
	bool ramped = true;
	for (int32_t f = 0; f < 60; ++f) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		const int32_t want = f < (int32_t)(sizeof expected / sizeof expected[0]) ? expected[f] : 40;
		ramped &= weft_world_frame_substeps(world) == want;
		fastest_and_highest(world, &fastest, &highest);
	}
	printf("sphere 24², 1 substep (max stretch %.3f), then 40 worked up to: fastest %.2f m/s, highest %.2f m\n",
	       (double)stretched, (double)fastest, (double)highest);
	CHECK(ramped);
	CHECK(stretched > 0.2f); // there was stretch to let go of
	CHECK(highest < 2.0f);   // at once: 8.7 m (the cloth starts at 1.2 m)
	CHECK(fastest < 20.0f);  // at once: 30 m/s, the speed clamp
	CHECK(weft_world_is_finite(world));
	// Lowered: at once.
	set_counts(world, 10, 1);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_frame_substeps(world) == 10);
	weft_world_destroy(world);
}

TEST(raised_iterations_are_worked_up_to) {
	weft_world* world = draped_at_one_substep(16, 60);
	if (world == NULL) return;
	set_counts(world, 1, 20);
	const int32_t expected[] = {2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 18, 20, 20};
	bool ramped = true;
	for (int32_t f = 0; f < (int32_t)(sizeof expected / sizeof expected[0]); ++f) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		ramped &= weft_world_frame_iterations(world) == expected[f];
	}
	CHECK(ramped);
	set_counts(world, 1, 3);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_frame_iterations(world) == 3);
	weft_world_destroy(world);
}

// Set before the first frame (a scene's own settings, the CLI's --substeps), or after a reset: from
// rest there is nothing to work up to.
TEST(from_rest_at_once) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", 16, &world) == WEFT_OK);
	if (world == NULL) return;
	set_counts(world, 40, 4);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_frame_substeps(world) == 40 && weft_world_frame_iterations(world) == 4);
	set_counts(world, 1, 1);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	weft_world_reset(world);
	set_counts(world, 40, 4);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_frame_substeps(world) == 40 && weft_world_frame_iterations(world) == 4);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(raised_substeps_are_worked_up_to);
	RUN_TEST(raised_iterations_are_worked_up_to);
	RUN_TEST(from_rest_at_once);
	return TEST_SUMMARY();
}
