// Stability under any setting (the reduced sweep of bench/sweep.c): every scene on 4² and 16² grids
// at compliance 0, 1e-6, 1e-3 and 1 m/N, 1, 10 and 100 substeps, with a violent drag (a particle
// pulled 1 m in 5 frames and back, then let go). Everywhere: every step returns WEFT_OK, the world
// stays finite and in place (no particle 20 m from the origin), and at every compliance (the soft
// ones through the cloth's strain limit; at 1 substep through the frame-end strain sweeps) the cloth
// holds together: max stretch below 100% after the first second, the drag included. The full sweep
// is `make bench-sweep` (sweep.json; README says where it does not hold).
#include <math.h>

#include "sweep_drag.h"
#include "test.h"
#include "weft/weft.h"

typedef struct outcome {
	bool stepped; // every step returned WEFT_OK
	bool finite;
	float farthest;      // m, the largest distance of a particle from the origin
	float worst_stretch; // after the first second
	float deepest;       // m, the deepest any particle ended a frame inside a sphere or the ground
	int64_t sweeps;      // frame-end strain sweeps run (strain_sweeps.c)
} outcome;

// How deep the deepest particle is inside a sphere or below the ground (0 for none).
static float deepest_inside(weft_world* world) {
	const weft_world_def def = weft_world_get_def(world);
	const float* x = weft_world_positions(world);
	float deepest = 0.0f;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
		if (def.ground_enabled) deepest = fmaxf(deepest, def.ground_height - x[4 * p + 1]);
		for (int32_t k = 0; k < weft_world_sphere_count(world); ++k) {
			weft_vec3 c;
			float r;
			bool moving;
			if (weft_world_get_sphere(world, (weft_sphere_id){k}, &c, &r, &moving) != WEFT_OK) continue;
			const float dx = x[4 * p] - c.x, dy = x[4 * p + 1] - c.y, dz = x[4 * p + 2] - c.z;
			deepest = fmaxf(deepest, r - sqrtf(dx * dx + dy * dy + dz * dz));
		}
	}
	return deepest;
}

static outcome sweep_run(const char* name, int32_t grid, float compliance, int32_t substeps) {
	outcome out = {true, true, 0.0f, 0.0f, 0.0f, 0};
	weft_scene_def scene;
	CHECK(weft_scene(name, grid, &scene) == WEFT_OK);
	scene.world.substeps = substeps;
	scene.cloth.stretch_compliance = scene.cloth.shear_compliance = compliance;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	const int32_t n = weft_world_particle_count(world), dragged = sweep_drag_particle(n, grid);
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	for (int32_t f = 0; f < 120 && out.stepped; ++f) {
		CHECK(sweep_drag_frame(world, dragged, f, &start));
		out.stepped = weft_world_step(world, scene.frame_dt) == WEFT_OK;
		if (f >= 60) out.worst_stretch = fmaxf(out.worst_stretch, weft_world_max_stretch(world));
		out.deepest = fmaxf(out.deepest, deepest_inside(world));
	}
	out.sweeps = weft_world_strain_sweeps(world);
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
		for (int g = 0; g < 2; ++g)
			for (int c = 0; c < 4; ++c)
				for (int k = 0; k < 3; ++k) {
					const outcome o = sweep_run(scenes[s], grids[g], compliances[c], substeps[k]);
					CHECK(o.stepped);
					CHECK(o.finite);
					CHECK(o.farthest < 20.0f);
					held += o.worst_stretch < 1.0f;
					if (!(o.worst_stretch < 1.0f)) {
						printf("%s %d², compliance %g, %d substeps: max stretch %.3f\n", scenes[s], grids[g],
						       (double)compliances[c], substeps[k], (double)o.worst_stretch);
					}
					CHECK(o.worst_stretch < 1.0f);
				}
	}
	CHECK(held == 5 * 2 * 4 * 3); // every scene, grid, compliance and substep count
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

// One substep × one iteration on a fine cloth (96²): one Gauss-Seidel sweep a frame cannot hold
// it (`sphere` tore to 3900% on landing, `fold` 2300%, `flag` 330%, `hang` 180% after the drag), so
// the frame ends with strain sweeps (strain_sweeps.c). They hold every scene below 100%, and the
// colliders after them leave no particle inside the sphere or the ground.
TEST(one_substep_holds) {
	const char* const scenes[] = {"hang", "sphere", "flag", "fold"};
	for (int s = 0; s < 4; ++s) {
		const outcome o = sweep_run(scenes[s], 96, 0.0f, 1);
		printf("%s 96², 1 substep, the drag: max stretch %.3f, %lld strain sweeps, deepest %.2g m\n", scenes[s],
		       (double)o.worst_stretch, (long long)o.sweeps, (double)o.deepest);
		CHECK(o.stepped && o.finite);
		CHECK(o.worst_stretch < 1.0f);
		CHECK(o.sweeps > 0);
		CHECK(o.deepest <= 1e-4f);
	}
}

// The bunny at 1 substep × 1 iteration (32²): the cloth lands four spacings a frame and the frame's
// sweeps pull the part on the head down into it. Pushed out only after the last sweep, a particle
// pulled past the head's middle came out on the far side, the edges between the two halves ran
// through the head, and the cloth stayed split around it (max stretch 5.3). Pushed out after each
// sweep, it keeps to its side.
TEST(bunny_one_substep_holds) {
	const float compliances[] = {0.0f, 1.0f};
	for (int c = 0; c < 2; ++c) {
		const outcome o = sweep_run("bunny", 32, compliances[c], 1);
		printf("bunny 32², compliance %g, 1 substep, the drag: max stretch %.3f\n", (double)compliances[c],
		       (double)o.worst_stretch);
		CHECK(o.stepped && o.finite);
		CHECK(o.worst_stretch < 1.0f);
	}
}

#if !defined(__wasm__) // see main
// The longest stretch constraint's length over its rest length, less 1 (weft_world_max_stretch also
// counts compression, which stays below 100% whatever happens).
static float max_elongation(weft_world* world) {
	const weft_constraints_view view = weft_world_constraints(world);
	const float* x = weft_world_positions(world);
	float worst = 0.0f;
	for (int32_t k = 0; k < view.count; ++k) {
		if (view.types[k] != WEFT_STRETCH) continue;
		const weft_constraint c = view.constraints[k];
		const float dx = x[4 * c.a] - x[4 * c.b], dy = x[4 * c.a + 1] - x[4 * c.b + 1],
		            dz = x[4 * c.a + 2] - x[4 * c.b + 2];
		worst = fmaxf(worst, sqrtf(dx * dx + dy * dy + dz * dz) / c.rest_length - 1.0f);
	}
	return worst;
}

// `scene` at grid² with the sweep's cheapest settings (compliance 0, 1 iteration, no damping) at
// `substeps`; NULL if the world was refused.
static weft_world* cheapest(const char* name, int32_t grid, int32_t substeps, weft_scene_def* scene) {
	CHECK(weft_scene(name, grid, scene) == WEFT_OK);
	scene->world.substeps = substeps;
	scene->world.iterations = 1;
	scene->world.damping = 0.0f;
	scene->cloth.stretch_compliance = scene->cloth.shear_compliance = 0.0f;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(scene, &world) == WEFT_OK);
	return world;
}

// A fine cloth at the cheapest settings (256², compliance 0, 1 iteration, no damping: the sweep's
// 512² spot check, at a size a test can run) under the drag. The frame-end strain sweeps split an
// edge's correction evenly, so a stretch spread across the cloth like heat and 64 sweeps did not
// reach far: `sphere` at 1 substep tore to 8200%, at 10 substeps 172%, `fold` at 1 substep 142%.
// Weighted to the end each sweep reaches second, the sweeps carry it to the cloth's edge (and a
// grid this large gets 128 of them).
TEST(fine_cloth_holds) {
	const struct {
		const char* scene;
		int32_t substeps;
	} runs[] = {{"sphere", 1}, {"sphere", 10}, {"fold", 1}};
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
		weft_scene_def scene;
		weft_world* world = cheapest(runs[r].scene, 256, runs[r].substeps, &scene);
		if (world == NULL) continue;
		const int32_t dragged = sweep_drag_particle(weft_world_particle_count(world), 256);
		weft_vec3 start = {0.0f, 0.0f, 0.0f};
		float worst = 0.0f;
		bool stepped = true;
		for (int32_t f = 0; f < 120 && stepped; ++f) {
			CHECK(sweep_drag_frame(world, dragged, f, &start));
			stepped = weft_world_step(world, scene.frame_dt) == WEFT_OK;
			if (f >= 60) worst = fmaxf(worst, max_elongation(world));
		}
		printf("%s 256², %d substep%s × 1 iteration, the drag: longest edge %.3f × rest after the first second\n",
		       runs[r].scene, (int)runs[r].substeps, runs[r].substeps == 1 ? "" : "s", (double)(1.0f + worst));
		CHECK(stepped && weft_world_is_finite(world));
		CHECK(worst < 0.75f);
		weft_world_destroy(world);
	}
}

// The 512² tests take about 95 s natively (the bunny's drag 77 s of it, 2026-12-06) and took 8 min
// under ASan + UBSan before the bunny's joined them, the most of any test in `make test` (43 min);
// they cover no code the smaller grids leave out, so the sanitizer run leaves them to the native one.
#if !defined(__SANITIZE_ADDRESS__)
// The largest grid the issue names, landing on the sphere at 1 substep × 1 iteration (the sweep's
// 512² spot check, its first second): the cloth falls 12 spacings a frame onto the sphere and the
// frame-end strain sweeps cannot hold it (the longest edge 2.31 × its rest length). Near a sphere a
// frame now takes enough substeps that no particle moves more than a spacing in one
// (frame_substeps.c, at most max_substeps).
TEST(fine_cloth_lands_on_the_sphere) {
	weft_scene_def scene;
	weft_world* world = cheapest("sphere", 512, 1, &scene);
	if (world == NULL) return;
	float worst = 0.0f;
	int32_t most = 0;
	for (int32_t f = 0; f < 60; ++f) {
		CHECK(weft_world_step(world, scene.frame_dt) == WEFT_OK);
		worst = fmaxf(worst, max_elongation(world));
		most = weft_world_frame_substeps(world) > most ? weft_world_frame_substeps(world) : most;
	}
	printf("sphere 512², 1 substep × 1 iteration, landing: longest edge %.3f × rest, up to %d substeps a frame\n",
	       (double)(1.0f + worst), (int)most);
	CHECK(worst < 1.0f);
	CHECK(most > 1 && most <= scene.world.max_substeps);
	weft_world_destroy(world);
}

// `hang` 512² at 10 substeps × 1 iteration under the drag (the sweep's 512² spot check): in the
// frame the hand pulls hardest, the frame-end strain sweeps run out (256) before they are done. They
// alternate direction, and one towards a pin leaves the excess it carries in the edge next to the
// pin: ended that way, the edge under a pinned corner was 2.18 × its rest length. The last sweep now
// runs away from the pins and the hand (strain_sweeps.c).
TEST(pinned_corners_hold_the_drag) {
	weft_scene_def scene;
	weft_world* world = cheapest("hang", 512, 10, &scene);
	if (world == NULL) return;
	const int32_t dragged = sweep_drag_particle(weft_world_particle_count(world), 512);
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	float worst = 0.0f;
	for (int32_t f = 0; f < 63; ++f) {
		CHECK(sweep_drag_frame(world, dragged, f, &start));
		CHECK(weft_world_step(world, scene.frame_dt) == WEFT_OK);
		if (f >= 60) worst = fmaxf(worst, max_elongation(world));
	}
	printf("hang 512², 10 substeps × 1 iteration, the drag's first frames: longest edge %.3f × rest\n",
	       (double)(1.0f + worst));
	CHECK(worst < 1.0f);
	weft_world_destroy(world);
}

// `bunny` 512² at 10 substeps × 1 iteration, landed and then dragged (the sweep's 512² spot check).
// Two things tore it on the ears. The collision margin (5 mm) was more than half the spacing
// (3.1 mm): where an ear's tip came between two particles, both stayed a margin away from it and
// the edge at least two margins long, 3.2 × its rest length. And 32 substeps a frame let the cloth
// land and the hand drag it half a spacing a substep over the ears, where a tenth is asked (160).
// The scene now keeps its margin within half a spacing and its max_substeps at what the hand at its
// fastest asks for (scenes.c): 1.67 × at worst. With the old two settings, 13.2 ×.
TEST(bunny_ears_hold_the_drag) {
	weft_scene_def scene;
	weft_world* world = cheapest("bunny", 512, 10, &scene);
	if (world == NULL) return;
	const float spacing = scene.cloth.size_u / 511.0f;
	CHECK(scene.world.collision_margin <= 0.5f * spacing);
	const int32_t dragged = sweep_drag_particle(weft_world_particle_count(world), 512);
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	float worst = 0.0f;
	int32_t most = 0;
	for (int32_t f = 0; f < 66; ++f) {
		CHECK(sweep_drag_frame(world, dragged, f, &start));
		CHECK(weft_world_step(world, scene.frame_dt) == WEFT_OK);
		if (f >= 60) worst = fmaxf(worst, max_elongation(world));
		most = weft_world_frame_substeps(world) > most ? weft_world_frame_substeps(world) : most;
	}
	printf("bunny 512², 10 substeps × 1 iteration, landed and dragged: longest edge %.3f × rest, up to %d "
	       "substeps a frame\n",
	       (double)(1.0f + worst), (int)most);
	CHECK(worst < 1.0f);
	CHECK(most > 32 && most <= scene.world.max_substeps);
	weft_world_destroy(world);
}
#endif

#endif

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(reduced_sweep);
	RUN_TEST(fold_drag_holds);
	RUN_TEST(one_substep_holds);
	RUN_TEST(bunny_one_substep_holds);
#if !defined(__wasm__)
	// The 256² and 512² worlds under wasm32 in Node: growing the memory for them ended Node's process
	// (a fatal out-of-memory, once a SIGSEGV) in CI's test-wasm; the native and sanitizer runs keep them.
	RUN_TEST(fine_cloth_holds);
#if !defined(__SANITIZE_ADDRESS__)
	RUN_TEST(fine_cloth_lands_on_the_sphere);
	RUN_TEST(pinned_corners_hold_the_drag);
	RUN_TEST(bunny_ears_hold_the_drag);
#endif
#endif
	return TEST_SUMMARY();
}
