// Definitions with real defaults, and their validation. Zero compliance is a real value (rigid),
// so defaults are spelled out rather than left to zero-initialisation.
#include <math.h>

#include "world_internal.h"

weft_world_def weft_default_world_def(void) {
	weft_world_def def = {0};
	def.gravity = (weft_vec3){0.0f, -9.81f, 0.0f};
	def.substeps = 10;
	def.iterations = 1;
	def.damping = 0.5f;
	def.wind = (weft_vec3){0.0f, 0.0f, 0.0f};
	def.drag = 0.0f;
	def.max_speed = 30.0f;
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

bool weft_is_finite_vec3(weft_vec3 v) {
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool is_unit_vec3(weft_vec3 v) {
	float length_squared = v.x * v.x + v.y * v.y + v.z * v.z;
	return isfinite(length_squared) && fabsf(length_squared - 1.0f) < 1e-3f;
}

#define REQUIRE(condition, ...)                                                                 \
	do {                                                                                        \
		if (!(condition)) {                                                                     \
			return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, __VA_ARGS__);                         \
		}                                                                                       \
	} while (0)

weft_result weft_validate_world_def(const weft_world_def* def) {
	REQUIRE(def != NULL, "world def is NULL");
	REQUIRE(weft_is_finite_vec3(def->gravity), "gravity must be finite");
	REQUIRE(weft_is_finite_vec3(def->wind), "wind must be finite");
	REQUIRE(def->substeps >= 1 && def->substeps <= 1000, "substeps must be in 1..1000 (got %d)",
	        (int)def->substeps);
	REQUIRE(def->iterations >= 1 && def->iterations <= 1000, "iterations must be in 1..1000 (got %d)",
	        (int)def->iterations);
	REQUIRE(weft_is_finite_vec3(def->pin_velocity) && fabsf(def->pin_velocity.x) <= 1e3f &&
	            fabsf(def->pin_velocity.y) <= 1e3f && fabsf(def->pin_velocity.z) <= 1e3f,
	        "pin_velocity must be finite, each component within ±1000 m/s");
	REQUIRE(isfinite(def->pin_motion_time) && def->pin_motion_time >= 0.0f && def->pin_motion_time <= 1e4f,
	        "pin_motion_time must be in [0, 10000] s (got %g)", (double)def->pin_motion_time);
	REQUIRE(isfinite(def->damping) && def->damping >= 0.0f, "damping must be finite and >= 0");
	REQUIRE(isfinite(def->drag) && def->drag >= 0.0f, "drag must be finite and >= 0");
	REQUIRE(isfinite(def->max_speed) && def->max_speed >= 0.0f, "max_speed must be finite and >= 0");
	REQUIRE(isfinite(def->ground_height), "ground_height must be finite");
	REQUIRE(isfinite(def->friction) && def->friction >= 0.0f && def->friction <= 1.0f,
	        "friction must be in [0, 1]");
	REQUIRE(isfinite(def->collision_margin) && def->collision_margin >= 0.0f &&
	            def->collision_margin < 1.0f,
	        "collision_margin must be in [0, 1) m");
	REQUIRE(def->thread_count >= 1 && def->thread_count <= WEFT_MAX_THREADS, "thread_count must be in 1..%d (got %d)",
	        WEFT_MAX_THREADS, (int)def->thread_count);
	REQUIRE((def->allocator.alloc == NULL) == (def->allocator.free == NULL),
	        "allocator needs both alloc and free, or neither");
	return WEFT_OK;
}

weft_result weft_validate_cloth_def(const weft_cloth_def* def) {
	REQUIRE(def != NULL, "cloth def is NULL");
	REQUIRE(def->width >= 1 && def->height >= 1, "grid must be at least 1 x 1 (got %d x %d)",
	        (int)def->width, (int)def->height);
	if (def->width > 4096 || def->height > 4096 ||
	    (int64_t)def->width * (int64_t)def->height > WEFT_MAX_PARTICLES) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "grid %d x %d is larger than 4096 x 4096", (int)def->width,
		                 (int)def->height);
	}
	REQUIRE((int64_t)def->width * def->height >= 2, "a cloth needs at least 2 particles (got %d x %d)",
	        (int)def->width, (int)def->height);
	REQUIRE(isfinite(def->size_u) && isfinite(def->size_v) && def->size_u > 0.0f && def->size_v > 0.0f &&
	            def->size_u < 1e4f && def->size_v < 1e4f,
	        "cloth size must be finite and in (0, 10000) m");
	REQUIRE(weft_is_finite_vec3(def->origin), "cloth origin must be finite");
	REQUIRE(is_unit_vec3(def->axis_u) && is_unit_vec3(def->axis_v), "cloth axes must be unit vectors");
	REQUIRE(isfinite(def->mass) && def->mass > 0.0f, "cloth mass must be finite and > 0 (got %g)",
	        (double)def->mass);
	REQUIRE(isfinite(def->stretch_compliance) && def->stretch_compliance >= 0.0f,
	        "stretch compliance must be finite and >= 0");
	REQUIRE(isfinite(def->shear_compliance) && def->shear_compliance >= 0.0f,
	        "shear compliance must be finite and >= 0");
	REQUIRE(isfinite(def->bend_compliance) && def->bend_compliance >= 0.0f,
	        "bend compliance must be finite and >= 0");
	REQUIRE(isfinite(def->thickness) && def->thickness >= 0.0f && def->thickness < 1.0f,
	        "cloth thickness must be in [0, 1) m (0 = the grid spacing; got %g)", (double)def->thickness);
	REQUIRE(def->pin >= WEFT_PIN_NONE && def->pin <= WEFT_PIN_LIST, "unknown pin mode %d", (int)def->pin);
	if (def->pin == WEFT_PIN_LIST) {
		REQUIRE(def->pin_count >= 0, "pin_count must be >= 0");
		REQUIRE(def->pin_count == 0 || def->pin_indices != NULL, "pin_indices is NULL");
		int64_t particle_count = (int64_t)def->width * def->height;
		for (int32_t k = 0; k < def->pin_count; ++k) {
			REQUIRE(def->pin_indices[k] >= 0 && def->pin_indices[k] < particle_count,
			        "pin index %d out of range (0..%lld)", (int)def->pin_indices[k],
			        (long long)particle_count - 1);
		}
	}
	return WEFT_OK;
}

weft_result weft_validate_sphere_def(const weft_sphere_def* def) {
	REQUIRE(def != NULL, "sphere def is NULL");
	REQUIRE(weft_is_finite_vec3(def->center), "sphere center must be finite");
	REQUIRE(isfinite(def->radius) && def->radius > 0.0f && def->radius < 1e4f,
	        "sphere radius must be in (0, 10000) m");
	REQUIRE(weft_is_finite_vec3(def->motion_amplitude), "sphere motion amplitude must be finite");
	REQUIRE(isfinite(def->motion_frequency) && def->motion_frequency >= 0.0f && def->motion_frequency < 1e3f,
	        "sphere motion frequency must be in [0, 1000) Hz");
	return WEFT_OK;
}
