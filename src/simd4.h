// Private: the 4-lane vector operations of the CPU solve, SSE2 on x86-64 and SIMD128 on
// WebAssembly (WEFT_SIMD is defined where one of them exists). The constraint solve's kernels
// (solver_kernels.h through solver_simd.c) and the fused update + integrate (solver.c) use them;
// simd8.h has the 8-lane twin; self_collision.c scans candidates, contacts and displacement
// boxes with them. Plain IEEE operations only (no FMA, no approximations).
#ifndef WEFT_SIMD4_H
#define WEFT_SIMD4_H

#include <stdbool.h>
#include <stdint.h>

#include "solver.h"

#if defined(__SSE2__) || defined(__wasm_simd128__)
#define WEFT_SIMD 1

#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 vf;
static inline vf vload(const float* p) { return _mm_loadu_ps(p); }
static inline void vstore(float* p, vf v) { _mm_storeu_ps(p, v); }
static inline vf vsplat(float v) { return _mm_set1_ps(v); }
static inline vf vset4(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
static inline vf vzero(void) { return _mm_setzero_ps(); }
static inline vf vadd(vf a, vf b) { return _mm_add_ps(a, b); }
static inline vf vsub(vf a, vf b) { return _mm_sub_ps(a, b); }
static inline vf vmul(vf a, vf b) { return _mm_mul_ps(a, b); }
static inline vf vdiv(vf a, vf b) { return _mm_div_ps(a, b); }
static inline vf vsqrt(vf a) { return _mm_sqrt_ps(a); }
static inline vf vneg(vf a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
static inline vf vand(vf a, vf b) { return _mm_and_ps(a, b); }
static inline vf vnonzero(vf a) { return _mm_cmpneq_ps(a, _mm_setzero_ps()); }
static inline vf vgreater(vf a, vf b) { return _mm_cmpgt_ps(a, b); }
static inline bool vany(vf mask) { return _mm_movemask_ps(mask) != 0; }
static inline vf vactive(vf w, vf length) {
	return _mm_and_ps(_mm_cmpneq_ps(w, _mm_setzero_ps()), _mm_cmpnlt_ps(length, _mm_set1_ps(MIN_LENGTH)));
}
static inline vf vselect(vf mask, vf yes, vf no) { return _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no)); }
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0));
	*b = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
}
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) {
	*v0 = _mm_unpacklo_ps(a, b);
	*v1 = _mm_unpackhi_ps(a, b);
}
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(1, 0, 1, 0));
	*b = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 2, 3, 2));
}
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { vsplit_paired(a, b, v0, v1); }
static inline bool vall(vf mask) { return _mm_movemask_ps(mask) == 0xf; }
static inline vf vvalid(const int32_t* index) {
	return _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_loadu_si128((const __m128i*)index), _mm_set1_epi32(-1)));
}
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	(void)mask;
	return _mm_setr_ps(row[i[0]], row[i[1]], row[i[2]], row[i[3]]);
}
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) { _MM_TRANSPOSE4_PS(*r0, *r1, *r2, *r3); }
static inline float vlane(vf v, int lane) {
	float lanes[4];
	_mm_storeu_ps(lanes, v);
	return lanes[lane];
}
static inline vf vgreater_equal(vf a, vf b) { return _mm_cmpge_ps(a, b); }
static inline vf vmin(vf a, vf b) { return _mm_min_ps(a, b); }
static inline vf vmax(vf a, vf b) { return _mm_max_ps(a, b); }
// The largest lane (of lanes that are not NaN; a maximum does not depend on the order).
static inline float vmax_lanes(vf v) {
	const vf pairs = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
	return _mm_cvtss_f32(_mm_max_ps(pairs, _mm_shuffle_ps(pairs, pairs, _MM_SHUFFLE(2, 3, 0, 1))));
}
static inline vf vor(vf a, vf b) { return _mm_or_ps(a, b); }
static inline vf visnan(vf a) { return _mm_cmpunord_ps(a, a); }
// Bit k set where lane k of the mask is set.
static inline int vbits(vf mask) { return _mm_movemask_ps(mask); }
static inline int vless_bits(vf a, vf b) { return _mm_movemask_ps(_mm_cmplt_ps(a, b)); }
// Lane k of `yes` where bit k of bits is set, else of `no`.
static inline vf vpick_bits(int bits, vf yes, vf no) {
	const vf m =
	    _mm_castsi128_ps(_mm_set_epi32(-((bits >> 3) & 1), -((bits >> 2) & 1), -((bits >> 1) & 1), -(bits & 1)));
	return vselect(m, yes, no);
}
// x, y, z of a, w of b.
static inline vf vxyz_w(vf a, vf b) {
	const vf w = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
	return _mm_or_ps(_mm_andnot_ps(w, a), _mm_and_ps(w, b));
}
#else
#include "wasm_four.h"
typedef v128_t vf;
static inline vf vload(const float* p) { return wasm_v128_load(p); }
static inline void vstore(float* p, vf v) { wasm_v128_store(p, v); }
static inline vf vsplat(float v) { return wasm_f32x4_splat(v); }
static inline vf vset4(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
static inline vf vzero(void) { return wasm_f32x4_splat(0.0f); }
static inline vf vadd(vf a, vf b) { return wasm_f32x4_add(a, b); }
static inline vf vsub(vf a, vf b) { return wasm_f32x4_sub(a, b); }
static inline vf vmul(vf a, vf b) { return wasm_f32x4_mul(a, b); }
static inline vf vdiv(vf a, vf b) { return wasm_f32x4_div(a, b); }
static inline vf vsqrt(vf a) { return wasm_f32x4_sqrt(a); }
static inline vf vneg(vf a) { return wasm_f32x4_neg(a); }
static inline vf vand(vf a, vf b) { return wasm_v128_and(a, b); }
static inline vf vnonzero(vf a) { return wasm_f32x4_ne(a, wasm_f32x4_splat(0.0f)); }
static inline vf vgreater(vf a, vf b) { return wasm_f32x4_gt(a, b); }
static inline bool vany(vf mask) { return wasm_v128_any_true(mask); }
static inline vf vactive(vf w, vf length) { return four_active(w, length); }
static inline vf vselect(vf mask, vf yes, vf no) { return wasm_v128_bitselect(yes, no, mask); }
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) { four_split_interleaved(v0, v1, a, b); }
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) { four_join_interleaved(a, b, v0, v1); }
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) { four_split_paired(v0, v1, a, b); }
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { four_split_paired(a, b, v0, v1); }
static inline bool vall(vf mask) { return wasm_i32x4_all_true(mask); }
static inline vf vvalid(const int32_t* index) { return four_valid(index); }
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	(void)mask;
	return four_gather(row, i);
}
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) { four_transpose(r0, r1, r2, r3); }
static inline float vlane(vf v, int lane) {
	float lanes[4];
	wasm_v128_store(lanes, v);
	return lanes[lane];
}
static inline vf vgreater_equal(vf a, vf b) { return wasm_f32x4_ge(a, b); }
static inline vf vmin(vf a, vf b) { return wasm_f32x4_pmin(a, b); }
static inline vf vmax(vf a, vf b) { return wasm_f32x4_pmax(a, b); }
static inline float vmax_lanes(vf v) { return four_max_lanes(v); }
static inline vf vor(vf a, vf b) { return wasm_v128_or(a, b); }
static inline vf visnan(vf a) { return wasm_f32x4_ne(a, a); }
static inline int vbits(vf mask) { return (int)wasm_i32x4_bitmask(mask); }
static inline int vless_bits(vf a, vf b) { return (int)wasm_i32x4_bitmask(wasm_f32x4_lt(a, b)); }
static inline vf vpick_bits(int bits, vf yes, vf no) {
	const vf m = wasm_i32x4_make(-(bits & 1), -((bits >> 1) & 1), -((bits >> 2) & 1), -((bits >> 3) & 1));
	return vselect(m, yes, no);
}
static inline vf vxyz_w(vf a, vf b) { return wasm_i32x4_shuffle(a, b, 0, 1, 2, 7); }
#endif
#endif

#endif
