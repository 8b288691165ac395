// Colliders: after a drape nothing is inside the sphere or under the ground; the moving sphere
// moves only while its motion is on and drags the cloth along through friction.
#include "test.h"
#include "weft/weft.h"

static float deepest_inside_sphere(weft_world* world, weft_vec3* out_center) {
	weft_vec3 c;
	float r;
	weft_world_get_sphere(world, (weft_sphere_id){0}, &c, &r, NULL);
	if (out_center) *out_center = c;
	const float* x = weft_world_positions(world);
	float deepest = 0.0f;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
		float dx = x[4 * p] - c.x, dy = x[4 * p + 1] - c.y, dz = x[4 * p + 2] - c.z;
		float depth = r - sqrtf(dx * dx + dy * dy + dz * dz);
		if (depth > deepest) deepest = depth;
	}
	return deepest;
}

// A small patch resting on top of a sphere that then slides sideways under it: returns how far the
// patch moved along x while the sphere moved about 0.3 m.
static float ride_the_sphere(float friction) {
	weft_world_def wd = weft_default_world_def();
	wd.friction = friction;
	weft_cloth_def cd = weft_default_cloth_def();
	cd.width = cd.height = 4;
	cd.size_u = cd.size_v = 0.1f;
	cd.origin = (weft_vec3){-0.05f, 1.25f, -0.05f};
	cd.axis_v = (weft_vec3){0, 0, 1};
	cd.pin = WEFT_PIN_NONE;
	weft_sphere_def sd = weft_default_sphere_def();
	sd.center = (weft_vec3){0.0f, 0.7f, 0.0f};
	sd.radius = 0.5f;
	sd.motion_amplitude = (weft_vec3){1.0f, 0.0f, 0.0f};
	sd.motion_frequency = 0.5f;
	sd.moving = false;
	weft_world* world = NULL;
	weft_world_create(&wd, &cd, &world);
	weft_world_add_sphere(world, &sd, NULL);
	for (int f = 0; f < 60; ++f) weft_world_step(world, 1.0f / 60.0f);
	const float* x = weft_world_positions(world);
	float before = x[0];
	weft_world_set_sphere_moving(world, (weft_sphere_id){0}, true);
	for (int f = 0; f < 6; ++f) weft_world_step(world, 1.0f / 60.0f);
	float moved = x[0] - before;
	weft_world_destroy(world);
	return moved;
}

TEST(sphere_drape_and_motion) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", 40, &world) == WEFT_OK);
	weft_sphere_id sphere = {0};
	CHECK(weft_world_set_sphere_moving(world, sphere, false) == WEFT_OK);
	float worst = 0.0f, lowest = 1e9f;
	bool touched = false;
	for (int f = 0; f < 240; ++f) {
		weft_world_step(world, 1.0f / 60.0f);
		float depth = deepest_inside_sphere(world, NULL);
		if (depth > worst) worst = depth;
		const float* x = weft_world_positions(world);
		for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
			if (x[4 * p + 1] < lowest) lowest = x[4 * p + 1];
		}
	}
	// Depth ≤ 0 means every particle ended every frame outside the sphere.
	CHECK(worst <= 1e-5f);
	CHECK(lowest >= 0.0f);
	// The cloth really draped: its centre rests on top of the sphere (radius 0.5 at y 0.7).
	const float* x = weft_world_positions(world);
	int32_t centre = 20 * 40 + 20;
	CHECK_NEAR(x[4 * centre + 1], 1.2f, 0.03f);
	touched = x[4 * centre + 1] < 1.3f;
	CHECK(touched);
	CHECK(weft_world_is_finite(world));

	// Motion on: the sphere moves and the cloth stays outside it; off: it stays put.
	weft_vec3 before, after;
	weft_world_get_sphere(world, sphere, &before, NULL, NULL);
	CHECK(weft_world_set_sphere_moving(world, sphere, true) == WEFT_OK);
	worst = 0.0f;
	for (int f = 0; f < 60; ++f) {
		weft_world_step(world, 1.0f / 60.0f);
		float depth = deepest_inside_sphere(world, NULL);
		if (depth > worst) worst = depth;
	}
	weft_world_get_sphere(world, sphere, &after, NULL, NULL);
	CHECK(fabsf(after.x - before.x) > 0.2f);
	CHECK(worst <= 1e-5f);
	CHECK(weft_world_set_sphere_moving(world, sphere, false) == WEFT_OK);
	weft_world_get_sphere(world, sphere, &before, NULL, NULL);
	for (int f = 0; f < 30; ++f) weft_world_step(world, 1.0f / 60.0f);
	weft_world_get_sphere(world, sphere, &after, NULL, NULL);
	CHECK(after.x == before.x && after.y == before.y && after.z == before.z);
	CHECK(weft_world_set_sphere_moving(world, (weft_sphere_id){3}, true) == WEFT_ERROR_INVALID_ARGUMENT);
	weft_world_destroy(world);
}

TEST(ground_friction) {
	weft_world* world = NULL;
	const float* x;
	// Ground: a free cloth dropped on the floor ends on it, none below, and friction stops sliding.
	weft_world_def wd = weft_default_world_def();
	wd.gravity = (weft_vec3){2.0f, -9.81f, 0.0f}; // a sideways pull that friction must resist
	wd.friction = 1.0f;
	weft_cloth_def cd = weft_default_cloth_def();
	cd.pin = WEFT_PIN_NONE;
	cd.width = cd.height = 16;
	cd.origin = (weft_vec3){-0.5f, 0.3f, -0.5f};
	cd.axis_v = (weft_vec3){0, 0, 1};
	CHECK(weft_world_create(&wd, &cd, &world) == WEFT_OK);
	for (int f = 0; f < 120; ++f) weft_world_step(world, 1.0f / 60.0f);
	x = weft_world_positions(world);
	float min_y = 1e9f, max_y = -1e9f, min_x = 1e9f;
	for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
		if (x[4 * p + 1] < min_y) min_y = x[4 * p + 1];
		if (x[4 * p + 1] > max_y) max_y = x[4 * p + 1];
		if (x[4 * p] < min_x) min_x = x[4 * p];
	}
	CHECK(min_y >= wd.collision_margin - 1e-6f);
	CHECK(max_y < 0.02f);
	// Full friction: the cloth slid only during the fall, not along the floor.
	CHECK(min_x < -0.35f);
	weft_world_destroy(world);
}

// What a cloth lies on in the static friction tests.
typedef enum support { ON_GROUND, ON_SPHERE, ON_MESH } support;

// A 0.2 m cloth (8²) settled on a support under gravity tilted sideways (tangential / normal =
// tilt), then stepped 2 s more: how far its centroid moved along x meanwhile. The supports: the
// ground; a sphere of radius 1 under the cloth; a flat two-triangle mesh at y = 0 (the last two
// without ground).
static float slide_on(support on, float tilt) {
	weft_world_def wd = weft_default_world_def(); // friction 0.4
	wd.gravity = (weft_vec3){9.81f * tilt, -9.81f, 0.0f};
	wd.ground_enabled = on == ON_GROUND;
	weft_cloth_def cd = weft_default_cloth_def();
	cd.pin = WEFT_PIN_NONE;
	cd.width = cd.height = 8;
	cd.size_u = cd.size_v = 0.2f;
	cd.origin = (weft_vec3){-0.1f, 0.02f, -0.1f};
	cd.axis_v = (weft_vec3){0, 0, 1};
	weft_world* world = NULL;
	if (weft_world_create(&wd, &cd, &world) != WEFT_OK) return -1.0f;
	if (on == ON_SPHERE) {
		weft_sphere_def sd = weft_default_sphere_def();
		sd.center = (weft_vec3){0.0f, -1.0f, 0.0f};
		sd.radius = 1.0f;
		CHECK(weft_world_add_sphere(world, &sd, NULL) == WEFT_OK);
	} else if (on == ON_MESH) {
		const float corners[] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
		const uint32_t triangles[] = {0, 2, 1, 0, 3, 2}; // counter-clockwise from above
		CHECK(weft_world_set_mesh_collider(world, corners, 4, triangles, 2, false) == WEFT_OK);
	}
	const int32_t n = weft_world_particle_count(world);
	const float* x = weft_world_positions(world);
	for (int f = 0; f < 60; ++f) weft_world_step(world, 1.0f / 60.0f);
	double before = 0.0, after = 0.0;
	for (int32_t p = 0; p < n; ++p) before += x[4 * p];
	for (int f = 0; f < 120; ++f) weft_world_step(world, 1.0f / 60.0f);
	for (int32_t p = 0; p < n; ++p) after += x[4 * p];
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
	return (float)((after - before) / n);
}

TEST(sphere_and_mesh_static_friction) {
	// As on the ground: a pull along the surface below friction × the push holds the cloth, a
	// stronger one slides it. A cloth that is sliding loses friction × its slip a substep, so it
	// stops only under a pull below friction / 2.5 (it slides on at 1.5 × tilt × g × h): the cloth
	// draping over the sphere slides as it settles, so the sphere's tilt is 0.1.
	const float sphere_held = slide_on(ON_SPHERE, 0.1f), sphere_slid = slide_on(ON_SPHERE, 0.6f);
	const float mesh_held = slide_on(ON_MESH, 0.25f), mesh_slid = slide_on(ON_MESH, 0.6f);
	printf("2 s on a sphere: tilt 0.1 -> %.5f m, 0.6 -> %.3f m; on a mesh: tilt 0.25 -> %.5f m, 0.6 -> %.3f m\n",
	       (double)sphere_held, (double)sphere_slid, (double)mesh_held, (double)mesh_slid);
	CHECK(fabsf(sphere_held) < 1e-4f);
	CHECK(sphere_slid > 0.01f);
	CHECK(fabsf(mesh_held) < 1e-4f);
	CHECK(mesh_slid > 0.01f);
}

TEST(ground_static_friction) {
	// Coulomb: a pull along the floor below friction × the weight holds the cloth still (the slip of
	// a substep is stopped while it is at most friction × the push up); above it the cloth slides.
	// Removing a share of the slip instead let a gently pulled cloth creep: 1 cm/s at this tilt.
	const float held = slide_on(ON_GROUND, 0.25f), slid = slide_on(ON_GROUND, 0.6f);
	printf("cloth on the floor, 2 s: tilt 0.25 -> %.5f m, tilt 0.6 -> %.3f m (friction 0.4)\n", (double)held,
	       (double)slid);
	CHECK(fabsf(held) < 1e-4f);
	CHECK(slid > 0.01f); // sliding (the slip then loses friction × it a substep, so slowly)
}

TEST(sphere_friction) {
	// Friction knows the sphere moves: with grip the patch is carried along, without it stays behind.
	float carried = ride_the_sphere(1.0f), left_behind = ride_the_sphere(0.0f);
	printf("patch moved with the sphere: friction 1 -> %.3f m, friction 0 -> %.3f m\n", (double)carried,
	       (double)left_behind);
	CHECK(carried > 0.2f);
	CHECK(fabsf(left_behind) < 0.1f);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(sphere_drape_and_motion);
	RUN_TEST(ground_friction);
	RUN_TEST(ground_static_friction);
	RUN_TEST(sphere_and_mesh_static_friction);
	RUN_TEST(sphere_friction);
	return TEST_SUMMARY();
}
