// The thickness set live (weft_world_set_thickness), and thicker settings worked up to: layers a
// settled pile keeps one thickness apart, given twice that at once, are pushed apart at max_step (0.4
// of the new thickness) a substep, and the pile jumps (`fold` 64², settled, 15.9 → 32 mm: 4.45 m/s,
// its top from 0.13 to 0.22 m; 32², 31 → 64 mm: 6.0 m/s). A thicker setting on a world that has
// stepped grows the thickness in force by WEFT_THICKNESS_RAMP a frame (weft_world_advance_thickness_ramp,
// at the start of each weft_world_step): 1.28 and 1.59 m/s, the pile's top at 0.13 and 0.15 m. A
// thinner one, and any from rest, takes effect at once (tests/unit/test_self_collision.c). Many
// spacings thick is beyond any ramp: a pile cannot keep its layers that far apart without
// stretching (32², 31 → 96 mm: 21 m/s either way).
#include "self_collision.h"
#include "world_internal.h"

static void thickness_write(weft_world* world, float thickness) {
	world->thickness = thickness;
	weft_self_collision_invalidate(world); // lists of the old reach
}

weft_result weft_world_set_thickness_gradually(weft_world* world, float thickness, bool gradually) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	const weft_result result = weft_validate_thickness(thickness);
	if (result != WEFT_OK) {
		return result;
	}
	world->thickness_wanted = thickness > 0.0f ? thickness : 0.5f * world->self_rest_distance; // one spacing
	if (!gradually || world->thickness_wanted <= world->thickness) {
		thickness_write(world, world->thickness_wanted);
	}
	return WEFT_OK;
}

weft_result weft_world_set_thickness(weft_world* world, float thickness) {
	return weft_world_set_thickness_gradually(world, thickness, world != NULL && world->substeps_run > 0);
}

float weft_world_thickness(const weft_world* world) { return world != NULL ? world->thickness_wanted : 0.0f; }

bool weft_world_advance_thickness_ramp(weft_world* world) {
	if (world == NULL || !(world->thickness < world->thickness_wanted)) {
		return false;
	}
	const float next = world->thickness * WEFT_THICKNESS_RAMP;
	thickness_write(world, next < world->thickness_wanted ? next : world->thickness_wanted);
	return true;
}
