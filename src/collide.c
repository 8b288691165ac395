// Collisions with the ground plane and spheres, run once per substep after the constraint solve,
// so no particle ends a step inside a collider. A contact projects the particle to the collider's
// surface plus the collision margin, then removes part of its tangential slip relative to the
// collider's own motion over the substep (friction that knows the sphere moves).
#include <math.h>

#include "simd4.h"
#include "world_internal.h"

// The tangential part (to normal n) of the particle's slip over the substep, relative to the
// collider: stopped where it is at most friction × push (the contact's push along n this substep:
// static friction), else friction × it removed.
static void apply_friction(float* x, const float* previous, weft_vec3 collider_motion, weft_vec3 n, float friction,
                           float push) {
	float sx = x[0] - previous[0] - collider_motion.x;
	float sy = x[1] - previous[1] - collider_motion.y;
	float sz = x[2] - previous[2] - collider_motion.z;
	float along = sx * n.x + sy * n.y + sz * n.z;
	const float tx = sx - along * n.x, ty = sy - along * n.y, tz = sz - along * n.z;
	const float hold = friction * push;
	const float removed = tx * tx + ty * ty + tz * tz <= hold * hold ? 1.0f : friction;
	x[0] -= removed * tx;
	x[1] -= removed * ty;
	x[2] -= removed * tz;
}

// Particle p against the ground plane.
static inline void collide_ground(weft_world* world, int32_t p, float friction) {
	const float floor_y = world->def.ground_height + world->def.collision_margin;
	float* xp = &world->positions[4 * p];
	if (xp[3] != 0.0f && xp[1] < floor_y) {
		weft_ground_contact(&xp[0], &xp[1], &xp[2], &world->previous_positions[4 * p], floor_y, friction);
	}
}

// Point x (xyz) pushed out of one sphere, onto its surface plus `margin` where it is nearer the
// centre than that: whether it was, the push's direction in *n and its length in *push.
static inline bool sphere_push_out(const weft_sphere* sphere, float margin, float* x, weft_vec3* n, float* push) {
	const float reach = sphere->def.radius + margin;
	const weft_vec3 c = sphere->center;
	float dx = x[0] - c.x, dy = x[1] - c.y, dz = x[2] - c.z;
	float d2 = dx * dx + dy * dy + dz * dz;
	if (d2 >= reach * reach) {
		return false;
	}
	float d = sqrtf(d2);
	// A particle exactly at the centre is pushed up: any direction is as good, up is stable.
	*n = d > 1e-9f ? (weft_vec3){dx / d, dy / d, dz / d} : (weft_vec3){0.0f, 1.0f, 0.0f};
	x[0] = c.x + n->x * reach;
	x[1] = c.y + n->y * reach;
	x[2] = c.z + n->z * reach;
	*push = reach - d;
	return true;
}

// Particle p against one sphere.
static inline void collide_sphere(weft_world* world, const weft_sphere* sphere, int32_t p, float friction) {
	float* xp = &world->positions[4 * p];
	if (xp[3] == 0.0f) {
		return;
	}
	weft_vec3 n;
	float push;
	if (!sphere_push_out(sphere, world->def.collision_margin, xp, &n, &push)) {
		return;
	}
	const weft_vec3 c = sphere->center;
	const weft_vec3 motion = {c.x - sphere->previous_center.x, c.y - sphere->previous_center.y,
	                          c.z - sphere->previous_center.z};
	apply_friction(xp, &world->previous_positions[4 * p], motion, n, friction, push);
}

// Particle p against the spheres in order, then the ground.
static inline void collide_particle(weft_world* world, int32_t p, float friction) {
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		collide_sphere(world, &world->spheres[k], p, friction);
	}
	if (world->def.ground_enabled) {
		collide_ground(world, p, friction);
	}
}

#if defined(WEFT_SIMD)
// Four particles from p at once: every lane performs the scalar path's operations in its order
// (spheres in order, then the ground; no FMA), and a lane without contact keeps its bits through
// a select, so the result is the same as collide_particle on each.
static inline void collide_four(weft_world* world, int32_t p) {
	float* x = &world->positions[4 * p];
	const float* previous = &world->previous_positions[4 * p];
	vf px = vload(x), py = vload(x + 4), pz = vload(x + 8), pw = vload(x + 12);
	transpose(&px, &py, &pz, &pw);
	vf qx = vload(previous), qy = vload(previous + 4), qz = vload(previous + 8), qw = vload(previous + 12);
	transpose(&qx, &qy, &qz, &qw);
	const vf free = vnonzero(pw), friction = vsplat(world->def.friction);
	bool moved = false;
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		const weft_sphere* sphere = &world->spheres[k];
		const float reach = sphere->def.radius + world->def.collision_margin;
		const weft_vec3 c = sphere->center;
		const vf dx = vsub(px, vsplat(c.x)), dy = vsub(py, vsplat(c.y)), dz = vsub(pz, vsplat(c.z));
		const vf d2 = vadd(vadd(vmul(dx, dx), vmul(dy, dy)), vmul(dz, dz));
		const vf hit = vand(free, vgreater(vsplat(reach * reach), d2));
		if (!vany(hit)) {
			continue;
		}
		moved = true;
		const vf d = vsqrt(d2), apart = vgreater(d, vsplat(1e-9f));
		const vf nx = vselect(apart, vdiv(dx, d), vzero()), ny = vselect(apart, vdiv(dy, d), vsplat(1.0f)),
		         nz = vselect(apart, vdiv(dz, d), vzero());
		const vf r = vsplat(reach);
		const vf sx0 = vadd(vsplat(c.x), vmul(nx, r)), sy0 = vadd(vsplat(c.y), vmul(ny, r)),
		         sz0 = vadd(vsplat(c.z), vmul(nz, r));
		// apply_friction with the sphere's motion over the substep and the push reach − d.
		const vf sx = vsub(vsub(sx0, qx), vsplat(c.x - sphere->previous_center.x));
		const vf sy = vsub(vsub(sy0, qy), vsplat(c.y - sphere->previous_center.y));
		const vf sz = vsub(vsub(sz0, qz), vsplat(c.z - sphere->previous_center.z));
		const vf along = vadd(vadd(vmul(sx, nx), vmul(sy, ny)), vmul(sz, nz));
		const vf tx = vsub(sx, vmul(along, nx)), ty = vsub(sy, vmul(along, ny)), tz = vsub(sz, vmul(along, nz));
		const vf hold = vmul(friction, vsub(r, d));
		const vf slip2 = vadd(vadd(vmul(tx, tx), vmul(ty, ty)), vmul(tz, tz));
		const vf removed = vselect(vgreater_equal(vmul(hold, hold), slip2), vsplat(1.0f), friction);
		px = vselect(hit, vsub(sx0, vmul(removed, tx)), px);
		py = vselect(hit, vsub(sy0, vmul(removed, ty)), py);
		pz = vselect(hit, vsub(sz0, vmul(removed, tz)), pz);
	}
	if (world->def.ground_enabled) {
		const float floor_y = world->def.ground_height + world->def.collision_margin;
		const vf hit = vand(free, vgreater(vsplat(floor_y), py));
		if (vany(hit)) {
			moved = true;
			// weft_ground_contact: static friction up to friction × the push up, else apply_friction
			// with n = up and a still ground.
			const vf zero = vzero(), one = vsplat(1.0f), y0 = vsplat(floor_y);
			const vf hold = vmul(friction, vsub(y0, py));
			const vf sx = vsub(vsub(px, qx), zero), sy = vsub(vsub(y0, qy), zero), sz = vsub(vsub(pz, qz), zero);
			const vf along = vadd(vadd(vmul(sx, zero), vmul(sy, one)), vmul(sz, zero));
			const vf tx = vsub(sx, vmul(along, zero)), ty = vsub(sy, vmul(along, one)),
			         tz = vsub(sz, vmul(along, zero));
			const vf slip2 = vadd(vadd(vmul(tx, tx), vmul(ty, ty)), vmul(tz, tz));
			const vf removed = vselect(vgreater_equal(vmul(hold, hold), slip2), one, friction);
			px = vselect(hit, vsub(px, vmul(removed, tx)), px);
			py = vselect(hit, vsub(y0, vmul(removed, ty)), py);
			pz = vselect(hit, vsub(pz, vmul(removed, tz)), pz);
		}
	}
	if (moved) {
		transpose(&px, &py, &pz, &pw);
		vstore(x, px);
		vstore(x + 4, py);
		vstore(x + 8, pz);
		vstore(x + 12, pw);
	}
}
#endif

// Each particle meets the spheres in order, then the ground; a particle's contacts never look at
// another particle, so any slice of the particles can run on its own thread (four at a time
// where the solve is vectorised).
void weft_collide_primitives(weft_world* world, int32_t begin, int32_t end) {
	int32_t p = begin;
#if defined(WEFT_SIMD)
	if (world->simd_width > 0) {
		for (; p + 4 <= end; p += 4) {
			collide_four(world, p);
		}
	}
#endif
	for (; p < end; ++p) {
		collide_particle(world, p, world->def.friction);
	}
}

void weft_collide_primitives_push_out(weft_world* world, int32_t p) { collide_particle(world, p, 0.0f); }

weft_vec3 weft_collide_point_push_out(const weft_world* world, weft_vec3 point) {
	float x[3] = {point.x, point.y, point.z};
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		weft_vec3 n;
		float push;
		sphere_push_out(&world->spheres[k], world->def.collision_margin, x, &n, &push);
	}
	const float floor_y = world->def.ground_height + world->def.collision_margin;
	if (world->def.ground_enabled && x[1] < floor_y) {
		x[1] = floor_y;
	}
	return (weft_vec3){x[0], x[1], x[2]};
}

void weft_collide_ground(weft_world* world, int32_t p) {
	if (world->def.ground_enabled) {
		collide_ground(world, p, world->def.friction);
	}
}
