// A pool of worker threads that run one task together: the caller is thread 0, workers are
// 1..thread_count-1, and weft_thread_pool_sync is a barrier among them. It knows nothing of the
// solver (solver.c hands it the frame as a task). WebAssembly builds have no threads: there a pool
// of more than one thread is refused and weft_thread_pool_run is never reached.
#ifndef WEFT_THREAD_POOL_H
#define WEFT_THREAD_POOL_H

#include "weft/weft.h"

typedef struct weft_thread_pool weft_thread_pool;

// One task of a pool: every thread runs it once, with its own index.
typedef void (*weft_thread_task)(void* context, int32_t thread, int32_t thread_count);

// Starts thread_count - 1 workers (1 < thread_count ≤ WEFT_MAX_THREADS). *out is NULL on failure.
weft_result weft_thread_pool_create(const weft_allocator* allocator, int32_t thread_count, weft_thread_pool** out);
// Stops and joins the workers. NULL is fine.
void weft_thread_pool_destroy(weft_thread_pool* pool, const weft_allocator* allocator);
// Runs task on every thread of the pool (the caller included) and returns when all have finished.
void weft_thread_pool_run(weft_thread_pool* pool, weft_thread_task task, void* context);
// Barrier: returns when every thread of the pool has called it (spins, then yields the core).
void weft_thread_pool_sync(weft_thread_pool* pool, int32_t thread);

#endif
