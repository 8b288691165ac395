// One four of floats in wasm SIMD128: the operations simd4.h's wasm vf (one four) and simd8.h's
// (two fours side by side) are both made of, written once. Only for the wasm build with SIMD128.
#ifndef WEFT_WASM_FOUR_H
#define WEFT_WASM_FOUR_H

#include <wasm_simd128.h>

#include "solver.h"

// Lanes with an inverse mass (w ≠ 0, NaN counts) and a length not below MIN_LENGTH (NaN counts):
// SSE2's cmpneq and cmpnlt.
static inline v128_t four_active(v128_t w, v128_t length) {
	return wasm_v128_and(wasm_f32x4_ne(w, wasm_f32x4_splat(0.0f)),
	                     wasm_v128_not(wasm_f32x4_lt(length, wasm_f32x4_splat(MIN_LENGTH))));
}
// (p0..p3), (p4..p7) → even particles (0 2 4 6) and odd ones.
static inline void four_split_interleaved(v128_t v0, v128_t v1, v128_t* a, v128_t* b) {
	*a = wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6);
	*b = wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7);
}
static inline void four_join_interleaved(v128_t a, v128_t b, v128_t* v0, v128_t* v1) {
	*v0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5);
	*v1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
}
// → columns 0, 1 of each (0 1 4 5) and columns 2, 3 (2 3 6 7).
static inline void four_split_paired(v128_t v0, v128_t v1, v128_t* a, v128_t* b) {
	*a = wasm_i32x4_shuffle(v0, v1, 0, 1, 4, 5);
	*b = wasm_i32x4_shuffle(v0, v1, 2, 3, 6, 7);
}
static inline v128_t four_valid(const int32_t* index) {
	return wasm_i32x4_gt(wasm_v128_load(index), wasm_i32x4_splat(-1));
}
// row[i[0..3]]: every index valid (a slot without one points at a real particle).
static inline v128_t four_gather(const float* row, const int32_t* i) {
	return wasm_f32x4_make(row[i[0]], row[i[1]], row[i[2]], row[i[3]]);
}
// A 4 × 4 block transposed.
static inline void four_transpose(v128_t* r0, v128_t* r1, v128_t* r2, v128_t* r3) {
	const v128_t t0 = wasm_i32x4_shuffle(*r0, *r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*r2, *r3, 0, 4, 1, 5);
	const v128_t t2 = wasm_i32x4_shuffle(*r0, *r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*r2, *r3, 2, 6, 3, 7);
	*r0 = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
	*r1 = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
	*r2 = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
	*r3 = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
// The largest lane (of sizes, +0 or positive: a maximum does not depend on the order).
static inline float four_max_lanes(v128_t v) {
	const v128_t pairs = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
	return wasm_f32x4_extract_lane(wasm_f32x4_pmax(pairs, wasm_i32x4_shuffle(pairs, pairs, 1, 0, 3, 2)), 0);
}

#endif
