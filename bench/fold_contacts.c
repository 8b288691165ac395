// Whether the `fold` pile keeps its layers apart at the benchmark's sizes, not only at the tests'
// 40² and 64²: per grid, substep count and thickness, after the scene's 600 frames, the pairs of
// cloth triangles that intersect (sharing no vertex), the closest two particles that are not
// rest-pose neighbours (in thicknesses) and the fraction of the cloth lying on other cloth. The
// oracles are the unit tests' (tests/unit/cloth_contacts.h: exact in double, no solver code).
// Prints one JSON document (bench/fold_contacts.sh writes it to
// bench/results/<machine>/fold_contacts.json).
//   weft_fold_contacts [--frames F]
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
		for (int32_t f = 0; f < frames; ++f) weft_world_step(world, scene.frame_dt);
		const weft_self_collision_view view = weft_world_self_collision(world);
		const double t = view.thickness;
		const double closest = closest_non_neighbours(world, 1.01 * view.rest_distance, 2.0 * t);
		const int64_t pairs = intersecting_triangle_pairs(world, 3.0 * (t > spacing ? t : spacing));
		const double layered = layered_fraction(world, 2.5 * t);
		printf("%s\n {\"grid\": %d, \"substeps\": %d, \"thickness_spacings\": %.2f, ", c ? "," : "", (int)k.grid,
		       (int)k.substeps, (double)k.thickness);
		printf("\"intersecting_triangle_pairs\": %lld, \"closest_over_thickness\": %.3f, ", (long long)pairs,
		       closest / t);
		printf("\"layered_fraction\": %.3f, \"rebuilds_per_frame\": %.3f, \"finite\": %s}", layered,
		       (double)view.rebuilds / frames, weft_world_is_finite(world) ? "true" : "false");
		fflush(stdout);
		weft_world_destroy(world);
	}
	printf("\n]}\n");
	return 0;
}
