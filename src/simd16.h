// 16 float lanes: the operations solver_kernels.h needs, in AVX-512 (F and DQ) on x86-64, for
// solver_avx512.c alone, compiled with -mavx512f -mavx512dq (CMakeLists.txt) and run only where
// weft_sixteen_lanes_available() says the CPU has both. No FMA: -ffp-contract=off keeps every
// product and sum rounded as the scalar path rounds it (no intrinsic here fuses).
// A mask is a vector (every bit of a lane set or clear), as in simd4.h and simd8.h, so the kernels
// are the same code at every width; it becomes a mask register only to select, test or gather.
// The shuffles work within each 128-bit quarter, as four of SSE2's fours side by side.
#ifndef WEFT_SIMD16_H
#define WEFT_SIMD16_H

#include <stdbool.h>
#include <stdint.h>

#include "solver.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512DQ__)
#define WEFT_SIMD16 1
#include <immintrin.h>

typedef __m512 vf;
static inline vf vector_of(__mmask16 k) { return _mm512_castsi512_ps(_mm512_maskz_set1_epi32(k, -1)); }
static inline __mmask16 mask_of(vf mask) { return _mm512_movepi32_mask(_mm512_castps_si512(mask)); }
static inline vf vload(const float* p) { return _mm512_loadu_ps(p); }
static inline void vstore(float* p, vf v) { _mm512_storeu_ps(p, v); }
static inline vf vsplat(float v) { return _mm512_set1_ps(v); }
static inline vf vzero(void) { return _mm512_setzero_ps(); }
static inline vf vadd(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf vsub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf vmul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf vdiv(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline vf vsqrt(vf a) { return _mm512_sqrt_ps(a); }
static inline vf vneg(vf a) { return _mm512_xor_ps(a, _mm512_set1_ps(-0.0f)); }
static inline vf vand(vf a, vf b) { return _mm512_and_ps(a, b); }
static inline vf vnonzero(vf a) { return vector_of(_mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_NEQ_UQ)); }
static inline vf vgreater(vf a, vf b) { return vector_of(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)); }
static inline bool vany(vf mask) { return mask_of(mask) != 0; }
static inline bool vall(vf mask) { return mask_of(mask) == 0xffff; }
// The SSE2 path's cmpneq (unordered: NaN counts as non-zero) and cmpnlt (NaN counts as not less).
static inline vf vactive(vf w, vf length) {
	return vector_of(_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_NEQ_UQ) &
	                 _mm512_cmp_ps_mask(length, _mm512_set1_ps(MIN_LENGTH), _CMP_NLT_UQ));
}
static inline vf vselect(vf mask, vf yes, vf no) { return _mm512_mask_blend_ps(mask_of(mask), no, yes); }
// (p0..p15), (p16..p31) → even particles and odd ones, lane for lane, each quarter as SSE2's four.
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm512_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0));
	*b = _mm512_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
}
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) {
	*v0 = _mm512_unpacklo_ps(a, b);
	*v1 = _mm512_unpackhi_ps(a, b);
}
// → columns 0, 1 of each four and columns 2, 3.
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) {
	*a = _mm512_shuffle_ps(v0, v1, _MM_SHUFFLE(1, 0, 1, 0));
	*b = _mm512_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 2, 3, 2));
}
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { vsplit_paired(a, b, v0, v1); }
// Both splits leave the group's constraint perm[j] in lane j: quarter q holds 2q, 2q + 1, 2q + 8,
// 2q + 9 (the 8 lanes' 0 1 4 5 2 3 6 7, twice as wide). Stores put lane inverse[i] back at i.
static inline vf vload_lanes(const float* p) {
	return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15),
	                             _mm512_loadu_ps(p));
}
static inline void vstore_lanes(float* p, vf v) {
	_mm512_storeu_ps(p,
	                 _mm512_permutexvar_ps(_mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15), v));
}
static inline vf vvalid(const int32_t* index) {
	return vector_of(_mm512_cmpgt_epi32_mask(_mm512_loadu_si512(index), _mm512_set1_epi32(-1)));
}
// Partial vectors (a run's last group, solver_kernels.h): the first `count` lanes (0 … 16) of p, the
// rest +0, and back; the masked-out lanes are neither read nor written.
#define WEFT_SIMD_PARTIAL 1
static inline __mmask16 first_lanes(int32_t count) { return (__mmask16)((1u << count) - 1u); }
static inline vf vload_first(const float* p, int32_t count) { return _mm512_maskz_loadu_ps(first_lanes(count), p); }
static inline void vstore_first(float* p, vf v, int32_t count) { _mm512_mask_storeu_ps(p, first_lanes(count), v); }
static inline vf vload_lanes_first(const float* p, int32_t count) {
	return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15),
	                             vload_first(p, count));
}
static inline void vstore_lanes_first(float* p, vf v, int32_t count) {
	vstore_first(p, _mm512_permutexvar_ps(_mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15), v),
	             count);
}
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask_of(mask), _mm512_loadu_si512(i), row, 4);
}
#endif

#endif
