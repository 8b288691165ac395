// The runs behind the stiffness tables (bench/stiffness.c) and the tests that hold them
// (tests/unit/test_stiffness.c, test_behaviour.c): a settled `hang`, and an unpinned cloth in free
// fall. A run that cannot be made returns NaN.
#ifndef WEFT_BENCH_STIFFNESS_RUNS_H
#define WEFT_BENCH_STIFFNESS_RUNS_H

#include <math.h>

#include "weft/weft.h"

#define STIFFNESS_FRAME_DT (1.0f / 60.0f)
// Settling: a strong damping for 5 s brings the swinging cloth to rest (damping acts on the motion,
// not on the static balance, so the settled shape is the default damping's).
#define STIFFNESS_SETTLE_DAMPING 5.0f
#define STIFFNESS_SETTLE_FRAMES 300

typedef struct settled {
	float max_stretch;
	float lowest; // m, the lowest particle's height
} settled;

static inline settled stiffness_settle_hang(int32_t grid, int32_t substeps, bool tethers) {
	settled out = {NAN, NAN};
	weft_scene_def scene;
	if (weft_scene("hang", grid, &scene) != WEFT_OK) return out;
	scene.world.substeps = substeps;
	scene.world.tethers = tethers;
	scene.world.damping = STIFFNESS_SETTLE_DAMPING;
	weft_world* world = NULL;
	if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) return out;
	for (int32_t f = 0; f < STIFFNESS_SETTLE_FRAMES; ++f) weft_world_step(world, STIFFNESS_FRAME_DT);
	const float* x = weft_world_positions(world);
	out.lowest = INFINITY;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) out.lowest = fminf(out.lowest, x[4 * p + 1]);
	out.max_stretch = weft_world_max_stretch(world);
	weft_world_destroy(world);
	return out;
}

// Distance an unpinned 16² cloth falls in 0.5 s with no ground, damping or speed clamp.
static inline double stiffness_free_fall(int32_t substeps) {
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
	for (int32_t f = 0; f < 30; ++f) weft_world_step(world, STIFFNESS_FRAME_DT);
	const double fallen = start - weft_world_positions(world)[1];
	weft_world_destroy(world);
	return fallen;
}

#endif
