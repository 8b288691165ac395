// The constraint solve: the scalar path (positions in place, one constraint at a time: the
// reference every other path reproduces bit for bit) and the SIMD paths on the plan's rows
// (solver_plan.c): 4 lanes with SSE2 on x86-64 and SIMD128 on WebAssembly (here), 8 lanes with
// AVX2 on x86-64 CPUs that have it (solver_avx2.c, chosen at run time). The vector code itself is
// written once, in solver_kernels.h.
//
// While a substep solves its constraints, positions are rows of x, y, z and inverse mass
// (integrate writes them, the tethers write the float4 positions back). A colour of a grid is a few
// runs of constraints at fixed strides, so a group of constraints is a handful of vector loads and
// in-register shuffles; every lane performs the scalar path's operations in the scalar path's order
// (no FMA, same association, same negation), and skipped constraints keep their old bits through a
// select rather than adding zero, so every path gives bit-identical results and the determinism
// hashes do not depend on which one ran.
#include <math.h>

#include "solver.h"

// Below this a constraint has no direction and is skipped.
#define MIN_LENGTH 1e-9f

// Inlined with constant stride and first (weft_solve_constraints), so each use compiles to its own loop.
static inline void solve_constraints(float* px, float* py, float* pz, const float* pw, int32_t stride, float* lambdas,
                                     const weft_constraint* constraints, float inverse_h2, int32_t begin, int32_t end,
                                     bool first) {
	for (int32_t k = begin; k < end; ++k) {
		const weft_constraint c = constraints[k];
		const int32_t a = (int32_t)c.a * stride, b = (int32_t)c.b * stride;
		float w = pw[a] + pw[b];
		if (w == 0.0f) {
			continue;
		}
		float dx = px[a] - px[b], dy = py[a] - py[b], dz = pz[a] - pz[b];
		float length = sqrtf(dx * dx + dy * dy + dz * dz);
		if (length < MIN_LENGTH) {
			continue;
		}
		float alpha = c.compliance * inverse_h2;
		// λ = 0 at the start of a substep (the first iteration): −α̃λ is +0 and x − (+0) is x.
		float delta_lambda = first ? -(length - c.rest_length) / (w + alpha)
		                           : (-(length - c.rest_length) - alpha * lambdas[k]) / (w + alpha);
		lambdas[k] = (first ? 0.0f : lambdas[k]) + delta_lambda;
		float s = delta_lambda / length;
		px[a] += pw[a] * s * dx;
		py[a] += pw[a] * s * dy;
		pz[a] += pw[a] * s * dz;
		px[b] -= pw[b] * s * dx;
		py[b] -= pw[b] * s * dy;
		pz[b] -= pw[b] * s * dz;
	}
}

void weft_solve_constraints(float* px, float* py, float* pz, const float* pw, int32_t stride, float* lambdas,
                            const weft_constraint* constraints, float inverse_h2, int32_t begin, int32_t end,
                            bool first) {
	if (stride == 4) {
		if (first) {
			solve_constraints(px, py, pz, pw, 4, lambdas, constraints, inverse_h2, begin, end, true);
		} else {
			solve_constraints(px, py, pz, pw, 4, lambdas, constraints, inverse_h2, begin, end, false);
		}
	} else if (first) {
		solve_constraints(px, py, pz, pw, stride, lambdas, constraints, inverse_h2, begin, end, true);
	} else {
		solve_constraints(px, py, pz, pw, stride, lambdas, constraints, inverse_h2, begin, end, false);
	}
}

#if defined(__SSE2__) || defined(__wasm_simd128__)
#define WEFT_SIMD 1
#define LANES 4
#define KERNEL(name) name##_4

#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 vf;
static inline vf vload(const float* p) { return _mm_loadu_ps(p); }
static inline void vstore(float* p, vf v) { _mm_storeu_ps(p, v); }
static inline vf vsplat(float v) { return _mm_set1_ps(v); }
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
	return _mm_setr_ps(row[i[0] < 0 ? 0 : i[0]], row[i[1] < 0 ? 0 : i[1]], row[i[2] < 0 ? 0 : i[2]],
	                   row[i[3] < 0 ? 0 : i[3]]);
}
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) { _MM_TRANSPOSE4_PS(*r0, *r1, *r2, *r3); }
#else
#include <wasm_simd128.h>
typedef v128_t vf;
static inline vf vload(const float* p) { return wasm_v128_load(p); }
static inline void vstore(float* p, vf v) { wasm_v128_store(p, v); }
static inline vf vsplat(float v) { return wasm_f32x4_splat(v); }
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
static inline vf vactive(vf w, vf length) {
	return wasm_v128_and(wasm_f32x4_ne(w, wasm_f32x4_splat(0.0f)),
	                     wasm_v128_not(wasm_f32x4_lt(length, wasm_f32x4_splat(MIN_LENGTH))));
}
static inline vf vselect(vf mask, vf yes, vf no) { return wasm_v128_bitselect(yes, no, mask); }
static inline void vsplit_interleaved(vf v0, vf v1, vf* a, vf* b) {
	*a = wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6);
	*b = wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7);
}
static inline void vjoin_interleaved(vf a, vf b, vf* v0, vf* v1) {
	*v0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5);
	*v1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
}
static inline void vsplit_paired(vf v0, vf v1, vf* a, vf* b) {
	*a = wasm_i32x4_shuffle(v0, v1, 0, 1, 4, 5);
	*b = wasm_i32x4_shuffle(v0, v1, 2, 3, 6, 7);
}
static inline void vjoin_paired(vf a, vf b, vf* v0, vf* v1) { vsplit_paired(a, b, v0, v1); }
static inline bool vall(vf mask) { return wasm_i32x4_all_true(mask); }
static inline vf vvalid(const int32_t* index) { return wasm_i32x4_gt(wasm_v128_load(index), wasm_i32x4_splat(-1)); }
static inline vf vgather(const float* row, const int32_t* i, vf mask) {
	(void)mask;
	return wasm_f32x4_make(row[i[0] < 0 ? 0 : i[0]], row[i[1] < 0 ? 0 : i[1]], row[i[2] < 0 ? 0 : i[2]],
	                       row[i[3] < 0 ? 0 : i[3]]);
}
static inline void transpose(vf* r0, vf* r1, vf* r2, vf* r3) {
	vf t0 = wasm_i32x4_shuffle(*r0, *r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*r2, *r3, 0, 4, 1, 5);
	vf t2 = wasm_i32x4_shuffle(*r0, *r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*r2, *r3, 2, 6, 3, 7);
	*r0 = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
	*r1 = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
	*r2 = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
	*r3 = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
#endif
// 4 lanes keep the constraint order (the 8-lane shuffles do not: solver_avx2.c).
static inline vf vload_lanes(const float* p) { return vload(p); }
static inline void vstore_lanes(float* p, vf v) { vstore(p, v); }

#include "solver_kernels.h"
#endif

// 0 scalar, 1 the widest path this build and CPU have, 4 or 8 that many lanes.
static int32_t simd_request = 1;

void weft_set_simd_enabled(bool enabled) { simd_request = enabled ? 1 : 0; }

weft_result weft_set_simd_width(int32_t lanes) {
	if (lanes != 0 && lanes != 1 && lanes != 4 && lanes != 8) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "SIMD width must be 0, 1 (widest), 4 or 8 (got %d)", (int)lanes);
	}
#if !defined(WEFT_SIMD)
	if (lanes == 4 || lanes == 8) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "this build has no SIMD path");
	}
#endif
	if (lanes == 8 && !weft_avx2_available()) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "8 lanes need AVX2, which this build or CPU lacks");
	}
	simd_request = lanes;
	return WEFT_OK;
}

int32_t weft_simd_width(void) {
#if defined(WEFT_SIMD)
	if (simd_request == 1) {
		return weft_avx2_available() ? 8 : 4;
	}
	return simd_request;
#else
	return 0;
#endif
}

bool weft_simd_active(void) { return weft_simd_width() > 0; }

void weft_rows_from_positions(weft_world* world, int32_t begin, int32_t end) {
	const float* x = world->positions;
	const int32_t stride = world->soa_stride;
	float* X = world->soa;
	int32_t p = begin;
#if defined(WEFT_SIMD)
	for (; p + 4 <= end; p += 4) {
		vf r0 = vload(&x[4 * p]), r1 = vload(&x[4 * p + 4]), r2 = vload(&x[4 * p + 8]), r3 = vload(&x[4 * p + 12]);
		transpose(&r0, &r1, &r2, &r3);
		vstore(X + p, r0);
		vstore(X + stride + p, r1);
		vstore(X + 2 * stride + p, r2);
		vstore(X + 3 * stride + p, r3);
	}
#endif
	for (; p < end; ++p) {
		for (int32_t c = 0; c < 4; ++c) {
			X[c * stride + p] = x[4 * p + c];
		}
	}
}

void weft_positions_from_rows(weft_world* world, int32_t begin, int32_t end) {
	float* x = world->positions;
	const int32_t stride = world->soa_stride;
	const float* X = world->soa;
	int32_t p = begin;
#if defined(WEFT_SIMD)
	for (; p + 4 <= end; p += 4) {
		vf r0 = vload(X + p), r1 = vload(X + stride + p), r2 = vload(X + 2 * stride + p),
		   r3 = vload(X + 3 * stride + p);
		transpose(&r0, &r1, &r2, &r3);
		vstore(&x[4 * p], r0);
		vstore(&x[4 * p + 4], r1);
		vstore(&x[4 * p + 8], r2);
		vstore(&x[4 * p + 12], r3);
	}
#endif
	for (; p < end; ++p) {
		for (int32_t c = 0; c < 4; ++c) {
			x[4 * p + c] = X[c * stride + p];
		}
	}
}

void weft_phase_solve_batch(weft_world* world, float h, int32_t colour, int32_t begin, int32_t end, bool first) {
	const float inverse_h2 = 1.0f / (h * h);
#if defined(WEFT_SIMD)
	if (world->simd_width == 8) {
		weft_solve_batch_rows_8(world, colour, begin, end, inverse_h2, first);
		return;
	}
	if (world->simd_width == 4) {
		weft_solve_batch_rows_4(world, colour, begin, end, inverse_h2, first);
		return;
	}
#endif
	(void)colour;
	weft_phase_solve(world, h, begin, end, first);
}

void weft_phase_solve(weft_world* world, float h, int32_t begin, int32_t end, bool first) {
	const float inverse_h2 = 1.0f / (h * h);
	if (world->simd_width > 0) {
		float* X = world->soa;
		const int32_t stride = world->soa_stride;
		weft_solve_constraints(X, X + stride, X + 2 * stride, X + 3 * stride, 1, world->lambdas, world->constraints,
		                       inverse_h2, begin, end, first);
		return;
	}
	float* x = world->positions;
	weft_solve_constraints(x, x + 1, x + 2, x + 3, 4, world->lambdas, world->constraints, inverse_h2, begin, end,
	                       first);
}

void weft_phase_tethers(weft_world* world, int32_t begin, int32_t end) {
	if (world->simd_width == 0) {
		float* x = world->positions;
		weft_tethers_strided(world, x, x + 1, x + 2, x + 3, 4, world->tether_anchor, world->tether_max_distance,
		                     WEFT_TETHERS_PER_PARTICLE, 1, begin, end);
		weft_grab_tethers(world, x, x + 1, x + 2, x + 3, 4, begin, end);
		return;
	}
	float* X = world->soa;
	const int32_t stride = world->soa_stride;
#if defined(WEFT_SIMD)
	if (world->simd_width == 8) {
		weft_tethers_rows_8(world, begin, end);
	} else {
		weft_tethers_rows_4(world, begin, end);
	}
#endif
	weft_grab_tethers(world, X, X + stride, X + 2 * stride, X + 3 * stride, 1, begin, end);
	// The solve is over for these particles (until the next iteration): back to float4 positions.
	weft_positions_from_rows(world, begin, end);
}
