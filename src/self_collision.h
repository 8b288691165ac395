// Private: self-collision of the cloth (self_collision.c). The state is allocated when
// self-collision is first turned on (creation or set_def), never in the step.
#ifndef WEFT_SELF_COLLISION_H
#define WEFT_SELF_COLLISION_H

#include "world_internal.h"

typedef struct weft_self_collision weft_self_collision;

// Allocates the state for the world's particle count (no-op if present); the next substep
// rebuilds the neighbour lists.
weft_result weft_self_collision_prepare(weft_world* world);
void weft_self_collision_destroy(weft_world* world);
// Forgets the neighbour lists (after a reset or a teleport): the next substep rebuilds them.
void weft_self_collision_invalidate(weft_world* world);
// The settings as weft_world_self_collision reports them.
void weft_self_collision_describe(const weft_world* world, weft_self_collision_view* out);
// Patches of the rebuild test (grid blocks) for the world's grid.
int32_t weft_self_collision_patch_count(const weft_world* world);
// Buckets of the hash (a power of two ≥ 2 × particles).
uint32_t weft_self_collision_table_size(int32_t particle_count);

// Cell coordinate floor(x / cell) (clamped to ±1e9; NaN → -1e9) and bucket of a cell.
int32_t weft_self_cell_coordinate(float x, float inverse_cell);
uint32_t weft_self_cell_hash(int32_t cx, int32_t cy, int32_t cz, uint32_t table_size);

// Stages of a substep, after the constraint solve and before the colliders (solver.c):
// patches (grid blocks, weft_self_collision_patch_count of them): the boxes of their particles'
// displacements since the lists were built;
void weft_self_collision_bounds(weft_world* world, int32_t begin, int32_t end);
// whole: rebuild the lists this substep? (first time, or near patches moved apart by more than the skin);
void weft_self_collision_decide(weft_world* world);
// particles: their hash buckets (when rebuilding);
void weft_self_collision_keys(weft_world* world, int32_t begin, int32_t end);
// two threads (when rebuilding): the counting sort of the particles by bucket on thread 0, beside
// it (on thread 1, or after it on one thread) the pairs of near patches and the lists' regions for
// thread_count threads;
void weft_self_collision_sort(weft_world* world, int32_t thread, int32_t thread_count);
// a thread: the neighbour lists of its region's particles from the 27 cells around them (when
// rebuilding);
void weft_self_collision_lists(weft_world* world, int32_t thread, int32_t thread_count);
// particles: pushes and friction from the listed particles closer than the thickness (Jacobi);
void weft_self_collision_contacts(weft_world* world, int32_t begin, int32_t end);
// particles: x += the mean of their pushes.
void weft_self_collision_apply(weft_world* world, int32_t begin, int32_t end);

#endif
