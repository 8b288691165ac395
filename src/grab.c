// Grabbing (the mouse drag): the grabbed particle becomes kinematic, inverse mass 0, and sits on
// the target every substep; the velocity update then gives it the hand's velocity, so a released
// cloth keeps the motion it was thrown with. Its own inverse mass comes back on release.
#include "world_internal.h"

weft_result weft_world_grab(weft_world* world, int32_t particle, weft_vec3 target) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	if (particle < 0 || particle >= world->particle_count) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "no particle %d (the cloth has %d)", (int)particle,
		                 (int)world->particle_count);
	}
	weft_result result = weft_validate_position(target, "grab target");
	if (result != WEFT_OK) {
		return result;
	}
	weft_world_release(world);
	world->grabbed = particle;
	world->grabbed_inverse_mass = world->positions[4 * particle + 3];
	world->positions[4 * particle + 3] = 0.0f;
	world->grab_target = target;
	return WEFT_OK;
}

weft_result weft_world_grab_move(weft_world* world, weft_vec3 target) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	weft_result result = weft_validate_position(target, "grab target");
	if (result != WEFT_OK) {
		return result;
	}
	if (world->grabbed < 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "nothing is grabbed");
	}
	world->grab_target = target;
	return WEFT_OK;
}

void weft_world_release(weft_world* world) {
	if (world == NULL || world->grabbed < 0) {
		return;
	}
	world->positions[4 * world->grabbed + 3] = world->grabbed_inverse_mass;
	world->grabbed = -1;
}

int32_t weft_world_grabbed(const weft_world* world) {
	return world ? world->grabbed : -1;
}
