// Physics against analytic answers: a rigid constraint reaches its rest length, a hanging mass
// stretches by x = m g α, pinned particles never move, zero gravity keeps a cloth at rest.
#include <string.h>

#include "test.h"
#include "weft/weft.h"

static weft_world* rope(float compliance, weft_pin_mode pin, float gravity, float damping) {
	weft_world_def wd = weft_default_world_def();
	wd.gravity = (weft_vec3){0.0f, gravity, 0.0f};
	wd.ground_enabled = false;
	wd.tethers = false;
	wd.damping = damping;
	weft_cloth_def cd = weft_default_cloth_def();
	cd.width = 1;
	cd.height = 2;
	cd.size_v = 1.0f;
	cd.mass = 1.0f; // 0.5 kg per particle
	cd.stretch_compliance = compliance;
	cd.pin = pin;
	weft_world* world = NULL;
	weft_world_create(&wd, &cd, &world);
	return world;
}

static float length(const float* x) {
	float dx = x[0] - x[4], dy = x[1] - x[5], dz = x[2] - x[6];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

TEST(rigid_constraint) {
	// 1. A rigid constraint stretched by 50% is back at its rest length after one frame.
	weft_world* w = rope(0.0f, WEFT_PIN_NONE, 0.0f, 0.0f);
	CHECK(w != NULL);
	float* x = weft_world_positions(w);
	x[5] -= 0.5f; // particle 1 one half metre further down
	CHECK_NEAR(length(x), 1.5f, 1e-6);
	CHECK(weft_world_step(w, 1.0f / 60.0f) == WEFT_OK);
	CHECK_NEAR(length(x), 1.0f, 1e-5);
	// Momentum is conserved: both particles moved by the same amount.
	CHECK_NEAR(x[1] + x[5], 1.5f + 0.0f, 1e-4); // y = 1.5 and 0.0 before
	weft_world_destroy(w);
}

TEST(compliant_converges) {
	weft_world* w;
	float* x;
	// 2. A compliant constraint converges to rest over frames (no gravity, damped).
	w = rope(1e-4f, WEFT_PIN_NONE, 0.0f, 1.0f);
	x = weft_world_positions(w);
	x[5] -= 0.2f;
	for (int f = 0; f < 300; ++f) weft_world_step(w, 1.0f / 60.0f);
	CHECK_NEAR(length(x), 1.0f, 1e-4);
	weft_world_destroy(w);
}

TEST(hanging_mass) {
	weft_world* w;
	float* x;
	// 3. A hanging mass: m g α extension at rest (XPBD's equilibrium is exact for any substep count).
	const float alpha = 1e-3f, mass = 0.5f, g = 9.81f;
	w = rope(alpha, WEFT_PIN_TOP_CORNERS, -g, 2.0f);
	x = weft_world_positions(w);
	for (int f = 0; f < 900; ++f) weft_world_step(w, 1.0f / 60.0f);
	CHECK_NEAR(length(x), 1.0f + mass * g * alpha, 2e-5);
	CHECK(length(x) > 1.0f + 0.9f * mass * g * alpha);
	weft_world_destroy(w);
}

TEST(pinned_stay) {
	// 4. Pinned particles never move, whatever the cloth does.
	weft_world* hang = NULL;
	CHECK(weft_world_create_scene("hang", 24, &hang) == WEFT_OK);
	const float* rest = weft_world_rest_positions(hang);
	const float* pos = weft_world_positions(hang);
	int32_t n = weft_world_particle_count(hang), pinned = 0;
	for (int f = 0; f < 120; ++f) weft_world_step(hang, 1.0f / 60.0f);
	bool still = true, free_moved = false;
	for (int32_t p = 0; p < n; ++p) {
		if (rest[4 * p + 3] == 0.0f) {
			pinned++;
			still = still && memcmp(&pos[4 * p], &rest[4 * p], 4 * sizeof(float)) == 0;
		} else {
			free_moved = free_moved || pos[4 * p + 1] < rest[4 * p + 1] - 0.1f;
		}
	}
	CHECK(pinned == 2);
	CHECK(still);
	CHECK(free_moved);
	CHECK(weft_world_is_finite(hang));
	weft_world_destroy(hang);
}

TEST(no_gravity_rest) {
	// 5. Without gravity nothing moves: the rest pose satisfies every constraint.
	weft_world_def wd = weft_default_world_def();
	wd.gravity = (weft_vec3){0, 0, 0};
	weft_cloth_def cd = weft_default_cloth_def();
	weft_world* calm = NULL;
	CHECK(weft_world_create(&wd, &cd, &calm) == WEFT_OK);
	for (int f = 0; f < 30; ++f) weft_world_step(calm, 1.0f / 60.0f);
	CHECK(weft_world_max_stretch(calm) < 1e-5f);
	weft_world_destroy(calm);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(rigid_constraint);
	RUN_TEST(compliant_converges);
	RUN_TEST(hanging_mass);
	RUN_TEST(pinned_stay);
	RUN_TEST(no_gravity_rest);
	return TEST_SUMMARY();
}
