#include "scene_setup.h"

#include <string.h>

#include "commands.h"

int scene_setup_create(const args* a, scene_setup* out) {
	memset(out, 0, sizeof *out);
	out->scene = args_get(a, "scene") ? args_get(a, "scene") : "hang";
	int64_t grid, substeps, iterations, threads;
	if (!args_int(a, "grid", 64, 2, 4096, &grid) || !args_int(a, "substeps", 0, 1, 1000, &substeps) ||
	    !args_int(a, "iterations", 0, 1, 1000, &iterations) || !args_int(a, "threads", 1, 1, 64, &threads)) {
		return EXIT_BAD_INPUT;
	}
	weft_scene_def scene;
	if (weft_scene(out->scene, (int32_t)grid, &scene) != WEFT_OK) {
		cli_error("%s", weft_last_error());
		return EXIT_BAD_INPUT;
	}
	if (args_get(a, "substeps")) scene.world.substeps = (int32_t)substeps;
	if (args_get(a, "iterations")) scene.world.iterations = (int32_t)iterations;
	scene.world.thread_count = (int32_t)threads;
	weft_result result = weft_world_create(&scene.world, &scene.cloth, &out->world);
	for (int32_t k = 0; result == WEFT_OK && k < scene.sphere_count; ++k) {
		result = weft_world_add_sphere(out->world, &scene.spheres[k], NULL);
	}
	if (result != WEFT_OK) {
		cli_error("%s", weft_last_error());
		weft_world_destroy(out->world);
		out->world = NULL;
		return result == WEFT_ERROR_OUT_OF_MEMORY ? 1 : EXIT_BAD_INPUT;
	}
	out->grid = (int32_t)grid;
	out->frame_dt = scene.frame_dt;
	return 0;
}
