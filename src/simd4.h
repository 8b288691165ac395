// Private: the few four-lane float operations self-collision uses, on SSE2 (x86-64) and
// SIMD128 (WebAssembly). Every lane does exactly the scalar operation (IEEE add, sub, mul and
// div, sqrt and compare, no FMA), so a scan gives the same bits whichever path runs. WEFT_SIMD4 is 0 elsewhere.
#ifndef WEFT_SIMD4_H
#define WEFT_SIMD4_H

#if defined(__SSE2__)
#include <emmintrin.h>
#define WEFT_SIMD4 1
typedef __m128 weft_f4;
static inline weft_f4 weft_f4_load(const float* p) { return _mm_loadu_ps(p); }
static inline weft_f4 weft_f4_splat(float v) { return _mm_set1_ps(v); }
static inline weft_f4 weft_f4_sub(weft_f4 a, weft_f4 b) { return _mm_sub_ps(a, b); }
static inline weft_f4 weft_f4_add(weft_f4 a, weft_f4 b) { return _mm_add_ps(a, b); }
static inline weft_f4 weft_f4_mul(weft_f4 a, weft_f4 b) { return _mm_mul_ps(a, b); }
static inline weft_f4 weft_f4_div(weft_f4 a, weft_f4 b) { return _mm_div_ps(a, b); }
static inline weft_f4 weft_f4_sqrt(weft_f4 a) { return _mm_sqrt_ps(a); }
static inline weft_f4 weft_f4_min(weft_f4 a, weft_f4 b) { return _mm_min_ps(a, b); }
static inline weft_f4 weft_f4_max(weft_f4 a, weft_f4 b) { return _mm_max_ps(a, b); }
// Lanes that are NaN, as a mask vector.
static inline weft_f4 weft_f4_nan(weft_f4 a) { return _mm_cmpunord_ps(a, a); }
static inline weft_f4 weft_f4_or(weft_f4 a, weft_f4 b) { return _mm_or_ps(a, b); }
static inline int weft_f4_mask(weft_f4 a) { return _mm_movemask_ps(a); }
// Bit k set where lane k of a < b.
static inline int weft_f4_less_mask(weft_f4 a, weft_f4 b) { return _mm_movemask_ps(_mm_cmplt_ps(a, b)); }
static inline void weft_f4_store(float* p, weft_f4 v) { _mm_storeu_ps(p, v); }
static inline void weft_f4_transpose(weft_f4* r0, weft_f4* r1, weft_f4* r2, weft_f4* r3) {
	_MM_TRANSPOSE4_PS(*r0, *r1, *r2, *r3);
}
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define WEFT_SIMD4 1
typedef v128_t weft_f4;
static inline weft_f4 weft_f4_load(const float* p) { return wasm_v128_load(p); }
static inline weft_f4 weft_f4_splat(float v) { return wasm_f32x4_splat(v); }
static inline weft_f4 weft_f4_sub(weft_f4 a, weft_f4 b) { return wasm_f32x4_sub(a, b); }
static inline weft_f4 weft_f4_add(weft_f4 a, weft_f4 b) { return wasm_f32x4_add(a, b); }
static inline weft_f4 weft_f4_mul(weft_f4 a, weft_f4 b) { return wasm_f32x4_mul(a, b); }
static inline weft_f4 weft_f4_div(weft_f4 a, weft_f4 b) { return wasm_f32x4_div(a, b); }
static inline weft_f4 weft_f4_sqrt(weft_f4 a) { return wasm_f32x4_sqrt(a); }
static inline weft_f4 weft_f4_min(weft_f4 a, weft_f4 b) { return wasm_f32x4_pmin(a, b); }
static inline weft_f4 weft_f4_max(weft_f4 a, weft_f4 b) { return wasm_f32x4_pmax(a, b); }
static inline weft_f4 weft_f4_nan(weft_f4 a) { return wasm_f32x4_ne(a, a); }
static inline weft_f4 weft_f4_or(weft_f4 a, weft_f4 b) { return wasm_v128_or(a, b); }
static inline int weft_f4_mask(weft_f4 a) { return (int)wasm_i32x4_bitmask(a); }
static inline int weft_f4_less_mask(weft_f4 a, weft_f4 b) { return (int)wasm_i32x4_bitmask(wasm_f32x4_lt(a, b)); }
static inline void weft_f4_store(float* p, weft_f4 v) { wasm_v128_store(p, v); }
static inline void weft_f4_transpose(weft_f4* r0, weft_f4* r1, weft_f4* r2, weft_f4* r3) {
	weft_f4 t0 = wasm_i32x4_shuffle(*r0, *r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*r2, *r3, 0, 4, 1, 5);
	weft_f4 t2 = wasm_i32x4_shuffle(*r0, *r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*r2, *r3, 2, 6, 3, 7);
	*r0 = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
	*r1 = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
	*r2 = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
	*r3 = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
#else
#define WEFT_SIMD4 0
#endif

#endif
