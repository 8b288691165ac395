#define _POSIX_C_SOURCE 200809L
// weft_last_error() is per thread: two threads, each with its own world, fail calls in a loop and
// each reads back its own message (run under ThreadSanitizer by `make test-threads`).
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

#define ROUNDS 20000

#if !defined(__wasm__)
#include <pthread.h>
#include <sched.h>
static pthread_barrier_t start_together;

typedef struct worker {
	int id;
	int wrong; // reads that were not this thread's own message
	int failed_calls;
} worker;

static void* fail_in_a_loop(void* argument) {
	worker* w = argument;
	weft_world_def def = weft_default_world_def();
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = 4;
	weft_world* world = NULL;
	if (weft_world_create(&def, &cloth, &world) != WEFT_OK) {
		w->wrong = ROUNDS;
		return NULL;
	}
	pthread_barrier_wait(&start_together); // both threads fail at the same time
	for (int k = 0; k < ROUNDS; k++) {
		// Thread 0 fails on its world (no mesh collider there), thread 1 on an unknown scene name.
		weft_result result;
		const char* want;
		if (w->id == 0) {
			result = weft_world_set_mesh_edge_contacts(world, true);
			want = "weft_world_set_mesh_edge_contacts: the world has no mesh collider";
		} else {
			char name[32];
			snprintf(name, sizeof name, "thread-%d", w->id);
			weft_scene_def scene;
			result = weft_scene(name, 8, &scene);
			want = NULL;
		}
		w->failed_calls += result != WEFT_OK;
		if (k % 16 == 0) sched_yield(); // let the other thread fail in between, now and then
		const char* message = weft_last_error();
		bool own = want != NULL ? strcmp(message, want) == 0 : strstr(message, "unknown scene 'thread-1'") != NULL;
		w->wrong += !own;
	}
	weft_world_destroy(world);
	return NULL;
}

TEST(two_threads_own_messages) {
	worker workers[2] = {{0, 0, 0}, {1, 0, 0}};
	pthread_t threads[2];
	pthread_barrier_init(&start_together, NULL, 2);
	for (int k = 0; k < 2; k++) CHECK(pthread_create(&threads[k], NULL, fail_in_a_loop, &workers[k]) == 0);
	for (int k = 0; k < 2; k++) pthread_join(threads[k], NULL);
	pthread_barrier_destroy(&start_together);
	for (int k = 0; k < 2; k++) {
		printf("thread %d: %d failed calls, %d messages not its own\n", k, workers[k].failed_calls, workers[k].wrong);
		CHECK(workers[k].failed_calls == ROUNDS);
		CHECK(workers[k].wrong == 0);
	}
}
#endif

TEST(message_of_this_thread) {
	// The plain contract on one thread: a failing call sets the message, the next failure replaces it.
	weft_scene_def scene;
	CHECK(weft_scene("nope", 8, &scene) != WEFT_OK);
	CHECK(strstr(weft_last_error(), "nope") != NULL);
	CHECK(weft_world_set_mesh_edge_contacts(NULL, true) != WEFT_OK);
	CHECK(strstr(weft_last_error(), "nope") == NULL);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
#if !defined(__wasm__)
	RUN_TEST(two_threads_own_messages);
#endif
	RUN_TEST(message_of_this_thread);
	return TEST_SUMMARY();
}
