// Stability sweep: every scene across compliance, substeps, iterations, grid size and damping, with
// a violent drag (a particle pulled 1 m in 5 frames and back, then let go) in the second second.
// Per run: whether the world stayed finite (and every step returned WEFT_OK), and the largest max
// stretch over the frames after the first second. Grids 4, 32 and 96 across every setting, and
// 512² (the largest grid the issue names) at a few. Prints one JSON document (bench/sweep.sh writes
// it to bench/results/<machine>/sweep.json). A run passes when it stays finite and below 100%.
//   weft_sweep [--quick] [--scene NAME] [--grid N]   (only that scene's, or that grid's, runs: the
//   runs are deterministic, so a sweep can be run in parts)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/sweep_drag.h"
#include "weft/weft.h"

typedef struct run_result {
	bool finite;
	float worst_stretch; // after the first second
} run_result;

static run_result run(const char* scene_name, int32_t grid, float compliance, int32_t substeps, int32_t iterations,
                      float damping, int32_t frames) {
	run_result out = {false, INFINITY};
	weft_scene_def scene;
	if (weft_scene(scene_name, grid, &scene) != WEFT_OK) return out;
	scene.world.substeps = substeps;
	scene.world.iterations = iterations;
	scene.world.damping = damping;
	scene.cloth.stretch_compliance = scene.cloth.shear_compliance = compliance;
	weft_world* world = NULL;
	if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) return out;
	const int32_t n = weft_world_particle_count(world), dragged = sweep_drag_particle(n, grid);
	weft_vec3 start = {0, 0, 0};
	out.finite = true;
	out.worst_stretch = 0.0f;
	for (int32_t f = 0; f < frames && out.finite; ++f) {
		sweep_drag_frame(world, dragged, f, &start); // a refused grab leaves the cloth free: still a run
		out.finite = weft_world_step(world, scene.frame_dt) == WEFT_OK && weft_world_is_finite(world);
		if (f >= 60) {
			const float stretch = weft_world_max_stretch(world);
			out.worst_stretch = stretch > out.worst_stretch || stretch != stretch ? stretch : out.worst_stretch;
		}
	}
	weft_world_destroy(world);
	return out;
}

// Runs one setting and prints its row (after the first, with a comma); counts it.
static void sweep_one(const char* scene, int32_t grid, float compliance, int32_t substeps, int32_t iterations,
                      float damping, int32_t* runs, int32_t* passed) {
	const run_result r = run(scene, grid, compliance, substeps, iterations, damping, 120);
	const bool ok = r.finite && r.worst_stretch < 1.0f;
	printf("%s{\"scene\":\"%s\",\"grid\":%d,\"compliance\":%g,\"substeps\":%d,\"iterations\":%d,"
	       "\"damping\":%g,\"finite\":%s,\"max_stretch_after_1s\":%.4g,\"pass\":%s}\n",
	       *runs ? "," : "", scene, (int)grid, (double)compliance, (int)substeps, (int)iterations, (double)damping,
	       r.finite ? "true" : "false", isfinite(r.worst_stretch) ? (double)r.worst_stretch : -1.0,
	       ok ? "true" : "false");
	fflush(stdout);
	*runs += 1;
	*passed += ok;
}

int main(int argc, char** argv) {
	bool quick = false;
	const char* only = NULL;
	int32_t only_grid = 0;
	for (int a = 1; a < argc; ++a) {
		if (strcmp(argv[a], "--quick") == 0) {
			quick = true;
		} else if (strcmp(argv[a], "--scene") == 0 && a + 1 < argc) {
			only = argv[++a];
		} else if (strcmp(argv[a], "--grid") == 0 && a + 1 < argc) {
			only_grid = (int32_t)atoi(argv[++a]);
		} else {
			fprintf(stderr, "weft_sweep: unknown argument '%s' (--quick, --scene NAME, --grid N)\n", argv[a]);
			return 2;
		}
	}
	const char* const scenes[] = {"hang", "sphere", "flag", "bunny", "fold"};
	const float compliances[] = {0.0f, 1e-6f, 1e-3f, 1.0f};
	const int32_t substeps[] = {1, 10, 100, 1000};
	const int32_t iterations[] = {1, 10};
	const int32_t grids[] = {4, 32, 96};
	const float dampings[] = {0.0f, 1.0f};
	int32_t runs = 0, passed = 0;
	printf("{\"runs\":[\n");
	for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; ++s)
		for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g)
			for (size_t c = 0; c < sizeof compliances / sizeof compliances[0]; ++c)
				for (size_t k = 0; k < sizeof substeps / sizeof substeps[0]; ++k)
					for (size_t i = 0; i < sizeof iterations / sizeof iterations[0]; ++i)
						for (size_t d = 0; d < sizeof dampings / sizeof dampings[0]; ++d) {
							// 1000 substeps only on small grids; the quick sweep keeps the corners.
							if (substeps[k] == 1000 && grids[g] > 4) continue;
							if (quick && (c % 3 != 0 || i != 0 || d != 0 || grids[g] == 96)) continue;
							if (only != NULL && strcmp(only, scenes[s]) != 0) continue;
							if (only_grid != 0 && only_grid != grids[g]) continue;
							sweep_one(scenes[s], grids[g], compliances[c], substeps[k], iterations[i], dampings[d],
							          &runs, &passed);
						}
	// The largest grid, 512², as a spot check (a run takes up to a minute there): every
	// scene, compliance 0, 1 and 10 substeps, 1 iteration, no damping. Not in the quick sweep.
	for (size_t s = 0; s < sizeof scenes / sizeof scenes[0] && !quick; ++s)
		for (int32_t k = 0;
		     k < 2 && (only == NULL || strcmp(only, scenes[s]) == 0) && (only_grid == 0 || only_grid == 512); ++k) {
			sweep_one(scenes[s], 512, 0.0f, substeps[k], 1, 0.0f, &runs, &passed);
		}
	printf("],\"runs_total\":%d,\"passed\":%d}\n", (int)runs, (int)passed);
	fprintf(stderr, "sweep: %d of %d runs stayed finite and below 100%% stretch after the first second\n", (int)passed,
	        (int)runs);
	return 0;
}
