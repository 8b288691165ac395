// Constraint counts per type for many grid sizes, against the closed forms.
#include "test.h"
#include "weft/weft.h"

static weft_world* make(int32_t w, int32_t h) {
	weft_world_def world_def = weft_default_world_def();
	weft_cloth_def cloth_def = weft_default_cloth_def();
	cloth_def.width = w;
	cloth_def.height = h;
	weft_world* world = NULL;
	weft_world_create(&world_def, &cloth_def, &world);
	return world;
}

TEST(constraint_counts) {
	const int sizes[][2] = {{2, 2}, {3, 7}, {7, 3}, {5, 5}, {16, 9}, {64, 64}, {2, 40}, {128, 3}};
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
		int n = sizes[k][0], m = sizes[k][1];
		weft_world* world = make(n, m);
		CHECK(world != NULL);
		if (!world) continue;
		weft_constraints_view v = weft_world_constraints(world);
		CHECK(v.count_by_type[WEFT_STRETCH] == n * (m - 1) + m * (n - 1));
		CHECK(v.count_by_type[WEFT_SHEAR] == 2 * (n - 1) * (m - 1));
		CHECK(v.count_by_type[WEFT_BEND] == n * (m > 2 ? m - 2 : 0) + m * (n > 2 ? n - 2 : 0));
		if (n >= 2 && m >= 2) {
			CHECK(v.count == 6 * n * m - 5 * (n + m) + 2);
		}
		CHECK(weft_world_particle_count(world) == n * m);
		CHECK(weft_world_index_count(world) == 6 * (n - 1) * (m - 1));
		int typed = 0;
		for (int32_t c = 0; c < v.count; ++c) typed += v.types[c] <= WEFT_BEND;
		CHECK(typed == v.count);
		weft_world_destroy(world);
	}
}

TEST(rope) {
	// A 1 x N "cloth" is a rope: only vertical stretch and bend constraints, no triangles.
	weft_world* rope = make(1, 10);
	CHECK(rope != NULL);
	if (rope) {
		weft_constraints_view v = weft_world_constraints(rope);
		CHECK(v.count_by_type[WEFT_STRETCH] == 9);
		CHECK(v.count_by_type[WEFT_SHEAR] == 0);
		CHECK(v.count_by_type[WEFT_BEND] == 8);
		CHECK(weft_world_index_count(rope) == 0);
		weft_world_destroy(rope);
	}
}

TEST(pin_modes) {
	// Pin modes: how many particles get inverse mass 0, and which.
	const weft_pin_mode modes[] = {WEFT_PIN_NONE, WEFT_PIN_TOP_CORNERS, WEFT_PIN_TOP_EDGE, WEFT_PIN_LEFT_EDGE,
	                               WEFT_PIN_LIST};
	const int expected[] = {0, 2, 7, 5, 3};
	const int32_t list[] = {4, 9, 34};
	for (int m = 0; m < 5; ++m) {
		weft_world_def wd = weft_default_world_def();
		weft_cloth_def cd = weft_default_cloth_def();
		cd.width = 7;
		cd.height = 5;
		cd.pin = modes[m];
		cd.pin_indices = list;
		cd.pin_count = 3;
		weft_world* world = NULL;
		CHECK(weft_world_create(&wd, &cd, &world) == WEFT_OK);
		const float* x = weft_world_positions(world);
		int pinned = 0;
		for (int p = 0; p < 35; ++p) pinned += x[4 * p + 3] == 0.0f;
		CHECK(pinned == expected[m]);
		if (modes[m] == WEFT_PIN_TOP_CORNERS) CHECK(x[3] == 0.0f && x[4 * 6 + 3] == 0.0f);
		if (modes[m] == WEFT_PIN_LEFT_EDGE) CHECK(x[4 * 28 + 3] == 0.0f);
		if (modes[m] == WEFT_PIN_LIST) CHECK(x[4 * 34 + 3] == 0.0f && x[4 * 9 + 3] == 0.0f);
		CHECK(x[4 * 17 + 3] == 35.0f); // free particles: 1 / (1 kg / 35)
		weft_world_destroy(world);
	}
}

TEST(single_particle) {
	// A single particle is no cloth.
	CHECK(make(1, 1) == NULL);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(constraint_counts);
	RUN_TEST(rope);
	RUN_TEST(pin_modes);
	RUN_TEST(single_particle);
	return TEST_SUMMARY();
}
