#define _POSIX_C_SOURCE 200809L
// weft bench: simulate a scene for F frames and report timing and quality as one JSON line.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "commands.h"
#include "progress.h"
#include "scene_setup.h"

static int compare_doubles(const void* a, const void* b) {
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

int command_bench(int argc, char** argv) {
	static const char* const allowed[] = {"scene",       "grid",    "substeps",     "iterations",     "frames",
	                                      "threads",     "simd",    "collider",     "self-collision", "spheres",
	                                      "ridge-lifts", "damping", "max-substeps", "thickness",      NULL};
	args a;
	int64_t frames, simd;
	if (!args_parse(argc, argv, allowed, &a) || !args_int(&a, "frames", 600, 1, 1000000, &frames) ||
	    !args_int(&a, "simd", 1, 0, 16, &simd)) {
		return EXIT_BAD_INPUT;
	}
	// 0 scalar, 1 the widest path (default), 4 or 8 lanes (8: AVX2, where the CPU has it).
	if (weft_set_simd_width((int32_t)simd) != WEFT_OK) {
		cli_error("--simd %lld: %s", (long long)simd, weft_last_error());
		return EXIT_BAD_INPUT;
	}
	scene_setup setup;
	int code = scene_setup_create(&a, &setup);
	if (code != 0) {
		return code;
	}
	weft_world* world = setup.world;
	double* frame_ms = malloc((size_t)frames * sizeof(double));
	if (frame_ms == NULL) {
		cli_error("out of memory");
		weft_world_destroy(world);
		return 1;
	}
	progress bar = progress_start("bench", frames);
	int32_t most_wanted = 0; // the most substeps a frame's motion asked for
	double start = clock_seconds();
	for (int64_t f = 0; f < frames; ++f) {
		double t0 = clock_seconds();
		if (weft_world_step(world, setup.frame_dt) != WEFT_OK) {
			progress_finish(&bar);
			cli_error("step %lld: %s", (long long)f + 1, weft_last_error());
			free(frame_ms);
			weft_world_destroy(world);
			return 1;
		}
		frame_ms[f] = 1e3 * (clock_seconds() - t0);
		const int32_t wanted = weft_world_frame_substeps_wanted(world);
		most_wanted = wanted > most_wanted ? wanted : most_wanted;
		progress_update(&bar, f + 1);
	}
	double seconds = clock_seconds() - start;
	progress_finish(&bar);

	qsort(frame_ms, (size_t)frames, sizeof(double), compare_doubles);
	weft_world_def def = weft_world_get_def(world);
	weft_constraints_view view = weft_world_constraints(world);
	// The substeps the frames took (more than def.substeps near a mesh, up to max_substeps).
	const int64_t substeps_run = weft_world_substeps_run(world);
	double solves = (double)view.count * (double)substeps_run * def.iterations;
	printf("{\"scene\":\"%s\",\"grid\":%d,\"particles\":%d,\"constraints\":%d,\"colors\":%d,\"substeps\":%d,"
	       "\"max_substeps\":%d,\"substeps_per_frame\":%.3f,\"most_substeps_wanted\":%d,\"iterations\":%d,\"frames\":%"
	       "lld,\"threads\":%d,\"simd\":%"
	       "s,\"simd_width\":%d,\"self_collision\":%s,\"thickness\":%.6g,"
	       "\"self_collision_"
	       "rebuilds\":%lld,\"ridge_lifts\":%s,\"ms_per_frame\":%.4f,\"ms_median\":%.4f,"
	       "\"ms_min\":%.4f,\"constraint_solves_per_second\":%.4e,\"max_stretch\":%.6f,\"nan\":%s,"
	       "\"state_hash\":\"%016" PRIx64 "\"}\n",
	       setup.scene, (int)setup.grid, (int)weft_world_particle_count(world), (int)view.count, (int)view.color_count,
	       (int)def.substeps, (int)def.max_substeps, (double)substeps_run / (double)frames, (int)most_wanted,
	       (int)def.iterations, (long long)frames, (int)def.thread_count, weft_simd_active() ? "true" : "false",
	       (int)weft_simd_width(), def.self_collision ? "true" : "false",
	       (double)weft_world_self_collision(world).thickness, (long long)weft_world_self_collision(world).rebuilds,
	       weft_world_mesh_ridge_lifts(world) ? "true" : "false", 1e3 * seconds / (double)frames, frame_ms[frames / 2],
	       frame_ms[0], solves / seconds, (double)weft_world_max_stretch(world),
	       weft_world_is_finite(world) ? "false" : "true", weft_world_state_hash(world));
	free(frame_ms);
	weft_world_destroy(world);
	return 0;
}
