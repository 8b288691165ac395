// Named scenes shared by the CLI, the tests, the benchmarks and the page (through wasm), so every
// front end simulates exactly the same thing.
#include <math.h>
#include <string.h>

#include "cloth.h"
#include "world_internal.h"

static const char* const scene_names[] = {"hang", "sphere", "flag", "bunny", "fold", NULL};

const char* const* weft_scene_names(void) { return scene_names; }

static void square_cloth(weft_scene_def* scene, int32_t grid, float size) {
	scene->cloth.width = grid;
	scene->cloth.height = grid;
	scene->cloth.size_u = size;
	scene->cloth.size_v = size;
}

weft_result weft_scene(const char* name, int32_t grid, weft_scene_def* out) {
	if (name == NULL || out == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "scene name or output is NULL");
	}
	if (grid < 2 || grid > 4096) {
		return weft_fail(grid > 4096 ? WEFT_ERROR_TOO_LARGE : WEFT_ERROR_INVALID_ARGUMENT,
		                 "scene grid must be in 2..4096 (got %d)", (int)grid);
	}
	memset(out, 0, sizeof *out);
	out->world = weft_default_world_def();
	out->cloth = weft_default_cloth_def();
	out->frame_dt = 1.0f / 60.0f;
	if (strcmp(name, "hang") == 0) {
		// Starts horizontal, held by the two corners of its first row, and swings down.
		square_cloth(out, grid, 2.0f);
		out->cloth.origin = (weft_vec3){-1.0f, 2.6f, -1.0f};
		out->cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
		out->cloth.pin = WEFT_PIN_TOP_CORNERS;
		// A heavy cloth in still air: a swing (a drag, a throw) dies down in a few seconds.
		out->world.damping = 1.0f;
	} else if (strcmp(name, "sphere") == 0) {
		// Dropped flat onto a sphere that sways from side to side (the S key stops it).
		square_cloth(out, grid, 2.0f);
		out->cloth.origin = (weft_vec3){-1.0f, 1.6f, -1.0f};
		out->cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
		out->cloth.pin = WEFT_PIN_NONE;
		out->world.tethers = false;
		weft_sphere_def sphere = weft_default_sphere_def();
		sphere.center = (weft_vec3){0.0f, 0.7f, 0.0f};
		sphere.radius = 0.5f;
		sphere.motion_amplitude = (weft_vec3){0.5f, 0.0f, 0.0f};
		sphere.motion_frequency = 0.2f;
		out->spheres[out->sphere_count++] = sphere;
	} else if (strcmp(name, "flag") == 0) {
		// Held along its left edge on a pole, flying in a gusting wind (drag and lift per triangle).
		out->cloth.width = grid;
		out->cloth.height = grid * 2 / 3 > 2 ? grid * 2 / 3 : 2;
		out->cloth.size_u = 2.4f;
		out->cloth.size_v = 1.6f;
		out->cloth.origin = (weft_vec3){-1.2f, 2.8f, 0.0f};
		out->cloth.pin = WEFT_PIN_LEFT_EDGE;
		out->world.wind = (weft_vec3){8.0f, 0.0f, 3.0f};
		out->world.air_density = 1.225f;
		out->world.gust_strength = 0.3f;
		out->mesh_collider = "pole";
	} else if (strcmp(name, "bunny") == 0) {
		// Dropped flat over the Stanford bunny (fitted under the cloth: mesh.c).
		square_cloth(out, grid, 1.6f);
		out->cloth.origin = (weft_vec3){-0.8f, 1.1f, -0.8f};
		out->cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
		out->cloth.pin = WEFT_PIN_NONE;
		out->world.tethers = false;
		// The ears are sharper than the cloth's spacing: at 10 substeps a rim comes between two
		// particles as the cloth lands and the cloth hangs over it stretched (max stretch after 5 s:
		// 26% at 64², 38% at 128²; mesh_ridge_lifts.c lifts it back); at 40 substeps 8% and 33%.
		out->world.substeps = 40;
		// A particle is kept a margin away from the mesh, but the edge between two particles is not:
		// where a sharp feature (an ear's tip) comes between them, both stay a margin from it and the
		// edge is at least two margins long. So the margin is at most half a spacing, which makes that
		// no stretch (grids up to 161² keep the default 5 mm; 512²: 1.6 mm, where 5 mm held every edge
		// across a tip at 3.2 × its rest length while the sweep's drag pulled the cloth over the ears).
		const float spacing = weft_cloth_spacing(&out->cloth);
		if (0.5f * spacing < out->world.collision_margin) {
			out->world.collision_margin = 0.5f * spacing;
		}
		// A frame where the cloth moves fast near the mesh takes up to max_substeps, enough that no
		// particle there moves more than a tenth of a spacing in one (frame_substeps.c). The same motion
		// is more spacings on a finer cloth: the most is what the hand at its fastest (grab_speed, 3 m/s)
		// asks for, at least the default 32 (which covers it up to 103²; 40 at 128², 160 at 512²). At
		// 512² the sweep's drag tore the cloth on the ears with 32 or 64 (11.5 × and 8.2 × its rest
		// length at 10 substeps, the margin already halved), not with 160 (0.67 ×).
		const float hand_per_frame = out->world.grab_speed * out->frame_dt;
		const int32_t hand_substeps = (int32_t)ceilf(hand_per_frame / (WEFT_MESH_MOTION_PER_SUBSTEP * spacing));
		if (hand_substeps > out->world.max_substeps) {
			out->world.max_substeps = hand_substeps < WEFT_MAX_SUBSTEPS ? hand_substeps : WEFT_MAX_SUBSTEPS;
		}
		out->mesh_collider = "bunny";
	} else if (strcmp(name, "fold") == 0) {
		// Hung by its top edge just above the ground, then lowered at 0.5 m/s for 1.9 s, to 13 cm
		// above the floor: the cloth piles up under it in folds (self-collision on).
		square_cloth(out, grid, 1.0f);
		out->cloth.origin = (weft_vec3){-0.5f, 1.08f, 0.0f};
		out->cloth.axis_v = (weft_vec3){0.0f, -0.995f, 0.0998f};
		out->cloth.pin = WEFT_PIN_TOP_EDGE;
		// Tethered to the pins like `hang`: the part still hanging keeps its length (without them,
		// 1 iteration at 512² let the edges under the pins stretch to 2.7 × their rest length). In
		// the pile every particle is nearer its pins than at rest, where tethers do nothing.
		out->world.self_collision = true;
		out->world.pin_velocity = (weft_vec3){0.0f, -0.5f, 0.0f};
		out->world.pin_motion_time = 1.9f;
	} else {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "unknown scene '%s' (hang, sphere, flag, bunny, fold)", name);
	}
	return WEFT_OK;
}

weft_result weft_world_create_from_scene(const weft_scene_def* scene, weft_world** out_world) {
	if (scene == NULL || out_world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "scene or out_world is NULL");
	}
	*out_world = NULL;
	if (scene->sphere_count < 0 || scene->sphere_count > WEFT_MAX_SPHERES) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "sphere_count must be in 0..%d", WEFT_MAX_SPHERES);
	}
	weft_world* world = NULL;
	weft_result result = weft_world_create(&scene->world, &scene->cloth, &world);
	for (int32_t k = 0; result == WEFT_OK && k < scene->sphere_count; ++k) {
		result = weft_world_add_sphere(world, &scene->spheres[k], NULL);
	}
	if (result == WEFT_OK && scene->mesh_collider != NULL) {
		result = weft_world_set_builtin_mesh_collider(world, scene->mesh_collider);
	}
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return result;
	}
	*out_world = world;
	return WEFT_OK;
}

weft_result weft_world_create_scene(const char* name, int32_t grid, weft_world** out_world) {
	if (out_world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "out_world is NULL");
	}
	*out_world = NULL;
	weft_scene_def scene;
	weft_result result = weft_scene(name, grid, &scene);
	return result == WEFT_OK ? weft_world_create_from_scene(&scene, out_world) : result;
}
