// How the cloth behaves whatever the settings (issue "cloth that behaves like cloth"): free fall at
// any substep count, a grab that pulls the cloth instead of a needle.
#include <math.h>

#include "test.h"
#include "weft/weft.h"

// An unpinned 16² cloth with no ground, no damping and no speed clamp, let go from rest for 0.5 s.
static double free_fall(int32_t substeps) {
	weft_world_def def = weft_default_world_def();
	def.ground_enabled = false;
	def.damping = 0.0f;
	def.max_speed = 0.0f;
	def.substeps = substeps;
	def.tethers = false;
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = 16;
	cloth.pin = WEFT_PIN_NONE;
	weft_world* world = NULL;
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	const double start = weft_world_positions(world)[1];
	for (int32_t f = 0; f < 30; ++f) weft_world_step(world, 1.0f / 60.0f);
	const double fallen = start - weft_world_positions(world)[1];
	weft_world_destroy(world);
	return fallen;
}

// ½ g t² within 1% from 1 to 1000 substeps (float32 positions used to freeze at high counts).
TEST(free_fall_any_substeps) {
	const double exact = 0.5 * 9.81 * 0.5 * 0.5;
	const int32_t counts[] = {1, 2, 5, 10, 50, 100, 200, 500, 1000};
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
		CHECK_NEAR(free_fall(counts[k]), exact, 0.01 * exact);
	}
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(free_fall_any_substeps);
	return TEST_SUMMARY();
}
