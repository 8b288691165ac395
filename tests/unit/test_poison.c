// No poisoned worlds: every value the API accepts keeps the world finite, a value out of range is
// refused with a message that names its field, and a world that goes non-finite anyway makes the
// step fail (naming the quantity and the particle) and the raycast hit nothing.
#include <float.h>
#include <math.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

// One try: a scene, edited, then the live calls and a few frames.
typedef struct setup {
	weft_scene_def scene;
	float dt;
	bool set_compliance;
	float compliance; // all three types
	bool grab;        // grab particle 1 at target, then move it to move_target
	weft_vec3 target, move_target;
} setup;

static setup make_setup(const char* scene) {
	setup s;
	memset(&s, 0, sizeof s);
	CHECK(weft_scene(scene, 8, &s.scene) == WEFT_OK);
	s.dt = s.scene.frame_dt;
	s.target = s.move_target = (weft_vec3){0.0f, 1.0f, 0.0f};
	return s;
}

// Runs the setup: WEFT_OK if every call and `frames` steps succeeded and the world stayed finite
// (then max stretch must be finite too); otherwise the first failing result.
static weft_result run_setup(const setup* s, int frames) {
	weft_world* world = NULL;
	weft_result r = weft_world_create_from_scene(&s->scene, &world);
	if (r != WEFT_OK) return r;
	for (int type = 0; type < 3 && s->set_compliance && r == WEFT_OK; ++type) {
		r = weft_world_set_compliance(world, (weft_constraint_type)type, s->compliance);
	}
	if (r == WEFT_OK && s->grab) r = weft_world_grab(world, 1, s->target);
	for (int f = 0; f < frames && r == WEFT_OK; ++f) {
		if (s->grab && f == 1) r = weft_world_grab_move(world, s->move_target);
		if (r == WEFT_OK) r = weft_world_step(world, s->dt);
	}
	if (r == WEFT_OK) {
		CHECK(weft_world_is_finite(world));
		CHECK(isfinite(weft_world_max_stretch(world)));
		int32_t particle = 0;
		float distance = 0.0f;
		CHECK(weft_world_raycast(world, (weft_vec3){0, 10, 0}, (weft_vec3){0, -1, 0}, &particle, &distance) == WEFT_OK);
		CHECK(!isnan(distance));
	}
	weft_world_destroy(world);
	return r;
}

// The value is refused (an invalid argument whose message names the field) or it steps finite.
static bool refused_naming(weft_result r, const char* field) {
	if (r == WEFT_OK) {
		fprintf(stderr, "  %s: accepted\n", field);
		return false;
	}
	bool named = r == WEFT_ERROR_INVALID_ARGUMENT && strstr(weft_last_error(), field) != NULL;
	if (!named) fprintf(stderr, "  %s: result %d, message \"%s\"\n", field, (int)r, weft_last_error());
	return named;
}

static bool refused_or_finite(const setup* s, const char* field) {
	weft_result r = run_setup(s, 5);
	bool ok = r == WEFT_OK || refused_naming(r, field);
	if (!ok) fprintf(stderr, "  %s: neither refused nor finite\n", field);
	return ok;
}

// ---- the extremes of every range -----------------------------------------------------------------

typedef void (*setter)(setup* s, float value);

typedef struct range {
	const char* field;
	setter set;
	float lo, hi;       // accepted extremes: both step finite
	float below, above; // just outside (NAN = no such side): refused, naming the field
} range;

static void set_gravity(setup* s, float v) {
	s->scene.world.gravity = (weft_vec3){0, -v, 0};
	s->scene.world.max_speed = 0;
}
static void set_gravity_side(setup* s, float v) {
	s->scene.world.gravity = (weft_vec3){v * 0.57735f, v * 0.57735f, -v * 0.57735f};
	s->scene.world.max_speed = 0;
}
static void set_wind(setup* s, float v) {
	s->scene.world.wind = (weft_vec3){v * 0.6f, 0, v * 0.8f};
	s->scene.world.drag = 10.0f;
}
static void set_drag(setup* s, float v) {
	s->scene.world.drag = v;
	s->scene.world.wind = (weft_vec3){-1000, 0, 0};
}
static void set_damping(setup* s, float v) { s->scene.world.damping = v; }
static void set_max_speed(setup* s, float v) { s->scene.world.max_speed = v; }
static void set_grab_speed(setup* s, float v) {
	s->scene.world.grab_speed = v;
	s->grab = true;
}
static void set_ground(setup* s, float v) {
	s->scene.world.ground_height = v;
	s->scene.world.ground_enabled = true;
}
static void set_friction(setup* s, float v) { s->scene.world.friction = v; }
static void set_margin(setup* s, float v) { s->scene.world.collision_margin = v; }
static void set_substeps(setup* s, float v) { s->scene.world.substeps = (int32_t)v; }
static void set_max_substeps(setup* s, float v) { s->scene.world.max_substeps = (int32_t)v; }
static void set_iterations(setup* s, float v) { s->scene.world.iterations = (int32_t)v; }
static void set_pin_velocity(setup* s, float v) {
	s->scene.world.pin_velocity = (weft_vec3){v, -v, v};
	s->scene.world.pin_motion_time = 1e4f;
}
static void set_pin_time(setup* s, float v) {
	s->scene.world.pin_motion_time = v;
	s->scene.world.pin_velocity = (weft_vec3){1e3f, 0, 0};
}
static void set_size_u(setup* s, float v) { s->scene.cloth.size_u = v; }
static void set_size_v(setup* s, float v) { s->scene.cloth.size_v = v; }
static void set_origin(setup* s, float v) {
	s->scene.cloth.origin = (weft_vec3){v, -v, v};
	s->scene.cloth.size_u = s->scene.cloth.size_v = 10.0f; // a spacing float32 holds out there
}
static void set_mass(setup* s, float v) { s->scene.cloth.mass = v; }
static void set_stretch(setup* s, float v) { s->scene.cloth.stretch_compliance = v; }
static void set_shear(setup* s, float v) { s->scene.cloth.shear_compliance = v; }
static void set_bend(setup* s, float v) { s->scene.cloth.bend_compliance = v; }
static void set_strain_limit(setup* s, float v) { s->scene.cloth.strain_limit = v; }
static void set_thickness(setup* s, float v) {
	s->scene.cloth.thickness = v;
	s->scene.world.self_collision = true;
}
static void add_sphere(setup* s) {
	if (s->scene.sphere_count == 0) {
		s->scene.spheres[0] = weft_default_sphere_def();
		s->scene.sphere_count = 1;
	}
}
static void set_center(setup* s, float v) {
	add_sphere(s);
	s->scene.spheres[0].center = (weft_vec3){-v, v, v};
}
static void set_radius(setup* s, float v) {
	add_sphere(s);
	s->scene.spheres[0].radius = v;
}
static void set_amplitude(setup* s, float v) {
	add_sphere(s);
	s->scene.spheres[0].motion_amplitude = (weft_vec3){v, v, -v};
	s->scene.spheres[0].motion_frequency = 999.0f;
}
static void set_frequency(setup* s, float v) {
	add_sphere(s);
	s->scene.spheres[0].motion_frequency = v;
	s->scene.spheres[0].motion_amplitude = (weft_vec3){0, 1e4f, 0};
}
static void set_compliance(setup* s, float v) {
	s->set_compliance = true;
	s->compliance = v;
}
static void set_target(setup* s, float v) {
	s->grab = true;
	s->target = (weft_vec3){v, -v, v};
}
static void set_move(setup* s, float v) {
	s->grab = true;
	s->move_target = (weft_vec3){-v, v, -v};
}
static void set_dt(setup* s, float v) { s->dt = v; }

// Each value the issue measured poisoning a world, on every scene.
typedef struct measured {
	const char* field;
	setter set;
	float value;
} measured;

static const measured measured_values[] = {
    {"dt", set_dt, 1e-30f},
    {"stretch_compliance", set_stretch, 1e33f},
    {"bend_compliance", set_bend, 1e33f},
    {"compliance", set_compliance, 1e33f},
    {"mass", set_mass, FLT_TRUE_MIN},
    {"gravity", set_gravity, FLT_MAX}, // downwards, with no speed clamp
    {"wind", set_wind, 1e30f},
    {"drag", set_drag, 1e30f},
    {"damping", set_damping, 1e30f},
    {"ground_height", set_ground, 1e30f},
    {"max_speed", set_max_speed, 1e30f},
    {"target", set_target, 1e30f},
    {"target", set_move, 1e30f},
    {"origin", set_origin, 1e20f},
    {"center", set_center, 1e30f},
    {"motion_amplitude", set_amplitude, 1e30f},
};

TEST(measured_values_refused_or_finite) {
	const char* const* names = weft_scene_names();
	for (int n = 0; names[n] != NULL; ++n) {
		for (size_t k = 0; k < sizeof measured_values / sizeof measured_values[0]; ++k) {
			setup s = make_setup(names[n]);
			measured_values[k].set(&s, measured_values[k].value);
			CHECK(refused_or_finite(&s, measured_values[k].field));
		}
	}
}

// Out of range is refused, and the message names the field and the value it got.
TEST(range_errors_name_the_field) {
	setup s;
	s = make_setup("hang");
	s.scene.world.gravity.y = -FLT_MAX;
	s.scene.world.max_speed = 0.0f;
	CHECK(refused_naming(run_setup(&s, 1), "gravity"));
	CHECK(strstr(weft_last_error(), "got") != NULL);
	s = make_setup("hang");
	s.scene.world.wind.z = 1e30f;
	CHECK(refused_naming(run_setup(&s, 1), "wind"));
	s = make_setup("hang");
	s.scene.world.drag = 1e30f;
	CHECK(refused_naming(run_setup(&s, 1), "drag"));
	s = make_setup("hang");
	s.scene.world.ground_height = 1e30f;
	CHECK(refused_naming(run_setup(&s, 1), "ground_height"));
	s = make_setup("hang");
	s.dt = 1e-30f;
	CHECK(refused_naming(run_setup(&s, 1), "dt"));
	CHECK(strstr(weft_last_error(), "got") != NULL);
	s = make_setup("hang");
	s.scene.cloth.mass = FLT_TRUE_MIN;
	CHECK(refused_naming(run_setup(&s, 1), "mass"));
	s = make_setup("hang");
	s.scene.cloth.shear_compliance = 1e33f;
	CHECK(refused_naming(run_setup(&s, 1), "shear_compliance"));
	s = make_setup("hang");
	s.grab = true;
	s.target = (weft_vec3){0, 0, 1e30f};
	CHECK(refused_naming(run_setup(&s, 1), "target"));

	// The same ranges on a live world (set_def validates like creation).
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("hang", 8, &world) == WEFT_OK);
	weft_world_def def = weft_world_get_def(world);
	def.gravity.x = 1e30f;
	CHECK(refused_naming(weft_world_set_def(world, &def), "gravity"));
	CHECK(weft_world_get_def(world).gravity.x == 0.0f);
	CHECK(refused_naming(weft_world_set_compliance(world, WEFT_STRETCH, 1e33f), "compliance"));
	CHECK(refused_naming(weft_world_step(world, 1e-30f), "dt"));
	weft_world_destroy(world);
}

// A cloth without area, or whose spacing float32 cannot hold at its distance from the origin.
TEST(degenerate_cloths) {
	weft_world_def wd = weft_default_world_def();
	weft_cloth_def cd = weft_default_cloth_def();
	weft_world* world = NULL;
	weft_cloth_def c;

	c = cd;
	c.axis_v = c.axis_u;
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "axis"));
	CHECK(world == NULL);
	c = cd;
	c.axis_v = (weft_vec3){-1, 0, 0}; // antiparallel: no area either
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "axis"));
	c = cd;
	c.axis_v = (weft_vec3){cosf(0.4f), sinf(0.4f), 0}; // 23° apart
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "axis"));
	c = cd;
	c.axis_v = (weft_vec3){cosf(0.6f), -sinf(0.6f), 0}; // 34° apart: a sheared cloth is fine
	CHECK(weft_world_create(&wd, &c, &world) == WEFT_OK);
	weft_world_destroy(world);

	c = cd;
	c.size_u = c.size_v = 1e-30f;
	c.origin = (weft_vec3){1e20f, 0, 0};
	CHECK(weft_world_create(&wd, &c, &world) == WEFT_ERROR_INVALID_ARGUMENT && world == NULL);
	c = cd;
	c.size_u = 1e-30f;
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "size_u"));
	c = cd;
	c.size_v = 1e-6f;
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "size_v"));
	c = cd;
	c.origin = (weft_vec3){5e4f, 0, 0}; // 1 m of 32 particles, 50 km out: spacing under 80 ulps
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "size_u"));
	c = cd;
	c.origin = (weft_vec3){0, 0, 2e5f};
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "origin"));
	c = cd;
	c.mass = 1e-6f;
	c.width = c.height = 1024; // 1e-12 kg a particle
	CHECK(refused_naming(weft_world_create(&wd, &c, &world), "mass"));

	// Just inside the limits: built, stepped, finite, with a finite stretch.
	c = cd;
	c.width = c.height = 8;
	c.origin = (weft_vec3){9e4f, 9e4f, -9e4f};
	c.size_u = c.size_v = 7.5f;
	wd.ground_enabled = false;
	CHECK(weft_world_create(&wd, &c, &world) == WEFT_OK);
	for (int f = 0; f < 5; ++f) CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_is_finite(world) && isfinite(weft_world_max_stretch(world)));
	weft_world_destroy(world);
	c = cd;
	c.width = c.height = 8;
	c.size_u = c.size_v = 2e-4f; // spacing 2.9e-5 m, the limit 2.5e-5 m
	CHECK(weft_world_create(&wd, &c, &world) == WEFT_OK);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_is_finite(world) && isfinite(weft_world_max_stretch(world)));
	weft_world_destroy(world);
}

// A NaN written into the positions: the step says so (positions, which particle), leaves the world
// as it is, the raycast hits nothing, and a reset brings it back.
TEST(non_finite_world_fails_the_step) {
	CHECK(strcmp(weft_result_string(WEFT_ERROR_NON_FINITE), "non-finite") == 0);
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("hang", 16, &world) == WEFT_OK);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	float* x = weft_world_positions(world);
	x[4 * 37 + 1] = NAN;
	CHECK(!weft_world_is_finite(world));
	CHECK(isnan(weft_world_max_stretch(world)));
	int32_t particle = 5;
	float distance = 0.0f;
	CHECK(weft_world_raycast(world, (weft_vec3){0.05f, 10.0f, 0.03f}, (weft_vec3){0, -1, 0}, &particle, &distance) ==
	      WEFT_OK);
	CHECK(particle == -1 && !isnan(distance));

	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_ERROR_NON_FINITE);
	CHECK(strstr(weft_last_error(), "positions") != NULL);
	CHECK(strstr(weft_last_error(), "particle") != NULL);
	CHECK(!weft_world_is_finite(world));
	CHECK(isnan(weft_world_max_stretch(world)));
	// Left for inspection: a second step refuses again and changes nothing.
	uint64_t hash = weft_world_state_hash(world);
	int64_t frame = weft_world_frame(world);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_ERROR_NON_FINITE);
	CHECK(strstr(weft_last_error(), "positions") != NULL);
	CHECK(weft_world_state_hash(world) == hash && weft_world_frame(world) == frame);
	particle = 5;
	distance = 0.0f;
	CHECK(weft_world_raycast(world, (weft_vec3){0.05f, 10.0f, 0.03f}, (weft_vec3){0, -1, 0}, &particle, &distance) ==
	      WEFT_OK);
	CHECK(particle == -1 && !isnan(distance));

	weft_world_reset(world);
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	CHECK(weft_world_is_finite(world));
	CHECK(weft_world_raycast(world, (weft_vec3){0.05f, 10.0f, 0.03f}, (weft_vec3){0, -1, 0}, &particle, &distance) ==
	      WEFT_OK);
	CHECK(particle >= 0 && isfinite(distance));

	// Velocities: an infinite one reaches the positions within the step; either name is the truth.
	weft_world_velocities(world)[4 * 3] = INFINITY;
	CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_ERROR_NON_FINITE);
	CHECK(strstr(weft_last_error(), "positions") != NULL || strstr(weft_last_error(), "velocities") != NULL);
	weft_world_destroy(world);

	// A ray from far away on a finite world: a hit or none, never a NaN distance.
	CHECK(weft_world_create_scene("hang", 16, &world) == WEFT_OK);
	particle = 5;
	CHECK(weft_world_raycast(world, (weft_vec3){0, 1.0f, 3e38f}, (weft_vec3){0, 0, -1}, &particle, &distance) ==
	      WEFT_OK);
	CHECK(!isnan(distance) && (particle == -1 || isfinite(distance)));
	weft_world_destroy(world);
}

static const range ranges[] = {
    {"gravity", set_gravity, -1000.0f, 1000.0f, NAN, 1001.0f},
    {"gravity", set_gravity_side, -1000.0f, 1000.0f, NAN, 1001.0f},
    {"wind", set_wind, -1000.0f, 1000.0f, NAN, 1001.0f},
    {"drag", set_drag, 0.0f, 10.0f, -0.01f, 10.01f},
    {"damping", set_damping, 0.0f, 1000.0f, -0.01f, 1001.0f},
    {"max_speed", set_max_speed, 0.0f, 1e4f, -1.0f, 1.001e4f},
    {"grab_speed", set_grab_speed, 1e-6f, 1000.0f, 0.0f, 1001.0f},
    {"ground_height", set_ground, -1e5f, 1e5f, -1.001e5f, 1.001e5f},
    {"friction", set_friction, 0.0f, 1.0f, -0.01f, 1.01f},
    {"collision_margin", set_margin, 0.0f, 0.99f, -0.01f, 1.0f},
    {"substeps", set_substeps, 1.0f, 1000.0f, 0.0f, 1001.0f},
    {"max_substeps", set_max_substeps, 0.0f, 1000.0f, -1.0f, 1001.0f},
    {"iterations", set_iterations, 1.0f, 1000.0f, 0.0f, 1001.0f},
    {"pin_velocity", set_pin_velocity, -1000.0f, 1000.0f, -1001.0f, 1001.0f},
    {"pin_motion_time", set_pin_time, 0.0f, 1e4f, -1.0f, 1.001e4f},
    {"size_u", set_size_u, 1e-3f, 9999.0f, 1e-6f, 1e4f},
    {"size_v", set_size_v, 1e-3f, 9999.0f, 1e-6f, 1e4f},
    {"origin", set_origin, -1e5f, 1e5f, -1.001e5f, 1.001e5f},
    {"mass", set_mass, 1e-6f, 1e6f, 0.99e-6f, 1.001e6f},
    {"stretch_compliance", set_stretch, 0.0f, 1.0f, -1e-9f, 1.001f},
    {"shear_compliance", set_shear, 0.0f, 1.0f, -1e-9f, 1.001f},
    {"bend_compliance", set_bend, 0.0f, 1.0f, -1e-9f, 1.001f},
    {"strain_limit", set_strain_limit, 0.0f, 10.0f, -0.01f, 10.01f},
    {"thickness", set_thickness, 0.0f, 0.99f, -0.01f, 1.0f},
    {"center", set_center, -1e5f, 1e5f, -1.001e5f, 1.001e5f},
    {"radius", set_radius, 1e-6f, 9999.0f, 0.0f, 1e4f},
    {"motion_amplitude", set_amplitude, -1e4f, 1e4f, -1.001e4f, 1.001e4f},
    {"motion_frequency", set_frequency, 0.0f, 999.0f, -0.01f, 1000.0f},
    {"compliance", set_compliance, 0.0f, 1.0f, -1e-9f, 1.001f},
    {"target", set_target, -1e5f, 1e5f, -1.001e5f, 1.001e5f},
    {"target", set_move, -1e5f, 1e5f, -1.001e5f, 1.001e5f},
    {"dt", set_dt, 1e-6f, 0.1f, 0.99e-6f, 0.1001f},
};

static bool steps_finite(const setup* s, const char* what, float value) {
	weft_result r = run_setup(s, 3);
	if (r != WEFT_OK) {
		fprintf(stderr, "  %s = %g: %s (%s)\n", what, (double)value, weft_result_string(r), weft_last_error());
	}
	return r == WEFT_OK;
}

// The worst combinations: everything that adds energy at its largest, nothing that removes it.
static void extreme_combinations(const char* const* names) {
	const float steps[][2] = {{0.1f, 1.0f}, {1e-6f, 1000.0f}, {0.1f, 1000.0f}, {1e-6f, 1.0f}};
	for (int n = 0; names[n] != NULL; ++n) {
		for (int k = 0; k < 4; ++k) {
			for (int variant = 0; variant < 3; ++variant) {
				setup s = make_setup(names[n]);
				s.dt = steps[k][0];
				s.scene.world.substeps = (int32_t)steps[k][1];
				set_gravity_side(&s, variant == 1 ? -1000.0f : 1000.0f);
				s.scene.world.wind = (weft_vec3){1000.0f, 0, 0};
				s.scene.world.drag = 10.0f;
				s.scene.world.damping = 0.0f;
				s.scene.world.max_speed = 0.0f;
				s.scene.world.grab_speed = 1000.0f;
				s.scene.world.friction = variant == 2 ? 1.0f : 0.0f;
				s.scene.world.ground_height = variant == 1 ? -1e5f : 1e5f;
				s.scene.world.pin_velocity = (weft_vec3){1000.0f, 1000.0f, -1000.0f};
				s.scene.world.pin_motion_time = 1e4f;
				s.scene.world.self_collision = variant == 2;
				s.scene.cloth.mass = 1e-6f;
				s.scene.cloth.stretch_compliance = variant == 0 ? 1.0f : 0.0f;
				s.scene.cloth.shear_compliance = variant == 0 ? 1.0f : 0.0f;
				s.scene.cloth.bend_compliance = 1.0f;
				s.scene.cloth.origin = (weft_vec3){variant == 1 ? 1e5f : -1e5f, -1e5f, 1e5f};
				s.scene.cloth.size_u = s.scene.cloth.size_v = variant == 2 ? 9999.0f : 10.0f;
				set_amplitude(&s, 1e4f);
				s.scene.spheres[0].center = (weft_vec3){-1e5f, -1e5f, 1e5f};
				s.scene.spheres[0].radius = 9999.0f;
				s.grab = variant != 0;
				s.target = (weft_vec3){1e5f, 1e5f, -1e5f};
				s.move_target = (weft_vec3){-1e5f, -1e5f, 1e5f};
				CHECK(steps_finite(&s, names[n], (float)(k * 3 + variant)));
			}
		}
	}
}

// Every range at both ends on every scene: accepted and finite; just outside: refused, named.
TEST(extremes_of_every_range) {
	const char* const* names = weft_scene_names();
	for (int n = 0; names[n] != NULL; ++n) {
		for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; ++k) {
			const range* r = &ranges[k];
			setup s;
			s = make_setup(names[n]);
			r->set(&s, r->lo);
			CHECK(steps_finite(&s, r->field, r->lo));
			s = make_setup(names[n]);
			r->set(&s, r->hi);
			CHECK(steps_finite(&s, r->field, r->hi));
			if (!isnan(r->below)) {
				s = make_setup(names[n]);
				r->set(&s, r->below);
				CHECK(refused_naming(run_setup(&s, 2), r->field));
			}
			s = make_setup(names[n]);
			r->set(&s, r->above);
			CHECK(refused_naming(run_setup(&s, 2), r->field));
		}
	}
	extreme_combinations(names);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(measured_values_refused_or_finite);
	RUN_TEST(range_errors_name_the_field);
	RUN_TEST(degenerate_cloths);
	RUN_TEST(non_finite_world_fails_the_step);
	RUN_TEST(extremes_of_every_range);
	return TEST_SUMMARY();
}
