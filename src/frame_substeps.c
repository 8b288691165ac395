// How many substeps a frame takes: the world's `substeps`, more where the cloth near a mesh
// collider moves fast (up to `max_substeps`).
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
// takes enough substeps that none moves more than MOTION_PER_SUBSTEP spacings in one. At rest, or
// far from the mesh (the flag's free edge, a hem falling beside the bunny), the count stays
// `substeps`. Measured on that sweep's 32 failing runs (bunny 96², substeps 1 and 10, compliance
// 0…1, iterations 1 and 10, damping 0 and 1): all below 100% (the worst 65%) with the bound at 0.1
// spacing and at most 32 substeps; at 0.3 spacing the drag at 10 substeps still reached 118%, and
// a bound on each particle's speed instead of its frame's motion kept every frame of a resting
// bunny 128² at 32 substeps (one particle at an ear's tip, pulled in and pushed out every substep,
// keeps a velocity of 16 m/s without going anywhere).
//
// The count depends only on positions (the largest motion: no order), so any thread count and
// SIMD width take the same substeps.
#include <math.h>
#include <string.h>

#include "mesh.h"
#include "world_internal.h"

// The most a particle near a mesh moves in one substep, in grid spacings.
#define MOTION_PER_SUBSTEP 0.1f

// Whether a particle at x within `motion` of it this frame can come within a bounding sphere.
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

int32_t weft_frame_substeps(weft_world* world, float dt) {
	const int32_t least = world->def.substeps;
	const int32_t most = world->def.max_substeps;
	if (world->mesh == NULL) {
		return least;
	}
	float* start = world->mesh->frame_start;
	const float* x = world->positions;
	if (most <= least) {
		// Kept up to date for a later frame with a larger max_substeps.
		memcpy(start, x, sizeof(float) * 4 * (size_t)world->particle_count);
		return least;
	}
	const float limit = MOTION_PER_SUBSTEP * 0.5f * world->self_rest_distance; // self_rest_distance: 2 spacings
	const weft_vec3 g = world->def.gravity;
	const float gained = sqrtf(g.x * g.x + g.y * g.y + g.z * g.z) * dt * dt; // what gravity adds to a frame's motion
	// The motion `least` substeps already take in steps of at most `limit`: smaller motions are not
	// looked at further.
	float fastest = limit * (float)least;
	for (int32_t p = 0; p < world->particle_count; ++p) {
		const float dx = x[4 * p] - start[4 * p], dy = x[4 * p + 1] - start[4 * p + 1],
		            dz = x[4 * p + 2] - start[4 * p + 2];
		memcpy(&start[4 * p], &x[4 * p], 4 * sizeof(float)); // where it begins this frame, in the same pass
		const float motion = sqrtf(dx * dx + dy * dy + dz * dz) + gained;
		if (motion > fastest && may_reach_mesh(world->mesh, &x[4 * p], motion)) {
			fastest = motion;
		}
	}
	if (world->grabbed >= 0) {
		const float hand = weft_length(weft_sub(world->grab_position, world->grab_start));
		if (hand > fastest && may_reach_mesh(world->mesh, &x[4 * world->grabbed], hand)) {
			fastest = hand;
		}
	}
	// NaN or huge: the most (a world going non-finite is caught at the frame's end).
	const float needed = ceilf(fastest / limit);
	if (!(needed < (float)most)) {
		return most;
	}
	return (int32_t)needed > least ? (int32_t)needed : least;
}
