// Definitions with real defaults, and their validation. Zero compliance is a real value (rigid),
// so defaults are spelled out rather than left to zero-initialisation.
#include <math.h>

#include "world_internal.h"

weft_world_def weft_default_world_def(void) {
	weft_world_def def = {0};
	def.gravity = (weft_vec3){0.0f, -9.81f, 0.0f};
	def.substeps = 10;
	def.max_substeps = 32;
	def.iterations = 1;
	def.damping = 0.5f;
	def.wind = (weft_vec3){0.0f, 0.0f, 0.0f};
	def.drag = 0.5f;
	def.lift = 0.6f;
	def.air_density = 0.0f;
	def.gust_strength = 0.0f;
	def.gust_seed = 1u;
	def.max_speed = 30.0f;
	def.grab_speed = 3.0f;
	def.ground_enabled = true;
	def.ground_height = 0.0f;
	def.friction = 0.4f;
	def.collision_margin = 0.005f;
	def.tethers = true;
	def.self_collision = false;
	def.pin_velocity = (weft_vec3){0.0f, 0.0f, 0.0f};
	def.pin_motion_time = 0.0f;
	def.thread_count = 1;
	return def;
}

weft_cloth_def weft_default_cloth_def(void) {
	weft_cloth_def def = {0};
	def.width = 32;
	def.height = 32;
	def.size_u = 1.0f;
	def.size_v = 1.0f;
	def.origin = (weft_vec3){-0.5f, 1.5f, 0.0f};
	def.axis_u = (weft_vec3){1.0f, 0.0f, 0.0f};
	def.axis_v = (weft_vec3){0.0f, -1.0f, 0.0f};
	def.mass = 1.0f;
	def.stretch_compliance = 1e-8f;
	def.shear_compliance = 1e-7f;
	def.bend_compliance = 1e-5f;
	def.strain_limit = 0.2f;
	def.pin = WEFT_PIN_TOP_CORNERS;
	return def;
}

weft_sphere_def weft_default_sphere_def(void) {
	weft_sphere_def def = {0};
	def.center = (weft_vec3){0.0f, 0.5f, 0.0f};
	def.radius = 0.3f;
	def.motion_frequency = 0.25f;
	def.moving = true;
	return def;
}

bool weft_is_finite_vec3(weft_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static bool is_unit_vec3(weft_vec3 v) {
	float length_squared = v.x * v.x + v.y * v.y + v.z * v.z;
	return isfinite(length_squared) && fabsf(length_squared - 1.0f) < 1e-3f;
}

#define REQUIRE(condition, ...)                                         \
	do {                                                                \
		if (!(condition)) {                                             \
			return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, __VA_ARGS__); \
		}                                                               \
	} while (0)

// Ranges (weft.h documents each at its field). Every comparison is false for NaN, so NaN and
// infinities fail them all. The limits are chosen so that their worst combination stays finite
// inside the step: positions stay within a few WEFT_MAX_COORDINATE, a push of that size over the
// shortest substep (1e-9 s) is a speed near 1e14 m/s whose square still fits a float, and the
// compliance over the shortest substep squared (α/h² ≤ 1e18) neither overflows nor turns 0 × ∞.
#define MAX_GRAVITY 1000.0f       // m/s², magnitude
#define MAX_WIND 1000.0f          // m/s, magnitude
#define MAX_AIR_COEFFICIENT 10.0f // drag and lift coefficients
#define MAX_AIR_DENSITY 100.0f    // kg/m³ (air 1.225, water 1000 is not air)
#define MAX_DAMPING 1000.0f       // 1/s
#define MAX_SPEED 1e4f            // m/s, the largest speed clamp
#define MAX_GRAB_SPEED 1e3f       // m/s
#define MAX_STRAIN_LIMIT 10.0f    // constraints at most 11 × their rest length
#define MAX_PIN_SPEED 1e3f        // m/s, each component
#define MAX_PIN_TIME 1e4f         // s
#define MAX_AMPLITUDE 1e4f        // m, each component of a sphere's motion
#define MIN_MASS 1e-6f            // kg, the whole cloth
#define MAX_MASS 1e6f             // kg
#define MIN_PARTICLE_MASS 1e-9    // kg (inverse mass ≤ 1e9)
#define MIN_AXES_SINE 0.5f        // |axis_u × axis_v|: the axes at least 30° apart
#define SPACING_PER_METRE 1e-5    // the smallest grid spacing is this × (1 + distance from the origin)

static bool within(float value, float lo, float hi) { return value >= lo && value <= hi; }

static bool components_within(weft_vec3 v, float limit) {
	return within(v.x, -limit, limit) && within(v.y, -limit, limit) && within(v.z, -limit, limit);
}

static double magnitude(weft_vec3 v) { // in double: no overflow for any finite float
	return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
}

#define VEC_ARGS(v) (double)(v).x, (double)(v).y, (double)(v).z
#define REQUIRE_RANGE(value, lo, hi, field, unit)                                                                    \
	REQUIRE(within((value), (lo), (hi)), field " must be in [%g, %g] " unit " (got %g)", (double)(lo), (double)(hi), \
	        (double)(value))
#define REQUIRE_COMPONENTS(v, limit, field, unit) \
	REQUIRE(components_within((v), (limit)),      \
	        field " must have each component within +-%g " unit " (got (%g, %g, %g))", (double)(limit), VEC_ARGS(v))
#define REQUIRE_MAGNITUDE(v, limit, field, unit)                                                                       \
	REQUIRE(magnitude(v) <= (double)(limit), field " must be finite with magnitude <= %g " unit " (got (%g, %g, %g))", \
	        (double)(limit), VEC_ARGS(v))

weft_result weft_validate_strain_limit(float strain_limit) {
	REQUIRE_RANGE(strain_limit, 0.0f, MAX_STRAIN_LIMIT, "strain_limit", "(a fraction of the rest length; 0 = none)");
	return WEFT_OK;
}

weft_result weft_validate_world_def(const weft_world_def* def) {
	REQUIRE(def != NULL, "world def is NULL");
	REQUIRE_MAGNITUDE(def->gravity, MAX_GRAVITY, "gravity", "m/s^2");
	REQUIRE_MAGNITUDE(def->wind, MAX_WIND, "wind", "m/s");
	REQUIRE(def->substeps >= 1 && def->substeps <= WEFT_MAX_SUBSTEPS, "substeps must be in 1..%d (got %d)",
	        WEFT_MAX_SUBSTEPS, (int)def->substeps);
	REQUIRE(def->max_substeps >= 0 && def->max_substeps <= WEFT_MAX_SUBSTEPS, "max_substeps must be in 0..%d (got %d)",
	        WEFT_MAX_SUBSTEPS, (int)def->max_substeps);
	REQUIRE(def->iterations >= 1 && def->iterations <= 1000, "iterations must be in 1..1000 (got %d)",
	        (int)def->iterations);
	REQUIRE_COMPONENTS(def->pin_velocity, MAX_PIN_SPEED, "pin_velocity", "m/s");
	REQUIRE_RANGE(def->pin_motion_time, 0.0f, MAX_PIN_TIME, "pin_motion_time", "s");
	REQUIRE_RANGE(def->damping, 0.0f, MAX_DAMPING, "damping", "1/s");
	REQUIRE_RANGE(def->drag, 0.0f, MAX_AIR_COEFFICIENT, "drag", "(a coefficient)");
	REQUIRE_RANGE(def->lift, 0.0f, MAX_AIR_COEFFICIENT, "lift", "(a coefficient)");
	REQUIRE_RANGE(def->air_density, 0.0f, MAX_AIR_DENSITY, "air_density", "kg/m^3");
	REQUIRE_RANGE(def->gust_strength, 0.0f, 1.0f, "gust_strength", "(a fraction of the wind speed)");
	REQUIRE_RANGE(def->max_speed, 0.0f, MAX_SPEED, "max_speed", "m/s (0 = no clamp)");
	REQUIRE(def->grab_speed > 0.0f && def->grab_speed <= MAX_GRAB_SPEED, "grab_speed must be in (0, %g] m/s (got %g)",
	        (double)MAX_GRAB_SPEED, (double)def->grab_speed);
	REQUIRE_RANGE(def->ground_height, -WEFT_MAX_COORDINATE, WEFT_MAX_COORDINATE, "ground_height", "m");
	REQUIRE_RANGE(def->friction, 0.0f, 1.0f, "friction", "");
	REQUIRE(def->collision_margin >= 0.0f && def->collision_margin < 1.0f,
	        "collision_margin must be in [0, 1) m (got %g)", (double)def->collision_margin);
	REQUIRE(def->thread_count >= 1 && def->thread_count <= WEFT_MAX_THREADS, "thread_count must be in 1..%d (got %d)",
	        WEFT_MAX_THREADS, (int)def->thread_count);
	REQUIRE((def->allocator.alloc == NULL) == (def->allocator.free == NULL),
	        "allocator needs both alloc and free, or neither");
	return WEFT_OK;
}

weft_result weft_validate_thickness(float thickness) {
	REQUIRE(thickness >= 0.0f && thickness < 1.0f, "cloth thickness must be in [0, 1) m (0 = the grid spacing; got %g)",
	        (double)thickness);
	return WEFT_OK;
}

weft_result weft_validate_compliance(float compliance, const char* field) {
	REQUIRE(within(compliance, 0.0f, WEFT_MAX_COMPLIANCE), "%s must be in [0, %g] m/N (got %g)", field,
	        (double)WEFT_MAX_COMPLIANCE, (double)compliance);
	return WEFT_OK;
}

// The grid spacing along one axis against the smallest float32 holds well at the cloth's distance
// from the world origin (weft.h, weft_cloth_def).
static weft_result validate_spacing(const weft_cloth_def* def, float size, int32_t count, const char* field,
                                    const char* count_field) {
	if (count < 2) {
		return WEFT_OK;
	}
	weft_vec3 o = def->origin;
	double reach = fmax(fabs((double)o.x), fmax(fabs((double)o.y), fabs((double)o.z))) + def->size_u + def->size_v;
	double smallest = SPACING_PER_METRE * (1.0 + reach);
	double spacing = (double)size / (double)(count - 1);
	REQUIRE(spacing >= smallest,
	        "the grid spacing %s / (%s - 1) must be >= %g m at %g m from the world origin (1e-5 x (1 + distance); "
	        "got %g m)",
	        field, count_field, smallest, reach, spacing);
	return WEFT_OK;
}

weft_result weft_validate_cloth_def(const weft_cloth_def* def) {
	REQUIRE(def != NULL, "cloth def is NULL");
	REQUIRE(def->width >= 1 && def->height >= 1, "grid must be at least 1 x 1 (got %d x %d)", (int)def->width,
	        (int)def->height);
	if (def->width > 4096 || def->height > 4096 || (int64_t)def->width * (int64_t)def->height > WEFT_MAX_PARTICLES) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "grid %d x %d is larger than 4096 x 4096", (int)def->width,
		                 (int)def->height);
	}
	const int64_t particle_count = (int64_t)def->width * def->height;
	REQUIRE(particle_count >= 2, "a cloth needs at least 2 particles (got %d x %d)", (int)def->width, (int)def->height);
	REQUIRE(def->size_u > 0.0f && def->size_u < 1e4f, "size_u must be in (0, 10000) m (got %g)", (double)def->size_u);
	REQUIRE(def->size_v > 0.0f && def->size_v < 1e4f, "size_v must be in (0, 10000) m (got %g)", (double)def->size_v);
	REQUIRE_COMPONENTS(def->origin, WEFT_MAX_COORDINATE, "cloth origin", "m");
	REQUIRE(is_unit_vec3(def->axis_u) && is_unit_vec3(def->axis_v),
	        "cloth axes axis_u and axis_v must be unit vectors");
	weft_vec3 u = def->axis_u, v = def->axis_v;
	weft_vec3 normal = {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
	REQUIRE(magnitude(normal) >= MIN_AXES_SINE,
	        "cloth axes axis_u and axis_v must be at least 30 degrees from parallel, |axis_u x axis_v| >= 0.5 "
	        "(got %g: no area)",
	        magnitude(normal));
	weft_result result = validate_spacing(def, def->size_u, def->width, "size_u", "width");
	if (result == WEFT_OK) {
		result = validate_spacing(def, def->size_v, def->height, "size_v", "height");
	}
	if (result != WEFT_OK) {
		return result;
	}
	REQUIRE_RANGE(def->mass, MIN_MASS, MAX_MASS, "cloth mass", "kg");
	REQUIRE((double)def->mass / (double)particle_count >= MIN_PARTICLE_MASS,
	        "cloth mass per particle must be >= %g kg (got %g kg over %lld particles)", MIN_PARTICLE_MASS,
	        (double)def->mass, (long long)particle_count);
	const float compliances[3] = {def->stretch_compliance, def->shear_compliance, def->bend_compliance};
	const char* const fields[3] = {"stretch_compliance", "shear_compliance", "bend_compliance"};
	for (int k = 0; k < 3; ++k) {
		result = weft_validate_compliance(compliances[k], fields[k]);
		if (result != WEFT_OK) {
			return result;
		}
	}
	result = weft_validate_strain_limit(def->strain_limit);
	if (result != WEFT_OK) {
		return result;
	}
	result = weft_validate_thickness(def->thickness);
	if (result != WEFT_OK) {
		return result;
	}
	REQUIRE(def->pin >= WEFT_PIN_NONE && def->pin <= WEFT_PIN_LIST, "unknown pin mode %d", (int)def->pin);
	if (def->pin == WEFT_PIN_LIST) {
		REQUIRE(def->pin_count >= 0, "pin_count must be >= 0");
		REQUIRE(def->pin_count == 0 || def->pin_indices != NULL, "pin_indices is NULL");
		for (int32_t k = 0; k < def->pin_count; ++k) {
			REQUIRE(def->pin_indices[k] >= 0 && def->pin_indices[k] < particle_count,
			        "pin index %d out of range (0..%lld)", (int)def->pin_indices[k], (long long)particle_count - 1);
		}
	}
	return WEFT_OK;
}

weft_result weft_validate_sphere_def(const weft_sphere_def* def) {
	REQUIRE(def != NULL, "sphere def is NULL");
	REQUIRE_COMPONENTS(def->center, WEFT_MAX_COORDINATE, "sphere center", "m");
	REQUIRE(def->radius > 0.0f && def->radius < 1e4f, "sphere radius must be in (0, 10000) m (got %g)",
	        (double)def->radius);
	REQUIRE_COMPONENTS(def->motion_amplitude, MAX_AMPLITUDE, "sphere motion_amplitude", "m");
	REQUIRE(def->motion_frequency >= 0.0f && def->motion_frequency < 1e3f,
	        "sphere motion_frequency must be in [0, 1000) Hz (got %g)", (double)def->motion_frequency);
	return WEFT_OK;
}

weft_result weft_validate_position(weft_vec3 position, const char* field) {
	REQUIRE(components_within(position, WEFT_MAX_COORDINATE),
	        "%s must have each component within +-%g m (got (%g, %g, %g))", field, (double)WEFT_MAX_COORDINATE,
	        VEC_ARGS(position));
	return WEFT_OK;
}
