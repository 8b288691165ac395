// Sphere colliders: the public sphere API and the scripted motion (the demo's S key).
#include "world_internal.h"

void weft_sphere_place(weft_sphere* sphere) {
	const float two_pi = 6.28318530717959f;
	float s = weft_sin(two_pi * sphere->def.motion_frequency * (float)sphere->motion_time);
	sphere->center.x = sphere->def.center.x + sphere->def.motion_amplitude.x * s;
	sphere->center.y = sphere->def.center.y + sphere->def.motion_amplitude.y * s;
	sphere->center.z = sphere->def.center.z + sphere->def.motion_amplitude.z * s;
}

void weft_spheres_advance(weft_world* world, float dt) {
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		weft_sphere* sphere = &world->spheres[k];
		sphere->previous_center = sphere->center;
		if (sphere->moving) {
			sphere->motion_time += (double)dt;
			weft_sphere_place(sphere);
		}
	}
}

weft_result weft_world_add_sphere(weft_world* world, const weft_sphere_def* def, weft_sphere_id* out_id) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	weft_result result = weft_validate_sphere_def(def);
	if (result != WEFT_OK) {
		return result;
	}
	if (world->sphere_count >= WEFT_MAX_SPHERES) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "a world holds at most %d spheres", WEFT_MAX_SPHERES);
	}
	int32_t index = world->sphere_count++;
	weft_sphere* sphere = &world->spheres[index];
	*sphere = (weft_sphere){
	    .def = *def, .center = def->center, .previous_center = def->center, .motion_time = 0.0, .moving = def->moving};
	if (out_id != NULL) {
		*out_id = (weft_sphere_id){index};
	}
	return WEFT_OK;
}

static weft_result check_sphere(const weft_world* world, weft_sphere_id id) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	if (id.index < 0 || id.index >= world->sphere_count) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "no sphere %d (the world has %d)", (int)id.index,
		                 (int)world->sphere_count);
	}
	return WEFT_OK;
}

weft_result weft_world_set_sphere_moving(weft_world* world, weft_sphere_id id, bool moving) {
	weft_result result = check_sphere(world, id);
	if (result == WEFT_OK) {
		world->spheres[id.index].moving = moving;
	}
	return result;
}

weft_result weft_world_get_sphere(const weft_world* world, weft_sphere_id id, weft_vec3* out_center, float* out_radius,
                                  bool* out_moving) {
	weft_result result = check_sphere(world, id);
	if (result != WEFT_OK) {
		return result;
	}
	const weft_sphere* sphere = &world->spheres[id.index];
	if (out_center) *out_center = sphere->center;
	if (out_radius) *out_radius = sphere->def.radius;
	if (out_moving) *out_moving = sphere->moving;
	return WEFT_OK;
}

weft_result weft_world_get_sphere_def(const weft_world* world, weft_sphere_id id, weft_sphere_def* out_def,
                                      double* out_motion_time) {
	weft_result result = check_sphere(world, id);
	if (result != WEFT_OK) {
		return result;
	}
	if (out_def) *out_def = world->spheres[id.index].def;
	if (out_motion_time) *out_motion_time = world->spheres[id.index].motion_time;
	return WEFT_OK;
}

int32_t weft_world_sphere_count(const weft_world* world) { return world ? world->sphere_count : 0; }

void weft_spheres_reset(weft_world* world) {
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		weft_sphere* sphere = &world->spheres[k];
		sphere->motion_time = 0.0;
		sphere->moving = sphere->def.moving;
		sphere->center = sphere->def.center;
		sphere->previous_center = sphere->def.center;
	}
}
