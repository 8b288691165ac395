// Brute-force references for the mesh tests: the distance from a point to a triangle mesh by
// testing every triangle (what the grid search must agree with).
#ifndef WEFT_TEST_MESH_ORACLE_H
#define WEFT_TEST_MESH_ORACLE_H

#include <math.h>
#include <stdint.h>

#include "mesh.h"

// vertices: float4 per vertex; indices: 3 per triangle.
static inline float oracle_mesh_distance(const float* vertices, const uint32_t* indices, int32_t triangle_count,
                                         const float p[3]) {
	float best = INFINITY;
	for (int32_t t = 0; t < triangle_count; t++) {
		float q[3];
		weft_closest_point_on_triangle(p, vertices + 4 * indices[3 * t], vertices + 4 * indices[3 * t + 1],
		                               vertices + 4 * indices[3 * t + 2], q);
		float d = sqrtf((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
		best = d < best ? d : best;
	}
	return best;
}

#endif
