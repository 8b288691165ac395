// How many substeps a frame takes: the world's `substeps`, more where the cloth moves fast near a
// collider or the hand moves fast (up to `max_substeps`).
//
// A mesh can have features thinner than the cloth's spacing (the bunny's ears at 96²: a rim of a
// few millimetres against 1.7 cm between particles). The push-out keeps every particle outside,
// but where the cloth slides across such a rim by a good part of a spacing in one substep, the rim
// comes between two neighbours and the edge between them runs through the solid, stretched (the
// stability sweep's drag, bunny 96² at 10 substeps: 160–190%; at 1 substep the landing alone: 450%).
// Substeps of smaller motion let the push-out, the ridge lifts and the constraints keep the rim on
// one side. So before a frame, the motion of each particle near the mesh in this frame is bounded
// by its motion in the last one (from where that frame began: net, so a particle that the solve
// pulls in and the push-out pushes back every substep counts as still, as it is, where its velocity
// says 16 m/s) plus |g| dt², or for the grabbed one by the hand's motion this frame, and the frame
// takes enough substeps that none moves more than WEFT_MESH_MOTION_PER_SUBSTEP spacings in one. At rest,
// or far from the mesh (the flag's free edge, a hem falling beside the bunny), the count stays
// `substeps`. Measured on that sweep's 32 failing runs (bunny 96², substeps 1 and 10, compliance
// 0…1, iterations 1 and 10, damping 0 and 1): all below 100% (the worst 65%) with the bound at 0.1
// spacing and at most 32 substeps; at 0.3 spacing the drag at 10 substeps still reached 118%, and
// a bound on each particle's speed instead of its frame's motion kept every frame of a resting
// bunny 128² at 32 substeps (one particle at an ear's tip, pulled in and pushed out every substep,
// keeps a velocity of 16 m/s without going anywhere).
//
// Spheres are thick and round, but a fine cloth at 1 substep still tore on one: `sphere` 512² (1
// iteration) lands 12 spacings a substep, and its frame-end strain sweeps ended the landing with an
// edge at 2.31 × its rest length. Near a sphere the bound is SPHERE_MOTION_PER_SUBSTEP, one
// spacing. And the hand, with or without a collider, moves at most HAND_MOTION_PER_SUBSTEP, one
// spacing, a substep: at 512² the sweep's drag moves it 13 spacings a frame, and at 1 substep the
// cloth on the floor behind it, held by the floor's friction, did not follow (the edges at the hand
// 4.62 × their rest length). Both are far from what the scenes' own settings ask (`sphere` 64² at
// 10 substeps lands at a fifth of a spacing a substep; the hand at its fastest, 3 m/s, moves 0.17
// spacing), so there the count stays `substeps`.
//
// The count depends only on positions (the largest motion: no order), so any thread count and
// SIMD width take the same substeps.
#include <math.h>
#include <string.h>

#include "mesh.h"
#include "world_internal.h"

// The most a particle may move in one substep, in grid spacings: near a sphere, and the hand (near a
// mesh: WEFT_MESH_MOTION_PER_SUBSTEP, world_internal.h).
#define SPHERE_MOTION_PER_SUBSTEP 1.0f
#define HAND_MOTION_PER_SUBSTEP 1.0f

// Whether a particle at x within `motion` of it this frame can come within a mesh's bounding sphere.
static bool may_reach_mesh(const weft_mesh_collider* mesh, const float* x, float motion) {
	for (int32_t s = 0; s < mesh->sphere_count; ++s) {
		const float* sphere = &mesh->spheres[4 * s];
		const float dx = x[0] - sphere[0], dy = x[1] - sphere[1], dz = x[2] - sphere[2];
		const float reach = sphere[3] + motion;
		if (dx * dx + dy * dy + dz * dz <= reach * reach) {
			return true;
		}
	}
	return false;
}

// Whether a particle at x within `motion` of it this frame can come within a sphere collider (and
// its margin).
static bool may_reach_sphere(const weft_world* world, const float* x, float motion) {
	for (int32_t k = 0; k < world->sphere_count; ++k) {
		const weft_vec3 c = world->spheres[k].center;
		const float dx = x[0] - c.x, dy = x[1] - c.y, dz = x[2] - c.z;
		const float reach = world->spheres[k].def.radius + world->def.collision_margin + motion;
		if (dx * dx + dy * dy + dz * dz <= reach * reach) {
			return true;
		}
	}
	return false;
}

// The user's count for this frame, `*last` the last frame's: raised settings (weft_world_set_def on
// a world that has stepped) are worked up to by WEFT_SETTINGS_RAMP a frame (weft.h says why;
// `sphere` 24², the sphere stopped, 150 frames at 1 substep, then 40: in the next second the fastest
// particle 30 m/s (the speed clamp) and the cloth's top thrown from 1.2 m to 8.7 m; worked up to,
// 12 m/s and 1.6 m: test_settings_ramp.c);
// lowered ones take effect at once.
static int32_t ramped(int32_t* last, int32_t wanted) {
	if (*last < wanted) {
		const int32_t next = (int32_t)ceilf((float)*last * WEFT_SETTINGS_RAMP);
		wanted = next < wanted ? next : wanted;
	}
	*last = wanted;
	return wanted;
}

int32_t weft_frame_substeps(weft_world* world, float dt) {
	world->frame_iterations = ramped(&world->ramp_iterations, world->def.iterations);
	const int32_t least = ramped(&world->ramp_substeps, world->def.substeps);
	const int32_t most = world->def.max_substeps;
	float* start = world->frame_start;
	const float* x = world->positions;
	const weft_mesh_collider* mesh = world->mesh;
	const bool colliders = mesh != NULL || world->sphere_count > 0;
	if (!colliders && world->grabbed < 0) {
		world->frame_start_stale = true; // not read: no copy a frame (a later frame with colliders takes it)
		world->frame_substeps_wanted = least;
		return least;
	}
	// With max_substeps at or below substeps the frame takes `substeps` whatever the motion, but the
	// bound is still measured: what the frame wanted (weft_world_frame_substeps_wanted) tells a cloth
	// that may pass through a collider at the substeps it was given.
	const float spacing = 0.5f * world->self_rest_distance; // self_rest_distance: 2 spacings
	const float mesh_limit = WEFT_MESH_MOTION_PER_SUBSTEP * spacing, sphere_limit = SPHERE_MOTION_PER_SUBSTEP * spacing;
	const weft_vec3 g = world->def.gravity;
	const float gained = sqrtf(g.x * g.x + g.y * g.y + g.z * g.z) * dt * dt; // what gravity adds to a frame's motion
	// The substeps the fastest particle so far needs (its motion over its bound): `least` already
	// take a motion of `least` bounds, and a particle that moves less than `needed` of the smallest
	// bound is not looked at further.
	float needed = (float)least;
	const float smallest = mesh != NULL ? mesh_limit : sphere_limit;
	// Without colliders only the hand counts. With them, after frames that did not keep the start
	// (max_substeps raised above the substeps, a collider added), this frame's
	// start is taken and the particles' own motion counts from the next frame on.
	const bool measured = colliders && !world->frame_start_stale;
	if (colliders && !measured) {
		memcpy(start, x, sizeof(float) * 4 * (size_t)world->particle_count);
	}
	world->frame_start_stale = !colliders;
	for (int32_t p = 0; p < world->particle_count && measured; ++p) {
		const float dx = x[4 * p] - start[4 * p], dy = x[4 * p + 1] - start[4 * p + 1],
		            dz = x[4 * p + 2] - start[4 * p + 2];
		memcpy(&start[4 * p], &x[4 * p], 4 * sizeof(float)); // where it begins this frame, in the same pass
		const float motion = sqrtf(dx * dx + dy * dy + dz * dz) + gained;
		if (!(motion > needed * smallest)) {
			continue;
		}
		if (mesh != NULL && may_reach_mesh(mesh, &x[4 * p], motion)) {
			needed = motion / mesh_limit;
		} else if (motion > needed * sphere_limit && may_reach_sphere(world, &x[4 * p], motion)) {
			needed = motion / sphere_limit;
		}
	}
	if (world->grabbed >= 0) {
		const float hand = weft_length(weft_sub(world->grab_position, world->grab_start));
		const float* held = &x[4 * world->grabbed];
		const float by_hand = mesh != NULL && may_reach_mesh(mesh, held, hand) ? hand / mesh_limit
		                      : may_reach_sphere(world, held, hand)            ? hand / sphere_limit
		                                                            : hand / (HAND_MOTION_PER_SUBSTEP * spacing);
		needed = by_hand > needed ? by_hand : needed;
	}
	// NaN or huge: the most (a world going non-finite is caught at the frame's end).
	needed = ceilf(needed);
	const int32_t wanted = !(needed < (float)WEFT_MAX_SUBSTEPS) ? WEFT_MAX_SUBSTEPS
	                       : (int32_t)needed > least            ? (int32_t)needed
	                                                            : least;
	world->frame_substeps_wanted = wanted;
	if (most <= least) {
		return least;
	}
	return wanted < most ? wanted : most;
}
