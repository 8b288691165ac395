// Stability under any setting (the reduced sweep of bench/sweep.c): every scene on 4² and 16² grids
// at compliance 0, 1e-6, 1e-3 and 1 m/N, 1, 10 and 100 substeps, with a violent drag (a particle
// pulled 1 m in 5 frames and back, then let go). Everywhere: every step returns WEFT_OK, the world
// stays finite and in place (no particle 20 m from the origin). Where the cloth has the substeps to
// hold together (10 and more for hang, sphere, flag and fold; 100 for bunny, whose ears snag a coarse
// cloth's edges between its particles), at every compliance (the soft ones through the cloth's strain
// limit): max stretch
// below 100% after the first second, the drag included. The full sweep is `make bench-sweep`
// (sweep.json; README says where it does not hold).
#include <math.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

typedef struct outcome {
	bool stepped; // every step returned WEFT_OK
	bool finite;
	float farthest;      // m, the largest distance of a particle from the origin
	float worst_stretch; // after the first second
} outcome;

static outcome sweep_run(const char* name, int32_t grid, float compliance, int32_t substeps) {
	outcome out = {true, true, 0.0f, 0.0f};
	weft_scene_def scene;
	CHECK(weft_scene(name, grid, &scene) == WEFT_OK);
	scene.world.substeps = substeps;
	scene.cloth.stretch_compliance = scene.cloth.shear_compliance = compliance;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	const int32_t n = weft_world_particle_count(world), dragged = n / 2 + grid / 2;
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	for (int32_t f = 0; f < 120 && out.stepped; ++f) {
		const int32_t t = f - 60; // the drag: frames 60..70
		if (t == 0) {
			const float* x = weft_world_positions(world);
			start = (weft_vec3){x[4 * dragged], x[4 * dragged + 1], x[4 * dragged + 2]};
			CHECK(weft_world_grab(world, dragged, start) == WEFT_OK);
		} else if (t > 0 && t <= 10) {
			const float s = t <= 5 ? (float)t / 5.0f : (float)(10 - t) / 5.0f;
			CHECK(weft_world_grab_move(world, (weft_vec3){start.x, start.y, start.z + s}) == WEFT_OK);
			if (t == 10) weft_world_release(world);
		}
		out.stepped = weft_world_step(world, scene.frame_dt) == WEFT_OK;
		if (f >= 60) out.worst_stretch = fmaxf(out.worst_stretch, weft_world_max_stretch(world));
	}
	out.finite = weft_world_is_finite(world);
	const float* x = weft_world_positions(world);
	for (int32_t p = 0; p < n; ++p) {
		out.farthest =
		    fmaxf(out.farthest, sqrtf(x[4 * p] * x[4 * p] + x[4 * p + 1] * x[4 * p + 1] + x[4 * p + 2] * x[4 * p + 2]));
	}
	weft_world_destroy(world);
	return out;
}

TEST(reduced_sweep) {
	const char* const scenes[] = {"hang", "sphere", "flag", "bunny", "fold"};
	const float compliances[] = {0.0f, 1e-6f, 1e-3f, 1.0f};
	const int32_t substeps[] = {1, 10, 100};
	const int32_t grids[] = {4, 16};
	int32_t held = 0;
	for (int s = 0; s < 5; ++s) {
		const bool needs_many = strcmp(scenes[s], "bunny") == 0;
		for (int g = 0; g < 2; ++g)
			for (int c = 0; c < 4; ++c)
				for (int k = 0; k < 3; ++k) {
					const outcome o = sweep_run(scenes[s], grids[g], compliances[c], substeps[k]);
					CHECK(o.stepped);
					CHECK(o.finite);
					CHECK(o.farthest < 20.0f);
					const bool holds = substeps[k] >= (needs_many ? 100 : 10);
					if (holds) {
						held++;
						if (!(o.worst_stretch < 1.0f)) {
							printf("%s %d², compliance %g, %d substeps: max stretch %.3f\n", scenes[s], grids[g],
							       (double)compliances[c], substeps[k], (double)o.worst_stretch);
						}
						CHECK(o.worst_stretch < 1.0f);
					}
				}
	}
	CHECK(held == (4 * 2 * 2 + 1 * 2 * 1) * 4); // hang, sphere, flag, fold: 10 and 100; bunny: 100
}

// The drag on a fine `fold` (96², 10 substeps): near another layer self-collision lets a particle
// move at most 0.4 thickness a substep, about 2.5 m/s here, so a hand at grab_speed (3 m/s) used to
// pull the held region away from the pile (370% stretch). The hand now keeps to half that speed.
TEST(fold_drag_holds) {
	const outcome o = sweep_run("fold", 96, 0.0f, 10);
	printf("fold 96², 10 substeps, the drag: max stretch %.3f\n", (double)o.worst_stretch);
	CHECK(o.stepped && o.finite);
	CHECK(o.worst_stretch < 1.0f);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(reduced_sweep);
	RUN_TEST(fold_drag_holds);
	return TEST_SUMMARY();
}
