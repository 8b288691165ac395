// Colouring: validity (no shared particle inside a batch), 12 colours on grids, greedy ≤ 13,
// arbitrary topologies with a small budget go to the overflow batch, sorted contiguous batches.
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

// True if no two constraints of one batch share a particle (the overflow batch is exempt).
static bool batches_valid(const weft_constraints_view* v, int32_t particle_count) {
	int32_t* last_batch = malloc((size_t)particle_count * sizeof(int32_t));
	for (int32_t p = 0; p < particle_count; ++p) last_batch[p] = -1;
	bool ok = v->color_offsets[0] == 0 && v->color_offsets[v->color_count + 1] == v->count;
	for (int32_t c = 0; c < v->color_count && ok; ++c) {
		ok = v->color_offsets[c] <= v->color_offsets[c + 1] && v->color_offsets[c + 1] > v->color_offsets[c];
		for (int32_t k = v->color_offsets[c]; k < v->color_offsets[c + 1] && ok; ++k) {
			uint32_t a = v->constraints[k].a, b = v->constraints[k].b;
			ok = last_batch[a] != c && last_batch[b] != c;
			last_batch[a] = last_batch[b] = c;
		}
	}
	free(last_batch);
	return ok;
}

static bool colours_valid(const uint32_t* pairs, int32_t count, int32_t particles, const uint8_t* colours,
                          int32_t colour_count) {
	// Same check on raw colours: a (particle, colour) pair may appear once.
	uint8_t* seen = calloc((size_t)particles * 32, 1);
	bool ok = true;
	for (int32_t k = 0; k < count && ok; ++k) {
		if (colours[k] >= colour_count) continue; // overflow
		for (int e = 0; e < 2; ++e) {
			size_t slot = (size_t)pairs[2 * k + e] * 32 + colours[k];
			ok = ok && !seen[slot];
			seen[slot] = 1;
		}
	}
	free(seen);
	return ok;
}

TEST(hinted_and_greedy_grids) {
	const int grids[][2] = {{2, 2}, {3, 7}, {5, 5}, {8, 8}, {33, 17}, {48, 40}, {128, 128}};
	for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g) {
		weft_world_def wd = weft_default_world_def();
		weft_cloth_def cd = weft_default_cloth_def();
		cd.width = grids[g][0];
		cd.height = grids[g][1];
		weft_world* world = NULL;
		CHECK(weft_world_create(&wd, &cd, &world) == WEFT_OK);
		weft_constraints_view v = weft_world_constraints(world);
		CHECK(batches_valid(&v, weft_world_particle_count(world)));
		CHECK(v.color_count <= 12);
		if (cd.width >= 5 && cd.height >= 5) CHECK(v.color_count == 12);
		CHECK(v.color_offsets[v.color_count + 1] - v.color_offsets[v.color_count] == 0); // no overflow

		// Plain greedy (no hints) on the same constraints in build order (row by row, each particle's
		// six families): valid and at most 13 colours; on larger grids exactly 13, one more than the
		// hinted colouring above.
		int32_t particles = weft_world_particle_count(world), w = cd.width, h = cd.height, n = 0;
		uint32_t* pairs = malloc((size_t)v.count * 2 * sizeof(uint32_t));
		uint8_t* colours = malloc((size_t)v.count);
		void* scratch = malloc(weft_coloring_scratch_size(particles));
#define ADD_PAIR(a, b) (pairs[2 * n] = (uint32_t)(a), pairs[2 * n + 1] = (uint32_t)(b), n++)
		for (int32_t j = 0; j < h; ++j) {
			for (int32_t i = 0; i < w; ++i) {
				int32_t q = j * w + i;
				if (i + 1 < w) ADD_PAIR(q, q + 1);
				if (j + 1 < h) ADD_PAIR(q, q + w);
				if (i + 1 < w && j + 1 < h) ADD_PAIR(q, q + w + 1), ADD_PAIR(q + 1, q + w);
				if (i + 2 < w) ADD_PAIR(q, q + 2);
				if (j + 2 < h) ADD_PAIR(q, q + 2 * w);
			}
		}
#undef ADD_PAIR
		CHECK(n == v.count);
		int32_t used = 0;
		CHECK(weft_color_constraints(pairs, n, particles, WEFT_COLOR_BUDGET, NULL, colours, &used, scratch) == WEFT_OK);
		CHECK(used <= 13);
		if (w >= 32 && h >= 32) CHECK(used == 13);
		CHECK(colours_valid(pairs, n, particles, colours, used));
		free(pairs);
		free(colours);
		free(scratch);
		weft_world_destroy(world);
	}
}

TEST(overflow_and_bad_input) {
	// Any topology: a random graph with a star (one particle in 40 constraints) and budget 8 must
	// spill into the overflow batch, and everything in the colours must still be valid.
	enum { particles = 200, count = 1000 };
	uint32_t pairs[2 * count];
	uint8_t colours[count];
	srand(7);
	for (int k = 0; k < count; ++k) {
		uint32_t a = k < 40 ? 0 : (uint32_t)(rand() % particles);
		uint32_t b = (uint32_t)(rand() % particles);
		if (b == a) b = (a + 1) % particles;
		pairs[2 * k] = a;
		pairs[2 * k + 1] = b;
	}
	void* scratch = malloc(weft_coloring_scratch_size(particles));
	int32_t used = 0;
	CHECK(weft_color_constraints(pairs, count, particles, 8, NULL, colours, &used, scratch) == WEFT_OK);
	CHECK(used <= 8);
	CHECK(colours_valid(pairs, count, particles, colours, used));
	int overflow = 0;
	for (int k = 0; k < count; ++k) overflow += colours[k] == used;
	CHECK(overflow >= 40 - 8); // the star alone needs 40 colours
	// Bad hints are ignored, not trusted.
	uint8_t hints[count];
	memset(hints, 0, sizeof hints);
	CHECK(weft_color_constraints(pairs, count, particles, WEFT_COLOR_BUDGET, hints, colours, &used, scratch) ==
	      WEFT_OK);
	CHECK(colours_valid(pairs, count, particles, colours, used));
	// Invalid input.
	pairs[0] = particles + 5;
	CHECK(weft_color_constraints(pairs, count, particles, 8, NULL, colours, &used, scratch) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_color_constraints(pairs, count, particles, 0, NULL, colours, &used, scratch) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	// The message names the argument that is wrong.
	CHECK(weft_color_constraints(pairs, count, particles, 8, NULL, colours, &used, NULL) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "scratch is NULL") != NULL);
	CHECK(weft_color_constraints(pairs, -1, particles, 8, NULL, colours, &used, scratch) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "(got -1, ") != NULL);
	free(scratch);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(hinted_and_greedy_grids);
	RUN_TEST(overflow_and_bad_input);
	return TEST_SUMMARY();
}
