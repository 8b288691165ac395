// Closest point on a triangle by Voronoi regions (vertex, edge, face: 7 regions).
//
// The region tests use only dot products of the edges with the offsets of p, so the common
// vertex and edge cases exit early without a division; the face case divides once. The region
// is returned because the push-out needs it: the inside/outside sign is taken against the
// pseudo-normal of the feature (vertex, edge or face) that holds the closest point.
#include "mesh.h"

static float dot3(const float a[3], const float b[3]) {
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void sub3(float out[3], const float a[3], const float b[3]) {
	out[0] = a[0] - b[0];
	out[1] = a[1] - b[1];
	out[2] = a[2] - b[2];
}

static void copy3(float out[3], const float a[3]) {
	out[0] = a[0];
	out[1] = a[1];
	out[2] = a[2];
}

static void lerp3(float out[3], const float a[3], const float b[3], float t) {
	out[0] = a[0] + (b[0] - a[0]) * t;
	out[1] = a[1] + (b[1] - a[1]) * t;
	out[2] = a[2] + (b[2] - a[2]) * t;
}

weft_triangle_region weft_closest_point_on_triangle(const float p[3], const float a[3], const float b[3],
                                                    const float c[3], float out_point[3]) {
	float ab[3], ac[3], ap[3], bp[3], cp[3];
	sub3(ab, b, a);
	sub3(ac, c, a);
	sub3(ap, p, a);
	float d1 = dot3(ab, ap), d2 = dot3(ac, ap);
	if (d1 <= 0.0f && d2 <= 0.0f) {
		copy3(out_point, a);
		return WEFT_REGION_VERTEX_A;
	}
	sub3(bp, p, b);
	float d3 = dot3(ab, bp), d4 = dot3(ac, bp);
	if (d3 >= 0.0f && d4 <= d3) {
		copy3(out_point, b);
		return WEFT_REGION_VERTEX_B;
	}
	float vc = d1 * d4 - d3 * d2;
	if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f && d1 - d3 > 0.0f) {
		lerp3(out_point, a, b, d1 / (d1 - d3));
		return WEFT_REGION_EDGE_AB;
	}
	sub3(cp, p, c);
	float d5 = dot3(ab, cp), d6 = dot3(ac, cp);
	if (d6 >= 0.0f && d5 <= d6) {
		copy3(out_point, c);
		return WEFT_REGION_VERTEX_C;
	}
	float vb = d5 * d2 - d1 * d6;
	if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f && d2 - d6 > 0.0f) {
		lerp3(out_point, a, c, d2 / (d2 - d6));
		return WEFT_REGION_EDGE_CA;
	}
	float va = d3 * d6 - d5 * d4;
	if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f && (d4 - d3) + (d5 - d6) > 0.0f) {
		lerp3(out_point, b, c, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
		return WEFT_REGION_EDGE_BC;
	}
	float sum = va + vb + vc;
	if (!(sum > 0.0f)) {
		// Degenerate (collinear) triangle that slipped past the region tests: the nearest of its edges.
		float best[3] = {a[0], a[1], a[2]}, candidate[3];
		weft_triangle_region region = WEFT_REGION_EDGE_AB;
		const float* edges[3][2] = {{a, b}, {b, c}, {c, a}};
		const weft_triangle_region regions[3] = {WEFT_REGION_EDGE_AB, WEFT_REGION_EDGE_BC, WEFT_REGION_EDGE_CA};
		float best_d2 = -1.0f;
		for (int e = 0; e < 3; e++) {
			float edge[3], offset[3], diff[3];
			sub3(edge, edges[e][1], edges[e][0]);
			sub3(offset, p, edges[e][0]);
			float length2 = dot3(edge, edge);
			float t = length2 > 0.0f ? dot3(offset, edge) / length2 : 0.0f;
			t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
			lerp3(candidate, edges[e][0], edges[e][1], t);
			sub3(diff, p, candidate);
			float distance2 = dot3(diff, diff);
			if (best_d2 < 0.0f || distance2 < best_d2) {
				best_d2 = distance2;
				copy3(best, candidate);
				region = regions[e];
			}
		}
		copy3(out_point, best);
		return region;
	}
	float v = vb / sum, w = vc / sum;
	out_point[0] = a[0] + ab[0] * v + ac[0] * w;
	out_point[1] = a[1] + ab[1] * v + ac[1] * w;
	out_point[2] = a[2] + ab[2] * v + ac[2] * w;
	return WEFT_REGION_FACE;
}
