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
	WEFT_STAGE_INTEGRATE,          // particles: forces, damping, x_prev = x, x += h v; the grab target (and the rows)
	WEFT_STAGE_SOLVE_BATCH,        // constraints of one colour (no two share a particle)
	WEFT_STAGE_SOLVE_OVERFLOW,     // whole: the overflow batch in order
	WEFT_STAGE_TETHERS,            // particles: long-range attachments to pinned anchors (then float4 positions)
	WEFT_STAGE_SELF_BOUNDS,        // patches: displacements since the neighbour lists (self_collision.c)
	WEFT_STAGE_SELF_DECIDE,        // whole: rebuild the lists this substep?
	WEFT_STAGE_SELF_KEYS,          // particles: hash buckets (when rebuilding)
	WEFT_STAGE_SELF_SORT,          // two threads: counting sort by bucket, beside it the near patches (when rebuilding)
	WEFT_STAGE_SELF_LISTS,         // particles: neighbour lists from the hash (when rebuilding)
	WEFT_STAGE_SELF_CONTACTS,      // particles: pushes and friction from other layers (Jacobi)
	WEFT_STAGE_SELF_APPLY,         // particles: x += the sum of their pushes over their worth in pushes
	WEFT_STAGE_COLLIDE_PRIMITIVES, // particles: spheres and ground
	WEFT_STAGE_COLLIDE_MESH,       // particles (whole with edge contacts, which move two particles)
	WEFT_STAGE_MESH_RIDGE_LIFTS,   // whole: stretch edges run through the mesh lifted back over its ridge
	WEFT_STAGE_UPDATE,             // particles: v += (x − (x_prev + h v))/h with the speed clamp
	WEFT_STAGE_UPDATE_INTEGRATE,   // particles: update, then the next substep's integrate (one pass)
	WEFT_STAGE_COLLIDE_UPDATE_INTEGRATE, // particles: self-collision's apply (when on), the ground, update, the
	                                     // next integrate (one pass)
} weft_stage_type;

typedef struct weft_stage {
	weft_stage_type type;
	int32_t begin, end; // the particles or constraints it covers
	bool whole;         // run by one thread, not sliced
	int32_t colour;     // the colour of a SOLVE_BATCH stage (-1 for the others)
} weft_stage;

// Below this a distance constraint has no direction and is skipped (every path's test).
#define MIN_LENGTH 1e-9f

// Stages of one substep: the solve (colours, overflow, tethers) and a handful of others.
#define WEFT_MAX_STAGES (WEFT_COLOR_BUDGET + 16)

// stages[0 .. solve_begin) once, [solve_begin .. solve_end) `iterations` times, then the rest once
// (the last of them is the update). When fused, every substep but the last ends instead with
// stages[count] (the next substep's scripted stage) and stages[count + 1] (update + integrate), and
// the next substep starts at the solve.
typedef struct weft_stage_list {
	weft_stage stages[WEFT_MAX_STAGES + 2];
	int32_t count;
	int32_t solve_begin, solve_end;
	bool fused;                     // the next substep's integrate joins this one's update
	bool fused_ground;              // the ground collision too (stages[count − 2]; no spheres or mesh), and the
	                                // self-collision's apply before it
	int32_t self_begin, self_apply; // the self-collision stages before apply, [self_begin, self_apply)
} weft_stage_list;

// The substep of the world's current settings (rebuilt at the start of every frame; cheap).
void weft_solver_build_stages(const weft_world* world, weft_stage_list* out);

// One frame of substeps of h, as thread `thread` of `thread_count` sees it. pool is NULL for one thread.
typedef struct weft_thread_pool weft_thread_pool;
void weft_solver_run_frame(weft_world* world, const weft_stage_list* stages, float h, weft_thread_pool* pool,
                           int32_t thread, int32_t thread_count);

// Phases over particles or constraints [begin, end). The solve's first iteration of a substep
// (first) treats λ as 0, which is what it is then: no pass clears it.
void weft_phase_integrate(weft_world* world, float h, int32_t begin, int32_t end);
void weft_phase_tethers(weft_world* world, int32_t begin, int32_t end);
void weft_phase_update(weft_world* world, float h, int32_t begin, int32_t end);
void weft_phase_update_integrate(weft_world* world, float h, int32_t begin, int32_t end, bool ground);
// Constraints one after the other (any range, e.g. the overflow batch).
void weft_phase_solve(weft_world* world, float h, int32_t begin, int32_t end, bool first);
// Constraints [begin, end) of colour `colour` (no two share a particle): on the rows with
// world->simd_width lanes, or weft_phase_solve when it is 0; bit-identical either way. A slice of a
// batch must start and end at weft_solver_batch_split boundaries.
void weft_phase_solve_batch(weft_world* world, float h, int32_t colour, int32_t begin, int32_t end, bool first);

// The SIMD solve's rows (solver_simd.c): float4 positions → rows, and back, for particles [begin, end).
void weft_rows_from_positions(weft_world* world, int32_t begin, int32_t end);
void weft_positions_from_rows(weft_world* world, int32_t begin, int32_t end);
// 8 lanes: AVX2 on this CPU (x86-64, tested once), or wasm SIMD128 as two fours (solver_avx2.c).
bool weft_eight_lanes_available(void);
// 16 lanes: AVX-512 F and DQ on this CPU (x86-64, tested once; solver_avx512.c).
bool weft_sixteen_lanes_available(void);
// Whether the widest path (the default) is 16 lanes here: available, and not an Intel core whose
// clock drops under 512-bit arithmetic (solver_avx512.c).
bool weft_sixteen_lanes_preferred(void);

// The strain limit of one constraint's correction: the XPBD step delta_lambda would leave it
// length + w delta_lambda long; never longer than rest × stretch_limit (the world's 1 + strain_limit,
// infinite for none), so the step is at most (rest × stretch_limit − length) / w. A comparison and a
// select, the same in every lane of every vector path (NaN keeps delta_lambda).
static inline float weft_strain_limited(float delta_lambda, float length, float rest, float w, float stretch_limit) {
	const float room = rest * stretch_limit - length; // how much longer it may get
	return delta_lambda * w > room ? room / w : delta_lambda;
}

// The solve of constraints [begin, end) one at a time: particle p at px[stride p] .. pw[stride p]
// (the float4 positions: stride 4; the rows: stride 1). The reference every vector path reproduces.
void weft_solve_constraints(float* px, float* py, float* pz, const float* pw, int32_t stride, float* lambdas,
                            const weft_constraint* constraints, float inverse_h2, float stretch_limit, int32_t begin,
                            int32_t end, bool first);
// The pins' tethers of particles [begin, end) with the same addressing; tether k of particle p is
// anchor[p per_particle + k per_slot] (the world's arrays: WEFT_TETHERS_PER_PARTICLE, 1; the rows: 1, stride).
void weft_tethers_strided(weft_world* world, float* px, float* py, float* pz, const float* pw, int32_t stride,
                          const int32_t* anchor, const float* max_distance, int32_t per_particle, int32_t per_slot,
                          int32_t begin, int32_t end);
// The vector paths on the rows (solver_kernels.h): 4 lanes (solver_simd.c), 8 lanes (solver_avx2.c).
void weft_solve_batch_rows_4(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                             bool first);
void weft_solve_batch_rows_8(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                             bool first);
void weft_tethers_rows_4(weft_world* world, int32_t begin, int32_t end);
// A strided segment's constraints [begin, end) four at a time (the 8-lane path's last odd group).
void weft_solve_strided_rows_4(weft_world* world, const weft_solve_segment* s, int32_t begin, int32_t end,
                               float inverse_h2, bool first);
void weft_tethers_rows_8(weft_world* world, int32_t begin, int32_t end);
// 16 lanes (solver_avx512.c).
void weft_solve_batch_rows_16(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                              bool first);
void weft_tethers_rows_16(weft_world* world, int32_t begin, int32_t end);
// The velocity update, the integrate or both fused (the pass between substeps) of free particles
// four at a time (solver_avx512.c: one AVX-512 vector; solver.c: four 4-lane vectors): the 4-lane
// expressions of weft_phase_update_integrate, without wind, lane for lane.
enum { WEFT_FOURS_UPDATE = 1, WEFT_FOURS_INTEGRATE = 2 };
typedef struct weft_update_integrate_job {
	float *x, *previous, *v, *r; // float4 per particle
	float h, inverse_h, damping, kick, max_speed, floor_y;
	float gravity[4];
	int32_t parts; // WEFT_FOURS_UPDATE, WEFT_FOURS_INTEGRATE or both
} weft_update_integrate_job;
// Particles from begin on, while whole fours remain and none of a four is kinematic (w = 0) or
// below floor_y (a possible ground contact): the first particle it did not do.
int32_t weft_update_integrate_fours(const weft_update_integrate_job* job, int32_t begin, int32_t end);

// The plan (solver_plan.c): built with the world, freed with it.
weft_result weft_solver_plan_build(weft_world* world);
void weft_solver_plan_free(weft_world* world);
// position (in colour's constraints) rounded down to a group boundary of the strided run it falls in.
int32_t weft_solver_batch_split(const weft_world* world, int32_t colour, int32_t position);

#endif
