// Aerodynamics (aerodynamics.c): the flag flies and flaps on its pole, the air's force does not
// depend on the time step, and the pole is a real collider.
#include <math.h>

#include "test.h"
#include "weft/weft.h"

// The free edge's mean horizontal distance from the pole over seconds 5–10, and its range.
static void flag_flight(int32_t grid, double* mean, double* range) {
	weft_scene_def scene;
	CHECK(weft_scene("flag", grid, &scene) == WEFT_OK);
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	const int32_t w = scene.cloth.width, h = scene.cloth.height;
	double sum = 0.0, low = INFINITY, high = -INFINITY;
	int32_t samples = 0;
	for (int32_t f = 0; f < 600; ++f) {
		CHECK(weft_world_step(world, scene.frame_dt) == WEFT_OK);
		if (f < 300) continue;
		const float* x = weft_world_positions(world);
		double d = 0.0;
		for (int32_t j = 0; j < h; ++j) {
			const float* p = &x[4 * (j * w + w - 1)];
			d += hypot(p[0] - scene.cloth.origin.x, p[2] - scene.cloth.origin.z);
		}
		d /= h;
		sum += d, samples++;
		low = fmin(low, d), high = fmax(high, d);
	}
	CHECK(weft_world_is_finite(world));
	weft_world_destroy(world);
	*mean = sum / samples;
	*range = high - low;
}

TEST(flag_flies) {
	double mean, range;
	flag_flight(32, &mean, &range);
	CHECK(mean >= 0.8 * 2.4); // it streams out from the pole (the old per-particle wind hung it limp)
	CHECK(range >= 0.02);     // and flaps
}

// A flat cloth moving face first at 3 m/s through still air (no gravity) slows as dv/dt = −k v²,
// k = ½ ρ A C_d / m: v(t) = v0 / (1 + k v0 t). The same at 5 and 40 substeps (the force uses
// velocities, not displacements per substep), and as the formula says.
static double speed_after(int32_t substeps, double seconds) {
	weft_world_def def = weft_default_world_def();
	def.ground_enabled = false;
	def.gravity = (weft_vec3){0.0f, 0.0f, 0.0f};
	def.damping = 0.0f;
	def.max_speed = 0.0f;
	def.substeps = substeps;
	def.air_density = 1.225f;
	def.drag = 1.0f;
	def.lift = 0.0f;
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = 12;
	cloth.mass = 0.5f;
	cloth.origin = (weft_vec3){-0.5f, 10.0f, -0.5f};
	cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
	cloth.pin = WEFT_PIN_NONE;
	weft_world* world = NULL;
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	float* v = weft_world_velocities(world);
	const int32_t n = weft_world_particle_count(world);
	for (int32_t p = 0; p < n; ++p) v[4 * p + 1] = -3.0f;
	for (int32_t f = 0; f < (int32_t)(seconds * 60.0 + 0.5); ++f)
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	double speed = 0.0; // the centre of mass's
	for (int32_t p = 0; p < n; ++p) speed -= v[4 * p + 1];
	weft_world_destroy(world);
	return speed / n;
}

TEST(drag_law) {
	const double k = 0.5 * 1.225 * 1.0 * 1.0 / 0.5, t = 0.25, v0 = 3.0;
	const double expected = v0 / (1.0 + k * v0 * t);
	const double coarse = speed_after(5, t), fine = speed_after(40, t);
	CHECK_NEAR(fine, expected, 0.03 * expected);
	CHECK_NEAR(coarse, fine, 0.02 * fine); // what is left is explicit integration of −k v² (k v h ≈ 1% a substep at 5)
}

// Blown back onto its pole, the flag wraps around it and no particle enters it.
TEST(pole_collides) {
	weft_scene_def scene;
	CHECK(weft_scene("flag", 24, &scene) == WEFT_OK);
	CHECK(scene.mesh_collider != NULL);
	scene.world.wind = (weft_vec3){-8.0f, 0.0f, 0.5f};
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	weft_mesh_collider_view pole;
	CHECK(weft_world_mesh_collider(world, &pole) == WEFT_OK);
	CHECK(pole.closed);
	float cx = 0.0f, cz = 0.0f;
	for (int32_t v = 0; v < pole.vertex_count; ++v) cx += pole.vertices[4 * v], cz += pole.vertices[4 * v + 2];
	cx /= pole.vertex_count, cz /= pole.vertex_count;
	double closest = INFINITY;
	for (int32_t f = 0; f < 240; ++f) {
		CHECK(weft_world_step(world, scene.frame_dt) == WEFT_OK);
		const float* x = weft_world_positions(world);
		for (int32_t p = 0; p < weft_world_particle_count(world); ++p) {
			if (x[4 * p + 1] < 0.0f || x[4 * p + 1] > 3.0f) continue;
			closest = fmin(closest, hypot(x[4 * p] - cx, x[4 * p + 2] - cz));
		}
	}
	CHECK(closest >= 0.03 - 0.002); // the pole's radius, less a little for its 16-sided section
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(flag_flies);
	RUN_TEST(drag_law);
	RUN_TEST(pole_collides);
	return TEST_SUMMARY();
}
