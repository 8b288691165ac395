// Constraint counts per type for many grid sizes, against the closed forms; the census (weft info)
// against the built worlds.
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

// weft_cloth_census_of works the counts out without building: the same particles, constraints of
// each type, triangle indices, colours and overflow batch as the built world, on every grid up to
// 13 × 13 (the colour classes fill in one by one there) and on longer ones; an empty overflow batch
// everywhere.
TEST(census_matches_the_build) {
	const int larger[][2] = {{64, 64}, {128, 3}, {3, 128}, {200, 7}, {1, 40}, {40, 1}};
	int checked = 0;
	for (int k = 0; k < 13 * 13 + 6; ++k) {
		const int n = k < 169 ? 1 + k % 13 : larger[k - 169][0], m = k < 169 ? 1 + k / 13 : larger[k - 169][1];
		if (n * m < 2) continue;
		weft_cloth_def def = weft_default_cloth_def();
		def.width = n;
		def.height = m;
		weft_cloth_census census;
		CHECK(weft_cloth_census_of(&def, &census) == WEFT_OK);
		weft_world* world = make(n, m);
		CHECK(world != NULL);
		if (!world) continue;
		weft_constraints_view v = weft_world_constraints(world);
		CHECK(census.particles == weft_world_particle_count(world));
		for (int t = 0; t < 3; ++t) CHECK(census.count_by_type[t] == v.count_by_type[t]);
		CHECK(census.count == v.count);
		CHECK(census.index_count == weft_world_index_count(world));
		if (census.color_count != v.color_count)
			printf("%d x %d: census %d colours, built %d\n", n, m, census.color_count, v.color_count);
		CHECK(census.color_count == v.color_count);
		CHECK(census.overflow_count == v.color_offsets[v.color_count + 1] - v.color_offsets[v.color_count]);
		CHECK(census.overflow_count == 0);
		CHECK(census.fits);
		checked++;
		weft_world_destroy(world);
	}
	CHECK(checked == 13 * 13 - 1 + 6);
}

// The census of grids too big to build: 3693² fits the 8 GiB a world may take, 3694² does not (and
// weft_world_create refuses it, test_validation.c); a bad def is refused as weft_world_create would.
TEST(census_of_huge_and_bad_grids) {
	weft_cloth_def def = weft_default_cloth_def();
	weft_cloth_census census;
	def.width = def.height = 3693;
	CHECK(weft_cloth_census_of(&def, &census) == WEFT_OK);
	CHECK(census.fits && census.world_bytes <= (uint64_t)8 << 30);
	CHECK(census.particles == 3693 * 3693 && census.color_count == 12);
	def.width = def.height = 3694;
	CHECK(weft_cloth_census_of(&def, &census) == WEFT_OK);
	CHECK(!census.fits && census.world_bytes > (uint64_t)8 << 30);
	weft_world_def world_def = weft_default_world_def();
	weft_world* world = NULL;
	CHECK(weft_world_create(&world_def, &def, &world) == WEFT_ERROR_TOO_LARGE && world == NULL);
	def.width = def.height = 1;
	CHECK(weft_cloth_census_of(&def, &census) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(census.particles == 0);
	CHECK(weft_cloth_census_of(NULL, &census) != WEFT_OK);
	def.width = 8;
	CHECK(weft_cloth_census_of(&def, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(constraint_counts);
	RUN_TEST(rope);
	RUN_TEST(pin_modes);
	RUN_TEST(single_particle);
	RUN_TEST(census_matches_the_build);
	RUN_TEST(census_of_huge_and_bad_grids);
	return TEST_SUMMARY();
}
