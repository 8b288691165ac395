// The static triangle-mesh collider: built once from user triangles (validation, optional fit to
// the scene, pseudo-normals, bounding spheres, grid), then only read by the step.
//
// Inside/outside is decided with angle-weighted pseudo-normals (Bærentzen & Aanæs 2005): for the
// closest point q of a closed mesh to p, sign(dot(p - q, n)) is exact when n is the pseudo-normal of
// the feature holding q: the face normal on a face, the sum of the two face normals on an edge,
// and the angle-weighted sum of the face normals around a vertex. They are computed here once.
//
// Broadphase: a few spheres that together cover every triangle grown by the query reach, fitted
// by k-means on the vertices (each triangle joins the cluster nearest its centroid), so a particle
// outside all of them cannot touch the mesh and skips the grid.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

#define MESH_MAX_SPHERES 8
#define MESH_KMEANS_ITERATIONS 8

// Build-time math with the same bits on every platform (only IEEE +, -, ×, ÷ and sqrt, which
// are exact-rounded everywhere; libm's acos and cbrt are not), so the collider, and with it the
// state hash of a scene, is identical natively and in WebAssembly.
static double deterministic_atan(double r) { // r ≥ 0
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

// Angle between u and -v (the corner between an outgoing edge u and the incoming edge v), by
// Kahan's well-conditioned 2 atan(|û - ŵ| / |û + ŵ|) with w = -v.
static float corner_angle(const float* u, const float* v, float u_length2, float v_length2) {
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
	return (float)(2.0 * deterministic_atan(sqrt(diff2) / sqrt(sum2)));
}

static double deterministic_cbrt(double x) { // x > 0, Newton from a power-of-two guess
	double guess = 1.0;
	while (guess * guess * guess < x) guess *= 2.0;
	while (guess * guess * guess > 8.0 * x) guess *= 0.5;
	for (int k = 0; k < 60; k++) guess = (2.0 * guess + x / (guess * guess)) / 3.0;
	return guess;
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

static void normalize3(float* v) {
	float length = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (length > 0.0f) {
		v[0] /= length;
		v[1] /= length;
		v[2] /= length;
	}
}

static float distance2(const float* a, const float* b) {
	float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return dx * dx + dy * dy + dz * dz;
}

void weft_mesh_collider_destroy(weft_mesh_collider* mesh, const weft_allocator* allocator) {
	if (mesh == NULL) {
		return;
	}
	weft_free(allocator, mesh->vertices);
	weft_free(allocator, mesh->vertex_normals);
	weft_free(allocator, mesh->indices);
	weft_free(allocator, mesh->face_normals);
	weft_free(allocator, mesh->edge_normals);
	weft_free(allocator, mesh->triangle_spheres);
	weft_free(allocator, mesh->spheres);
	weft_grid_destroy(&mesh->grid, allocator);
	weft_free(allocator, mesh->cell_flags);
	weft_free(allocator, mesh);
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
		float sum[3] = {0, 0, 0};
		for (int32_t k = begin; k < end; k++) {
			const float* n = mesh->face_normals + 4 * (edges[k].slot / 3);
			sum[0] += n[0];
			sum[1] += n[1];
			sum[2] += n[2];
		}
		normalize3(sum);
		for (int32_t k = begin; k < end; k++) {
			float* out = mesh->edge_normals + 4 * edges[k].slot;
			out[0] = sum[0];
			out[1] = sum[1];
			out[2] = sum[2];
			out[3] = 0.0f;
		}
		begin = end;
	}
	weft_free(allocator, edges);
	return WEFT_OK;
}

// k-means over the vertices, then each triangle joins the centre nearest its centroid; a sphere's
// radius covers its triangles plus reach.
static void fit_spheres(weft_mesh_collider* mesh, float reach) {
	int32_t k = mesh->vertex_count < MESH_MAX_SPHERES ? mesh->vertex_count : MESH_MAX_SPHERES;
	float centres[MESH_MAX_SPHERES][3];
	// Farthest-point initialisation from the vertex nearest the centroid (deterministic).
	double centroid[3] = {0, 0, 0};
	for (int32_t v = 0; v < mesh->vertex_count; v++) {
		for (int axis = 0; axis < 3; axis++) centroid[axis] += mesh->vertices[4 * v + axis];
	}
	float mean[3];
	for (int axis = 0; axis < 3; axis++) mean[axis] = (float)(centroid[axis] / mesh->vertex_count);
	int32_t first = 0;
	for (int32_t v = 1; v < mesh->vertex_count; v++) {
		if (distance2(mesh->vertices + 4 * v, mean) < distance2(mesh->vertices + 4 * first, mean)) first = v;
	}
	memcpy(centres[0], mesh->vertices + 4 * first, sizeof centres[0]);
	for (int32_t c = 1; c < k; c++) {
		int32_t farthest = 0;
		float farthest_d2 = -1.0f;
		for (int32_t v = 0; v < mesh->vertex_count; v++) {
			float nearest = INFINITY;
			for (int32_t j = 0; j < c; j++) {
				float d2 = distance2(mesh->vertices + 4 * v, centres[j]);
				nearest = d2 < nearest ? d2 : nearest;
			}
			if (nearest > farthest_d2) {
				farthest_d2 = nearest;
				farthest = v;
			}
		}
		memcpy(centres[c], mesh->vertices + 4 * farthest, sizeof centres[c]);
	}
	for (int iteration = 0; iteration < MESH_KMEANS_ITERATIONS; iteration++) {
		double sums[MESH_MAX_SPHERES][3] = {{0}};
		int32_t counts[MESH_MAX_SPHERES] = {0};
		for (int32_t v = 0; v < mesh->vertex_count; v++) {
			int32_t best = 0;
			float best_d2 = INFINITY;
			for (int32_t j = 0; j < k; j++) {
				float d2 = distance2(mesh->vertices + 4 * v, centres[j]);
				if (d2 < best_d2) {
					best_d2 = d2;
					best = j;
				}
			}
			for (int axis = 0; axis < 3; axis++) sums[best][axis] += mesh->vertices[4 * v + axis];
			counts[best]++;
		}
		for (int32_t j = 0; j < k; j++) {
			if (counts[j] > 0) {
				for (int axis = 0; axis < 3; axis++) centres[j][axis] = (float)(sums[j][axis] / counts[j]);
			}
		}
	}
	float radius2[MESH_MAX_SPHERES];
	bool used[MESH_MAX_SPHERES] = {false};
	for (int32_t j = 0; j < k; j++) radius2[j] = 0.0f;
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		const uint32_t* tri = mesh->indices + 3 * t;
		float centroid3[3];
		for (int axis = 0; axis < 3; axis++) {
			centroid3[axis] = (mesh->vertices[4 * tri[0] + axis] + mesh->vertices[4 * tri[1] + axis] +
			                   mesh->vertices[4 * tri[2] + axis]) / 3.0f;
		}
		int32_t best = 0;
		float best_d2 = INFINITY;
		for (int32_t j = 0; j < k; j++) {
			float d2 = distance2(centroid3, centres[j]);
			if (d2 < best_d2) {
				best_d2 = d2;
				best = j;
			}
		}
		used[best] = true;
		for (int corner = 0; corner < 3; corner++) {
			float d2 = distance2(mesh->vertices + 4 * tri[corner], centres[best]);
			radius2[best] = d2 > radius2[best] ? d2 : radius2[best];
		}
	}
	mesh->sphere_count = 0;
	for (int32_t j = 0; j < k; j++) {
		if (used[j]) {
			float* sphere = mesh->spheres + 4 * mesh->sphere_count++;
			sphere[0] = centres[j][0];
			sphere[1] = centres[j][1];
			sphere[2] = centres[j][2];
			// Float slack so rounding never leaves a vertex just outside.
			sphere[3] = sqrtf(radius2[j]) * 1.0001f + reach;
		}
	}
}

typedef struct sort_key {
	uint64_t key;
	uint32_t index;
} sort_key;

static int compare_keys(const void* a, const void* b) {
	const sort_key* x = a;
	const sort_key* y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

static uint64_t spread_bits(uint32_t v) { // 21 bits → every third bit
	uint64_t x = v & 0x1fffff;
	x = (x | x << 32) & 0x1f00000000ffffull;
	x = (x | x << 16) & 0x1f0000ff0000ffull;
	x = (x | x << 8) & 0x100f00f00f00f00full;
	x = (x | x << 4) & 0x10c30c30c30c30c3ull;
	x = (x | x << 2) & 0x1249249249249249ull;
	return x;
}

static void spatial_order(const float* vertices, int32_t vertex_count, const uint32_t* indices, int32_t triangle_count,
                          sort_key* order) {
	float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t v = 0; v < vertex_count; v++) {
		for (int axis = 0; axis < 3; axis++) {
			mn[axis] = vertices[4 * v + axis] < mn[axis] ? vertices[4 * v + axis] : mn[axis];
			mx[axis] = vertices[4 * v + axis] > mx[axis] ? vertices[4 * v + axis] : mx[axis];
		}
	}
	for (int32_t t = 0; t < triangle_count; t++) {
		uint64_t key = 0;
		for (int axis = 0; axis < 3; axis++) {
			float centre = (vertices[4 * indices[3 * t] + axis] + vertices[4 * indices[3 * t + 1] + axis] +
			                vertices[4 * indices[3 * t + 2] + axis]) / 3.0f;
			float extent = mx[axis] - mn[axis];
			float unit = extent > 0.0f ? (centre - mn[axis]) / extent : 0.0f;
			unit = unit < 0.0f ? 0.0f : (unit > 1.0f ? 1.0f : unit);
			key |= spread_bits((uint32_t)(unit * 2097151.0f)) << axis;
		}
		order[t].key = key;
		order[t].index = (uint32_t)t;
	}
	qsort(order, (size_t)triangle_count, sizeof(sort_key), compare_keys);
}

// Empty cells reachable from the border through empty cells (face neighbours) are outside; the
// other empty cells are enclosed, so inside a closed mesh (an open mesh has no inside).
static weft_result classify_cells(weft_mesh_collider* mesh, const weft_allocator* allocator) {
	const weft_triangle_grid* grid = &mesh->grid;
	int32_t cells = grid->cell_count;
	mesh->cell_flags = weft_alloc(allocator, (size_t)cells);
	int32_t* stack = weft_alloc(allocator, sizeof(int32_t) * (size_t)cells);
	if (mesh->cell_flags == NULL || stack == NULL) {
		weft_free(allocator, stack);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	const uint8_t unvisited = 255;
	for (int32_t c = 0; c < cells; c++) {
		bool empty = grid->cell_start[c] == grid->cell_start[c + 1];
		mesh->cell_flags[c] = empty ? (mesh->closed ? unvisited : WEFT_CELL_OUTSIDE) : WEFT_CELL_SURFACE;
	}
	int32_t top = 0;
	const int32_t nx = grid->dims[0], ny = grid->dims[1], nz = grid->dims[2];
	for (int32_t c = 0; c < cells; c++) {
		int32_t x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
		bool border = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
		if (border && mesh->cell_flags[c] == unvisited) {
			mesh->cell_flags[c] = WEFT_CELL_OUTSIDE;
			stack[top++] = c;
		}
	}
	while (top > 0) {
		int32_t c = stack[--top];
		int32_t x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
		const int32_t neighbours[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z},
		                                  {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
		for (int k = 0; k < 6; k++) {
			int32_t a = neighbours[k][0], b = neighbours[k][1], d = neighbours[k][2];
			if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nz) continue;
			int32_t n = a + nx * (b + ny * d);
			if (mesh->cell_flags[n] == unvisited) {
				mesh->cell_flags[n] = WEFT_CELL_OUTSIDE;
				stack[top++] = n;
			}
		}
	}
	for (int32_t c = 0; c < cells; c++) {
		if (mesh->cell_flags[c] == unvisited) mesh->cell_flags[c] = WEFT_CELL_INSIDE;
	}
	// Outside cells without any surface cell around them are far from the mesh.
	for (int32_t c = 0; c < cells; c++) {
		if (mesh->cell_flags[c] != WEFT_CELL_OUTSIDE) continue;
		int32_t x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
		bool near = false;
		for (int32_t dz = -1; dz <= 1 && !near; dz++)
			for (int32_t dy = -1; dy <= 1 && !near; dy++)
				for (int32_t dx = -1; dx <= 1 && !near; dx++) {
					int32_t a = x + dx, b = y + dy, d = z + dz;
					if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nz) continue;
					near = mesh->cell_flags[a + nx * (b + ny * d)] == WEFT_CELL_SURFACE;
				}
		if (!near) mesh->cell_flags[c] = WEFT_CELL_FAR;
	}
	weft_free(allocator, stack);
	return WEFT_OK;
}

weft_result weft_mesh_collider_create(const weft_allocator* allocator, const float* positions,
                                      int32_t vertex_count, const uint32_t* indices, int32_t triangle_count,
                                      float margin, weft_mesh_collider** out) {
	*out = NULL;
	weft_mesh_collider* mesh = weft_alloc(allocator, sizeof *mesh);
	if (mesh == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	memset(mesh, 0, sizeof *mesh);
	mesh->vertex_count = vertex_count;
	size_t vertex_bytes = sizeof(float) * 4 * (size_t)vertex_count;
	size_t triangle_bytes = sizeof(float) * 4 * (size_t)triangle_count;
	mesh->vertices = weft_alloc(allocator, vertex_bytes);
	mesh->vertex_normals = weft_alloc(allocator, vertex_bytes);
	mesh->indices = weft_alloc(allocator, sizeof(uint32_t) * 3 * (size_t)triangle_count);
	mesh->face_normals = weft_alloc(allocator, triangle_bytes);
	mesh->edge_normals = weft_alloc(allocator, 3 * triangle_bytes);
	mesh->triangle_spheres = weft_alloc(allocator, triangle_bytes);
	mesh->spheres = weft_alloc(allocator, sizeof(float) * 4 * MESH_MAX_SPHERES);
	if (!mesh->vertices || !mesh->vertex_normals || !mesh->indices || !mesh->face_normals ||
	    !mesh->edge_normals || !mesh->triangle_spheres || !mesh->spheres) {
		weft_mesh_collider_destroy(mesh, allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	for (int32_t v = 0; v < vertex_count; v++) {
		mesh->vertices[4 * v + 0] = positions[3 * v + 0];
		mesh->vertices[4 * v + 1] = positions[3 * v + 1];
		mesh->vertices[4 * v + 2] = positions[3 * v + 2];
		mesh->vertices[4 * v + 3] = 0.0f;
	}
	memset(mesh->vertex_normals, 0, vertex_bytes);

	// Triangles in Morton order of their centroids: neighbours in space are neighbours in memory,
	// so a query touches few cache lines.
	sort_key* order = weft_alloc(allocator, sizeof(sort_key) * (size_t)triangle_count);
	if (order == NULL) {
		weft_mesh_collider_destroy(mesh, allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	spatial_order(mesh->vertices, vertex_count, indices, triangle_count, order);

	// Keep the non-degenerate triangles; face normals and angle-weighted vertex normals.
	double edge_length_sum = 0.0;
	int32_t kept = 0;
	for (int32_t ordered = 0; ordered < triangle_count; ordered++) {
		const uint32_t* tri = indices + 3 * order[ordered].index;
		const float* p[3] = {mesh->vertices + 4 * tri[0], mesh->vertices + 4 * tri[1], mesh->vertices + 4 * tri[2]};
		float e[3][3]; // e[k] = p[k+1] - p[k]
		float length2[3];
		for (int k = 0; k < 3; k++) {
			for (int axis = 0; axis < 3; axis++) e[k][axis] = p[(k + 1) % 3][axis] - p[k][axis];
			length2[k] = e[k][0] * e[k][0] + e[k][1] * e[k][1] + e[k][2] * e[k][2];
		}
		float n[3] = {e[0][1] * e[2][2] - e[0][2] * e[2][1], e[0][2] * e[2][0] - e[0][0] * e[2][2],
		              e[0][0] * e[2][1] - e[0][1] * e[2][0]};
		// e0 × e2 = (p1-p0) × (p0-p2) = -(p1-p0) × (p2-p0): flip for counter-clockwise outward normals.
		n[0] = -n[0];
		n[1] = -n[1];
		n[2] = -n[2];
		float n_length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		float longest2 = length2[0] > length2[1] ? length2[0] : length2[1];
		longest2 = length2[2] > longest2 ? length2[2] : longest2;
		if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] || !(n_length > 1e-6f * longest2) ||
		    !(n_length > 0.0f)) {
			continue; // degenerate: no area, no normal, nothing to collide with
		}
		n[0] /= n_length;
		n[1] /= n_length;
		n[2] /= n_length;
		memcpy(mesh->indices + 3 * kept, tri, 3 * sizeof(uint32_t));
		float* face = mesh->face_normals + 4 * kept;
		face[0] = n[0];
		face[1] = n[1];
		face[2] = n[2];
		face[3] = -(n[0] * p[0][0] + n[1] * p[0][1] + n[2] * p[0][2]);
		float* bound = mesh->triangle_spheres + 4 * kept;
		float radius2 = 0.0f;
		for (int axis = 0; axis < 3; axis++) bound[axis] = (p[0][axis] + p[1][axis] + p[2][axis]) / 3.0f;
		for (int k = 0; k < 3; k++) {
			float d2 = distance2(bound, p[k]);
			radius2 = d2 > radius2 ? d2 : radius2;
		}
		bound[3] = sqrtf(radius2) * 1.0001f + 1e-7f;
		for (int k = 0; k < 3; k++) {
			// Angle at corner k between edges to k+1 and to k-1.
			const float* to_next = e[k];
			const float* from_previous = e[(k + 2) % 3];
			float angle = corner_angle(to_next, from_previous, length2[k], length2[(k + 2) % 3]);
			float* vn = mesh->vertex_normals + 4 * tri[k];
			vn[0] += angle * n[0];
			vn[1] += angle * n[1];
			vn[2] += angle * n[2];
			edge_length_sum += sqrt((double)length2[k]);
		}
		kept++;
	}
	weft_free(allocator, order);
	if (kept == 0) {
		weft_mesh_collider_destroy(mesh, allocator);
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "mesh collider: every triangle is degenerate");
	}
	mesh->triangle_count = kept;
	for (int32_t v = 0; v < vertex_count; v++) {
		normalize3(mesh->vertex_normals + 4 * v);
	}
	weft_result result = build_edge_normals(mesh, allocator);
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, allocator);
		return result;
	}

	// Cell size: about one mean edge (few triangles per cell), at least 4 margins (the reach must
	// exceed the margin), and coarse enough for at most ~2M cells.
	float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t t = 0; t < kept; t++) {
		for (int k = 0; k < 3; k++) {
			const float* v = mesh->vertices + 4 * mesh->indices[3 * t + k];
			for (int axis = 0; axis < 3; axis++) {
				mn[axis] = v[axis] < mn[axis] ? v[axis] : mn[axis];
				mx[axis] = v[axis] > mx[axis] ? v[axis] : mx[axis];
			}
		}
	}
	float cell = (float)(edge_length_sum / (3.0 * kept));
	float min_cell = 2.0f * (margin > 0.0f ? margin : 0.0f);
	cell = cell > min_cell ? cell : min_cell;
	double volume = 1.0;
	for (int axis = 0; axis < 3; axis++) volume *= (double)(mx[axis] - mn[axis]) + cell;
	float coarse = (float)deterministic_cbrt(volume / (double)(1 << 21));
	cell = cell > coarse ? cell : coarse;
	cell = cell > 1e-6f ? cell : 1e-6f;
	result = weft_grid_build(&mesh->grid, allocator, mesh->vertices, mesh->indices, kept, cell);
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, allocator);
		return result;
	}
	result = classify_cells(mesh, allocator);
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, allocator);
		return result;
	}
	fit_spheres(mesh, mesh->grid.cell_size);
	mesh->grid_diagonal = cell * sqrtf((float)mesh->grid.dims[0] * (float)mesh->grid.dims[0] +
	                                   (float)mesh->grid.dims[1] * (float)mesh->grid.dims[1] +
	                                   (float)mesh->grid.dims[2] * (float)mesh->grid.dims[2]);
	*out = mesh;
	return WEFT_OK;
}

// Uniform scale + translation that puts the mesh under the cloth (see the header).
static void fit_transform(const weft_world* world, const float* positions, int32_t vertex_count, float* out) {
	double cmin[3] = {INFINITY, INFINITY, INFINITY}, cmax[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t i = 0; i < world->particle_count; i++) {
		for (int axis = 0; axis < 3; axis++) {
			double x = world->rest_positions[4 * i + axis];
			cmin[axis] = x < cmin[axis] ? x : cmin[axis];
			cmax[axis] = x > cmax[axis] ? x : cmax[axis];
		}
	}
	double mmin[3] = {INFINITY, INFINITY, INFINITY}, mmax[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t v = 0; v < vertex_count; v++) {
		for (int axis = 0; axis < 3; axis++) {
			double x = positions[3 * v + axis];
			mmin[axis] = x < mmin[axis] ? x : mmin[axis];
			mmax[axis] = x > mmax[axis] ? x : mmax[axis];
		}
	}
	double cloth_width = fmax(cmax[0] - cmin[0], cmax[2] - cmin[2]);
	double mesh_width = fmax(mmax[0] - mmin[0], mmax[2] - mmin[2]);
	double mesh_height = mmax[1] - mmin[1];
	if (!(cloth_width > 0.0)) cloth_width = 1.0;
	if (!(mesh_width > 0.0)) mesh_width = fmax(mesh_height, 1e-9);
	double scale = 0.6 * cloth_width / mesh_width;
	double gap = 0.05 * cloth_width;
	double base;
	if (world->def.ground_enabled) {
		base = world->def.ground_height;
		double room = cmin[1] - gap - base;
		if (room > 0.0 && mesh_height * scale > room) {
			scale = room / mesh_height;
		}
	} else {
		base = cmin[1] - gap - mesh_height * scale;
	}
	double offset[3] = {0.5 * (cmin[0] + cmax[0]) - scale * 0.5 * (mmin[0] + mmax[0]), base - scale * mmin[1],
	                    0.5 * (cmin[2] + cmax[2]) - scale * 0.5 * (mmin[2] + mmax[2])};
	for (int32_t v = 0; v < vertex_count; v++) {
		for (int axis = 0; axis < 3; axis++) {
			out[3 * v + axis] = (float)(positions[3 * v + axis] * scale + offset[axis]);
		}
	}
}

// Coordinates beyond this (m) are refused: squared distances must stay finite in float.
#define MESH_MAX_COORDINATE 1.0e9f

weft_result weft_world_set_mesh_collider(weft_world* world, const float* positions, int32_t vertex_count,
                                         const uint32_t* indices, int32_t triangle_count, bool fit) {
	if (world == NULL || positions == NULL || indices == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_set_mesh_collider: NULL argument");
	}
	if (vertex_count < 3 || triangle_count < 1) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "weft_world_set_mesh_collider: need at least 3 vertices and 1 triangle (got %d, %d)",
		                 (int)vertex_count, (int)triangle_count);
	}
	if (vertex_count > WEFT_OBJ_MAX_ELEMENTS || triangle_count > WEFT_OBJ_MAX_ELEMENTS) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "weft_world_set_mesh_collider: more than %d vertices or triangles",
		                 WEFT_OBJ_MAX_ELEMENTS);
	}
	for (int64_t i = 0; i < 3 * (int64_t)vertex_count; i++) {
		if (!(fabsf(positions[i]) <= MESH_MAX_COORDINATE)) {
			return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
			                 "weft_world_set_mesh_collider: vertex %lld has a non-finite or huge coordinate",
			                 (long long)(i / 3));
		}
	}
	for (int64_t i = 0; i < 3 * (int64_t)triangle_count; i++) {
		if (indices[i] >= (uint32_t)vertex_count) {
			return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
			                 "weft_world_set_mesh_collider: triangle %lld uses vertex %u of %d", (long long)(i / 3),
			                 indices[i], (int)vertex_count);
		}
	}
	const float* source = positions;
	float* fitted = NULL;
	if (fit) {
		fitted = weft_alloc(&world->allocator, sizeof(float) * 3 * (size_t)vertex_count);
		if (fitted == NULL) {
			return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "weft_world_set_mesh_collider: out of memory");
		}
		fit_transform(world, positions, vertex_count, fitted);
		source = fitted;
	}
	weft_mesh_collider* mesh = NULL;
	weft_result result = weft_mesh_collider_create(&world->allocator, source, vertex_count, indices,
	                                               triangle_count, world->def.collision_margin, &mesh);
	weft_free(&world->allocator, fitted);
	if (result != WEFT_OK) {
		return result;
	}
	weft_mesh_collider_destroy(world->mesh, &world->allocator);
	world->mesh = mesh;
	return WEFT_OK;
}

weft_result weft_world_set_builtin_mesh_collider(weft_world* world, const char* name) {
	if (world == NULL || name == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_set_builtin_mesh_collider: NULL argument");
	}
	if (strcmp(name, "bunny") != 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "unknown built-in mesh '%s' (bunny)", name);
	}
	const float* positions;
	const uint32_t* indices;
	int32_t vertex_count, triangle_count;
	weft_bunny_mesh(&positions, &vertex_count, &indices, &triangle_count);
	if (vertex_count == 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "the bunny was not built into this library (node and the npm package `bunny` are needed)");
	}
	return weft_world_set_mesh_collider(world, positions, vertex_count, indices, triangle_count, true);
}

weft_result weft_world_set_mesh_edge_contacts(weft_world* world, bool enabled) {
	if (world == NULL || world->mesh == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_set_mesh_edge_contacts: the world has no mesh collider");
	}
	world->mesh->edge_contacts = enabled;
	return WEFT_OK;
}

void weft_world_remove_mesh_collider(weft_world* world) {
	if (world == NULL) {
		return;
	}
	weft_mesh_collider_destroy(world->mesh, &world->allocator);
	world->mesh = NULL;
}

weft_result weft_world_mesh_collider(const weft_world* world, weft_mesh_collider_view* out) {
	if (world == NULL || out == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_mesh_collider: NULL argument");
	}
	memset(out, 0, sizeof *out);
	const weft_mesh_collider* mesh = world->mesh;
	if (mesh == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_world_mesh_collider: the world has no mesh collider");
	}
	out->vertices = mesh->vertices;
	out->vertex_normals = mesh->vertex_normals;
	out->indices = mesh->indices;
	out->face_normals = mesh->face_normals;
	out->edge_normals = mesh->edge_normals;
	out->triangle_spheres = mesh->triangle_spheres;
	out->spheres = mesh->spheres;
	out->cell_start = mesh->grid.cell_start;
	out->cell_triangles = mesh->grid.cell_triangles;
	out->cell_flags = mesh->cell_flags;
	memcpy(out->grid_origin, mesh->grid.origin, sizeof out->grid_origin);
	out->cell_size = mesh->grid.cell_size;
	memcpy(out->grid_dims, mesh->grid.dims, sizeof out->grid_dims);
	out->vertex_count = mesh->vertex_count;
	out->triangle_count = mesh->triangle_count;
	out->sphere_count = mesh->sphere_count;
	out->cell_count = mesh->grid.cell_count;
	out->cell_entry_count = mesh->grid.entry_count;
	out->closed = mesh->closed;
	return WEFT_OK;
}
