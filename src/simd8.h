// 8 float lanes: the operations the 8-lane paths share (solver_avx2.c, self_contacts_avx2.c).
// x86-64: AVX2 without FMA (products and sums round as the scalar path's), only for files compiled
// with -mavx2 -mno-fma (CMakeLists.txt), which run only where weft_eight_lanes_available() says so.
// wasm: two SIMD128 fours. Shuffles and transposes work within each 128-bit half, as two fours
// side by side, so both are the same lanes.
#ifndef WEFT_SIMD8_H
#define WEFT_SIMD8_H

#include <stdbool.h>
#include <stdint.h>

#include "solver.h"

#if defined(__x86_64__) && defined(__AVX2__) && !defined(__FMA__)
#define WEFT_SIMD8 1
#include <immintrin.h>

typedef __m256 vf;
static inline vf vload(const float* p) { return _mm256_loadu_ps(p); }
static inline void vstore(float* p, vf v) { _mm256_storeu_ps(p, v); }
static inline vf vsplat(float v) { return _mm256_set1_ps(v); }
static inline vf vzero(void) { return _mm256_setzero_ps(); }
static inline vf vadd(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vsub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vmul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vdiv(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf vsqrt(vf a) { return _mm256_sqrt_ps(a); }
static inline vf vneg(vf a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline vf vand(vf a, vf b) { return _mm256_and_ps(a, b); }
static inline vf vnonzero(vf a) { return _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_NEQ_UQ); }
static inline vf vgreater(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline bool vany(vf mask) { return _mm256_movemask_ps(mask) != 0; }
// The SSE2 path's cmpneq (unordered: NaN counts as non-zero) and cmpnlt (NaN counts as not less).
static inline vf vactive(vf w, vf length) {
	return _mm256_and_ps(_mm256_cmp_ps(w, _mm256_setzero_ps(), _CMP_NEQ_UQ),
	                     _mm256_cmp_ps(length, _mm256_set1_ps(MIN_LENGTH), _CMP_NLT_UQ));
}
static inline vf vselect(vf mask, vf yes, vf no) { return _mm256_blendv_ps(no, yes, mask); }
// (p0..p7), (p8..p15) → even particles (0 2 8 10 | 4 6 12 14) and odd ones, lane for lane.
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0));
	*b = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
}
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) {
	*v0 = _mm256_unpacklo_ps(a, b);
	*v1 = _mm256_unpackhi_ps(a, b);
}
// → columns 0, 1 of each four (0 1 8 9 | 4 5 12 13) and columns 2, 3 (2 3 10 11 | 6 7 14 15).
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(1, 0, 1, 0));
	*b = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 2, 3, 2));
}
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { vsplit_paired(a, b, v0, v1); }
// Both splits leave constraint i of the group in lane 0 1 4 5 2 3 6 7 [i] (the order is its own inverse).
static inline vf vload_lanes(const float* p) {
	return _mm256_permutevar8x32_ps(_mm256_loadu_ps(p), _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
}
static inline void vstore_lanes(float* p, vf v) {
	_mm256_storeu_ps(p, _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)));
}
static inline bool vall(vf mask) { return _mm256_movemask_ps(mask) == 0xff; }
static inline vf vvalid(const int32_t* index) {
	return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_loadu_si256((const __m256i*)index), _mm256_set1_epi32(-1)));
}
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), row, _mm256_loadu_si256((const __m256i*)i), mask, 4);
}
// Each 128-bit half transposed as a 4 × 4 block (simd4.h's transpose, twice side by side).
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) {
	const vf t0 = _mm256_unpacklo_ps(*r0, *r1), t1 = _mm256_unpacklo_ps(*r2, *r3);
	const vf t2 = _mm256_unpackhi_ps(*r0, *r1), t3 = _mm256_unpackhi_ps(*r2, *r3);
	*r0 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
	*r1 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
	*r2 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
	*r3 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
static inline vf vgreater_equal(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline vf vmax(vf a, vf b) { return _mm256_max_ps(a, b); }
// Two fours side by side: a in the low half, b in the high one; a half's own operations.
typedef __m128 vhalf;
static inline vf vhalves(vhalf a, vhalf b) { return _mm256_set_m128(b, a); }
static inline vhalf vlow(vf v) { return _mm256_castps256_ps128(v); }
static inline vhalf vhigh(vf v) { return _mm256_extractf128_ps(v, 1); }
static inline vhalf hload(const float* p) { return _mm_loadu_ps(p); }
static inline void hstore(float* p, vhalf v) { _mm_storeu_ps(p, v); }
static inline vhalf hsplat(float v) { return _mm_set1_ps(v); }
// The largest of the four lanes (for sizes, +0 or positive: a maximum does not depend on the order).
static inline float hmax_lanes(vhalf v) {
	const vhalf pairs = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
	return _mm_cvtss_f32(_mm_max_ps(pairs, _mm_shuffle_ps(pairs, pairs, _MM_SHUFFLE(2, 3, 0, 1))));
}

#elif defined(__wasm_simd128__)
// wasm: two SIMD128 fours side by side (the layout the AVX2 shuffles keep), each operation on both:
// no wider registers, but twice the independent work an instruction stream holds.
#define WEFT_SIMD8 1
#include "wasm_four.h"

typedef struct vf {
	v128_t lo, hi;
} vf;
typedef v128_t vhalf;
static inline vf vpair(v128_t lo, v128_t hi) { return (vf){lo, hi}; }
static inline vf vload(const float* p) { return vpair(wasm_v128_load(p), wasm_v128_load(p + 4)); }
static inline void vstore(float* p, vf v) {
	wasm_v128_store(p, v.lo);
	wasm_v128_store(p + 4, v.hi);
}
static inline vf vsplat(float v) { return vpair(wasm_f32x4_splat(v), wasm_f32x4_splat(v)); }
static inline vf vzero(void) { return vsplat(0.0f); }
#define WEFT_PAIRWISE(name, op) \
	static inline vf name(vf a, vf b) { return vpair(op(a.lo, b.lo), op(a.hi, b.hi)); }
WEFT_PAIRWISE(vadd, wasm_f32x4_add)
WEFT_PAIRWISE(vsub, wasm_f32x4_sub)
WEFT_PAIRWISE(vmul, wasm_f32x4_mul)
WEFT_PAIRWISE(vdiv, wasm_f32x4_div)
WEFT_PAIRWISE(vand, wasm_v128_and)
WEFT_PAIRWISE(vgreater, wasm_f32x4_gt)
WEFT_PAIRWISE(vgreater_equal, wasm_f32x4_ge)
WEFT_PAIRWISE(vmax, wasm_f32x4_pmax)
#undef WEFT_PAIRWISE
static inline vf vsqrt(vf a) { return vpair(wasm_f32x4_sqrt(a.lo), wasm_f32x4_sqrt(a.hi)); }
static inline vf vneg(vf a) { return vpair(wasm_f32x4_neg(a.lo), wasm_f32x4_neg(a.hi)); }
static inline vf vnonzero(vf a) {
	return vpair(wasm_f32x4_ne(a.lo, wasm_f32x4_splat(0.0f)), wasm_f32x4_ne(a.hi, wasm_f32x4_splat(0.0f)));
}
static inline bool vany(vf mask) { return wasm_v128_any_true(wasm_v128_or(mask.lo, mask.hi)); }
static inline bool vall(vf mask) { return wasm_i32x4_all_true(wasm_v128_and(mask.lo, mask.hi)); }
static inline vf vactive(vf w, vf length) { return vpair(four_active(w.lo, length.lo), four_active(w.hi, length.hi)); }
static inline vf vselect(vf mask, vf yes, vf no) {
	return vpair(wasm_v128_bitselect(yes.lo, no.lo, mask.lo), wasm_v128_bitselect(yes.hi, no.hi, mask.hi));
}
// Each half as simd4.h's wasm four: AVX2's shuffles work within 128-bit halves too.
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) {
	four_split_interleaved(v0.lo, v1.lo, &a->lo, &b->lo);
	four_split_interleaved(v0.hi, v1.hi, &a->hi, &b->hi);
}
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) {
	four_join_interleaved(a.lo, b.lo, &v0->lo, &v1->lo);
	four_join_interleaved(a.hi, b.hi, &v0->hi, &v1->hi);
}
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) {
	four_split_paired(v0.lo, v1.lo, &a->lo, &b->lo);
	four_split_paired(v0.hi, v1.hi, &a->hi, &b->hi);
}
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { vsplit_paired(a, b, v0, v1); }
// The AVX2 path's lane order 0 1 4 5 2 3 6 7 (solver_avx2.c): the eight's columns 0, 1 and 2, 3.
static inline vf vload_lanes(const float* p) {
	vf v;
	four_split_paired(wasm_v128_load(p), wasm_v128_load(p + 4), &v.lo, &v.hi);
	return v;
}
static inline void vstore_lanes(float* p, vf v) {
	v128_t first, second;
	four_split_paired(v.lo, v.hi, &first, &second);
	wasm_v128_store(p, first);
	wasm_v128_store(p + 4, second);
}
static inline vf vvalid(const int32_t* index) { return vpair(four_valid(index), four_valid(index + 4)); }
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	(void)mask; // as simd4.h's wasm gather: every index is valid (padding points at a real particle)
	return vpair(four_gather(row, i), four_gather(row, i + 4));
}
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) {
	four_transpose(&r0->lo, &r1->lo, &r2->lo, &r3->lo);
	four_transpose(&r0->hi, &r1->hi, &r2->hi, &r3->hi);
}
static inline vf vhalves(vhalf a, vhalf b) { return vpair(a, b); }
static inline vhalf vlow(vf v) { return v.lo; }
static inline vhalf vhigh(vf v) { return v.hi; }
static inline vhalf hload(const float* p) { return wasm_v128_load(p); }
static inline void hstore(float* p, vhalf v) { wasm_v128_store(p, v); }
static inline vhalf hsplat(float v) { return wasm_f32x4_splat(v); }
static inline float hmax_lanes(vhalf v) { return four_max_lanes(v); }
#endif

#endif
