// The constraint solve of one colour batch, four constraints at a time (SSE2 on x86-64, SIMD128 on
// WebAssembly), with a scalar path for everything else and for the batch's tail.
//
// Inside a batch no two constraints share a particle, so four of them can be gathered, solved and
// scattered together. Positions are float4 (xyz + inverse mass): one 128-bit load per particle and
// a 4×4 transpose give x, y, z, w lanes. Every lane performs the scalar path's operations in the
// scalar path's order (no FMA, same association, same negation), and skipped constraints keep their
// old bits through a select rather than adding zero, so both paths give bit-identical results and
// the determinism hashes do not depend on which one ran.
#include <math.h>

#include "solver.h"

// Below this a constraint has no direction and is skipped.
#define MIN_LENGTH 1e-9f

static void solve_scalar(float* x, float* lambdas, const weft_constraint* constraints, float inverse_h2, int32_t begin,
                         int32_t end) {
	for (int32_t k = begin; k < end; ++k) {
		const weft_constraint c = constraints[k];
		float* a = &x[4 * c.a];
		float* b = &x[4 * c.b];
		float w = a[3] + b[3];
		if (w == 0.0f) {
			continue;
		}
		float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
		float length = sqrtf(dx * dx + dy * dy + dz * dz);
		if (length < MIN_LENGTH) {
			continue;
		}
		float alpha = c.compliance * inverse_h2;
		float delta_lambda = (-(length - c.rest_length) - alpha * lambdas[k]) / (w + alpha);
		lambdas[k] += delta_lambda;
		float s = delta_lambda / length;
		a[0] += a[3] * s * dx;
		a[1] += a[3] * s * dy;
		a[2] += a[3] * s * dz;
		b[0] -= b[3] * s * dx;
		b[1] -= b[3] * s * dy;
		b[2] -= b[3] * s * dz;
	}
}

#if defined(__SSE2__) || defined(__wasm_simd128__)
#define WEFT_SIMD 1

#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 f4;
static inline f4 load4(const float* p) { return _mm_loadu_ps(p); }
static inline void store4(float* p, f4 v) { _mm_storeu_ps(p, v); }
static inline f4 splat(float v) { return _mm_set1_ps(v); }
static inline f4 make4(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
static inline f4 add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 divide(f4 a, f4 b) { return _mm_div_ps(a, b); }
static inline f4 root(f4 a) { return _mm_sqrt_ps(a); }
static inline f4 negate(f4 a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
// Lanes where w != 0 and not (length < MIN_LENGTH): the scalar path's two skip tests, inverted.
static inline f4 active(f4 w, f4 length) {
	return _mm_and_ps(_mm_cmpneq_ps(w, _mm_setzero_ps()), _mm_cmpnlt_ps(length, _mm_set1_ps(MIN_LENGTH)));
}
static inline f4 select4(f4 mask, f4 yes, f4 no) { return _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no)); }
static inline void transpose(f4* r0, f4* r1, f4* r2, f4* r3) { _MM_TRANSPOSE4_PS(*r0, *r1, *r2, *r3); }
#else
#include <wasm_simd128.h>
typedef v128_t f4;
static inline f4 load4(const float* p) { return wasm_v128_load(p); }
static inline void store4(float* p, f4 v) { wasm_v128_store(p, v); }
static inline f4 splat(float v) { return wasm_f32x4_splat(v); }
static inline f4 make4(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
static inline f4 add(f4 a, f4 b) { return wasm_f32x4_add(a, b); }
static inline f4 sub(f4 a, f4 b) { return wasm_f32x4_sub(a, b); }
static inline f4 mul(f4 a, f4 b) { return wasm_f32x4_mul(a, b); }
static inline f4 divide(f4 a, f4 b) { return wasm_f32x4_div(a, b); }
static inline f4 root(f4 a) { return wasm_f32x4_sqrt(a); }
static inline f4 negate(f4 a) { return wasm_f32x4_neg(a); }
static inline f4 active(f4 w, f4 length) {
	return wasm_v128_and(wasm_f32x4_ne(w, wasm_f32x4_splat(0.0f)),
	                     wasm_v128_not(wasm_f32x4_lt(length, wasm_f32x4_splat(MIN_LENGTH))));
}
static inline f4 select4(f4 mask, f4 yes, f4 no) { return wasm_v128_bitselect(yes, no, mask); }
static inline void transpose(f4* r0, f4* r1, f4* r2, f4* r3) {
	f4 t0 = wasm_i32x4_shuffle(*r0, *r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*r2, *r3, 0, 4, 1, 5);
	f4 t2 = wasm_i32x4_shuffle(*r0, *r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*r2, *r3, 2, 6, 3, 7);
	*r0 = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
	*r1 = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
	*r2 = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
	*r3 = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
#endif

static void solve_simd(float* x, float* lambdas, const weft_constraint* constraints, float inverse_h2, int32_t begin,
                       int32_t end) {
	const f4 inverse_h2_4 = splat(inverse_h2);
	int32_t k = begin;
	for (; k + 4 <= end; k += 4) {
		const weft_constraint* c = &constraints[k];
		float* pa[4] = {&x[4 * c[0].a], &x[4 * c[1].a], &x[4 * c[2].a], &x[4 * c[3].a]};
		float* pb[4] = {&x[4 * c[0].b], &x[4 * c[1].b], &x[4 * c[2].b], &x[4 * c[3].b]};
		f4 ax = load4(pa[0]), ay = load4(pa[1]), az = load4(pa[2]), aw = load4(pa[3]);
		f4 bx = load4(pb[0]), by = load4(pb[1]), bz = load4(pb[2]), bw = load4(pb[3]);
		transpose(&ax, &ay, &az, &aw);
		transpose(&bx, &by, &bz, &bw);
		const f4 rest = make4(c[0].rest_length, c[1].rest_length, c[2].rest_length, c[3].rest_length);
		const f4 compliance = make4(c[0].compliance, c[1].compliance, c[2].compliance, c[3].compliance);

		const f4 w = add(aw, bw);
		const f4 dx = sub(ax, bx), dy = sub(ay, by), dz = sub(az, bz);
		const f4 length = root(add(add(mul(dx, dx), mul(dy, dy)), mul(dz, dz)));
		const f4 mask = active(w, length);
		const f4 alpha = mul(compliance, inverse_h2_4);
		const f4 lambda = load4(&lambdas[k]);
		const f4 delta_lambda = divide(sub(negate(sub(length, rest)), mul(alpha, lambda)), add(w, alpha));
		store4(&lambdas[k], select4(mask, add(lambda, delta_lambda), lambda));
		const f4 s = divide(delta_lambda, length);
		const f4 as = mul(aw, s), bs = mul(bw, s);
		ax = select4(mask, add(ax, mul(as, dx)), ax);
		ay = select4(mask, add(ay, mul(as, dy)), ay);
		az = select4(mask, add(az, mul(as, dz)), az);
		bx = select4(mask, sub(bx, mul(bs, dx)), bx);
		by = select4(mask, sub(by, mul(bs, dy)), by);
		bz = select4(mask, sub(bz, mul(bs, dz)), bz);
		transpose(&ax, &ay, &az, &aw);
		transpose(&bx, &by, &bz, &bw);
		store4(pa[0], ax);
		store4(pa[1], ay);
		store4(pa[2], az);
		store4(pa[3], aw);
		store4(pb[0], bx);
		store4(pb[1], by);
		store4(pb[2], bz);
		store4(pb[3], bw);
	}
	solve_scalar(x, lambdas, constraints, inverse_h2, k, end);
}
#endif

bool weft_simd_enabled = true;

void weft_set_simd_enabled(bool enabled) { weft_simd_enabled = enabled; }

bool weft_simd_active(void) {
#if defined(WEFT_SIMD)
	return weft_simd_enabled;
#else
	return false;
#endif
}

void weft_phase_solve_batch(weft_world* world, float h, int32_t begin, int32_t end) {
	const float inverse_h2 = 1.0f / (h * h);
#if defined(WEFT_SIMD)
	if (weft_simd_enabled) {
		solve_simd(world->positions, world->lambdas, world->constraints, inverse_h2, begin, end);
		return;
	}
#endif
	solve_scalar(world->positions, world->lambdas, world->constraints, inverse_h2, begin, end);
}

void weft_phase_solve(weft_world* world, float h, int32_t begin, int32_t end) {
	solve_scalar(world->positions, world->lambdas, world->constraints, 1.0f / (h * h), begin, end);
}
