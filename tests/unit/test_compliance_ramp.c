// A lower (stiffer) compliance set on a world that has stepped is worked down to, WEFT_COMPLIANCE_RAMP
// a frame (compliance_ramp.c): a cloth draped soft (0.1 m/N) on the stopped sphere is not thrown
// when made stiff (at once: 12.0 m/s and its top from 1.2 m to 1.62 m at 24² over the next second;
// worked down to, 7.5 m/s and 1.2 m). Higher ones, and any set from rest, take effect at once.
#include <math.h>

#include "test.h"
#include "weft/weft.h"

static const float STIFF[3] = {1e-8f, 1e-7f, 1e-5f}; // the scenes' stretch, shear and bend

// `sphere` at grid², the sphere stopped, `frames` frames with every type at `soft` m/N.
static weft_world* draped_soft(int32_t grid, float soft, int32_t frames) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", grid, &world) == WEFT_OK);
	if (world == NULL) return NULL;
	CHECK(weft_world_set_sphere_moving(world, (weft_sphere_id){0}, false) == WEFT_OK);
	for (int type = WEFT_STRETCH; type <= WEFT_BEND; ++type) {
		CHECK(weft_world_set_compliance(world, (weft_constraint_type)type, soft) == WEFT_OK);
		CHECK(weft_world_compliance_now(world, (weft_constraint_type)type) == soft); // from rest: at once
	}
	for (int32_t f = 0; f < frames; ++f) CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	return world;
}

// The compliance of every constraint of a type, as the solvers read it, is `compliance`.
static bool constraints_at(const weft_world* world, weft_constraint_type type, float compliance) {
	const weft_constraints_view view = weft_world_constraints(world);
	bool all = true;
	for (int32_t k = 0; k < view.count; ++k) {
		all &= view.types[k] != (uint8_t)type || view.constraints[k].compliance == compliance;
	}
	return all;
}

static void set_stiff(weft_world* world) {
	for (int type = WEFT_STRETCH; type <= WEFT_BEND; ++type) {
		CHECK(weft_world_set_compliance(world, (weft_constraint_type)type, STIFF[type]) == WEFT_OK);
	}
}

TEST(stiffer_is_worked_down_to) {
	weft_world* world = draped_soft(24, 0.1f, 200);
	if (world == NULL) return;
	const float stretched = weft_world_max_stretch(world);
	set_stiff(world);
	CHECK(weft_world_compliance(world, WEFT_STRETCH) == STIFF[0]); // the setting
	CHECK(weft_world_compliance_now(world, WEFT_STRETCH) == 0.1f); // not yet in the constraints
	float fastest = 0.0f, highest = 0.0f, expected = 0.1f;
	bool ramped = true;
	int32_t frames_to_stiff = -1;
	for (int32_t f = 0; f < 60; ++f) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		expected = fmaxf(expected / WEFT_COMPLIANCE_RAMP, STIFF[0]);
		const float now = weft_world_compliance_now(world, WEFT_STRETCH);
		ramped &= now == expected && constraints_at(world, WEFT_STRETCH, now);
		if (frames_to_stiff < 0 && now == STIFF[0]) frames_to_stiff = f + 1;
		const float* x = weft_world_positions(world);
		const float* v = weft_world_velocities(world);
		for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
			fastest =
			    fmaxf(fastest, sqrtf(v[4 * p] * v[4 * p] + v[4 * p + 1] * v[4 * p + 1] + v[4 * p + 2] * v[4 * p + 2]));
			highest = fmaxf(highest, x[4 * p + 1]);
		}
	}
	printf("sphere 24², draped at 0.1 m/N (max stretch %.3f), then stiff in %d frames: fastest %.2f m/s, highest "
	       "%.2f m, max stretch %.3f\n",
	       (double)stretched, frames_to_stiff, (double)fastest, (double)highest, (double)weft_world_max_stretch(world));
	CHECK(ramped);
	CHECK(frames_to_stiff == 40); // 0.1 / 1.5^40 < 1e-8
	CHECK(constraints_at(world, WEFT_SHEAR, STIFF[1]) && constraints_at(world, WEFT_BEND, STIFF[2]));
	CHECK(stretched > 0.1f); // there was stretch to let go of
	CHECK(highest < 1.3f);   // at once: 1.62 m (the cloth starts at 1.2 m)
	CHECK(fastest < 9.0f);   // at once: 12.0 m/s
	CHECK(weft_world_max_stretch(world) < 0.1f);
	// Softer: at once.
	CHECK(weft_world_set_compliance(world, WEFT_BEND, 1e-3f) == WEFT_OK);
	CHECK(weft_world_compliance_now(world, WEFT_BEND) == 1e-3f && constraints_at(world, WEFT_BEND, 1e-3f));
	CHECK(!weft_world_advance_compliance_ramp(world)); // nothing left to work down to
	weft_world_destroy(world);
}

// Worked down to a compliance of 0 (as stiff as the solve makes it): division never gets there, so
// the ramp goes to it once the compliance is negligible. The caller may also choose.
TEST(to_zero_and_the_callers_choice) {
	weft_world* world = draped_soft(16, 1.0f, 30);
	if (world == NULL) return;
	CHECK(weft_world_set_compliance(world, WEFT_STRETCH, 0.0f) == WEFT_OK);
	int32_t frames = 0;
	while (weft_world_advance_compliance_ramp(world) && frames < 1000) ++frames;
	CHECK(weft_world_compliance_now(world, WEFT_STRETCH) == 0.0f && constraints_at(world, WEFT_STRETCH, 0.0f));
	CHECK(frames > 60 && frames < 80); // 1 → 1e-12 by 1.5 a frame: 69
	// At once, asked for (a world that has stepped).
	CHECK(weft_world_set_compliance_gradually(world, WEFT_SHEAR, 1e-9f, false) == WEFT_OK);
	CHECK(weft_world_compliance_now(world, WEFT_SHEAR) == 1e-9f);
	// Gradually, asked for (a world at rest: the GPU solver's cloth has stepped, the core's not).
	weft_world_reset(world);
	CHECK(weft_world_set_compliance_gradually(world, WEFT_SHEAR, 1e-10f, true) == WEFT_OK);
	CHECK(weft_world_compliance_now(world, WEFT_SHEAR) == 1e-9f);
	CHECK(weft_world_advance_compliance_ramp(world));
	CHECK(weft_world_compliance_now(world, WEFT_SHEAR) == 1e-9f / WEFT_COMPLIANCE_RAMP);
	CHECK(weft_world_set_compliance_gradually(world, WEFT_SHEAR, -1.0f, true) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_compliance_gradually(world, (weft_constraint_type)3, 1.0f, true) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_compliance(NULL, WEFT_SHEAR) == -1.0f &&
	      weft_world_compliance_now(world, (weft_constraint_type)-1) == -1.0f);
	CHECK(!weft_world_advance_compliance_ramp(NULL));
	weft_world_destroy(world);
}

// From rest (before the first frame, after a reset) a stiffer setting takes effect at once, and a
// reset puts every type at its setting.
TEST(from_rest_at_once) {
	weft_world* world = draped_soft(16, 0.1f, 10);
	if (world == NULL) return;
	set_stiff(world);
	CHECK(weft_world_compliance_now(world, WEFT_STRETCH) == 0.1f);
	weft_world_reset(world);
	for (int type = WEFT_STRETCH; type <= WEFT_BEND; ++type) {
		CHECK(weft_world_compliance_now(world, (weft_constraint_type)type) == STIFF[type]);
		CHECK(constraints_at(world, (weft_constraint_type)type, STIFF[type]));
	}
	CHECK(weft_world_set_compliance(world, WEFT_STRETCH, 0.5f) == WEFT_OK);
	CHECK(weft_world_set_compliance(world, WEFT_STRETCH, 1e-9f) == WEFT_OK);
	CHECK(weft_world_compliance_now(world, WEFT_STRETCH) == 1e-9f);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(stiffer_is_worked_down_to);
	RUN_TEST(to_zero_and_the_callers_choice);
	RUN_TEST(from_rest_at_once);
	return TEST_SUMMARY();
}
