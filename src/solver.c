// The XPBD step.
//
// Extended position-based dynamics treats every distance constraint C = |xa − xb| − L0 as a spring
// of compliance α (the inverse stiffness) and solves it on positions: predict where particles go
// under external forces, then move them until the constraints hold, then read the velocities off
// the displacement. The Lagrange multiplier λ of each constraint accumulates the force it has
// applied; with α̃ = α/h² the update Δλ = (−C − α̃λ)/(wa + wb + α̃) makes the result independent of
// iteration count and time step (the "extended" part), so compliance means physical stiffness.
//
// Small steps: a frame is split into S substeps of h = dt/S, each with K iterations (usually 1) and
// λ reset at its start. Many cheap substeps converge far better than many iterations of one big step,
// because the error of a position-based solve shrinks with h² while iterations only chip at it.
//
// A substep reads like the algorithm:
//   air        — drag and lift of every triangle in the (gusting) wind (aerodynamics.c)
//   integrate  — v += h (gravity + air), damping, x_prev = x, x += h v (pinned particles stay,
//                or follow their scripted path)
//   solve      — colour batch after colour batch (see coloring.c), then the overflow batch, then tethers
//   self       — layers of the cloth closer than its thickness push apart (self_collision.c)
//   collide    — ground, spheres and meshes push particles out, with friction (collide.c)
//   update     — v += (x − (x_prev + h v)) / h (what the solve and colliders did), with a speed clamp
// The substep is one list of stages (solver.h): the serial step walks it, and with a thread pool
// (thread_pool.c) every thread walks it too, each on its slice of a stage, with a barrier after each.
// Inside a colour batch no two constraints share a particle, so slices never race, and every particle
// sees exactly the operations in exactly the order of the serial step: the result is bit-identical for
// any thread count. While the constraints are solved, positions are rows of x, y, z and inverse mass,
// and solver_simd.c / solver_avx2.c solve a batch 4 or 8 constraints at a time from the runs at
// grid strides that solver_plan.c found. Between substeps, update and the next integrate are one
// pass over the particles. Nothing here allocates.
#include <math.h>
#include <string.h>

#include "aerodynamics.h"
#include "mesh.h"
#include "self_collision.h"
#include "simd4.h"
#include "solver.h"
#include "thread_pool.h"

// What integrate needs of the world this substep (after the scripted stage has run).
typedef struct integration {
	const weft_world_def* def;
	float h, damping, kick, pin_travel;
	bool air, pins_move;
} integration;

static integration integration_of(const weft_world* world, float h) {
	const weft_world_def* def = &world->def;
	return (integration){
	    .def = def,
	    .h = h,
	    .damping = fmaxf(0.0f, 1.0f - def->damping * h),
	    // Velocities live at half steps (leapfrog): the first substep after a reset kicks by h/2, so a
	    // cloth let go from rest falls exactly ½ g t² at any substep count.
	    .kick = world->stepped ? h : 0.5f * h,
	    .pin_travel =
	        (float)(world->clock < (double)def->pin_motion_time ? world->clock : (double)def->pin_motion_time),
	    .air = weft_aero_active(def),
	    .pins_move = def->pin_motion_time > 0.0f,
	};
}

#if defined(WEFT_SIMD)
// Free particles four at a time on the 4-lane shims (a particle a vector, as the per-particle code
// of weft_phase_update_integrate): the four's tests (kinematic, below the floor) and speeds taken
// together from their transposes, so a particle costs no scalar test or lane extraction. The same
// expressions lane for lane; returns the first particle it did not do (weft_update_integrate_fours'
// contract, whose parts `update` and `integrate` are).
static inline __attribute__((always_inline)) int32_t fours_4(const weft_update_integrate_job* job, int32_t begin,
                                                             int32_t end, bool update, bool integrate) {
	float* x = job->x;
	float* previous = job->previous;
	float* v = job->v;
	float* r = job->r;
	const vf h = vsplat(job->h), inverse_h = vsplat(job->inverse_h), damping = vsplat(job->damping);
	const vf kick_gravity = vmul(vsplat(job->kick), vload(job->gravity));
	const vf floor_y = vsplat(job->floor_y), max_speed2 = vsplat(job->max_speed * job->max_speed);
	int32_t p = begin;
	for (; p + 4 <= end; p += 4) {
		vf X[4], lane_x, lane_y, lane_z, lane_w;
		for (int32_t k = 0; k < 4; ++k) {
			X[k] = vload(&x[4 * (p + k)]);
		}
		lane_x = X[0], lane_y = X[1], lane_z = X[2], lane_w = X[3];
		transpose(&lane_x, &lane_y, &lane_z, &lane_w);
		if (vany(vgreater(floor_y, lane_y)) || !vall(vnonzero(lane_w))) {
			break; // y below the floor (a possible ground contact) or w = 0 (kinematic): the caller's code
		}
		vf V[4], V1[4], R1[4];
		for (int32_t k = 0; k < 4; ++k) {
			V[k] = V1[k] = vload(&v[4 * (p + k)]);
			R1[k] = vload(&r[4 * (p + k)]);
		}
		if (update) {
			for (int32_t k = 0; k < 4; ++k) {
				const vf P = vload(&previous[4 * (p + k)]);
				const vf step = vadd(vmul(h, V[k]), R1[k]);
				const vf predicted = vadd(P, step);
				R1[k] = vxyz_w(vsub(step, vsub(predicted, P)), R1[k]);
				V1[k] = vxyz_w(vadd(V[k], vmul(vsub(X[k], predicted), inverse_h)), V[k]);
			}
			if (job->max_speed > 0.0f) {
				vf sx = vmul(V1[0], V1[0]), sy = vmul(V1[1], V1[1]), sz = vmul(V1[2], V1[2]), sw = vmul(V1[3], V1[3]);
				transpose(&sx, &sy, &sz, &sw);
				const vf speed2 = vadd(vadd(sx, sy), sz); // each particle's vx² + vy² + vz², the scalar order
				const int fast = vbits(vgreater(speed2, max_speed2));
				for (int32_t k = 0; fast != 0 && k < 4; ++k) {
					if (fast & (1 << k)) {
						const float scale = job->max_speed / sqrtf(vlane(speed2, k));
						V1[k] = vxyz_w(vmul(V1[k], vsplat(scale)), V1[k]);
					}
				}
			}
		}
		for (int32_t k = 0; k < 4; ++k) {
			if (integrate) {
				// previous = x, v = v damping + kick g, x = previous + (h v + r)
				const vf V2 = vxyz_w(vadd(vmul(V1[k], damping), kick_gravity), V[k]);
				vstore(&previous[4 * (p + k)], X[k]);
				vstore(&v[4 * (p + k)], V2);
				vstore(&x[4 * (p + k)], vxyz_w(vadd(X[k], vadd(vmul(h, V2), R1[k])), X[k]));
			} else {
				vstore(&v[4 * (p + k)], V1[k]);
			}
			if (update) {
				vstore(&r[4 * (p + k)], R1[k]);
			}
		}
	}
	return p;
}

// The widest fours this frame's solve has.
static int32_t fours(const weft_world* world, const weft_update_integrate_job* job, int32_t begin, int32_t end) {
	if (world->simd_width == 16) {
		return weft_update_integrate_fours(job, begin, end);
	}
	switch (job->parts) {
	case WEFT_FOURS_UPDATE: return fours_4(job, begin, end, true, false);
	case WEFT_FOURS_INTEGRATE: return fours_4(job, begin, end, false, true);
	default: return fours_4(job, begin, end, true, true);
	}
}

static weft_update_integrate_job fours_job(weft_world* world, const integration* c, float floor_y, int32_t parts) {
	const weft_world_def* def = &world->def;
	return (weft_update_integrate_job){
	    world->positions,
	    world->previous_positions,
	    world->velocities,
	    world->residuals,
	    c->h,
	    1.0f / c->h,
	    c->damping,
	    c->kick,
	    def->max_speed,
	    floor_y,
	    {def->gravity.x, def->gravity.y, def->gravity.z, 0.0f},
	    parts,
	};
}
#endif

static inline void integrate_particle(weft_world* world, const integration* c, int32_t p) {
	const weft_world_def* def = c->def;
	const float h = c->h, kick = c->kick;
	float* x = world->positions;
	float* v = world->velocities;
	float* previous = world->previous_positions;
	const float* r = world->residuals;
	previous[4 * p] = x[4 * p];
	previous[4 * p + 1] = x[4 * p + 1];
	previous[4 * p + 2] = x[4 * p + 2];
	previous[4 * p + 3] = x[4 * p + 3];
	if (x[4 * p + 3] == 0.0f) {
		if (c->pins_move && world->rest_positions[4 * p + 3] == 0.0f && p != world->grabbed) {
			// A pinned particle on its scripted path: rest + velocity × min(t, pin_motion_time).
			const float* rest = &world->rest_positions[4 * p];
			x[4 * p] = rest[0] + def->pin_velocity.x * c->pin_travel;
			x[4 * p + 1] = rest[1] + def->pin_velocity.y * c->pin_travel;
			x[4 * p + 2] = rest[2] + def->pin_velocity.z * c->pin_travel;
		}
		return;
	}
	float ax = def->gravity.x, ay = def->gravity.y, az = def->gravity.z;
	if (c->air) {
		// Drag and lift of the triangles around it (aerodynamics.c). One kick of air never makes
		// the particle's speed relative to the wind grow (|d − s Δv| ≤ |d| for s ≤ 2 d·Δv/|Δv|²):
		// a strong wind on a light cloth neither overshoots nor pumps energy in.
		weft_vec3 a = weft_aero_acceleration(world, p);
		const weft_vec3 relative = {world->air_wind.x - v[4 * p], world->air_wind.y - v[4 * p + 1],
		                            world->air_wind.z - v[4 * p + 2]};
		const weft_vec3 change = weft_scale(a, kick);
		const float along = weft_dot(relative, change), size2 = weft_dot(change, change);
		if (!(size2 < INFINITY) || !(along < INFINITY)) {
			a = (weft_vec3){0.0f, 0.0f, 0.0f}; // beyond float range: no direction to trust
		} else if (size2 > 0.0f && !(2.0f * along >= size2)) {
			a = weft_scale(a, along > 0.0f ? 2.0f * along / size2 : 0.0f);
		}
		ax += a.x;
		ay += a.y;
		az += a.z;
	}
	// Damping acts on the motion so far, not on this substep's forces: a resting cloth then
	// balances gravity exactly (the static stretch is m g α whatever the damping).
	v[4 * p] = v[4 * p] * c->damping + kick * ax;
	v[4 * p + 1] = v[4 * p + 1] * c->damping + kick * ay;
	v[4 * p + 2] = v[4 * p + 2] * c->damping + kick * az;
	// The prediction carries the part of earlier steps that rounding kept out of x (update).
	x[4 * p] = previous[4 * p] + (h * v[4 * p] + r[4 * p]);
	x[4 * p + 1] = previous[4 * p + 1] + (h * v[4 * p + 1] + r[4 * p + 1]);
	x[4 * p + 2] = previous[4 * p + 2] + (h * v[4 * p + 2] + r[4 * p + 2]);
}

// The end of integrate over [begin, end): the grabbed particle, then the solve's rows.
static void integrated(weft_world* world, int32_t begin, int32_t end) {
	if (world->grabbed >= begin && world->grabbed < end) {
		// The grabbed particle is kinematic (inverse mass 0): it sits where the hand holds it,
		// outside the spheres and the ground.
		float* g = &world->positions[4 * world->grabbed];
		const weft_vec3 held = weft_grab_advance_hold(world);
		g[0] = held.x;
		g[1] = held.y;
		g[2] = held.z;
	}
	if (world->simd_width > 0) {
		weft_rows_from_positions(world, begin, end); // the solve's layout (solver_simd.c)
	}
}

void weft_phase_integrate(weft_world* world, float h, int32_t begin, int32_t end) {
	const integration c = integration_of(world, h);
#if defined(WEFT_SIMD)
	const bool vector = !c.air && world->simd_width > 0;
	const weft_update_integrate_job job = fours_job(world, &c, -INFINITY, WEFT_FOURS_INTEGRATE);
#endif
	for (int32_t p = begin; p < end; ++p) {
#if defined(WEFT_SIMD)
		if (vector) {
			p = fours(world, &job, p, end); // free particles; a kinematic one below
			if (p == end) {
				break;
			}
		}
#endif
		integrate_particle(world, &c, p);
	}
	integrated(world, begin, end);
}

// Inlined with constant strides (weft_tethers_strided), so each layout compiles to its own loop.
static inline void tethers(weft_world* world, float* px, float* py, float* pz, const float* pw, int32_t stride,
                           const int32_t* anchor, const float* max_distance, int32_t per_particle, int32_t per_slot,
                           int32_t begin, int32_t end) {
	for (int32_t p = begin; p < end; ++p) {
		const int32_t q = stride * p;
		if (pw[q] == 0.0f) {
			continue;
		}
		for (int32_t slot = 0; slot < WEFT_TETHERS_PER_PARTICLE; ++slot) {
			const int32_t k = p * per_particle + slot * per_slot;
			if (anchor[k] < 0) {
				continue;
			}
			const int32_t y = stride * anchor[k];
			float dx = px[q] - px[y], dy = py[q] - py[y], dz = pz[q] - pz[y];
			float d2 = dx * dx + dy * dy + dz * dz;
			float limit = max_distance[k] * world->tether_scale;
			if (d2 > limit * limit) {
				float s = limit / sqrtf(d2);
				px[q] = px[y] + dx * s;
				py[q] = py[y] + dy * s;
				pz[q] = pz[y] + dz * s;
			}
		}
	}
}

void weft_tethers_strided(weft_world* world, float* px, float* py, float* pz, const float* pw, int32_t stride,
                          const int32_t* anchor, const float* max_distance, int32_t per_particle, int32_t per_slot,
                          int32_t begin, int32_t end) {
	if (stride == 4 && per_particle == WEFT_TETHERS_PER_PARTICLE && per_slot == 1) {
		tethers(world, px, py, pz, pw, 4, anchor, max_distance, WEFT_TETHERS_PER_PARTICLE, 1, begin, end);
	} else {
		tethers(world, px, py, pz, pw, stride, anchor, max_distance, per_particle, per_slot, begin, end);
	}
}

// One component of a free particle's new velocity, and the residual its prediction carries on.
static inline float carried_velocity(const float* x, const float* previous, const float* v, float* r, float h,
                                     float inverse_h) {
	const float step = h * v[0] + r[0];
	const float predicted = previous[0] + step; // integrate's prediction, bit for bit
	r[0] = step - (predicted - previous[0]);
	return v[0] + (x[0] - predicted) * inverse_h;
}

static inline void update_particle(weft_world* world, int32_t p, float h, float inverse_h, float max_speed) {
	const float* x = world->positions;
	const float* previous = world->previous_positions;
	float* v = world->velocities;
	float* r = world->residuals;
	float vx, vy, vz;
	if (x[4 * p + 3] == 0.0f) {
		// Kinematic (pinned, on a scripted path, grabbed): the velocity of its motion.
		vx = (x[4 * p] - previous[4 * p]) * inverse_h;
		vy = (x[4 * p + 1] - previous[4 * p + 1]) * inverse_h;
		vz = (x[4 * p + 2] - previous[4 * p + 2]) * inverse_h;
	} else {
		// Float32 positions lose every increment below half an ulp of x (at 1000 substeps a
		// falling cloth would not move), so the velocity is state and the rounding is carried:
		// v gains what the solve and the colliders did to the prediction, and the residual of
		// the prediction's rounding joins the next one (compensated summation). The
		// prediction is recomputed with integrate's expression: the same bits.
		vx = carried_velocity(&x[4 * p], &previous[4 * p], &v[4 * p], &r[4 * p], h, inverse_h);
		vy = carried_velocity(&x[4 * p + 1], &previous[4 * p + 1], &v[4 * p + 1], &r[4 * p + 1], h, inverse_h);
		vz = carried_velocity(&x[4 * p + 2], &previous[4 * p + 2], &v[4 * p + 2], &r[4 * p + 2], h, inverse_h);
	}
	if (max_speed > 0.0f) {
		float speed2 = vx * vx + vy * vy + vz * vz;
		if (speed2 > max_speed * max_speed) {
			float s = max_speed / sqrtf(speed2);
			vx *= s;
			vy *= s;
			vz *= s;
		}
	}
	v[4 * p] = vx;
	v[4 * p + 1] = vy;
	v[4 * p + 2] = vz;
}

void weft_phase_update(weft_world* world, float h, int32_t begin, int32_t end) {
	const float inverse_h = 1.0f / h, max_speed = world->def.max_speed;
#if defined(WEFT_SIMD)
	const integration c = integration_of(world, h);
	const weft_update_integrate_job job = fours_job(world, &c, -INFINITY, WEFT_FOURS_UPDATE);
#endif
	for (int32_t p = begin; p < end; ++p) {
#if defined(WEFT_SIMD)
		if (world->simd_width > 0) {
			p = fours(world, &job, p, end); // free particles; a kinematic one below
			if (p == end) {
				break;
			}
		}
#endif
		update_particle(world, p, h, inverse_h, max_speed);
	}
}

void weft_phase_update_integrate(weft_world* world, float h, int32_t begin, int32_t end, bool ground) {
	// One pass instead of two: each particle's update, then its next integrate (bit for bit the
	// two phases, which never look at another particle; the scripted stage between them has run).
	const float inverse_h = 1.0f / h, max_speed = world->def.max_speed;
	const integration c = integration_of(world, h);
	// Below this a particle may touch the ground (weft_collide_ground decides); -inf: never.
	const float floor_y =
	    ground && world->def.ground_enabled ? world->def.ground_height + world->def.collision_margin : -INFINITY;
#if defined(WEFT_SIMD)
	if (!c.air) {
		// A free particle's x, y, z in the lanes of one vector, the scalar expressions lane for lane;
		// the w lanes keep their bits (vxyz_w). Kinematic particles take the scalar code.
		float* x = world->positions;
		float* previous = world->previous_positions;
		float* v = world->velocities;
		float* r = world->residuals;
		const vf h4 = vsplat(h), inverse_h4 = vsplat(inverse_h), damping = vsplat(c.damping);
		const vf kick = vsplat(c.kick);
		const float ground_friction = world->def.friction;
		const float g[4] = {c.def->gravity.x, c.def->gravity.y, c.def->gravity.z, 0.0f};
		const vf gravity = vload(g);
		const weft_update_integrate_job job = fours_job(world, &c, floor_y, WEFT_FOURS_UPDATE | WEFT_FOURS_INTEGRATE);
		for (int32_t p = begin; p < end; ++p) {
			p = fours(world, &job, p, end);
			if (p == end) {
				break;
			}
			vf X = vload(&x[4 * p]);
			if (x[4 * p + 1] < floor_y && x[4 * p + 3] != 0.0f) {
				// A ground contact, in registers: stored and loaded again as a vector, the particle
				// waited for its own scalar stores (a cloth lying on the floor: 30% of its frame).
				float cx = x[4 * p], cy = x[4 * p + 1], cz = x[4 * p + 2];
				weft_ground_contact(&cx, &cy, &cz, &previous[4 * p], floor_y, ground_friction);
				X = vxyz_w(vset4(cx, cy, cz, 0.0f), X);
			}
			if (x[4 * p + 3] == 0.0f) {
				update_particle(world, p, h, inverse_h, max_speed);
				integrate_particle(world, &c, p);
				continue;
			}
			const vf P = vload(&previous[4 * p]), V = vload(&v[4 * p]), R = vload(&r[4 * p]);
			// update: carried_velocity per lane
			const vf step = vadd(vmul(h4, V), R);
			const vf predicted = vadd(P, step);
			const vf R1 = vxyz_w(vsub(step, vsub(predicted, P)), R);
			vf V1 = vadd(V, vmul(vsub(X, predicted), inverse_h4));
			if (max_speed > 0.0f) {
				const float vx = vlane(V1, 0), vy = vlane(V1, 1), vz = vlane(V1, 2);
				const float speed2 = vx * vx + vy * vy + vz * vz;
				if (speed2 > max_speed * max_speed) {
					V1 = vmul(V1, vsplat(max_speed / sqrtf(speed2)));
				}
			}
			// integrate: previous = x, v = v damping + kick g, x = previous + (h v + r)
			const vf V2 = vxyz_w(vadd(vmul(V1, damping), vmul(kick, gravity)), V);
			const vf X2 = vxyz_w(vadd(X, vadd(vmul(h4, V2), R1)), X);
			vstore(&previous[4 * p], X);
			vstore(&v[4 * p], V2);
			vstore(&r[4 * p], R1);
			vstore(&x[4 * p], X2);
		}
		integrated(world, begin, end);
		return;
	}
#endif
	for (int32_t p = begin; p < end; ++p) {
		if (world->positions[4 * p + 1] < floor_y) {
			weft_collide_ground(world, p);
		}
		update_particle(world, p, h, inverse_h, max_speed);
		integrate_particle(world, &c, p);
	}
	integrated(world, begin, end);
}

void weft_solver_build_stages(const weft_world* world, weft_stage_list* out) {
	const int32_t n = world->particle_count;
	const int32_t* offsets = world->color_offsets;
	const int32_t colours = world->color_count;
	int32_t count = 0;
#define STAGE(type_, begin_, end_, whole_) \
	(out->stages[count++] = (weft_stage){(type_), (begin_), (end_), (whole_), -1})
	STAGE(WEFT_STAGE_SCRIPTED, 0, world->sphere_count, true);
	if (weft_aero_active(&world->def)) {
		STAGE(WEFT_STAGE_AERO_FORCES, 0, world->index_count / 3, false);
	}
	STAGE(WEFT_STAGE_INTEGRATE, 0, n, false);
	out->solve_begin = count;
	// Colour batches in order (each parallel inside), then the overflow batch serially, then tethers.
	for (int32_t c = 0; c < colours; ++c) {
		STAGE(WEFT_STAGE_SOLVE_BATCH, offsets[c], offsets[c + 1], false);
		out->stages[count - 1].colour = c;
	}
	if (offsets[colours + 1] > offsets[colours]) {
		STAGE(WEFT_STAGE_SOLVE_OVERFLOW, offsets[colours], offsets[colours + 1], true);
	}
	STAGE(WEFT_STAGE_TETHERS, 0, n, false);
	out->solve_end = count;
	out->self_begin = out->self_apply = count;
	if (world->def.self_collision) {
		STAGE(WEFT_STAGE_SELF_BOUNDS, 0, weft_self_collision_patch_count(world), false);
		STAGE(WEFT_STAGE_SELF_DECIDE, 0, n, true);
		STAGE(WEFT_STAGE_SELF_KEYS, 0, n, false);
		STAGE(WEFT_STAGE_SELF_SORT, 0, n, false); // two threads, its own split
		STAGE(WEFT_STAGE_SELF_LISTS, 0, n, false);
		STAGE(WEFT_STAGE_SELF_CONTACTS, 0, n, false);
		out->self_apply = count;
		STAGE(WEFT_STAGE_SELF_APPLY, 0, n, false);
	}
	STAGE(WEFT_STAGE_COLLIDE_PRIMITIVES, 0, n, false);
	if (world->mesh != NULL) {
		// The mesh push-out (the dearest part of a bunny frame) is per particle; edge contacts move
		// two particles each, so with them the stage runs on one thread.
		STAGE(WEFT_STAGE_COLLIDE_MESH, 0, n, world->mesh->edge_contacts);
		if (world->mesh->ridge_lifts) {
			STAGE(WEFT_STAGE_MESH_RIDGE_LIFTS, 0, world->constraint_count, true);
		}
	}
	STAGE(WEFT_STAGE_UPDATE, 0, n, false);
	out->count = count;
	// Between substeps: the next substep's scripted stage, then update and integrate in one pass,
	// unless the air has to see every velocity updated before integrate gathers its forces.
	// With nothing but the ground to collide with (static; spheres move in the scripted stage), the
	// ground joins that pass too, and so does the self-collision's apply (its pushes, then the ground,
	// particle by particle: the order of the stages they replace).
	out->fused = !weft_aero_active(&world->def);
	out->fused_ground = out->fused && world->sphere_count == 0 && world->mesh == NULL;
	STAGE(WEFT_STAGE_SCRIPTED, 0, world->sphere_count, true);
	STAGE(out->fused_ground ? WEFT_STAGE_COLLIDE_UPDATE_INTEGRATE : WEFT_STAGE_UPDATE_INTEGRATE, 0, n, false);
#undef STAGE
}

static int32_t slice(int32_t begin, int32_t end, int32_t k, int32_t count) {
	return begin + (int32_t)(((int64_t)(end - begin) * k) / count);
}

// A thread's slice of colour batch `colour` (stage->begin .. stage->end): cut between groups.
static void solve_batch_slice(weft_world* world, const weft_stage* stage, float h, int32_t thread, int32_t thread_count,
                              bool first) {
	const int32_t colour = stage->colour;
	int32_t begin = slice(stage->begin, stage->end, thread, thread_count);
	int32_t end = slice(stage->begin, stage->end, thread + 1, thread_count);
	if (world->simd_width > 0) {
		begin = thread == 0 ? stage->begin : weft_solver_batch_split(world, colour, begin);
		end = thread + 1 == thread_count ? stage->end : weft_solver_batch_split(world, colour, end);
	}
	weft_phase_solve_batch(world, h, colour, begin, end, first);
}

// Particles a run of the self-collision's apply fused with the ground, update and integrate.
#define SELF_APPLY_RUN 256

static void run_stage(weft_world* world, const weft_stage* stage, float h, int32_t thread, int32_t thread_count,
                      int32_t begin, int32_t end, bool first) {
	switch (stage->type) {
	case WEFT_STAGE_SCRIPTED:
		weft_spheres_advance(world, h);
		world->air_wind = weft_aero_wind(&world->def, world->clock);
		world->clock += (double)h;
		world->stepped = world->substeps_run > 0;
		world->substeps_run++;
		break;
	case WEFT_STAGE_AERO_FORCES: weft_phase_aero_forces(world, begin, end); break;
	case WEFT_STAGE_INTEGRATE: weft_phase_integrate(world, h, begin, end); break;
	case WEFT_STAGE_SOLVE_BATCH: solve_batch_slice(world, stage, h, thread, thread_count, first); break;
	case WEFT_STAGE_SOLVE_OVERFLOW: weft_phase_solve(world, h, begin, end, first); break;
	case WEFT_STAGE_TETHERS: weft_phase_tethers(world, begin, end); break;
	case WEFT_STAGE_SELF_BOUNDS: weft_self_collision_bounds(world, begin, end); break;
	case WEFT_STAGE_SELF_DECIDE: weft_self_collision_decide(world); break;
	case WEFT_STAGE_SELF_LISTS: weft_self_collision_lists(world, thread, thread_count); break;
	case WEFT_STAGE_SELF_KEYS: weft_self_collision_keys(world, begin, end); break;
	case WEFT_STAGE_SELF_SORT: weft_self_collision_sort(world, thread, thread_count); break;
	case WEFT_STAGE_SELF_CONTACTS: weft_self_collision_contacts(world, begin, end); break;
	case WEFT_STAGE_SELF_APPLY: weft_self_collision_apply(world, begin, end); break;
	case WEFT_STAGE_COLLIDE_PRIMITIVES: weft_collide_primitives(world, begin, end); break;
	case WEFT_STAGE_COLLIDE_MESH: weft_mesh_collide_range(world, begin, end, stage->whole); break;
	case WEFT_STAGE_MESH_RIDGE_LIFTS: weft_mesh_lift_ridges(world); break;
	case WEFT_STAGE_UPDATE: weft_phase_update(world, h, begin, end); break;
	case WEFT_STAGE_UPDATE_INTEGRATE: weft_phase_update_integrate(world, h, begin, end, false); break;
	case WEFT_STAGE_COLLIDE_UPDATE_INTEGRATE:
		if (world->def.self_collision) {
			// Its pushes first, a run of particles at a time, while the run is in the cache.
			for (int32_t run = begin; run < end; run += SELF_APPLY_RUN) {
				const int32_t run_end = end - run > SELF_APPLY_RUN ? run + SELF_APPLY_RUN : end;
				weft_self_collision_apply(world, run, run_end);
				weft_phase_update_integrate(world, h, run, run_end, true);
			}
		} else {
			weft_phase_update_integrate(world, h, begin, end, true);
		}
		break;
	}
}

// Stages [first, last) of the list.
static void run_stages(weft_world* world, const weft_stage_list* list, int32_t first, int32_t last, float h,
                       weft_thread_pool* pool, int32_t thread, int32_t thread_count, bool first_iteration) {
	for (int32_t s = first; s < last; ++s) {
		const weft_stage* stage = &list->stages[s];
		if (stage->whole) {
			if (thread == 0) {
				run_stage(world, stage, h, thread, thread_count, stage->begin, stage->end, first_iteration);
			}
		} else {
			run_stage(world, stage, h, thread, thread_count, slice(stage->begin, stage->end, thread, thread_count),
			          slice(stage->begin, stage->end, thread + 1, thread_count), first_iteration);
		}
		if (pool != NULL) {
			weft_thread_pool_sync(pool, thread);
		}
	}
}

void weft_solver_run_frame(weft_world* world, const weft_stage_list* stages, float h, weft_thread_pool* pool,
                           int32_t thread, int32_t thread_count) {
	const int32_t substeps = world->frame_substeps, iterations = world->frame_iterations;
	const int32_t tethers = stages->solve_end - 1, scripted = stages->count, fused = stages->count + 1;
	for (int32_t substep = 0; substep < substeps; ++substep) {
		const bool fuse = substep + 1 < substeps && stages->fused;
		if (substep == 0 || !stages->fused) {
			run_stages(world, stages, 0, stages->solve_begin, h, pool, thread, thread_count, true);
		}
		for (int32_t iteration = 0; iteration < iterations; ++iteration) {
			if (fuse && stages->fused_ground && iteration + 1 == iterations) {
				// Nothing between the tethers and the fused pass but self-collision's stages before
				// its apply: the next substep's scripted stage (clock, wind; no spheres) runs on
				// thread 0 beside the tethers, which never read what it writes (nor do those stages),
				// and the tethers' barrier orders it before them.
				run_stages(world, stages, stages->solve_begin, tethers, h, pool, thread, thread_count, iteration == 0);
				if (thread == 0) {
					run_stage(world, &stages->stages[scripted], h, thread, thread_count, 0, 0, true);
				}
				run_stages(world, stages, tethers, tethers + 1, h, pool, thread, thread_count, iteration == 0);
			} else {
				run_stages(world, stages, stages->solve_begin, stages->solve_end, h, pool, thread, thread_count,
				           iteration == 0);
			}
		}
		if (fuse && stages->fused_ground) {
			run_stages(world, stages, stages->self_begin, stages->self_apply, h, pool, thread, thread_count, true);
			run_stages(world, stages, fused, fused + 1, h, pool, thread, thread_count, true);
		} else if (fuse) {
			// Up to the update, then the next substep's scripted stage and the fused pass.
			run_stages(world, stages, stages->solve_end, stages->count - 1, h, pool, thread, thread_count, true);
			run_stages(world, stages, scripted, fused + 1, h, pool, thread, thread_count, true);
		} else {
			run_stages(world, stages, stages->solve_end, stages->count, h, pool, thread, thread_count, true);
		}
	}
}

// The frame-end checks of one thread's slice of the particles: an edge well beyond the strain limit
// (the strain sweeps are needed), a position or velocity not finite. On the threads that stepped
// the frame, so no core reads the whole cloth alone between frames.
enum { FRAME_CHECK_STRAIN = 1, FRAME_CHECK_NOT_FINITE = 2 };

static void frame_checks(weft_world* world, int32_t thread, int32_t thread_count) {
	const int32_t begin = slice(0, world->particle_count, thread, thread_count);
	const int32_t end = slice(0, world->particle_count, thread + 1, thread_count);
	world->frame_checks[thread] = (uint8_t)((weft_strain_check(world, begin, end) ? FRAME_CHECK_STRAIN : 0) |
	                                        (weft_finite_range(world, begin, end) ? 0 : FRAME_CHECK_NOT_FINITE));
}

typedef struct frame_task {
	weft_world* world;
	const weft_stage_list* stages;
	float h;
} frame_task;

static void run_frame_task(void* context, int32_t thread, int32_t thread_count) {
	const frame_task* task = context;
	weft_solver_run_frame(task->world, task->stages, task->h, task->world->pool, thread, thread_count);
	frame_checks(task->world, thread, thread_count); // after the last stage's barrier
}

weft_result weft_world_step(weft_world* world, float dt) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	if (!(dt >= WEFT_MIN_FRAME_DT && dt <= WEFT_MAX_FRAME_DT)) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "frame dt must be in [%g, %g] s (got %g)",
		                 (double)WEFT_MIN_FRAME_DT, (double)WEFT_MAX_FRAME_DT, (double)dt);
	}
	if (world->non_finite && weft_check_finite(world) != WEFT_OK) {
		return WEFT_ERROR_NON_FINITE; // left as it was for inspection; the message names what is bad
	}
	weft_world_advance_compliance_ramp(world);
	weft_world_advance_thickness_ramp(world);
	weft_grab_advance_frame(world, dt); // the hand's path through this frame, the tethers' scale
	world->frame_substeps = weft_frame_substeps(world, dt);
	const float h = dt / (float)world->frame_substeps;
	weft_stage_list stages; // the settings may change between frames, never inside one
	weft_solver_build_stages(world, &stages);
	world->simd_width = weft_simd_width();
	const int32_t thread_count = world->pool != NULL ? world->def.thread_count : 1;
	if (world->pool != NULL) {
		frame_task task = {world, &stages, h};
		weft_thread_pool_run(world->pool, run_frame_task, &task);
	} else {
		weft_solver_run_frame(world, &stages, h, NULL, 0, 1);
		frame_checks(world, 0, 1);
	}
	int checks = 0;
	for (int32_t thread = 0; thread < thread_count; ++thread) {
		checks |= world->frame_checks[thread];
	}
	const int32_t sweeps = (checks & FRAME_CHECK_STRAIN) ? weft_strain_sweeps(world, dt) : 0;
	world->strain_sweeps += sweeps;
	world->time += (double)dt;
	world->frame++;
	// A world that went NaN says so instead of stepping on silently (the sweeps moved particles
	// after the check: look again).
	weft_result result = (checks & FRAME_CHECK_NOT_FINITE) || sweeps > 0 ? weft_check_finite(world) : WEFT_OK;
	world->non_finite = result != WEFT_OK;
	return result;
}
