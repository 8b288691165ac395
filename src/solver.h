// Private: the substep as one list of stages (Box2D v3's solver stages are the model). The serial
// step and every thread of the pool walk the same list; one thread is the serial case. A stage covers
// a range of particles or constraints and is either split into one slice per thread or run whole by
// thread 0 (the others wait at the barrier after it). New physics (a phase of the substep) is one
// more stage type here, one line in weft_solver_build_stages and one case in run_stage (solver.c).
#ifndef WEFT_SOLVER_H
#define WEFT_SOLVER_H

#include "world_internal.h"

typedef enum weft_stage_type {
	WEFT_STAGE_SCRIPTED,           // whole: scripted motion over the substep (spheres, the clock, gusts)
	WEFT_STAGE_AERO_FORCES,        // triangles: drag and lift in the wind (aerodynamics.c; before anything moves)
	WEFT_STAGE_INTEGRATE,          // particles: forces, damping, x_prev = x, x += h v; the grab target
	WEFT_STAGE_RESET_LAMBDAS,      // constraints: λ = 0 at the start of the substep
	WEFT_STAGE_SOLVE_BATCH,        // constraints of one colour (no two share a particle)
	WEFT_STAGE_SOLVE_OVERFLOW,     // whole: the overflow batch in order
	WEFT_STAGE_TETHERS,            // particles: long-range attachments to pinned anchors
	WEFT_STAGE_SELF_BOUNDS,        // patches: displacements since the neighbour lists (self_collision.c)
	WEFT_STAGE_SELF_DECIDE,        // whole: rebuild the lists this substep?
	WEFT_STAGE_SELF_KEYS,          // particles: hash buckets (when rebuilding)
	WEFT_STAGE_SELF_SORT,          // whole: counting sort by bucket (when rebuilding)
	WEFT_STAGE_SELF_LISTS,         // particles: neighbour lists from the hash (when rebuilding)
	WEFT_STAGE_SELF_CONTACTS,      // particles: pushes and friction from other layers (Jacobi)
	WEFT_STAGE_SELF_APPLY,         // particles: x += the mean push
	WEFT_STAGE_COLLIDE_PRIMITIVES, // whole: spheres and ground
	WEFT_STAGE_COLLIDE_MESH,       // particles (whole with edge contacts, which move two particles)
	WEFT_STAGE_UPDATE,             // particles: v += (x − (x_prev + h v))/h with the speed clamp
} weft_stage_type;

typedef struct weft_stage {
	weft_stage_type type;
	int32_t begin, end; // the particles or constraints it covers
	bool whole;         // run by one thread, not sliced
} weft_stage;

// Stages of one substep: the solve (colours, overflow, tethers) and a handful of others.
#define WEFT_MAX_STAGES (WEFT_COLOR_BUDGET + 16)

// stages[0 .. solve_begin) once, [solve_begin .. solve_end) `iterations` times, then the rest once.
typedef struct weft_stage_list {
	weft_stage stages[WEFT_MAX_STAGES];
	int32_t count;
	int32_t solve_begin, solve_end;
} weft_stage_list;

// The substep of the world's current settings (rebuilt at the start of every frame; cheap).
void weft_solver_build_stages(const weft_world* world, weft_stage_list* out);

// One frame of substeps of h, as thread `thread` of `thread_count` sees it. pool is NULL for one thread.
typedef struct weft_thread_pool weft_thread_pool;
void weft_solver_run_frame(weft_world* world, const weft_stage_list* stages, float h, weft_thread_pool* pool,
                           int32_t thread, int32_t thread_count);

// Phases over particles or constraints [begin, end).
void weft_phase_integrate(weft_world* world, float h, int32_t begin, int32_t end);
void weft_phase_tethers(weft_world* world, int32_t begin, int32_t end);
void weft_phase_update(weft_world* world, float h, int32_t begin, int32_t end);
// Constraints one after the other (any range, e.g. the overflow batch).
void weft_phase_solve(weft_world* world, float h, int32_t begin, int32_t end);
// Constraints that share no particle (a colour batch or a slice of one): SIMD when the build has it
// and weft_simd_enabled is true, bit-identical to weft_phase_solve either way (solver_simd.c).
void weft_phase_solve_batch(weft_world* world, float h, int32_t begin, int32_t end);
extern bool weft_simd_enabled;

#endif
