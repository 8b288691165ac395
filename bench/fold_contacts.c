// Whether the `fold` pile keeps its layers apart at the benchmark's sizes, not only at the tests'
// 40² and 64²: per grid, substep count and thickness, after the scene's 600 frames, the pairs of
// cloth triangles that intersect (sharing no vertex), the closest two particles that are not
// rest-pose neighbours (in thicknesses) and the fraction of the cloth lying on other cloth. The
// oracles are the unit tests' (tests/unit/cloth_contacts.h: exact in double, no solver code).
// Whether the settled pile is still: over the last second, the fastest any particle moved in one
// frame and the neighbour lists' rebuilds a frame (a still pile rebuilds none). And when it comes to
// rest ("settling"): the cases at 64², 128² and 256² at the scene's own 10 substeps and thickness,
// stepped on (one run each) to SETTLE_SPAN × the frames (30 s at the default 600), the fastest move
// and the rebuilds in each window of SETTLE_WINDOW frames, and the time from which every window
// stays below STILL_SPEED with at most STILL_REBUILDS rebuilds a frame (null: not within the run).
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

// A settling run's windows: the fastest move (m/s) and the rebuilds a frame in each, and the time
// from which every window to the end is still (s; -1: not within the run).
typedef struct settling {
	int32_t windows, window;
	double* fastest;
	double* rebuilds;
	double still_from;
} settling;

// One case: the scene stepped `frames` frames (2 threads), its JSON object printed then; with
// `settle` (the scene's own substeps and thickness) stepped on to settle->windows × window frames,
// the windows kept for the end (the same run: its first frames are the case's).
static int run_case(fold_case k, int32_t frames, settling* settle) {
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
	const int32_t total = settle != NULL ? settle->windows * settle->window : frames;
	float* before = malloc((size_t)n * 4 * sizeof(float));
	if (before == NULL) {
		fprintf(stderr, "error: out of memory for %d positions\n", (int)n);
		weft_world_destroy(world);
		return 1;
	}
	double fastest = 0.0, window_fastest = 0.0;
	int64_t rebuilds_before = 0, window_rebuilds_before = 0;
	if (settle != NULL) settle->still_from = -1.0;
	for (int32_t f = 0; f < total; ++f) {
		const bool watched = f >= frames - last_second && f < frames;
		if (f == frames - last_second) rebuilds_before = weft_world_self_collision(world).rebuilds;
		if (watched || settle != NULL) {
			memcpy(before, weft_world_positions(world), (size_t)n * 4 * sizeof(float));
		}
		weft_world_step(world, scene.frame_dt);
		if (watched || settle != NULL) {
			const double move = fastest_move(before, weft_world_positions(world), n) / scene.frame_dt;
			fastest = watched ? fmax(fastest, move) : fastest;
			window_fastest = fmax(window_fastest, move);
		}
		if (settle != NULL && (f + 1) % settle->window == 0) {
			const int32_t w = f / settle->window;
			const int64_t rebuilds = weft_world_self_collision(world).rebuilds;
			settle->fastest[w] = window_fastest;
			settle->rebuilds[w] = (double)(rebuilds - window_rebuilds_before) / settle->window;
			const bool still = window_fastest < STILL_SPEED && settle->rebuilds[w] <= STILL_REBUILDS;
			if (!still) {
				settle->still_from = -1.0;
			} else if (settle->still_from < 0.0) {
				settle->still_from = (f + 1 - settle->window) * (double)scene.frame_dt;
			}
			window_rebuilds_before = rebuilds;
			window_fastest = 0.0;
		}
		if (f + 1 != frames) continue;
		const weft_self_collision_view view = weft_world_self_collision(world);
		const double t = view.thickness;
		const double closest = closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * t);
		const int64_t pairs = intersecting_triangle_pairs(world, 3.0 * (t > spacing ? t : spacing));
		const double layered = layered_fraction(world, 2.5 * t);
		printf("\n {\"grid\": %d, \"substeps\": %d, \"thickness_spacings\": %.2f, ", (int)k.grid, (int)k.substeps,
		       (double)k.thickness);
		printf("\"intersecting_triangle_pairs\": %lld, \"closest_over_thickness\": %.3f, ", (long long)pairs,
		       closest / t);
		printf("\"layered_fraction\": %.3f, \"rebuilds_per_frame\": %.3f, ", layered, (double)view.rebuilds / frames);
		printf("\"last_second_fastest_m_per_s\": %.4f, \"last_second_rebuilds_per_frame\": %.3f, ", fastest,
		       (double)(view.rebuilds - rebuilds_before) / last_second);
		printf("\"finite\": %s}", weft_world_is_finite(world) ? "true" : "false");
		fflush(stdout);
	}
	free(before);
	weft_world_destroy(world);
	return 0;
}

// A settling run as JSON: its windows and still_from_s.
static void print_settling(int32_t grid, int32_t substeps, const settling* settle, double frame_dt, bool first) {
	printf("%s\n {\"grid\": %d, \"substeps\": %d, \"windows\": [", first ? "" : ",", (int)grid, (int)substeps);
	for (int32_t w = 0; w < settle->windows; ++w) {
		printf("%s{\"until_s\": %.1f, \"fastest_m_per_s\": %.4f, \"rebuilds_per_frame\": %.3f}", w ? ", " : "",
		       (w + 1) * settle->window * frame_dt, settle->fastest[w], settle->rebuilds[w]);
	}
	if (settle->still_from < 0.0) {
		printf("], \"still_from_s\": null}");
	} else {
		printf("], \"still_from_s\": %.1f}", settle->still_from);
	}
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
	// The settling runs are the cases at the scene's own substeps and thickness, stepped on.
	weft_scene_def scene;
	if (weft_scene("fold", settle_grids[0], &scene) != WEFT_OK) return 1;
	const int32_t settle_frames = SETTLE_SPAN * frames,
	              window = settle_frames < SETTLE_WINDOW ? settle_frames : SETTLE_WINDOW;
	enum { SETTLE_GRIDS = sizeof settle_grids / sizeof settle_grids[0] };
	settling settle[SETTLE_GRIDS];
	for (int32_t g = 0; g < SETTLE_GRIDS; ++g) {
		settle[g] = (settling){settle_frames / window, window, NULL, NULL, -1.0};
		settle[g].fastest = calloc((size_t)settle[g].windows, sizeof(double));
		settle[g].rebuilds = calloc((size_t)settle[g].windows, sizeof(double));
		if (settle[g].fastest == NULL || settle[g].rebuilds == NULL) return 1;
	}
	printf("{\"scene\": \"fold\", \"frames\": %d, \"runs\": [", (int)frames);
	bool settled[SETTLE_GRIDS] = {false};
	const size_t count = sizeof cases / sizeof cases[0];
	for (size_t c = 0; c < count; ++c) {
		settling* record = NULL;
		for (int32_t g = 0; g < SETTLE_GRIDS; ++g) {
			if (cases[c].grid == settle_grids[g] && cases[c].substeps == scene.world.substeps &&
			    cases[c].thickness == 1.0f) {
				record = &settle[g];
				settled[g] = true;
			}
		}
		if (c > 0) printf(",");
		if (run_case(cases[c], frames, record) != 0) return 1;
	}
	printf("\n], \"settling\": {\"frames\": %d, \"window_frames\": %d, \"still_m_per_s\": %.2f, "
	       "\"still_rebuilds_per_frame\": %.2f, \"runs\": [",
	       (int)(settle[0].windows * window), (int)window, STILL_SPEED, STILL_REBUILDS);
	for (int32_t g = 0; g < SETTLE_GRIDS; ++g) {
		if (!settled[g]) return 1; // every settling grid has its case
		print_settling(settle_grids[g], scene.world.substeps, &settle[g], scene.frame_dt, g == 0);
		free(settle[g].fastest);
		free(settle[g].rebuilds);
	}
	printf("\n]}}\n");
	return 0;
}
