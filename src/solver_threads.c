// The threaded step: every thread runs the same substep loop over its own slice of each phase,
// with a barrier between phases and after every colour batch. Inside a batch no two constraints
// share a particle, so slices never race, and every particle sees exactly the operations in exactly
// the order of the serial step: the result is bit-identical for any thread count.
//
// Workers sleep on a condition variable between frames and spin (then yield) on the barriers inside
// a frame, where waits are microseconds long. The pool is made when the world is created; the step
// itself allocates nothing. WebAssembly builds have no threads: there the pool is never created.
#include "mesh.h"
#include "solver_phases.h"

#if defined(__wasm__) || defined(WEFT_NO_THREADS)

weft_result weft_thread_pool_create(weft_world* world) {
	if (world->def.thread_count > 1) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "this build has no threads: thread_count must be 1");
	}
	return WEFT_OK;
}
void weft_thread_pool_destroy(weft_world* world) { (void)world; }
void weft_thread_pool_run_frame(weft_world* world, float h) { (void)world; (void)h; }

#else

#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

// Spins before a barrier wait yields the core (other threads may need it on a busy machine).
#define SPINS_BEFORE_YIELD 2000

struct weft_thread_pool {
	weft_world* world;
	int32_t thread_count; // the caller's thread included
	pthread_t workers[64];
	int32_t started;
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	int64_t job; // frames handed out (under mutex)
	bool quit;
	float h;
	atomic_int arrived;
	atomic_int sense;
};

typedef struct worker_context {
	weft_thread_pool* pool;
	int32_t index;
} worker_context;

static void barrier(weft_thread_pool* pool, int* local_sense) {
	*local_sense = !*local_sense;
	if (atomic_fetch_add_explicit(&pool->arrived, 1, memory_order_acq_rel) == pool->thread_count - 1) {
		atomic_store_explicit(&pool->arrived, 0, memory_order_relaxed);
		atomic_store_explicit(&pool->sense, *local_sense, memory_order_release);
		return;
	}
	int spins = 0;
	while (atomic_load_explicit(&pool->sense, memory_order_acquire) != *local_sense) {
		if (++spins > SPINS_BEFORE_YIELD) {
			sched_yield();
			spins = 0;
		}
	}
}

static int32_t slice(int32_t begin, int32_t end, int32_t k, int32_t count) {
	return begin + (int32_t)(((int64_t)(end - begin) * k) / count);
}

// One frame of substeps, run by every thread k of the pool at once.
static void run_frame(weft_thread_pool* pool, int32_t k, int* sense) {
	weft_world* world = pool->world;
	const int32_t t = pool->thread_count, n = world->particle_count;
	const int32_t p0 = slice(0, n, k, t), p1 = slice(0, n, k + 1, t);
	const int32_t c0 = slice(0, world->constraint_count, k, t), c1 = slice(0, world->constraint_count, k + 1, t);
	const float h = pool->h;
	const int32_t* offsets = world->color_offsets;
	const int32_t colours = world->color_count;
	for (int32_t substep = 0; substep < world->def.substeps; ++substep) {
		if (world->def.drag > 0.0f) {
			weft_phase_wind_normals(world, p0, p1);
			barrier(pool, sense);
		}
		weft_phase_integrate(world, h, p0, p1);
		memset(world->lambdas + c0, 0, (size_t)(c1 - c0) * sizeof(float));
		barrier(pool, sense);
		for (int32_t iteration = 0; iteration < world->def.iterations; ++iteration) {
			for (int32_t c = 0; c < colours; ++c) {
				weft_phase_solve_batch(world, h, slice(offsets[c], offsets[c + 1], k, t),
				                       slice(offsets[c], offsets[c + 1], k + 1, t));
				barrier(pool, sense);
			}
			if (offsets[colours + 1] > offsets[colours]) {
				if (k == 0) {
					weft_phase_solve(world, h, offsets[colours], offsets[colours + 1]); // overflow: serial
				}
				barrier(pool, sense);
			}
			weft_phase_tethers(world, p0, p1);
			barrier(pool, sense);
		}
		// Spheres and ground are cheap next to the solve and the spheres hold state: one thread.
		// The mesh push-out (the dearest part of a bunny frame) is per particle: every thread
		// takes its slice. Edge contacts move two particles each, so they stay on one thread.
		const weft_mesh_collider* mesh = world->mesh;
		const bool mesh_sliced = mesh != NULL && !mesh->edge_contacts;
		if (k == 0) {
			weft_spheres_advance(world, h);
			if (mesh_sliced) {
				weft_collide_primitives(world);
			} else {
				weft_collide(world, h);
			}
		}
		barrier(pool, sense);
		if (mesh_sliced) {
			weft_mesh_collide_particles(mesh, world->positions + 4 * (int64_t)p0,
			                            world->previous_positions + 4 * (int64_t)p0, p1 - p0,
			                            world->def.collision_margin, world->def.friction);
			barrier(pool, sense);
		}
		weft_phase_update(world, h, p0, p1);
		barrier(pool, sense);
	}
}

static void* worker_main(void* argument) {
	worker_context context = *(worker_context*)argument;
	weft_thread_pool* pool = context.pool;
	int sense = 0;
	int64_t seen = 0;
	for (;;) {
		pthread_mutex_lock(&pool->mutex);
		while (pool->job == seen && !pool->quit) {
			pthread_cond_wait(&pool->wake, &pool->mutex);
		}
		bool quit = pool->quit;
		seen = pool->job;
		pthread_mutex_unlock(&pool->mutex);
		if (quit) {
			return NULL;
		}
		run_frame(pool, context.index, &sense);
	}
}

// The pool with its workers' start arguments and the calling thread's barrier sense, in one block.
typedef struct pool_block {
	weft_thread_pool pool;
	worker_context contexts[64];
	int caller_sense;
} pool_block;

weft_result weft_thread_pool_create(weft_world* world) {
	world->pool = NULL;
	if (world->def.thread_count <= 1) {
		return WEFT_OK;
	}
	pool_block* block = weft_alloc(&world->allocator, sizeof *block);
	if (block == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the thread pool");
	}
	memset(block, 0, sizeof *block);
	weft_thread_pool* pool = &block->pool;
	pool->world = world;
	pool->thread_count = world->def.thread_count;
	atomic_init(&pool->arrived, 0);
	atomic_init(&pool->sense, 0);
	pthread_mutex_init(&pool->mutex, NULL);
	pthread_cond_init(&pool->wake, NULL);
	world->pool = pool;
	for (int32_t k = 1; k < pool->thread_count; ++k) {
		block->contexts[k] = (worker_context){pool, k};
		if (pthread_create(&pool->workers[k], NULL, worker_main, &block->contexts[k]) != 0) {
			weft_thread_pool_destroy(world);
			return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "could not start worker thread %d", (int)k);
		}
		pool->started = k;
	}
	return WEFT_OK;
}

void weft_thread_pool_destroy(weft_world* world) {
	weft_thread_pool* pool = world->pool;
	if (pool == NULL) {
		return;
	}
	pthread_mutex_lock(&pool->mutex);
	pool->quit = true;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	for (int32_t k = 1; k <= pool->started; ++k) {
		pthread_join(pool->workers[k], NULL);
	}
	pthread_mutex_destroy(&pool->mutex);
	pthread_cond_destroy(&pool->wake);
	world->pool = NULL;
	weft_free(&world->allocator, (pool_block*)pool);
}

void weft_thread_pool_run_frame(weft_world* world, float h) {
	weft_thread_pool* pool = world->pool;
	pool_block* block = (pool_block*)pool;
	pthread_mutex_lock(&pool->mutex);
	pool->h = h;
	pool->job++;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	run_frame(pool, 0, &block->caller_sense);
}

#endif
