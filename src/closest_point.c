// Closest point on a triangle by Voronoi regions (vertex, edge, face: 7 regions).
//
// The region tests use only dot products of the edges with the offsets of p, so the common
// vertex and edge cases exit early without a division; the face case divides once. The region
// is returned because the push-out needs it: the inside/outside sign is taken against the
// pseudo-normal of the feature (vertex, edge or face) that holds the closest point.
#include "mesh.h"
#include "vec3.h"

weft_triangle_region weft_closest_point_on_triangle(const float p[3], const float a[3], const float b[3],
                                                    const float c[3], float out_point[3]) {
	const weft_vec3 pv = weft_load3(p), av = weft_load3(a), bv = weft_load3(b), cv = weft_load3(c);
	weft_vec3 ab = weft_sub(bv, av), ac = weft_sub(cv, av), ap = weft_sub(pv, av);
	float d1 = weft_dot(ab, ap), d2 = weft_dot(ac, ap);
	if (d1 <= 0.0f && d2 <= 0.0f) {
		weft_store3(out_point, av);
		return WEFT_REGION_VERTEX_A;
	}
	weft_vec3 bp = weft_sub(pv, bv);
	float d3 = weft_dot(ab, bp), d4 = weft_dot(ac, bp);
	if (d3 >= 0.0f && d4 <= d3) {
		weft_store3(out_point, bv);
		return WEFT_REGION_VERTEX_B;
	}
	float vc = d1 * d4 - d3 * d2;
	if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f && d1 - d3 > 0.0f) {
		weft_store3(out_point, weft_lerp(av, bv, d1 / (d1 - d3)));
		return WEFT_REGION_EDGE_AB;
	}
	weft_vec3 cp = weft_sub(pv, cv);
	float d5 = weft_dot(ab, cp), d6 = weft_dot(ac, cp);
	if (d6 >= 0.0f && d5 <= d6) {
		weft_store3(out_point, cv);
		return WEFT_REGION_VERTEX_C;
	}
	float vb = d5 * d2 - d1 * d6;
	if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f && d2 - d6 > 0.0f) {
		weft_store3(out_point, weft_lerp(av, cv, d2 / (d2 - d6)));
		return WEFT_REGION_EDGE_CA;
	}
	float va = d3 * d6 - d5 * d4;
	if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f && (d4 - d3) + (d5 - d6) > 0.0f) {
		weft_store3(out_point, weft_lerp(bv, cv, (d4 - d3) / ((d4 - d3) + (d5 - d6))));
		return WEFT_REGION_EDGE_BC;
	}
	float sum = va + vb + vc;
	if (!(sum > 0.0f)) {
		// Degenerate (collinear) triangle that slipped past the region tests: the nearest of its edges.
		weft_vec3 best = av;
		weft_triangle_region region = WEFT_REGION_EDGE_AB;
		const weft_vec3 edges[3][2] = {{av, bv}, {bv, cv}, {cv, av}};
		const weft_triangle_region regions[3] = {WEFT_REGION_EDGE_AB, WEFT_REGION_EDGE_BC, WEFT_REGION_EDGE_CA};
		float best_d2 = -1.0f;
		for (int e = 0; e < 3; e++) {
			weft_vec3 edge = weft_sub(edges[e][1], edges[e][0]), offset = weft_sub(pv, edges[e][0]);
			float length2 = weft_length2(edge);
			float t = length2 > 0.0f ? weft_dot(offset, edge) / length2 : 0.0f;
			t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
			weft_vec3 candidate = weft_lerp(edges[e][0], edges[e][1], t);
			float distance2 = weft_distance2(pv, candidate);
			if (best_d2 < 0.0f || distance2 < best_d2) {
				best_d2 = distance2;
				best = candidate;
				region = regions[e];
			}
		}
		weft_store3(out_point, best);
		return region;
	}
	float v = vb / sum, w = vc / sum;
	weft_store3(out_point, weft_add(weft_add(av, weft_scale(ab, v)), weft_scale(ac, w)));
	return WEFT_REGION_FACE;
}
