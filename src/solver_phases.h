// The phases of a substep over a range of particles or constraints, shared by the serial step
// (solver.c, whole ranges) and the threaded step (solver_threads.c, one slice per thread).
#ifndef WEFT_SOLVER_PHASES_H
#define WEFT_SOLVER_PHASES_H

#include "world_internal.h"

// Particles [begin, end): grid normals for the wind force (reads neighbours, so it runs before
// integrate moves anything).
void weft_phase_wind_normals(weft_world* world, int32_t begin, int32_t end);
// Particles [begin, end): forces, damping, x_prev = x, x += h v; the grabbed particle onto its target.
void weft_phase_integrate(weft_world* world, float h, int32_t begin, int32_t end);
// Constraints [begin, end) of the colour-sorted array, one after the other (any range, e.g. the
// overflow batch).
void weft_phase_solve(weft_world* world, float h, int32_t begin, int32_t end);
// Constraints [begin, end) that share no particle (a colour batch or a slice of one): SIMD when the
// build has it and weft_simd_enabled is true, bit-identical to weft_phase_solve either way.
void weft_phase_solve_batch(weft_world* world, float h, int32_t begin, int32_t end);
extern bool weft_simd_enabled;
// Particles [begin, end): tethers to pinned anchors.
void weft_phase_tethers(weft_world* world, int32_t begin, int32_t end);
// Particles [begin, end): v = (x − x_prev)/h with the speed clamp.
void weft_phase_update(weft_world* world, float h, int32_t begin, int32_t end);

// Threaded frame (solver_threads.c): substeps of h on the world's pool.
void weft_thread_pool_run_frame(weft_world* world, float h);

#endif
