// The runs behind the stiffness tables (bench/stiffness.c) and the tests that hold them
// (tests/unit/test_stiffness.c, test_behaviour.c): a settled `hang`, its recovery from a violent
// drag, and an unpinned cloth in free fall. A run that cannot be made returns NaN.
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

// A `hang` cloth settled (as above), then given back the scene's damping; NULL if it cannot be made.
static inline weft_world* stiffness_settled_hang_world(int32_t grid, int32_t substeps) {
	weft_scene_def scene;
	if (weft_scene("hang", grid, &scene) != WEFT_OK) return NULL;
	scene.world.substeps = substeps;
	const float damping = scene.world.damping;
	scene.world.damping = STIFFNESS_SETTLE_DAMPING;
	weft_world* world = NULL;
	if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) return NULL;
	for (int32_t f = 0; f < STIFFNESS_SETTLE_FRAMES; ++f) weft_world_step(world, STIFFNESS_FRAME_DT);
	weft_world_def def = weft_world_get_def(world);
	def.damping = damping;
	weft_world_set_def(world, &def);
	return world;
}

// The violent drag: `hang` 64² settled; its middle particle's target goes 1 m forward over 5
// frames and back over 5, then the hand lets go. The largest stretch while held, and 3 s after
// the release the stretch of the dragged cloth and of an undisturbed twin stepped alongside.
#define RECOVERY_GRID 64
#define RECOVERY_SECONDS 3
typedef struct recovery {
	float held, dragged, undisturbed;
} recovery;

static inline recovery stiffness_drag_recovery(int32_t substeps) {
	recovery out = {NAN, NAN, NAN};
	weft_world* dragged = stiffness_settled_hang_world(RECOVERY_GRID, substeps);
	weft_world* undisturbed = stiffness_settled_hang_world(RECOVERY_GRID, substeps);
	const int32_t middle = RECOVERY_GRID / 2 * RECOVERY_GRID + RECOVERY_GRID / 2;
	if (dragged != NULL && undisturbed != NULL) {
		const float* x = weft_world_positions(dragged);
		const weft_vec3 start = {x[4 * middle], x[4 * middle + 1], x[4 * middle + 2]};
		weft_world_grab(dragged, middle, start);
		out.held = 0.0f;
		for (int32_t f = 1; f <= 10; ++f) {
			const float s = f <= 5 ? (float)f / 5.0f : (float)(10 - f) / 5.0f;
			weft_world_grab_move(dragged, (weft_vec3){start.x, start.y, start.z + s});
			weft_world_step(dragged, STIFFNESS_FRAME_DT);
			weft_world_step(undisturbed, STIFFNESS_FRAME_DT);
			out.held = fmaxf(out.held, weft_world_max_stretch(dragged));
		}
		weft_world_release(dragged);
		for (int32_t f = 0; f < RECOVERY_SECONDS * 60; ++f) {
			weft_world_step(dragged, STIFFNESS_FRAME_DT);
			weft_world_step(undisturbed, STIFFNESS_FRAME_DT);
		}
		out.dragged = weft_world_max_stretch(dragged);
		out.undisturbed = weft_world_max_stretch(undisturbed);
	}
	weft_world_destroy(dragged);
	weft_world_destroy(undisturbed);
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
