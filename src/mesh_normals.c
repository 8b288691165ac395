// Pseudo-normals of the mesh collider, computed once: face normals (with the plane offset),
// angle-weighted vertex normals and edge normals, and whether the mesh is closed.
//
// Inside/outside is decided with angle-weighted pseudo-normals (Bærentzen & Aanæs 2005): for the
// closest point q of a closed mesh to p, sign(dot(p - q, n)) is exact when n is the pseudo-normal of
// the feature holding q: the face normal on a face, the sum of the two face normals on an edge,
// and the angle-weighted sum of the face normals around a vertex.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "vec3.h"

// Angle between u and -v (the corner between an outgoing edge u and the incoming edge v), by
// Kahan's well-conditioned 2 atan(|û - ŵ| / |û + ŵ|) with w = -v.
static float corner_angle(weft_vec3 u_vector, weft_vec3 v_vector, float u_length2, float v_length2) {
	const float u[3] = {u_vector.x, u_vector.y, u_vector.z}, v[3] = {v_vector.x, v_vector.y, v_vector.z};
	double lu = sqrt((double)u_length2), lv = sqrt((double)v_length2);
	double diff2 = 0.0, sum2 = 0.0;
	for (int axis = 0; axis < 3; axis++) {
		double a = u[axis] / lu, b = -v[axis] / lv;
		diff2 += (a - b) * (a - b);
		sum2 += (a + b) * (a + b);
	}
	if (sum2 == 0.0) {
		return 3.14159265f;
	}
	return (float)(2.0 * weft_atan(sqrt(diff2) / sqrt(sum2)));
}

typedef struct edge_record {
	uint32_t lo, hi;  // vertex indices, lo < hi
	uint32_t slot;    // 3 * triangle + edge
	uint32_t forward; // 1 if the triangle walks lo → hi
} edge_record;

static int compare_edges(const void* a, const void* b) {
	const edge_record* x = a;
	const edge_record* y = b;
	if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
	return x->slot < y->slot ? -1 : (x->slot > y->slot ? 1 : 0);
}

// Pseudo-normals of edges (and whether the mesh is closed and consistently oriented).
static weft_result build_edge_normals(weft_mesh_collider* mesh, const weft_allocator* allocator) {
	int32_t edge_count = 3 * mesh->triangle_count;
	edge_record* edges = weft_alloc(allocator, sizeof(edge_record) * (size_t)edge_count);
	if (edges == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		for (int e = 0; e < 3; e++) {
			uint32_t a = mesh->indices[3 * t + e], b = mesh->indices[3 * t + (e + 1) % 3];
			edge_record* record = &edges[3 * t + e];
			record->lo = a < b ? a : b;
			record->hi = a < b ? b : a;
			record->slot = (uint32_t)(3 * t + e);
			record->forward = a < b;
		}
	}
	qsort(edges, (size_t)edge_count, sizeof(edge_record), compare_edges);
	mesh->closed = true;
	for (int32_t begin = 0; begin < edge_count;) {
		int32_t end = begin + 1;
		while (end < edge_count && edges[end].lo == edges[begin].lo && edges[end].hi == edges[begin].hi) {
			end++;
		}
		if (end - begin != 2 || edges[begin].forward == edges[begin + 1].forward) {
			mesh->closed = false;
		}
		weft_vec3 sum = {0, 0, 0};
		for (int32_t k = begin; k < end; k++) {
			sum = weft_add(sum, weft_load3(mesh->face_normals + 4 * (edges[k].slot / 3)));
		}
		sum = weft_normalize(sum);
		for (int32_t k = begin; k < end; k++) {
			float* out = mesh->edge_normals + 4 * edges[k].slot;
			weft_store3(out, sum);
			out[3] = 0.0f;
		}
		begin = end;
	}
	weft_free(allocator, edges);
	return WEFT_OK;
}

// Triangle t's edges e[k] = p[k+1] - p[k], their squared lengths, and its unnormalised normal.
static weft_vec3 triangle_frame(const weft_mesh_collider* mesh, const uint32_t tri[3], weft_vec3 e[3],
                                float length2[3]) {
	const float* p[3] = {mesh->vertices + 4 * tri[0], mesh->vertices + 4 * tri[1], mesh->vertices + 4 * tri[2]};
	for (int k = 0; k < 3; k++) {
		e[k] = weft_sub(weft_load3(p[(k + 1) % 3]), weft_load3(p[k]));
		length2[k] = weft_length2(e[k]);
	}
	// e0 × e2 = (p1-p0) × (p0-p2) = -(p1-p0) × (p2-p0): flip for counter-clockwise outward normals.
	return weft_neg(weft_cross(e[0], e[2]));
}

weft_result weft_mesh_build_normals(weft_mesh_collider* mesh, const weft_allocator* allocator, int32_t triangle_count) {
	int32_t kept = 0;
	for (int32_t t = 0; t < triangle_count; t++) {
		uint32_t tri[3];
		memcpy(tri, mesh->indices + 3 * t, sizeof tri);
		weft_vec3 e[3];
		float length2[3];
		float n_length = weft_length(triangle_frame(mesh, tri, e, length2));
		float longest2 = length2[0] > length2[1] ? length2[0] : length2[1];
		longest2 = length2[2] > longest2 ? length2[2] : longest2;
		if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] || !(n_length > 1e-6f * longest2) ||
		    !(n_length > 0.0f)) {
			continue; // degenerate: no area, no normal, nothing to collide with
		}
		memcpy(mesh->indices + 3 * kept, tri, sizeof tri);
		kept++;
	}
	mesh->triangle_count = kept;
	if (kept == 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "mesh collider: every triangle is degenerate");
	}
	// Consistent winding, outward where closed (mesh_orient.c), before any normal is taken.
	weft_result result = weft_mesh_orient(mesh->indices, kept, mesh->vertices, allocator);
	if (result != WEFT_OK) {
		return result;
	}
	memset(mesh->vertex_normals, 0, sizeof(float) * 4 * (size_t)mesh->vertex_count);
	for (int32_t t = 0; t < kept; t++) {
		const uint32_t* tri = mesh->indices + 3 * t;
		weft_vec3 e[3];
		float length2[3];
		weft_vec3 n = triangle_frame(mesh, tri, e, length2);
		float n_length = weft_length(n);
		n = (weft_vec3){n.x / n_length, n.y / n_length, n.z / n_length};
		float* face = mesh->face_normals + 4 * t;
		weft_store3(face, n);
		face[3] = -weft_dot(n, weft_load3(mesh->vertices + 4 * tri[0]));
		for (int k = 0; k < 3; k++) {
			// Angle at corner k between edges to k+1 and to k-1.
			float angle = corner_angle(e[k], e[(k + 2) % 3], length2[k], length2[(k + 2) % 3]);
			float* vn = mesh->vertex_normals + 4 * tri[k];
			weft_store3(vn, weft_add(weft_load3(vn), weft_scale(n, angle)));
		}
	}
	for (int32_t v = 0; v < mesh->vertex_count; v++) {
		float* vn = mesh->vertex_normals + 4 * v;
		weft_store3(vn, weft_normalize(weft_load3(vn)));
	}
	return build_edge_normals(mesh, allocator);
}
