// Worker threads for the threaded step (see thread_pool.h). Between tasks a worker spins a while, then
// sleeps on a condition variable; on the barriers inside a task it spins (then yields), waits being microseconds long.
// Everything is allocated at creation; running a task allocates nothing.
#include "thread_pool.h"
#include "world_internal.h"

#if defined(__wasm__) || defined(WEFT_NO_THREADS)

weft_result weft_thread_pool_create(const weft_allocator* allocator, int32_t thread_count, weft_thread_pool** out) {
	(void)allocator;
	*out = NULL;
	return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "this build has no threads: thread_count must be 1 (got %d)",
	                 (int)thread_count);
}
void weft_thread_pool_destroy(weft_thread_pool* pool, const weft_allocator* allocator) {
	(void)pool;
	(void)allocator;
}
void weft_thread_pool_run(weft_thread_pool* pool, weft_thread_task task, void* context) {
	(void)pool;
	task(context, 0, 1);
}
void weft_thread_pool_sync(weft_thread_pool* pool, int32_t thread) {
	(void)pool;
	(void)thread;
}

#else

#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// Spins before a barrier wait yields the core (other threads may need it on a busy machine): more
// where the pool has a core for each thread, fewer where it has more threads than the machine has
// cores (then the thread it waits for may need this core). `hang` 128² on two threads of this 2-core
// machine: 1.08 ms a frame with 2 000 spins, 1.00 with 20 000 (a yield, a system call, costs more
// than the wait); 64² on three threads: 0.97 with 2 000, 1.75 with 20 000.
#define SPINS_BEFORE_YIELD_OWN_CORES 20000
#define SPINS_BEFORE_YIELD_SHARED_CORES 2000
// Spins of a worker that finished a task before it sleeps: frames stepped back to back find it
// awake (waking a sleeping thread costs tens of microseconds, a few percent of a 128² frame).
#define SPINS_BEFORE_SLEEP 20000

typedef struct worker {
	weft_thread_pool* pool;
	int32_t index;
	pthread_t thread;
} worker;

struct weft_thread_pool {
	int32_t thread_count; // the caller's thread included
	int32_t started;      // workers 1..started are running
	worker workers[WEFT_MAX_THREADS];
	int sense[WEFT_MAX_THREADS]; // each thread's barrier sense
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	int64_t job;         // tasks handed out (under mutex)
	atomic_llong posted; // the same, for workers that look without the mutex before they sleep
	bool quit;
	weft_thread_task task;
	void* context;
	atomic_int arrived;
	atomic_int shared_sense;
	int spins_before_yield;
};

void weft_thread_pool_sync(weft_thread_pool* pool, int32_t thread) {
	int local = pool->sense[thread] = !pool->sense[thread];
	if (atomic_fetch_add_explicit(&pool->arrived, 1, memory_order_acq_rel) == pool->thread_count - 1) {
		atomic_store_explicit(&pool->arrived, 0, memory_order_relaxed);
		atomic_store_explicit(&pool->shared_sense, local, memory_order_release);
		return;
	}
	int spins = 0;
	while (atomic_load_explicit(&pool->shared_sense, memory_order_acquire) != local) {
		if (++spins > pool->spins_before_yield) {
			sched_yield();
			spins = 0;
		}
	}
}

static void* worker_main(void* argument) {
	worker* self = argument;
	weft_thread_pool* pool = self->pool;
	int64_t seen = 0;
	for (;;) {
		for (int spins = 0; spins < SPINS_BEFORE_SLEEP; ++spins) {
			if (atomic_load_explicit(&pool->posted, memory_order_acquire) != seen) {
				break;
			}
		}
		pthread_mutex_lock(&pool->mutex);
		while (pool->job == seen && !pool->quit) {
			pthread_cond_wait(&pool->wake, &pool->mutex);
		}
		bool quit = pool->quit;
		seen = pool->job;
		weft_thread_task task = pool->task;
		void* context = pool->context;
		pthread_mutex_unlock(&pool->mutex);
		if (quit) {
			return NULL;
		}
		task(context, self->index, pool->thread_count);
		weft_thread_pool_sync(pool, self->index); // the task is over for everyone
	}
}

weft_result weft_thread_pool_create(const weft_allocator* allocator, int32_t thread_count, weft_thread_pool** out) {
	*out = NULL;
	if (thread_count < 2 || thread_count > WEFT_MAX_THREADS) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "a thread pool has 2..%d threads (got %d)", WEFT_MAX_THREADS,
		                 (int)thread_count);
	}
	weft_thread_pool* pool = weft_alloc(allocator, sizeof *pool);
	if (pool == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the thread pool");
	}
	memset(pool, 0, sizeof *pool);
	pool->thread_count = thread_count;
	const long cores = sysconf(_SC_NPROCESSORS_ONLN);
	pool->spins_before_yield = cores >= thread_count ? SPINS_BEFORE_YIELD_OWN_CORES : SPINS_BEFORE_YIELD_SHARED_CORES;
	atomic_init(&pool->arrived, 0);
	atomic_init(&pool->posted, 0);
	atomic_init(&pool->shared_sense, 0);
	pthread_mutex_init(&pool->mutex, NULL);
	pthread_cond_init(&pool->wake, NULL);
	for (int32_t k = 1; k < thread_count; ++k) {
		pool->workers[k] = (worker){.pool = pool, .index = k};
		if (pthread_create(&pool->workers[k].thread, NULL, worker_main, &pool->workers[k]) != 0) {
			weft_thread_pool_destroy(pool, allocator);
			return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "could not start worker thread %d", (int)k);
		}
		pool->started = k;
	}
	*out = pool;
	return WEFT_OK;
}

void weft_thread_pool_destroy(weft_thread_pool* pool, const weft_allocator* allocator) {
	if (pool == NULL) {
		return;
	}
	pthread_mutex_lock(&pool->mutex);
	pool->quit = true;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	for (int32_t k = 1; k <= pool->started; ++k) {
		pthread_join(pool->workers[k].thread, NULL);
	}
	pthread_mutex_destroy(&pool->mutex);
	pthread_cond_destroy(&pool->wake);
	weft_free(allocator, pool);
}

void weft_thread_pool_run(weft_thread_pool* pool, weft_thread_task task, void* context) {
	pthread_mutex_lock(&pool->mutex);
	pool->task = task;
	pool->context = context;
	pool->job++;
	atomic_store_explicit(&pool->posted, pool->job, memory_order_release);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	task(context, 0, pool->thread_count);
	weft_thread_pool_sync(pool, 0);
}

#endif
