// Closest point on a triangle (Voronoi regions) against a brute-force oracle: the nearest of the
// plane projection (when it falls inside) and the three clamped segment projections, in double.
// Random points around random triangles must reach all 7 regions.
#include <stdint.h>

#include "mesh.h"
#include "test.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(double lo, double hi) {
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return lo + (hi - lo) * (double)(rng_state >> 11) / (double)(1ull << 53);
}

typedef struct oracle_result {
	double point[3];
	int region;    // weft_triangle_region
	double margin; // how far from a region boundary (in barycentric / segment parameter terms)
} oracle_result;

static double d3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static oracle_result oracle(const double p[3], const double* v[3]) {
	oracle_result best = {{0, 0, 0}, -1, 0};
	double best_d2 = INFINITY;
	// Face: solve for barycentric coordinates of the projection.
	double e0[3], e1[3], w[3];
	for (int i = 0; i < 3; i++) {
		e0[i] = v[1][i] - v[0][i];
		e1[i] = v[2][i] - v[0][i];
		w[i] = p[i] - v[0][i];
	}
	double a = d3(e0, e0), b = d3(e0, e1), c = d3(e1, e1), d = d3(w, e0), e = d3(w, e1);
	double det = a * c - b * b;
	double s = (c * d - b * e) / det, t = (a * e - b * d) / det;
	if (s >= 0 && t >= 0 && s + t <= 1) {
		double q[3], diff[3];
		for (int i = 0; i < 3; i++) {
			q[i] = v[0][i] + s * e0[i] + t * e1[i];
			diff[i] = p[i] - q[i];
		}
		best_d2 = d3(diff, diff);
		for (int i = 0; i < 3; i++) best.point[i] = q[i];
		best.region = WEFT_REGION_FACE;
		double m = s < t ? s : t;
		best.margin = m < 1 - s - t ? m : 1 - s - t;
	}
	const int edge_region[3] = {WEFT_REGION_EDGE_AB, WEFT_REGION_EDGE_BC, WEFT_REGION_EDGE_CA};
	const int vertex_region[3] = {WEFT_REGION_VERTEX_A, WEFT_REGION_VERTEX_B, WEFT_REGION_VERTEX_C};
	for (int k = 0; k < 3; k++) {
		const double* x = v[k];
		const double* y = v[(k + 1) % 3];
		double edge[3], offset[3];
		for (int i = 0; i < 3; i++) {
			edge[i] = y[i] - x[i];
			offset[i] = p[i] - x[i];
		}
		double u = d3(offset, edge) / d3(edge, edge);
		double clamped = u < 0 ? 0 : (u > 1 ? 1 : u);
		double q[3], diff[3];
		for (int i = 0; i < 3; i++) {
			q[i] = x[i] + clamped * edge[i];
			diff[i] = p[i] - q[i];
		}
		double d2 = d3(diff, diff);
		if (d2 < best_d2 - 1e-15) {
			best_d2 = d2;
			for (int i = 0; i < 3; i++) best.point[i] = q[i];
			if (u <= 0) {
				best.region = vertex_region[k];
				best.margin = -u;
			} else if (u >= 1) {
				best.region = vertex_region[(k + 1) % 3];
				best.margin = u - 1;
			} else {
				best.region = edge_region[k];
				best.margin = u < 1 - u ? u : 1 - u;
			}
		}
	}
	return best;
}

TEST(random_triangles_vs_oracle) {
	int region_hits[7] = {0};
	int region_agree = 0, region_checked = 0;
	double worst_error = 0.0;
	for (int trial = 0; trial < 20000; trial++) {
		double tri[3][3];
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < 3; i++) tri[k][i] = uniform(-1, 1);
		// Skip near-degenerate triangles: the oracle's plane solve is ill-conditioned there.
		double e0[3], e1[3];
		for (int i = 0; i < 3; i++) {
			e0[i] = tri[1][i] - tri[0][i];
			e1[i] = tri[2][i] - tri[0][i];
		}
		double n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
		if (d3(n, n) < 1e-3) continue;
		double p[3];
		for (int i = 0; i < 3; i++) p[i] = uniform(-2, 2);
		const double* v[3] = {tri[0], tri[1], tri[2]};
		oracle_result expected = oracle(p, v);
		float pf[3], af[3], bf[3], cf[3], q[3];
		for (int i = 0; i < 3; i++) {
			pf[i] = (float)p[i];
			af[i] = (float)tri[0][i];
			bf[i] = (float)tri[1][i];
			cf[i] = (float)tri[2][i];
		}
		// The oracle works on the float-rounded inputs too.
		double pd[3], ad[3], bd[3], cd[3];
		for (int i = 0; i < 3; i++) {
			pd[i] = pf[i];
			ad[i] = af[i];
			bd[i] = bf[i];
			cd[i] = cf[i];
		}
		const double* vd[3] = {ad, bd, cd};
		expected = oracle(pd, vd);
		weft_triangle_region region = weft_closest_point_on_triangle(pf, af, bf, cf, q);
		double error = 0;
		for (int i = 0; i < 3; i++) {
			double diff = q[i] - expected.point[i];
			error += diff * diff;
		}
		error = sqrt(error);
		worst_error = error > worst_error ? error : worst_error;
		region_hits[region]++;
		if (expected.margin > 1e-4) { // away from region boundaries the region must match
			region_checked++;
			region_agree += (int)region == expected.region;
		}
	}
	printf("closest point: worst error %.3g, regions agree %d/%d\n", worst_error, region_agree, region_checked);
	CHECK(worst_error < 1e-5);
	CHECK(region_checked > 15000);
	CHECK(region_agree == region_checked);
	for (int r = 0; r < 7; r++) {
		printf("region %d: %d\n", r, region_hits[r]);
		CHECK(region_hits[r] > 100);
	}
}

TEST(one_per_region) {
	// Hand-made cases: one per region on the unit right triangle in z = 0.
	float a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0}, q[3];
	struct {
		float p[3];
		weft_triangle_region region;
		float q[3];
	} cases[] = {
	    {{0.25f, 0.25f, 1}, WEFT_REGION_FACE, {0.25f, 0.25f, 0}}, {{-1, -1, 0.5f}, WEFT_REGION_VERTEX_A, {0, 0, 0}},
	    {{2, -0.5f, 0}, WEFT_REGION_VERTEX_B, {1, 0, 0}},         {{-0.5f, 2, 0}, WEFT_REGION_VERTEX_C, {0, 1, 0}},
	    {{0.5f, -1, 0}, WEFT_REGION_EDGE_AB, {0.5f, 0, 0}},       {{1, 1, 0}, WEFT_REGION_EDGE_BC, {0.5f, 0.5f, 0}},
	    {{-1, 0.5f, -2}, WEFT_REGION_EDGE_CA, {0, 0.5f, 0}},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		weft_triangle_region region = weft_closest_point_on_triangle(cases[k].p, a, b, c, q);
		CHECK(region == cases[k].region);
		for (int i = 0; i < 3; i++) CHECK_NEAR(q[i], cases[k].q[i], 1e-6);
	}
}

TEST(degenerate_triangles) {
	float a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, q[3];
	// Degenerate triangles: a segment and a point; the answer is still the nearest point.
	float d[3] = {2, 0, 0}, p[3] = {1, 1, 0};
	weft_closest_point_on_triangle(p, a, b, d, q);
	CHECK_NEAR(q[0], 1, 1e-6);
	CHECK_NEAR(q[1], 0, 1e-6);
	weft_closest_point_on_triangle(p, a, a, a, q);
	CHECK_NEAR(q[0], 0, 1e-6);
	CHECK_NEAR(q[1], 0, 1e-6);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(random_triangles_vs_oracle);
	RUN_TEST(one_per_region);
	RUN_TEST(degenerate_triangles);
	return TEST_SUMMARY();
}
