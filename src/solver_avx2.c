// The 8-lane solve (AVX2, no FMA) of solver_kernels.h. This file alone is compiled with -mavx2
// (CMakeLists.txt) and runs only where the CPU has AVX2 (weft_avx2_available), so one binary runs on
// any x86-64. Bit-identical to the scalar path like the 4-lane one (solver_simd.c).
//
// The interleaved and paired groups split 16 particles with in-lane shuffles, which leaves the
// constraints in lane order 0 1 4 5 2 3 6 7: their rest lengths, compliances and λ are loaded and
// stored through the same permutation (vload_lanes / vstore_lanes), so each lane still works on one
// constraint's own values.
#include "solver.h"

#if defined(__x86_64__) && defined(__AVX2__) && !defined(__FMA__)
#include <immintrin.h>

#define LANES 8
#define KERNEL(name) name##_8

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

#include "solver_kernels.h"

bool weft_avx2_available(void) {
	static int available = -1;
	if (available < 0) {
		__builtin_cpu_init();
		available = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	return available == 1;
}

#else

bool weft_avx2_available(void) { return false; }
#if defined(__SSE2__) || defined(__wasm_simd128__)
// Never chosen (weft_avx2_available is false); here so that the 4-lane build links.
void weft_solve_batch_rows_8(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                             bool first) {
	(void)colour;
	weft_solve_batch_rows_4(world, colour, begin, end, inverse_h2, first);
}
void weft_tethers_rows_8(weft_world* world, int32_t begin, int32_t end) { weft_tethers_rows_4(world, begin, end); }
#endif

#endif
