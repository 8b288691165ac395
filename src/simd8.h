// 8 float lanes (AVX2 without FMA, so products and sums round as the scalar path's): the
// operations the 8-lane paths share (solver_avx2.c, self_contacts_avx2.c). Only for files compiled
// with -mavx2 -mno-fma (CMakeLists.txt), which run only where weft_avx2_available() says so.
// Shuffles and transposes work within each 128-bit half, as two fours side by side.
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
// Two fours side by side: a in the low half, b in the high one.
static inline vf vhalves(__m128 a, __m128 b) { return _mm256_set_m128(b, a); }
static inline __m128 vlow(vf v) { return _mm256_castps256_ps128(v); }
static inline __m128 vhigh(vf v) { return _mm256_extractf128_ps(v, 1); }
#endif

#endif
