// Grabbing (the mouse drag): the grabbed particle becomes kinematic, inverse mass 0, and sits in
// the hand every substep; the velocity update then gives it the hand's velocity, so a released
// cloth keeps the motion it was thrown with. Its own inverse mass comes back on release.
//
// The hand is a body, not a teleport. Each frame it travels in a straight line from where it held
// the particle towards the target, evenly over the frame's substeps (a jump in the first substep
// would give the cloth that substep's speed: 20 cm in a 1/1200 s substep is 240 m/s, so the same
// drag threw the cloth harder the more substeps it had), and at most grab_speed × dt: a mouse that
// flicks 1 m in 5 frames moves the cloth at a hand's pace instead of flinging it.
//
// A kinematic particle alone pulls a needle out of the cloth: Gauss-Seidel moves its neighbours a
// few constraints a substep, so a fast hand stretches the edges next to it to several times their
// length. While something is held, every free particle is also tethered to the grabbed one: it may
// be at most its rest-pose distance (plus the tethers' slack) away from it. The hand then drags the
// whole cloth at once, as a real hand does, and the tethers never push (they only limit distance).
//
// A pinned cloth reaches only so far: a hand beyond that would tear it. The held particle stays
// within WEFT_GRAB_OVERREACH of its rest distance from every pin (weft_world_grab_position); the
// little overreach left is shared by every tether (weft_world_tether_scale), not piled up at a pin.
// A hand is not a collider's equal: where its path runs into a sphere, below the ground or into a
// mesh collider, the particle it holds stays out of them, on the surface plus the collision margin
// where the colliders leave any free particle (weft_grab_advance_hold, each substep against that
// substep's spheres; a mesh as a particle's path meets it: weft_world_hand_path), and slides over
// it as the hand moves on. Held inside, it pulled its neighbours, which the collider pushed out,
// into a needle (`sphere` 96² at 1 substep, the sweep's drag: 3 cm deep, 100.5%; `bunny` 32², a
// hand taken 0.6 m down through the bunny in 3 frames: an edge stretched 341%).
//
// On release (or as the hand comes back) that scale comes down at most WEFT_TETHER_RELAX_RATE a
// second, never in one substep (weft_grab_advance_frame).
#include <math.h>

#include "mesh.h"
#include "self_collision.h"
#include "vec3.h"
#include "world_internal.h"

// Grab tethers only act beyond this fraction of the rest distance (as the pins' tethers).
#define GRAB_TETHER_SLACK 0.01f

// With self-collision on, the hand moves at most this share of the speed a particle near another
// layer may have (max_step a substep).
#define HAND_SHARE_OF_LAYER_SPEED 0.5f

// Rounds of projection onto the pins' balls: one is exact for a single pin; a few settle the
// intersection of several closely enough (the scale below takes up what is left).
#define REACH_ROUNDS 4

// Pins are kinematic: each is at its rest position plus its scripted path (solver.c).
static weft_vec3 pin_path(const weft_world_def* def, double pin_time) {
	const float travel = (float)(pin_time < (double)def->pin_motion_time ? pin_time : (double)def->pin_motion_time);
	return (weft_vec3){def->pin_velocity.x * travel, def->pin_velocity.y * travel, def->pin_velocity.z * travel};
}

static float rest_distance(const float* rest, int32_t p, int32_t q) {
	float rx = rest[4 * p] - rest[4 * q], ry = rest[4 * p + 1] - rest[4 * q + 1],
	      rz = rest[4 * p + 2] - rest[4 * q + 2];
	return sqrtf(rx * rx + ry * ry + rz * rz);
}

weft_vec3 weft_world_grab_position(const weft_world* world) {
	return world != NULL ? world->grab_position : (weft_vec3){0.0f, 0.0f, 0.0f};
}

weft_vec3 weft_world_grab_position_at(const weft_world* world, double pin_time) {
	if (world == NULL) {
		return (weft_vec3){0.0f, 0.0f, 0.0f};
	}
	weft_vec3 held = world->grab_target;
	const int32_t g = world->grabbed;
	if (g < 0) {
		return held;
	}
	const float* rest = world->rest_positions;
	const weft_vec3 path = pin_path(&world->def, pin_time);
	for (int32_t round = 0; round < REACH_ROUNDS; ++round) {
		for (int32_t q = 0; q < world->particle_count; ++q) {
			if (rest[4 * q + 3] != 0.0f || q == g) {
				continue; // not pinned
			}
			const weft_vec3 pin = {rest[4 * q] + path.x, rest[4 * q + 1] + path.y, rest[4 * q + 2] + path.z};
			const weft_vec3 d = weft_sub(held, pin);
			const float reach = rest_distance(rest, q, g) * WEFT_GRAB_OVERREACH, distance = weft_length(d);
			if (distance > reach) {
				held = weft_add(pin, weft_scale(d, reach / distance));
			}
		}
	}
	return held;
}

// The tether scale for a hand that holds the grabbed particle at `held` (weft_world_grab_position_at).
static float tether_scale_for(const weft_world* world, weft_vec3 held, double pin_time) {
	// A hand that pulls beyond the cloth's reach from a pin asks for stretch somewhere: every
	// tether (the pins' and the grab's) then allows the same stretch, so it spreads over the
	// whole cloth instead of piling up in the edges next to the pin.
	const int32_t g = world->grabbed;
	const float* rest = world->rest_positions;
	const weft_vec3 path = pin_path(&world->def, pin_time);
	float scale = 1.0f;
	for (int32_t q = 0; q < world->particle_count; ++q) {
		if (rest[4 * q + 3] != 0.0f || q == g) {
			continue; // not pinned
		}
		const weft_vec3 pin = {rest[4 * q] + path.x, rest[4 * q + 1] + path.y, rest[4 * q + 2] + path.z};
		const float reach = rest_distance(rest, q, g), distance = weft_length(weft_sub(pin, held));
		if (reach > 0.0f && distance > scale * reach) {
			scale = distance / reach;
		}
	}
	return scale < WEFT_GRAB_OVERREACH ? scale : WEFT_GRAB_OVERREACH;
}

float weft_world_grab_tether_scale(const weft_world* world, weft_vec3 held, double pin_time) {
	if (world == NULL || world->grabbed < 0) {
		return 1.0f;
	}
	return tether_scale_for(world, held, pin_time);
}

float weft_world_tether_scale_at(const weft_world* world, double pin_time) {
	return weft_world_grab_tether_scale(world, weft_world_grab_position_at(world, pin_time), pin_time);
}

// The hand's top speed in a frame of dt s, m/s: grab_speed, and with self-collision on at most a
// share of what a particle near another layer may move.
static float hand_speed(const weft_world* world, float dt) {
	float speed = world->def.grab_speed;
	if (world->def.self_collision) {
		// Near another layer a particle moves at most max_step a substep (self_collision.c): a
		// hand faster than a share of that pulls the held region away from the rest and tears it.
		weft_self_collision_view view;
		weft_self_collision_describe(world, &view);
		const float layers = HAND_SHARE_OF_LAYER_SPEED * view.max_step * (float)world->def.substeps / dt;
		speed = layers < speed ? layers : speed;
	}
	return speed;
}

// Moves from `from` towards `to` by at most `most` m.
static weft_vec3 at_most(weft_vec3 from, weft_vec3 to, float most) {
	const weft_vec3 d = weft_sub(to, from);
	const float distance = weft_length(d);
	return distance > most ? weft_add(from, weft_scale(d, most / distance)) : to;
}

weft_vec3 weft_world_grab_step(const weft_world* world, weft_vec3 held, double pin_time, float dt) {
	if (world == NULL || world->grabbed < 0) {
		return held;
	}
	// Towards the target within the cloth's reach, at most the hand's speed × dt. The reach is a
	// ball around each pin, so the segment from a point within it to the aim stays within it.
	return at_most(held, weft_world_grab_position_at(world, pin_time), hand_speed(world, dt) * dt);
}

void weft_grab_advance_frame(weft_world* world, float dt) {
	world->grab_frame_dt = dt;
	world->grab_first_substep = world->substeps_run;
	world->grab_start = world->grab_position;
	world->grab_position = weft_world_grab_step(world, world->grab_start, world->clock, dt);
	// The tethers are hard limits: a scale that fell at once would snap every particle beyond its
	// new limit there in one substep, and the velocity update would keep that as speed (a release at
	// the hand's reach: 2.4 cm in 1/600 s, 14 m/s up, and the cloth flew 1.7 m above its pins). Like
	// the hand, the limits move at a bounded pace: the scale comes down at most
	// WEFT_TETHER_RELAX_RATE a second, and the cloth's own constraints take it back in meanwhile.
	const float scale = weft_world_grab_tether_scale(world, world->grab_position, world->clock);
	const float least = world->tether_scale - WEFT_TETHER_RELAX_RATE * dt;
	world->tether_scale = scale > least ? scale : least;
}

weft_vec3 weft_grab_substep_position(const weft_world* world) {
	// start (1 − t) + end t: exactly the end at t = 1, so the frame ends where weft_world_grab_position says.
	const float t = (float)(world->substeps_run - world->grab_first_substep) / (float)world->frame_substeps;
	const weft_vec3 a = world->grab_start, b = world->grab_position;
	return (weft_vec3){a.x * (1.0f - t) + b.x * t, a.y * (1.0f - t) + b.y * t, a.z * (1.0f - t) + b.z * t};
}

weft_vec3 weft_grab_advance_hold(weft_world* world) {
	const weft_vec3 aim = weft_collide_point_push_out(world, weft_grab_substep_position(world));
	// A mesh collider is met on the way there, from where the hand held the particle the substep
	// before (where it was taken, at first: the GPU solver keeps the same): it stops in front of the
	// face it would cross and slides along it. Pushed out of the nearest face instead, a hand dragged
	// down through the bunny jumped to its underside halfway and threaded the cloth through it.
	world->grab_held = weft_world_hand_path(world, world->grab_held, aim, world->grab_frame_dt, world->frame_substeps);
	return world->grab_held;
}

weft_vec3 weft_world_hand_path(const weft_world* world, weft_vec3 from, weft_vec3 to, float dt, int32_t substeps) {
	if (world == NULL || world->mesh == NULL || !(dt > 0.0f) || substeps < 1) {
		return to;
	}
	// Held back by the mesh, the particle lags the hand; it catches up at the hand's own speed (a
	// hand held still beside the bunny while the particle slid round under it to a clear line: 0.34
	// m in one substep, and the cloth thrashed at 28 m/s).
	const weft_vec3 reachable = at_most(from, to, hand_speed(world, dt) * dt / (float)substeps);
	return weft_mesh_collide_path(world->mesh, from, reachable, world->def.collision_margin);
}

void weft_grab_tethers(weft_world* world, float* px, float* py, float* pz, const float* pw, int32_t stride,
                       int32_t begin, int32_t end) {
	const int32_t g = world->grabbed;
	if (g < 0) {
		return;
	}
	const float* rest = world->rest_positions;
	const float y[3] = {px[stride * g], py[stride * g], pz[stride * g]};
	const float* rg = &rest[4 * g];
	for (int32_t p = begin; p < end; ++p) {
		const int32_t q = stride * p;
		if (pw[q] == 0.0f) {
			continue;
		}
		float rx = rest[4 * p] - rg[0], ry = rest[4 * p + 1] - rg[1], rz = rest[4 * p + 2] - rg[2];
		float limit = sqrtf(rx * rx + ry * ry + rz * rz) * (1.0f + GRAB_TETHER_SLACK) * world->tether_scale;
		float dx = px[q] - y[0], dy = py[q] - y[1], dz = pz[q] - y[2];
		float d2 = dx * dx + dy * dy + dz * dz;
		if (d2 > limit * limit) {
			float s = limit / sqrtf(d2);
			px[q] = y[0] + dx * s;
			py[q] = y[1] + dy * s;
			pz[q] = y[2] + dz * s;
		}
	}
}

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
	world->grab_position = target; // the hand takes it there (a ray's hit point: on the cloth)
	world->grab_start = target;
	world->grab_held = target;
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

int32_t weft_world_grabbed(const weft_world* world) { return world ? world->grabbed : -1; }

float weft_world_tether_scale(const weft_world* world) { return world != NULL ? world->tether_scale : 1.0f; }
