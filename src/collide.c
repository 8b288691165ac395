// Collisions with the ground plane and spheres, run once per substep after the constraint solve,
// so no particle ends a step inside a collider. A contact projects the particle to the collider's
// surface plus the collision margin, then removes part of its tangential slip relative to the
// collider's own motion over the substep (friction that knows the sphere moves).
#include <math.h>

#include "world_internal.h"

// Removes friction × the tangential part (to normal n) of the particle's slip over the substep.
static void apply_friction(float* x, const float* previous, weft_vec3 collider_motion, weft_vec3 n, float friction) {
	float sx = x[0] - previous[0] - collider_motion.x;
	float sy = x[1] - previous[1] - collider_motion.y;
	float sz = x[2] - previous[2] - collider_motion.z;
	float along = sx * n.x + sy * n.y + sz * n.z;
	x[0] -= friction * (sx - along * n.x);
	x[1] -= friction * (sy - along * n.y);
	x[2] -= friction * (sz - along * n.z);
}

// Particle p against the ground plane.
static inline void collide_ground(weft_world* world, int32_t p) {
	const float floor_y = world->def.ground_height + world->def.collision_margin;
	const weft_vec3 up = {0.0f, 1.0f, 0.0f}, still = {0.0f, 0.0f, 0.0f};
	float* xp = &world->positions[4 * p];
	if (xp[3] != 0.0f && xp[1] < floor_y) {
		xp[1] = floor_y;
		apply_friction(xp, &world->previous_positions[4 * p], still, up, world->def.friction);
	}
}

// Particle p against one sphere.
static inline void collide_sphere(weft_world* world, const weft_sphere* sphere, int32_t p) {
	float* xp = &world->positions[4 * p];
	if (xp[3] == 0.0f) {
		return;
	}
	const float reach = sphere->def.radius + world->def.collision_margin;
	const weft_vec3 c = sphere->center;
	float dx = xp[0] - c.x, dy = xp[1] - c.y, dz = xp[2] - c.z;
	float d2 = dx * dx + dy * dy + dz * dz;
	if (d2 >= reach * reach) {
		return;
	}
	const weft_vec3 motion = {c.x - sphere->previous_center.x, c.y - sphere->previous_center.y,
	                          c.z - sphere->previous_center.z};
	float d = sqrtf(d2);
	// A particle exactly at the centre is pushed up: any direction is as good, up is stable.
	weft_vec3 n = d > 1e-9f ? (weft_vec3){dx / d, dy / d, dz / d} : (weft_vec3){0.0f, 1.0f, 0.0f};
	xp[0] = c.x + n.x * reach;
	xp[1] = c.y + n.y * reach;
	xp[2] = c.z + n.z * reach;
	apply_friction(xp, &world->previous_positions[4 * p], motion, n, world->def.friction);
}

// Each particle meets the spheres in order, then the ground; a particle's contacts never look at
// another particle, so any slice of the particles can run on its own thread.
void weft_collide_primitives(weft_world* world, int32_t begin, int32_t end) {
	for (int32_t p = begin; p < end; ++p) {
		for (int32_t k = 0; k < world->sphere_count; ++k) {
			collide_sphere(world, &world->spheres[k], p);
		}
		if (world->def.ground_enabled) {
			collide_ground(world, p);
		}
	}
}

void weft_collide_ground(weft_world* world, int32_t p) {
	if (world->def.ground_enabled) {
		collide_ground(world, p);
	}
}
