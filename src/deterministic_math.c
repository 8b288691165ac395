// A sine that gives the same bits everywhere: libm's sinf differs between glibc, musl and
// wasi-libc, and the moving sphere's path feeds the state hash that determinism tests compare.
#include "world_internal.h"

float weft_sin(float x) {
	const float pi = 3.14159265358979f;
	const float two_pi = 6.28318530717959f;
	// Range-reduce to [-pi, pi] in double, then a degree-11 odd Taylor polynomial in float.
	double turns = (double)x / (double)two_pi;
	double whole = (double)(long long)(turns + (turns >= 0 ? 0.5 : -0.5));
	float r = (float)((double)x - whole * (double)two_pi);
	// Fold into [-pi/2, pi/2] where the polynomial is accurate (sin(pi - r) = sin r).
	if (r > pi * 0.5f) {
		r = pi - r;
	} else if (r < -pi * 0.5f) {
		r = -pi - r;
	}
	float r2 = r * r;
	float p = -2.5052108e-8f;
	p = p * r2 + 2.7557319e-6f;
	p = p * r2 - 1.9841270e-4f;
	p = p * r2 + 8.3333333e-3f;
	p = p * r2 - 1.6666667e-1f;
	return r + r * r2 * p;
}
