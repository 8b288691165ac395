// How many substeps a frame takes: the world's `substeps`, more where the cloth near a mesh
// collider moves fast (up to `max_substeps`).
//
// A mesh can have features thinner than the cloth's spacing (the bunny's ears at 96²: a rim of a
// few millimetres against 1.7 cm between particles). The push-out keeps every particle outside,
// but where the cloth slides across such a rim by a good part of a spacing in one substep, the rim
// comes between two neighbours and the edge between them runs through the solid, stretched (the
// stability sweep's drag, bunny 96² at 10 substeps: 160–190%; at 1 substep the landing alone: 450%).
// Substeps of smaller motion let the push-out, the ridge lifts and the constraints keep the rim on
// one side. So before a frame, the fastest motion of a particle near the mesh is bounded (its speed
// × dt + ½ |g| dt², or the hand's motion this frame for the grabbed one), and the frame takes
// enough substeps that none moves more than MOTION_PER_SUBSTEP spacings in one. At rest, or far
// from the mesh (the flag's free edge, a hem falling beside the bunny), the count stays `substeps`.
// Measured on that sweep's 32 failing runs (bunny 96², substeps 1 and 10, compliance 0…1,
// iterations 1 and 10, damping 0 and 1): all below 100% with the bound at 0.3 spacing and at most
// 32 substeps (the worst 70%); with at most 16, two of them failed.
//
// The count depends only on the positions and velocities (the largest of them: no order), so any
// thread count and SIMD width take the same substeps.
#include <math.h>

#include "mesh.h"
#include "world_internal.h"

// The most a particle near a mesh moves in one substep, in grid spacings.
#define MOTION_PER_SUBSTEP 0.3f

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

int32_t weft_frame_substeps(const weft_world* world, float dt) {
	const int32_t least = world->def.substeps;
	const int32_t most = world->def.max_substeps;
	if (world->mesh == NULL || most <= least) {
		return least;
	}
	const float limit = MOTION_PER_SUBSTEP * 0.5f * world->self_rest_distance; // self_rest_distance: 2 spacings
	const weft_vec3 g = world->def.gravity;
	const float fall = 0.5f * sqrtf(g.x * g.x + g.y * g.y + g.z * g.z) * dt * dt;
	// The motion `least` substeps already take in steps of at most `limit`: slower particles are
	// not looked at further.
	float fastest = limit * (float)least;
	const float* x = world->positions;
	const float* v = world->velocities;
	for (int32_t p = 0; p < world->particle_count; ++p) {
		const float speed2 = v[4 * p] * v[4 * p] + v[4 * p + 1] * v[4 * p + 1] + v[4 * p + 2] * v[4 * p + 2];
		const float motion = sqrtf(speed2) * dt + fall;
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
