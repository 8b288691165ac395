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

#include "simd4.h"
#include "solver.h"


// Inlined with constant stride and first (weft_solve_constraints), so each use compiles to its own loop.
static inline void solve_constraints(float* px, float* py, float* pz, const float* pw, int32_t stride, float* lambdas,
                                     const weft_constraint* constraints, float inverse_h2, float stretch_limit,
                                     int32_t begin, int32_t end, bool first) {
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
		delta_lambda = weft_strain_limited(delta_lambda, length, c.rest_length, w, stretch_limit);
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

// The same on float4 positions, through one pointer per particle: the compiler then knows x, y, z
// and w of a particle apart and keeps w in a register (through four pointers it reloads it after
// every store, and the scalar path ran slower than before the rows).
static inline void solve_float4(float* x, float* lambdas, const weft_constraint* constraints, float inverse_h2,
                                float stretch_limit, int32_t begin, int32_t end, bool first) {
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
		float delta_lambda = first ? -(length - c.rest_length) / (w + alpha)
		                           : (-(length - c.rest_length) - alpha * lambdas[k]) / (w + alpha);
		delta_lambda = weft_strain_limited(delta_lambda, length, c.rest_length, w, stretch_limit);
		lambdas[k] = (first ? 0.0f : lambdas[k]) + delta_lambda;
		float s = delta_lambda / length;
		a[0] += a[3] * s * dx;
		a[1] += a[3] * s * dy;
		a[2] += a[3] * s * dz;
		b[0] -= b[3] * s * dx;
		b[1] -= b[3] * s * dy;
		b[2] -= b[3] * s * dz;
	}
}

void weft_solve_constraints(float* px, float* py, float* pz, const float* pw, int32_t stride, float* lambdas,
                            const weft_constraint* constraints, float inverse_h2, float stretch_limit, int32_t begin,
                            int32_t end, bool first) {
	if (stride == 4 && py == px + 1 && pz == px + 2 && pw == px + 3) {
		if (first) {
			solve_float4(px, lambdas, constraints, inverse_h2, stretch_limit, begin, end, true);
		} else {
			solve_float4(px, lambdas, constraints, inverse_h2, stretch_limit, begin, end, false);
		}
	} else if (first) {
		solve_constraints(px, py, pz, pw, stride, lambdas, constraints, inverse_h2, stretch_limit, begin, end, true);
	} else {
		solve_constraints(px, py, pz, pw, stride, lambdas, constraints, inverse_h2, stretch_limit, begin, end, false);
	}
}

#if defined(WEFT_SIMD)
#define LANES 4
#define KERNEL(name) name##_4

// 4 lanes keep the constraint order (the 8-lane shuffles do not: solver_avx2.c).
static inline vf vload_lanes(const float* p) { return vload(p); }
static inline void vstore_lanes(float* p, vf v) { vstore(p, v); }

#include "solver_kernels.h"
#endif

// 0 scalar, 1 the widest path this build and CPU have, 4, 8 or 16 that many lanes.
static int32_t simd_request = 1;

void weft_set_simd_enabled(bool enabled) { simd_request = enabled ? 1 : 0; }

weft_result weft_set_simd_width(int32_t lanes) {
	if (lanes != 0 && lanes != 1 && lanes != 4 && lanes != 8 && lanes != 16) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "SIMD width must be 0, 1 (widest), 4, 8 or 16 (got %d)",
		                 (int)lanes);
	}
#if !defined(WEFT_SIMD)
	if (lanes >= 4) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "this build has no SIMD path");
	}
#endif
	if (lanes == 8 && !weft_eight_lanes_available()) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "8 lanes need AVX2 (or wasm SIMD128), which this build or CPU lacks");
	}
	if (lanes == 16 && !weft_sixteen_lanes_available()) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "16 lanes need AVX-512 (F and DQ), which this build or CPU lacks");
	}
	simd_request = lanes;
	return WEFT_OK;
}

int32_t weft_simd_width(void) {
#if defined(WEFT_SIMD)
	if (simd_request == 1) {
		return weft_sixteen_lanes_preferred() ? 16 : weft_eight_lanes_available() ? 8 : 4;
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
	if (world->simd_width == 16) {
		weft_solve_batch_rows_16(world, colour, begin, end, inverse_h2, first);
		return;
	}
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
		                       inverse_h2, world->stretch_limit, begin, end, first);
		return;
	}
	float* x = world->positions;
	weft_solve_constraints(x, x + 1, x + 2, x + 3, 4, world->lambdas, world->constraints, inverse_h2,
	                       world->stretch_limit, begin, end, first);
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
	if (world->simd_width == 16) {
		weft_tethers_rows_16(world, begin, end);
	} else if (world->simd_width == 8) {
		weft_tethers_rows_8(world, begin, end);
	} else {
		weft_tethers_rows_4(world, begin, end);
	}
#endif
	weft_grab_tethers(world, X, X + stride, X + 2 * stride, X + 3 * stride, 1, begin, end);
	// The solve is over for these particles (until the next iteration): back to float4 positions.
	weft_positions_from_rows(world, begin, end);
}
