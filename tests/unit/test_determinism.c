// Determinism: the same scene stepped twice gives bit-identical state, and a golden hash per scene
// catches any change in the arithmetic (compiler flags, operation order, FMA contraction).
// If you change the solver on purpose, print the new hashes with WEFT_PRINT_HASHES=1 and update them.
#include <inttypes.h>
#include <stdlib.h>

#include "test.h"
#include "weft/weft.h"

static uint64_t run(const char* scene, int frames) {
	weft_world* world = NULL;
	if (weft_world_create_scene(scene, 16, &world) != WEFT_OK) return 0;
	for (int f = 0; f < frames; ++f) weft_world_step(world, 1.0f / 60.0f);
	uint64_t hash = weft_world_state_hash(world);
	weft_world_destroy(world);
	return hash;
}

int main(void) {
	struct {
		const char* scene;
		uint64_t golden;
	} cases[] = {
	    {"hang", 0xf1eaea71a3ba075aull},
	    {"sphere", 0xef66ee51ecf073c6ull},
	    {"flag", 0xe38ba9489fa9fc2dull},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		uint64_t first = run(cases[k].scene, 90), second = run(cases[k].scene, 90);
		CHECK(first == second);
		CHECK(first != run(cases[k].scene, 89));
		if (getenv("WEFT_PRINT_HASHES")) printf("%s 0x%016" PRIx64 "\n", cases[k].scene, first);
		CHECK(first == cases[k].golden);
	}
	// Reset returns to the exact initial state.
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", 16, &world) == WEFT_OK);
	uint64_t initial = weft_world_state_hash(world);
	for (int f = 0; f < 30; ++f) weft_world_step(world, 1.0f / 60.0f);
	CHECK(weft_world_state_hash(world) != initial);
	weft_world_reset(world);
	CHECK(weft_world_state_hash(world) == initial);
	weft_world_destroy(world);
	return TEST_SUMMARY();
}
