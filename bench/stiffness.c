// Stiffness tables (issue "cloth that behaves like cloth"): how far the settled `hang` cloth
// stretches at the benchmark's 10 substeps × 1 iteration, with and without tethers, per grid; how
// low it sags across substep counts (the stiffness must not depend on them); and how far an
// unpinned cloth falls in 0.5 s against ½ g t² from 1 to 1000 substeps. Prints one JSON document
// (bench/stiffness.sh writes it to bench/results/<machine>/stiffness.json).
//   weft_stiffness [--quick]
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "weft/weft.h"

#define FRAME_DT (1.0f / 60.0f)
// Settling: a strong damping for 5 s brings the swinging cloth to rest (damping acts on the motion,
// not on the static balance, so the settled shape is the default damping's).
#define SETTLE_DAMPING 5.0f
#define SETTLE_FRAMES 300

typedef struct settled {
	float max_stretch;
	float lowest; // m, the lowest particle's height
} settled;

static settled settle_hang(int32_t grid, int32_t substeps, bool tethers) {
	settled out = {NAN, NAN};
	weft_scene_def scene;
	if (weft_scene("hang", grid, &scene) != WEFT_OK) return out;
	scene.world.substeps = substeps;
	scene.world.tethers = tethers;
	scene.world.damping = SETTLE_DAMPING;
	weft_world* world = NULL;
	if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) return out;
	for (int32_t f = 0; f < SETTLE_FRAMES; ++f) weft_world_step(world, FRAME_DT);
	const float* x = weft_world_positions(world);
	out.lowest = INFINITY;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) out.lowest = fminf(out.lowest, x[4 * p + 1]);
	out.max_stretch = weft_world_max_stretch(world);
	weft_world_destroy(world);
	return out;
}

// Distance an unpinned 16² cloth falls in 0.5 s with no ground, damping or speed clamp.
static double fall(int32_t substeps) {
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
	if (weft_world_create(&def, &cloth, &world) != WEFT_OK) return NAN;
	const double start = weft_world_positions(world)[1];
	for (int32_t f = 0; f < 30; ++f) weft_world_step(world, FRAME_DT);
	const double fallen = start - weft_world_positions(world)[1];
	weft_world_destroy(world);
	return fallen;
}

int main(int argc, char** argv) {
	const bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	const int32_t grids[] = {32, 64, 128, 256};
	const int32_t grid_count = quick ? 2 : 4;
	printf("{\n  \"settle\": {\"damping\": %g, \"frames\": %d, \"substeps\": 10, \"iterations\": 1},\n", SETTLE_DAMPING,
	       SETTLE_FRAMES);
	printf("  \"stretch\": [\n");
	for (int32_t g = 0; g < grid_count; ++g) {
		const settled with = settle_hang(grids[g], 10, true), without = settle_hang(grids[g], 10, false);
		printf("    {\"grid\": %d, \"max_stretch_tethers\": %.5f, \"max_stretch_no_tethers\": %.5f}%s\n", grids[g],
		       (double)with.max_stretch, (double)without.max_stretch, g + 1 < grid_count ? "," : "");
	}
	printf("  ],\n  \"sag\": [\n");
	const int32_t sag_substeps[] = {5, 10, 20, 40};
	const int32_t sag_grids[] = {64, 128};
	for (int32_t g = 0; g < 2; ++g) {
		float low = INFINITY, high = -INFINITY;
		printf("    {\"grid\": %d, \"lowest\": {", sag_grids[g]);
		for (int32_t k = 0; k < 4; ++k) {
			const settled s = settle_hang(sag_grids[g], sag_substeps[k], true);
			low = fminf(low, s.lowest);
			high = fmaxf(high, s.lowest);
			printf("\"%d\": %.5f%s", sag_substeps[k], (double)s.lowest, k < 3 ? ", " : "");
		}
		printf("}, \"spread_m\": %.5f}%s\n", (double)(high - low), g == 0 ? "," : "");
	}
	printf("  ],\n  \"free_fall\": [\n");
	const double exact = 0.5 * 9.81 * 0.5 * 0.5;
	const int32_t fall_substeps[] = {1, 2, 5, 10, 50, 100, 200, 500, 1000};
	for (int32_t k = 0; k < 9; ++k) {
		const double fallen = fall(fall_substeps[k]);
		printf("    {\"substeps\": %d, \"fallen_m\": %.6f, \"error\": %.6f}%s\n", fall_substeps[k], fallen,
		       fabs(fallen - exact) / exact, k < 8 ? "," : "");
	}
	printf("  ]\n}\n");
	return 0;
}
