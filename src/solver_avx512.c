// The 16-lane solve of solver_kernels.h: AVX-512 (F and DQ, no FMA) on x86-64, where this file alone
// is compiled with -mavx512f -mavx512dq (CMakeLists.txt) and runs only where the CPU has both
// (weft_sixteen_lanes_available), so one binary runs on any x86-64. Bit-identical to the scalar
// path like the 4- and 8-lane ones. The interleaved and paired groups split 32 particles with
// shuffles within 128-bit quarters, which leaves the constraints in the lane order simd16.h's
// vload_lanes and vstore_lanes follow. A run's last 4 to 12 constraints are one partial group
// (masked loads and stores: `hang` 128² 1.31-1.42 → 1.27-1.31 ms a frame against handing them to
// the 8- and 4-lane kernels).
#include "solver.h"
#include "simd16.h"

#if defined(WEFT_SIMD16)

#define LANES 16
#define KERNEL(name) name##_16

#include "solver_kernels.h"

// Lanes x, y, z of a (each particle's quarter), lane w of b.
static inline vf xyz_w(vf a, vf b) { return _mm512_mask_blend_ps(0x7777, b, a); }

static inline __attribute__((always_inline)) int32_t fours(const weft_update_integrate_job* job, int32_t begin,
                                                           int32_t end, bool update, bool integrate) {
	float* x = job->x;
	float* previous = job->previous;
	float* v = job->v;
	float* r = job->r;
	const vf h = vsplat(job->h), inverse_h = vsplat(job->inverse_h), damping = vsplat(job->damping);
	const vf kick_gravity = vmul(vsplat(job->kick), _mm512_broadcast_f32x4(_mm_loadu_ps(job->gravity)));
	const vf floor_y = vsplat(job->floor_y), max_speed2 = vsplat(job->max_speed * job->max_speed);
	int32_t p = begin;
	for (; p + 4 <= end; p += 4) {
		const vf X = vload(&x[4 * p]);
		// y below the floor (a possible ground contact) or w = 0 (kinematic): the caller's code.
		const __mmask16 special = (_mm512_cmp_ps_mask(X, floor_y, _CMP_LT_OQ) & 0x2222) |
		                          (_mm512_cmp_ps_mask(X, _mm512_setzero_ps(), _CMP_EQ_OQ) & 0x8888);
		if (special != 0) {
			break;
		}
		const vf V = vload(&v[4 * p]), R = vload(&r[4 * p]);
		vf V1 = V, R1 = R;
		if (update) {
			// carried_velocity per lane (solver.c's four, lane for lane)
			const vf P = vload(&previous[4 * p]);
			const vf step = vadd(vmul(h, V), R);
			const vf predicted = vadd(P, step);
			R1 = xyz_w(vsub(step, vsub(predicted, P)), R);
			V1 = xyz_w(vadd(V, vmul(vsub(X, predicted), inverse_h)), V);
			if (job->max_speed > 0.0f) {
				// Each particle's vx² + vy² + vz², in the scalar order, in every lane of its quarter.
				const vf sq = vmul(V1, V1);
				const vf speed2 =
				    vadd(vadd(_mm512_permute_ps(sq, 0x00), _mm512_permute_ps(sq, 0x55)), _mm512_permute_ps(sq, 0xAA));
				const __mmask16 fast = _mm512_cmp_ps_mask(speed2, max_speed2, _CMP_GT_OQ) & 0x7777;
				if (fast != 0) {
					const vf scale = vdiv(vsplat(job->max_speed), vsqrt(speed2));
					V1 = _mm512_mask_mul_ps(V1, fast, V1, scale);
				}
			}
		}
		if (integrate) {
			// previous = x, v = v damping + kick g, x = previous + (h v + r)
			const vf V2 = xyz_w(vadd(vmul(V1, damping), kick_gravity), V);
			vstore(&previous[4 * p], X);
			vstore(&v[4 * p], V2);
			vstore(&x[4 * p], xyz_w(vadd(X, vadd(vmul(h, V2), R1)), X));
		} else {
			vstore(&v[4 * p], V1);
		}
		if (update) {
			vstore(&r[4 * p], R1);
		}
	}
	return p;
}

int32_t weft_update_integrate_fours(const weft_update_integrate_job* job, int32_t begin, int32_t end) {
	switch (job->parts) {
	case WEFT_FOURS_UPDATE: return fours(job, begin, end, true, false);
	case WEFT_FOURS_INTEGRATE: return fours(job, begin, end, false, true);
	default: return fours(job, begin, end, true, true);
	}
}

bool weft_sixteen_lanes_available(void) {
	static int available = -1;
	if (available < 0) {
		__builtin_cpu_init();
		available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 1 : 0;
	}
	return available == 1;
}

bool weft_sixteen_lanes_preferred(void) {
	// Intel's first AVX-512 server cores lower their clock while 512-bit arithmetic runs (and for a
	// while after), which can cost more than the width gains: there 8 lanes stay the default (not
	// measured on one: a precaution; --simd 16 still picks 16).
	return weft_sixteen_lanes_available() && !__builtin_cpu_is("skylake-avx512") && !__builtin_cpu_is("cascadelake") &&
	       !__builtin_cpu_is("cooperlake");
}

#else

bool weft_sixteen_lanes_available(void) { return false; }
bool weft_sixteen_lanes_preferred(void) { return false; }
#if defined(__SSE2__) || defined(__wasm_simd128__)
// Never chosen (weft_sixteen_lanes_available is false); here so that builds without AVX-512 link.
void weft_solve_batch_rows_16(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                              bool first) {
	weft_solve_batch_rows_8(world, colour, begin, end, inverse_h2, first);
}
void weft_tethers_rows_16(weft_world* world, int32_t begin, int32_t end) { weft_tethers_rows_8(world, begin, end); }
#endif
int32_t weft_update_integrate_fours(const weft_update_integrate_job* job, int32_t begin, int32_t end) {
	(void)job;
	(void)end;
	return begin;
}

#endif
