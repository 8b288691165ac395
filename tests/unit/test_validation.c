// Bad input gets an error code and a message, never a crash.
#include <math.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

static weft_result create_with(weft_world_def wd, weft_cloth_def cd) {
	weft_world* world = (weft_world*)1; // must be overwritten with NULL on failure
	weft_result r = weft_world_create(&wd, &cd, &world);
	if (r == WEFT_OK) weft_world_destroy(world);
	else CHECK(world == NULL);
	return r;
}

// An allocator that has no memory to give.
static void* refuse_alloc(size_t size, void* user_data) {
	(void)size;
	(void)user_data;
	return NULL;
}
static void refuse_free(void* ptr, void* user_data) {
	(void)ptr;
	(void)user_data;
}

TEST(invalid_defs) {
	const weft_world_def wd = weft_default_world_def();
	const weft_cloth_def cd = weft_default_cloth_def();
	CHECK(create_with(wd, cd) == WEFT_OK);
	weft_cloth_def c;
	weft_world_def w;

	c = cd;
	c.mass = -1.0f;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "mass") != NULL);
	c = cd;
	c.mass = NAN;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.width = 0;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.height = -3;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.width = 5000;
	CHECK(create_with(wd, c) == WEFT_ERROR_TOO_LARGE);
	c = cd;
	c.width = 100000;
	c.height = 100000;
	CHECK(create_with(wd, c) == WEFT_ERROR_TOO_LARGE);
	// The 8 GiB bound (weft.h): a square grid of 3693 passes it (then the allocator refuses), 3694 not.
	w = wd;
	w.allocator = (weft_allocator){refuse_alloc, refuse_free, NULL};
	c = cd;
	c.width = c.height = 3693;
	CHECK(create_with(w, c) == WEFT_ERROR_OUT_OF_MEMORY);
	c.width = c.height = 3694;
	CHECK(create_with(w, c) == WEFT_ERROR_TOO_LARGE);
	CHECK(strstr(weft_last_error(), "8 GiB") != NULL);
	c = cd;
	c.size_u = 0.0f;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.size_v = INFINITY;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.origin.y = NAN;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.axis_u = (weft_vec3){2, 0, 0};
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.stretch_compliance = -1e-6f;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.bend_compliance = NAN;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.pin = (weft_pin_mode)42;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	int32_t pins[] = {0, 99999};
	c = cd;
	c.pin = WEFT_PIN_LIST;
	c.pin_indices = pins;
	c.pin_count = 2;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.pin = WEFT_PIN_LIST;
	c.pin_indices = NULL;
	c.pin_count = 1;
	CHECK(create_with(wd, c) == WEFT_ERROR_INVALID_ARGUMENT);
	c = cd;
	c.stretch_compliance = 0.0f;
	CHECK(create_with(wd, c) == WEFT_OK); // rigid is valid

	w = wd;
	w.substeps = 0;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.iterations = -1;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.gravity.x = NAN;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.damping = -1.0f;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.friction = 2.0f;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.wind.z = INFINITY;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.thread_count = 0;
	CHECK(create_with(w, cd) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_create(NULL, &cd, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	weft_world* world = NULL;
	CHECK(weft_world_create(NULL, &cd, &world) == WEFT_ERROR_INVALID_ARGUMENT && world == NULL);
}

TEST(live_world_calls) {
	const weft_world_def wd = weft_default_world_def();
	const weft_cloth_def cd = weft_default_cloth_def();
	weft_world_def w;
	weft_world* world = NULL;
	// Calls on a live world.
	CHECK(weft_world_create(&wd, &cd, &world) == WEFT_OK);
	CHECK(weft_world_step(world, NAN) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_step(world, -0.01f) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_step(world, 5.0f) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_step(NULL, 0.01f) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_compliance(world, WEFT_SHEAR, -1.0f) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_compliance(world, (weft_constraint_type)9, 0.0f) == WEFT_ERROR_INVALID_ARGUMENT);
	w = wd;
	w.substeps = 100000;
	CHECK(weft_world_set_def(world, &w) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_get_def(world).substeps == wd.substeps); // unchanged after a refused update
	weft_sphere_def s = weft_default_sphere_def();
	s.radius = -1.0f;
	CHECK(weft_world_add_sphere(world, &s, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	s = weft_default_sphere_def();
	s.center.x = NAN;
	CHECK(weft_world_add_sphere(world, &s, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	s = weft_default_sphere_def();
	for (int k = 0; k < WEFT_MAX_SPHERES; ++k) CHECK(weft_world_add_sphere(world, &s, NULL) == WEFT_OK);
	CHECK(weft_world_add_sphere(world, &s, NULL) == WEFT_ERROR_TOO_LARGE);
	CHECK(weft_world_grab(world, -1, (weft_vec3){0, 0, 0}) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_grab(world, 1 << 30, (weft_vec3){0, 0, 0}) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_grab(world, 0, (weft_vec3){NAN, 0, 0}) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_grab_move(world, (weft_vec3){0, 0, 0}) == WEFT_ERROR_INVALID_ARGUMENT); // nothing grabbed
	int32_t hit;
	CHECK(weft_world_raycast(world, (weft_vec3){0, 0, 0}, (weft_vec3){0, 0, 0}, &hit, NULL) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
	weft_world_destroy(NULL);
}

TEST(scenes) {
	weft_world* world = NULL;
	// Scenes.
	CHECK(weft_world_create_scene("nope", 32, &world) == WEFT_ERROR_INVALID_ARGUMENT && world == NULL);
	CHECK(strstr(weft_last_error(), "nope") != NULL);
	CHECK(weft_world_create_scene("hang", 0, &world) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_create_scene("hang", 10000, &world) == WEFT_ERROR_TOO_LARGE);
	CHECK(weft_world_create_scene(NULL, 32, &world) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strcmp(weft_result_string(WEFT_ERROR_TOO_LARGE), "too large") == 0);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(invalid_defs);
	RUN_TEST(live_world_calls);
	RUN_TEST(scenes);
	return TEST_SUMMARY();
}
