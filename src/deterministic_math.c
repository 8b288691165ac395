// Math with the same bits everywhere. A sine: libm's sinf differs between glibc, musl and
// wasi-libc, and the moving sphere's path feeds the state hash that determinism tests compare.
#include <math.h>

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

// atan and cbrt for building the mesh collider, with only IEEE +, -, ×, ÷ and sqrt (exact-rounded
// everywhere; libm's atan, acos and cbrt are not), so the collider, and with it the state hash of a
// scene, is identical natively and in WebAssembly.
double weft_atan(double r) { // r ≥ 0
	bool inverted = r > 1.0;
	if (inverted) r = 1.0 / r;
	// atan(r) = 2 atan(r / (1 + sqrt(1 + r²))), twice: r ≤ tan(π/16) ≈ 0.199, then the series.
	r = r / (1.0 + sqrt(1.0 + r * r));
	r = r / (1.0 + sqrt(1.0 + r * r));
	double r2 = r * r, term = r, sum = 0.0;
	for (int k = 0; k < 14; k++) {
		sum += term / (double)(2 * k + 1);
		term *= -r2;
	}
	sum *= 4.0;
	return inverted ? 1.5707963267948966 - sum : sum;
}

double weft_cbrt(double x) { // x > 0, Newton from a power-of-two guess
	double guess = 1.0;
	while (guess * guess * guess < x) guess *= 2.0;
	while (guess * guess * guess > 8.0 * x) guess *= 0.5;
	for (int k = 0; k < 60; k++) guess = (2.0 * guess + x / (guess * guess)) / 3.0;
	return guess;
}
