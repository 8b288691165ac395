// Whether the `fold` pile keeps its layers apart at the benchmark's sizes, not only at the tests'
// 40² and 64²: per grid, substep count and thickness, after the scene's 600 frames, the pairs of
// cloth triangles that intersect (sharing no vertex), the closest two particles that are not
// rest-pose neighbours (in thicknesses) and the fraction of the cloth lying on other cloth. The
// oracles are the unit tests' (tests/unit/cloth_contacts.h: exact in double, no solver code).
// Whether the settled pile is still: over the last second, the fastest any particle moved in one
// frame and the neighbour lists' rebuilds a frame (a still pile rebuilds none). And when it comes to
// rest ("settling"): the scene at 64², 128² and 256² (10 substeps) stepped on for SETTLE_SPAN × the
// frames (30 s at the default 600), the fastest move and the rebuilds in each window of
// SETTLE_WINDOW frames, and the time from which every window stays below STILL_SPEED with at most
// STILL_REBUILDS rebuilds a frame (null: not within the run).
// Prints one JSON document (bench/fold_contacts.sh writes it to
// bench/results/<machine>/fold_contacts.json).
//   weft_fold_contacts [--frames F]
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/cloth_contacts.h"
#include "weft/weft.h"

typedef struct fold_case {
	int32_t grid, substeps;
	float thickness; // in grid spacings
} fold_case;

// The scene's own 10 substeps and the GPU benchmark's 5, at the default thickness (one spacing)
// and at the thicknesses that keep that substep count's pile apart at 256².
static const fold_case cases[] = {
    {64, 10, 1.0f},  {64, 5, 1.0f},  {128, 10, 1.0f}, {128, 5, 1.0f}, {128, 5, 1.5f},
    {256, 10, 1.0f}, {256, 5, 1.0f}, {256, 10, 1.3f}, {256, 5, 1.5f},
};

// The settling runs: 3 × the frames (30 s at the default 600), in windows of 2.5 s; still is under
// 3 cm/s (half a millimetre a frame) with at most one rebuild in 100 frames.
static const int32_t settle_grids[] = {64, 128, 256};
#define SETTLE_SPAN 3
#define SETTLE_WINDOW 150
#define STILL_SPEED 0.03
#define STILL_REBUILDS 0.01

// The farthest any particle moved between two copies of the positions (float4s), m.
static double fastest_move(const float* before, const float* after, int32_t n) {
	double most = 0.0;
	for (int32_t i = 0; i < n; ++i) {
		const double dx = after[4 * i] - before[4 * i], dy = after[4 * i + 1] - before[4 * i + 1],
		             dz = after[4 * i + 2] - before[4 * i + 2];
		most = fmax(most, sqrt(dx * dx + dy * dy + dz * dz));
	}
	return most;
}

// The scene at grid² stepped `frames` frames (2 threads) in windows of `window`: one JSON object.
static int settle(int32_t grid, int32_t frames, int32_t window, bool first) {
	weft_scene_def scene;
	weft_world* world = NULL;
	if (weft_scene("fold", grid, &scene) != WEFT_OK) return 1;
	scene.world.thread_count = 2;
	if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) {
		fprintf(stderr, "error: %s\n", weft_last_error());
		return 1;
	}
	const int32_t n = weft_world_particle_count(world);
	float* before = malloc((size_t)n * 4 * sizeof(float));
	if (before == NULL) {
		weft_world_destroy(world);
		return 1;
	}
	printf("%s\n {\"grid\": %d, \"substeps\": %d, \"windows\": [", first ? "" : ",", (int)grid,
	       (int)scene.world.substeps);
	double still_from = -1.0; // the start of the run of still windows that lasts to the end, s
	int64_t rebuilds_before = 0;
	double fastest = 0.0;
	for (int32_t f = 0; f < frames; ++f) {
		memcpy(before, weft_world_positions(world), (size_t)n * 4 * sizeof(float));
		weft_world_step(world, scene.frame_dt);
		fastest = fmax(fastest, fastest_move(before, weft_world_positions(world), n) / scene.frame_dt);
		if ((f + 1) % window == 0) {
			const int64_t rebuilds = weft_world_self_collision(world).rebuilds;
			const double per_frame = (double)(rebuilds - rebuilds_before) / window;
			const bool still = fastest < STILL_SPEED && per_frame <= STILL_REBUILDS;
			if (!still) {
				still_from = -1.0;
			} else if (still_from < 0.0) {
				still_from = (f + 1 - window) * (double)scene.frame_dt;
			}
			printf("%s{\"until_s\": %.1f, \"fastest_m_per_s\": %.4f, \"rebuilds_per_frame\": %.3f}",
			       f + 1 == window ? "" : ", ", (f + 1) * (double)scene.frame_dt, fastest, per_frame);
			rebuilds_before = rebuilds;
			fastest = 0.0;
		}
	}
	if (still_from < 0.0) {
		printf("], \"still_from_s\": null}");
	} else {
		printf("], \"still_from_s\": %.1f}", still_from);
	}
	fflush(stdout);
	free(before);
	weft_world_destroy(world);
	return 0;
}

int main(int argc, char** argv) {
	int32_t frames = 600;
	for (int a = 1; a < argc; ++a) {
		if (strcmp(argv[a], "--frames") == 0 && a + 1 < argc) {
			frames = atoi(argv[++a]);
		} else {
			fprintf(stderr, "usage: weft_fold_contacts [--frames F]\n");
			return 2;
		}
	}
	if (frames < 1 || frames > 100000) {
		fprintf(stderr, "error: --frames must be in 1..100000\n");
		return 2;
	}
	printf("{\"scene\": \"fold\", \"frames\": %d, \"runs\": [", (int)frames);
	const size_t count = sizeof cases / sizeof cases[0];
	for (size_t c = 0; c < count; ++c) {
		const fold_case k = cases[c];
		weft_scene_def scene;
		weft_world* world = NULL;
		if (weft_scene("fold", k.grid, &scene) != WEFT_OK) return 1;
		const double spacing = 1.0 / (k.grid - 1); // the scene's 1 m square cloth
		scene.world.substeps = k.substeps;
		scene.world.thread_count = 2;
		scene.cloth.thickness = (float)(k.thickness * spacing);
		if (weft_world_create_from_scene(&scene, &world) != WEFT_OK) {
			fprintf(stderr, "error: %s\n", weft_last_error());
			return 1;
		}
		const int32_t n = weft_world_particle_count(world);
		const int32_t last_second = frames < 60 ? frames : 60;
		float* before = malloc((size_t)n * 4 * sizeof(float));
		if (before == NULL) {
			fprintf(stderr, "error: out of memory for %d positions\n", (int)n);
			weft_world_destroy(world);
			return 1;
		}
		double fastest = 0.0;
		int64_t rebuilds_before = 0;
		for (int32_t f = 0; f < frames; ++f) {
			const bool watched = f >= frames - last_second;
			if (watched) {
				memcpy(before, weft_world_positions(world), (size_t)n * 4 * sizeof(float));
				if (f == frames - last_second) rebuilds_before = weft_world_self_collision(world).rebuilds;
			}
			weft_world_step(world, scene.frame_dt);
			if (watched) fastest = fmax(fastest, fastest_move(before, weft_world_positions(world), n) / scene.frame_dt);
		}
		free(before);
		const weft_self_collision_view view = weft_world_self_collision(world);
		const double t = view.thickness;
		const double closest = closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * t);
		const int64_t pairs = intersecting_triangle_pairs(world, 3.0 * (t > spacing ? t : spacing));
		const double layered = layered_fraction(world, 2.5 * t);
		printf("%s\n {\"grid\": %d, \"substeps\": %d, \"thickness_spacings\": %.2f, ", c ? "," : "", (int)k.grid,
		       (int)k.substeps, (double)k.thickness);
		printf("\"intersecting_triangle_pairs\": %lld, \"closest_over_thickness\": %.3f, ", (long long)pairs,
		       closest / t);
		printf("\"layered_fraction\": %.3f, \"rebuilds_per_frame\": %.3f, ", layered, (double)view.rebuilds / frames);
		printf("\"last_second_fastest_m_per_s\": %.4f, \"last_second_rebuilds_per_frame\": %.3f, ", fastest,
		       (double)(view.rebuilds - rebuilds_before) / last_second);
		printf("\"finite\": %s}", weft_world_is_finite(world) ? "true" : "false");
		fflush(stdout);
		weft_world_destroy(world);
	}
	const int32_t settle_frames = SETTLE_SPAN * frames,
	              window = settle_frames < SETTLE_WINDOW ? settle_frames : SETTLE_WINDOW;
	printf("\n], \"settling\": {\"frames\": %d, \"window_frames\": %d, \"still_m_per_s\": %.2f, "
	       "\"still_rebuilds_per_frame\": %.2f, \"runs\": [",
	       (int)settle_frames, (int)window, STILL_SPEED, STILL_REBUILDS);
	for (size_t g = 0; g < sizeof settle_grids / sizeof settle_grids[0]; ++g) {
		if (settle(settle_grids[g], settle_frames, window, g == 0) != 0) return 1;
	}
	printf("\n]}}\n");
	return 0;
}
