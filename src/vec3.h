// Private: the one 3-vector vocabulary of the C core (Box2D's math_functions.h is the model), on
// the public weft_vec3 value type. The state arrays are float4 (xyz + w); weft_load3 and
// weft_store3 read and write their xyz.
//
// Every function is one fixed sequence of float operations, written out left to right (dot is
// a.x*b.x + a.y*b.y + a.z*b.z, evaluated in that order), and the build disables contraction
// (-ffp-contract=off), so a call gives the same bits as the expression it replaced, natively, in
// WebAssembly and in the WGSL twins of the solver. Do not reassociate, fuse or widen them.
#ifndef WEFT_VEC3_H
#define WEFT_VEC3_H

#include <math.h>

#include "weft/weft.h"

// floor(value) as an integer, clamped to ±limit (NaN gives -limit): a grid cell coordinate that
// stays an int32 whatever the position (limit ≤ 2^30).
static inline int32_t weft_floor_clamped(float value, float limit) {
	if (!(value > -limit)) { // also NaN
		return -(int32_t)limit;
	}
	if (value > limit) {
		return (int32_t)limit;
	}
	int32_t truncated = (int32_t)value;
	return truncated - (value < (float)truncated);
}

static inline weft_vec3 weft_load3(const float* p) { return (weft_vec3){p[0], p[1], p[2]}; }

// Writes xyz only (the w of a float4 is left as it is).
static inline void weft_store3(float* p, weft_vec3 v) {
	p[0] = v.x;
	p[1] = v.y;
	p[2] = v.z;
}

static inline weft_vec3 weft_add(weft_vec3 a, weft_vec3 b) { return (weft_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }

static inline weft_vec3 weft_sub(weft_vec3 a, weft_vec3 b) { return (weft_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }

static inline weft_vec3 weft_neg(weft_vec3 a) { return (weft_vec3){-a.x, -a.y, -a.z}; }

// a × s, component by component.
static inline weft_vec3 weft_scale(weft_vec3 a, float s) { return (weft_vec3){a.x * s, a.y * s, a.z * s}; }

static inline float weft_dot(weft_vec3 a, weft_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline weft_vec3 weft_cross(weft_vec3 a, weft_vec3 b) {
	return (weft_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline float weft_length2(weft_vec3 a) { return weft_dot(a, a); }

static inline float weft_length(weft_vec3 a) { return sqrtf(weft_dot(a, a)); }

static inline float weft_distance2(weft_vec3 a, weft_vec3 b) { return weft_length2(weft_sub(a, b)); }

// a + (b - a) t
static inline weft_vec3 weft_lerp(weft_vec3 a, weft_vec3 b, float t) {
	return weft_add(a, weft_scale(weft_sub(b, a), t));
}

// a / |a| (each component divided, not multiplied by the inverse); the zero vector stays zero.
static inline weft_vec3 weft_normalize(weft_vec3 a) {
	float length = weft_length(a);
	if (length > 0.0f) {
		return (weft_vec3){a.x / length, a.y / length, a.z / length};
	}
	return a;
}

#endif
