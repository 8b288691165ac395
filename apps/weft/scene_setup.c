#include "scene_setup.h"

#include <string.h>

#include "collider_message.h"
#include "commands.h"

// --collider FILE.obj replaces the scene's mesh collider (centred and scaled to fit under the
// cloth); --collider none removes it (e.g. to bench without mesh collision); --spheres 0 removes the
// scene's spheres; --ridge-lifts 0 turns the mesh collider's ridge lifts off (ignored without a
// mesh collider, as --spheres 0 is without spheres). A refused file is said with its name: the reader's "FILE:LINE: why" as it is,
// the collider's own checks (a huge coordinate, only degenerate triangles) by collider_error.
static weft_result user_collider_setup(const char* path, weft_world* world) {
	if (path == NULL || strcmp(path, "none") == 0) {
		return WEFT_OK;
	}
	weft_mesh_data mesh;
	weft_result result = weft_obj_load(path, NULL, &mesh);
	if (result != WEFT_OK) {
		cli_error("%s", weft_last_error());
		return result;
	}
	result =
	    weft_world_set_mesh_collider(world, mesh.positions, mesh.vertex_count, mesh.indices, mesh.triangle_count, true);
	weft_mesh_data_free(&mesh);
	if (result != WEFT_OK) {
		collider_error(path, weft_last_error());
	}
	return result;
}

int scene_setup_create(const args* a, scene_setup* out) {
	memset(out, 0, sizeof *out);
	out->scene = args_get(a, "scene") ? args_get(a, "scene") : "hang";
	int64_t grid, substeps, max_substeps, iterations, threads, self_collision, spheres, ridge_lifts;
	double damping, thickness;
	if (!args_int(a, "grid", 64, 2, 4096, &grid) || !args_int(a, "substeps", 0, 1, 1000, &substeps) ||
	    !args_int(a, "max-substeps", 0, 0, 1000, &max_substeps) ||
	    !args_int(a, "iterations", 0, 1, 1000, &iterations) ||
	    !args_int(a, "threads", 1, 1, WEFT_MAX_THREADS, &threads) ||
	    !args_int(a, "self-collision", 0, 0, 1, &self_collision) || !args_int(a, "spheres", 1, 0, 1, &spheres) ||
	    !args_int(a, "ridge-lifts", 1, 0, 1, &ridge_lifts) || !args_float(a, "damping", 0.0, 0.0, 1000.0, &damping) ||
	    !args_float(a, "thickness", 0.0, 0.0, 0.999, &thickness)) {
		return EXIT_BAD_INPUT;
	}
	weft_scene_def scene;
	if (weft_scene(out->scene, (int32_t)grid, &scene) != WEFT_OK) {
		cli_error("%s", weft_last_error());
		return EXIT_BAD_INPUT;
	}
	if (args_get(a, "substeps")) scene.world.substeps = (int32_t)substeps;
	if (args_get(a, "max-substeps")) scene.world.max_substeps = (int32_t)max_substeps;
	if (args_get(a, "iterations")) scene.world.iterations = (int32_t)iterations;
	if (args_get(a, "damping")) scene.world.damping = (float)damping;
	scene.world.thread_count = (int32_t)threads;
	if (args_get(a, "self-collision")) scene.world.self_collision = self_collision != 0;
	if (args_get(a, "thickness")) scene.cloth.thickness = (float)thickness; // 0: the grid spacing
	if (spheres == 0) {
		scene.sphere_count = 0; // the scene without its spheres (e.g. to bench without sphere collision)
	}
	const char* collider = args_get(a, "collider");
	if (collider != NULL) {
		scene.mesh_collider = NULL; // the user's mesh (or none) instead of the scene's
	}
	weft_result result = weft_world_create_from_scene(&scene, &out->world);
	if (result != WEFT_OK) {
		cli_error("%s", weft_last_error());
	} else {
		result = user_collider_setup(collider, out->world);
	}
	if (result == WEFT_OK && weft_world_mesh_ridge_lifts(out->world) && ridge_lifts == 0) {
		result = weft_world_set_mesh_ridge_lifts(out->world, false);
	}
	if (result != WEFT_OK) {
		weft_world_destroy(out->world);
		out->world = NULL;
		return result == WEFT_ERROR_OUT_OF_MEMORY ? 1 : EXIT_BAD_INPUT;
	}
	out->grid = (int32_t)grid;
	out->frame_dt = scene.frame_dt;
	return 0;
}
