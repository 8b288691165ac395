// Oracles for self-collision tests: brute-force-exact checks of a cloth's state, independent of the
// solver's spatial hash (a plain uniform grid here, and exact edge–triangle crossings in double).
#ifndef WEFT_TEST_CLOTH_CONTACTS_H
#define WEFT_TEST_CLOTH_CONTACTS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "weft/weft.h"

// Buckets items (by a point each) in a uniform grid of cell `cell`; visits pairs in neighbouring cells.
typedef struct contact_grid {
	double origin[3], cell;
	int32_t dims[3];
	int32_t* start; // cell -> first index in order
	int32_t* order; // item ids sorted by cell
	int32_t* cell_of;
} contact_grid;

static int32_t contact_grid_axis(const contact_grid* g, int axis, double x) {
	int32_t c = (int32_t)floor((x - g->origin[axis]) / g->cell);
	return c < 0 ? 0 : (c >= g->dims[axis] ? g->dims[axis] - 1 : c);
}

static void contact_grid_build(contact_grid* g, const double* points, int32_t count, double cell) {
	double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t k = 0; k < count; ++k) {
		for (int a = 0; a < 3; ++a) {
			lo[a] = fmin(lo[a], points[3 * k + a]);
			hi[a] = fmax(hi[a], points[3 * k + a]);
		}
	}
	g->cell = cell;
	for (int a = 0; a < 3; ++a) g->cell = fmax(g->cell, (hi[a] - lo[a]) / 255.0); // at most 256 cells a side
	for (int a = 0; a < 3; ++a) {
		g->origin[a] = lo[a];
		g->dims[a] = (int32_t)((hi[a] - lo[a]) / g->cell) + 1;
	}
	int64_t cells = (int64_t)g->dims[0] * g->dims[1] * g->dims[2];
	g->start = calloc((size_t)cells + 1, sizeof(int32_t));
	g->order = malloc((size_t)count * sizeof(int32_t));
	g->cell_of = malloc((size_t)count * sizeof(int32_t));
	for (int32_t k = 0; k < count; ++k) {
		int32_t c = contact_grid_axis(g, 0, points[3 * k]) +
		            g->dims[0] * (contact_grid_axis(g, 1, points[3 * k + 1]) +
		                          g->dims[1] * contact_grid_axis(g, 2, points[3 * k + 2]));
		g->cell_of[k] = c;
		g->start[c + 1]++;
	}
	for (int64_t c = 0; c < cells; ++c) g->start[c + 1] += g->start[c];
	int32_t* cursor = malloc((size_t)cells * sizeof(int32_t));
	for (int64_t c = 0; c < cells; ++c) cursor[c] = g->start[c];
	for (int32_t k = 0; k < count; ++k) g->order[cursor[g->cell_of[k]]++] = k;
	free(cursor);
}

static void contact_grid_free(contact_grid* g) {
	free(g->start);
	free(g->order);
	free(g->cell_of);
}

// Calls visit(k, other, context) for every other item in the 27 cells around item k's cell.
static void contact_grid_neighbours(const contact_grid* g, const double* points, int32_t k,
                                    void (*visit)(int32_t, int32_t, void*), void* context) {
	int32_t c[3];
	for (int a = 0; a < 3; ++a) c[a] = contact_grid_axis(g, a, points[3 * k + a]);
	for (int32_t z = c[2] - 1; z <= c[2] + 1; ++z) {
		for (int32_t y = c[1] - 1; y <= c[1] + 1; ++y) {
			for (int32_t x = c[0] - 1; x <= c[0] + 1; ++x) {
				if (x < 0 || y < 0 || z < 0 || x >= g->dims[0] || y >= g->dims[1] || z >= g->dims[2]) continue;
				int32_t cell = x + g->dims[0] * (y + g->dims[1] * z);
				for (int32_t e = g->start[cell]; e < g->start[cell + 1]; ++e) {
					if (g->order[e] != k) visit(k, g->order[e], context);
				}
			}
		}
	}
}

static double* cloth_points(const float* x4, int32_t n) {
	double* p = calloc((size_t)n * 3, sizeof(double));
	for (int32_t k = 0; k < n; ++k) {
		for (int a = 0; a < 3; ++a) p[3 * k + a] = x4[4 * k + a];
	}
	return p;
}

// Closest distance between two particles that are farther apart than rest_limit in the rest pose.
typedef struct closest_context {
	const double *x, *rest;
	double rest_limit2, best2;
} closest_context;

static void closest_visit(int32_t i, int32_t j, void* context) {
	closest_context* c = context;
	double r2 = 0, d2 = 0;
	for (int a = 0; a < 3; ++a) {
		double r = c->rest[3 * i + a] - c->rest[3 * j + a], d = c->x[3 * i + a] - c->x[3 * j + a];
		r2 += r * r;
		d2 += d * d;
	}
	if (r2 > c->rest_limit2 && d2 < c->best2) c->best2 = d2;
}

// Smallest distance (up to `reach`) between particles farther than rest_limit apart at rest.
static double closest_non_neighbours(weft_world* world, double rest_limit, double reach) {
	const int32_t n = weft_world_particle_count(world);
	double* x = cloth_points(weft_world_positions(world), n);
	double* rest = cloth_points(weft_world_rest_positions(world), n);
	contact_grid g;
	contact_grid_build(&g, x, n, reach);
	closest_context c = {x, rest, rest_limit * rest_limit, reach * reach};
	for (int32_t k = 0; k < n; ++k) contact_grid_neighbours(&g, x, k, closest_visit, &c);
	contact_grid_free(&g);
	free(x);
	free(rest);
	return sqrt(c.best2);
}

// Exact-in-double orientation of d against the plane (a, b, c).
static double orient3(const double* a, const double* b, const double* c, const double* d) {
	double ax = a[0] - d[0], ay = a[1] - d[1], az = a[2] - d[2];
	double bx = b[0] - d[0], by = b[1] - d[1], bz = b[2] - d[2];
	double cx = c[0] - d[0], cy = c[1] - d[1], cz = c[2] - d[2];
	return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

// Segment pq crosses triangle abc (proper crossing: strictly opposite sides, strictly inside).
static int segment_crosses_triangle(const double* p, const double* q, const double* a, const double* b,
                                    const double* c) {
	double sp = orient3(a, b, c, p), sq = orient3(a, b, c, q);
	if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return 0;
	double s1 = orient3(p, q, a, b), s2 = orient3(p, q, b, c), s3 = orient3(p, q, c, a);
	return (s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0);
}

// 2D orientation of c against a→b in the plane that drops axis `drop`.
static double orient2(const double* a, const double* b, const double* c, int drop) {
	int u = drop == 0 ? 1 : 0, v = drop == 2 ? 1 : 2;
	return (b[u] - a[u]) * (c[v] - a[v]) - (b[v] - a[v]) * (c[u] - a[u]);
}

static int point_in_triangle2(const double* p, const double* a, const double* b, const double* c, int drop) {
	double s1 = orient2(a, b, p, drop), s2 = orient2(b, c, p, drop), s3 = orient2(c, a, p, drop);
	return (s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0);
}

static int segments_cross2(const double* p, const double* q, const double* a, const double* b, int drop) {
	double s1 = orient2(p, q, a, drop), s2 = orient2(p, q, b, drop);
	double s3 = orient2(a, b, p, drop), s4 = orient2(a, b, q, drop);
	return ((s1 > 0 && s2 < 0) || (s1 < 0 && s2 > 0)) && ((s3 > 0 && s4 < 0) || (s3 < 0 && s4 > 0));
}

// Two triangles in one plane overlap (an edge crosses an edge, or a corner lies inside the other).
static int coplanar_overlap(const double* const t[3], const double* const u[3]) {
	double e1[3], e2[3], n[3];
	for (int a = 0; a < 3; ++a) e1[a] = t[1][a] - t[0][a], e2[a] = t[2][a] - t[0][a];
	n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2], n[2] = e1[0] * e2[1] - e1[1] * e2[0];
	int drop = fabs(n[0]) > fabs(n[1]) ? (fabs(n[0]) > fabs(n[2]) ? 0 : 2) : (fabs(n[1]) > fabs(n[2]) ? 1 : 2);
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			if (segments_cross2(t[i], t[(i + 1) % 3], u[j], u[(j + 1) % 3], drop)) return 1;
		}
		if (point_in_triangle2(t[i], u[0], u[1], u[2], drop) || point_in_triangle2(u[i], t[0], t[1], t[2], drop))
			return 1;
	}
	return 0;
}

typedef struct triangle_context {
	const double* x;
	const uint32_t* indices;
	int64_t pairs;
} triangle_context;

static void triangle_visit(int32_t s, int32_t t, void* context) {
	triangle_context* c = context;
	if (t < s) return; // each pair once
	const uint32_t* u = &c->indices[3 * s];
	const uint32_t* v = &c->indices[3 * t];
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j)
			if (u[i] == v[j]) return; // adjacent: they share a vertex
	const double *a = &c->x[3 * u[0]], *b = &c->x[3 * u[1]], *cc = &c->x[3 * u[2]];
	const double *d = &c->x[3 * v[0]], *e = &c->x[3 * v[1]], *f = &c->x[3 * v[2]];
	if (orient3(a, b, cc, d) == 0 && orient3(a, b, cc, e) == 0 && orient3(a, b, cc, f) == 0) {
		const double* const first[3] = {a, b, cc};
		const double* const second[3] = {d, e, f};
		c->pairs += coplanar_overlap(first, second);
		return;
	}
	if (segment_crosses_triangle(a, b, d, e, f) || segment_crosses_triangle(b, cc, d, e, f) ||
	    segment_crosses_triangle(cc, a, d, e, f) || segment_crosses_triangle(d, e, a, b, cc) ||
	    segment_crosses_triangle(e, f, a, b, cc) || segment_crosses_triangle(f, d, a, b, cc)) {
		c->pairs++;
	}
}

// Pairs of cloth triangles that share no vertex and intersect: an edge of one properly crosses the
// other or, when the two lie exactly in one plane (layers pressed flat on the ground), they overlap.
// cell: at least the longest triangle edge.
static int64_t intersecting_triangle_pairs(weft_world* world, double cell) {
	const int32_t n = weft_world_particle_count(world), triangles = weft_world_index_count(world) / 3;
	const uint32_t* indices = weft_world_indices(world);
	double* x = cloth_points(weft_world_positions(world), n);
	double* centroids = calloc((size_t)(triangles > 0 ? triangles : 1) * 3, sizeof(double));
	for (int32_t t = 0; t < triangles; ++t) {
		for (int a = 0; a < 3; ++a) {
			centroids[3 * t + a] =
			    (x[3 * indices[3 * t] + a] + x[3 * indices[3 * t + 1] + a] + x[3 * indices[3 * t + 2] + a]) / 3.0;
		}
	}
	contact_grid g;
	contact_grid_build(&g, centroids, triangles, cell);
	triangle_context c = {x, indices, 0};
	for (int32_t t = 0; t < triangles; ++t) contact_grid_neighbours(&g, centroids, t, triangle_visit, &c);
	contact_grid_free(&g);
	free(centroids);
	free(x);
	return c.pairs;
}

// Fraction of particles that lie above another layer of the cloth: a vertical ray down from the
// particle hits a triangle none of whose corners is within rest_limit of it in the rest pose.
static double layered_fraction(weft_world* world, double rest_limit) {
	const int32_t n = weft_world_particle_count(world), triangles = weft_world_index_count(world) / 3;
	const uint32_t* indices = weft_world_indices(world);
	double* x = cloth_points(weft_world_positions(world), n);
	double* rest = cloth_points(weft_world_rest_positions(world), n);
	// Triangles binned by their horizontal box in a 2D grid over x, z.
	double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
	for (int32_t k = 0; k < n; ++k) {
		lo[0] = fmin(lo[0], x[3 * k]), hi[0] = fmax(hi[0], x[3 * k]);
		lo[1] = fmin(lo[1], x[3 * k + 2]), hi[1] = fmax(hi[1], x[3 * k + 2]);
	}
	const int32_t dims = 128;
	double size[2] = {(hi[0] - lo[0]) / dims + 1e-9, (hi[1] - lo[1]) / dims + 1e-9};
	int32_t* count = calloc((size_t)dims * dims + 1, sizeof(int32_t));
	int32_t* start = calloc((size_t)dims * dims + 1, sizeof(int32_t));
	int64_t entries = 0;
	int32_t(*box)[4] = malloc((size_t)triangles * sizeof *box);
	for (int32_t t = 0; t < triangles; ++t) {
		double bl[2] = {INFINITY, INFINITY}, bh[2] = {-INFINITY, -INFINITY};
		for (int i = 0; i < 3; ++i) {
			const double* p = &x[3 * indices[3 * t + i]];
			bl[0] = fmin(bl[0], p[0]), bh[0] = fmax(bh[0], p[0]);
			bl[1] = fmin(bl[1], p[2]), bh[1] = fmax(bh[1], p[2]);
		}
		for (int a = 0; a < 2; ++a) {
			box[t][a] = (int32_t)((bl[a] - lo[a]) / size[a]);
			box[t][2 + a] = (int32_t)((bh[a] - lo[a]) / size[a]);
			if (box[t][2 + a] >= dims) box[t][2 + a] = dims - 1;
		}
		for (int32_t z = box[t][1]; z <= box[t][3]; ++z)
			for (int32_t xx = box[t][0]; xx <= box[t][2]; ++xx) count[z * dims + xx]++, entries++;
	}
	for (int32_t c = 0; c < dims * dims; ++c) start[c + 1] = start[c] + count[c];
	int32_t* list = malloc((size_t)(entries + 1) * sizeof(int32_t));
	for (int32_t c = 0; c < dims * dims; ++c) count[c] = start[c];
	for (int32_t t = 0; t < triangles; ++t)
		for (int32_t z = box[t][1]; z <= box[t][3]; ++z)
			for (int32_t xx = box[t][0]; xx <= box[t][2]; ++xx) list[count[z * dims + xx]++] = t;
	int32_t layered = 0;
	for (int32_t k = 0; k < n; ++k) {
		const double* p = &x[3 * k];
		int32_t cx = (int32_t)((p[0] - lo[0]) / size[0]), cz = (int32_t)((p[2] - lo[1]) / size[1]);
		if (cx >= dims) cx = dims - 1;
		if (cz >= dims) cz = dims - 1;
		int32_t c = cz * dims + cx;
		int found = 0;
		for (int32_t e = start[c]; e < start[c + 1] && !found; ++e) {
			const uint32_t* v = &indices[3 * list[e]];
			int near = 0;
			for (int i = 0; i < 3; ++i) {
				double r2 = 0;
				for (int a = 0; a < 3; ++a) r2 += pow(rest[3 * v[i] + a] - rest[3 * k + a], 2);
				near |= r2 <= rest_limit * rest_limit;
			}
			if (near) continue;
			const double *a = &x[3 * v[0]], *b = &x[3 * v[1]], *cc = &x[3 * v[2]];
			// Point in the triangle's horizontal projection, and the triangle below p there.
			double d1 = (b[0] - a[0]) * (p[2] - a[2]) - (b[2] - a[2]) * (p[0] - a[0]);
			double d2 = (cc[0] - b[0]) * (p[2] - b[2]) - (cc[2] - b[2]) * (p[0] - b[0]);
			double d3 = (a[0] - cc[0]) * (p[2] - cc[2]) - (a[2] - cc[2]) * (p[0] - cc[0]);
			if (!((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0))) continue;
			double area = d1 + d2 + d3;
			if (fabs(area) < 1e-18) continue;
			double y = (d2 * a[1] + d3 * b[1] + d1 * cc[1]) / area;
			if (y < p[1]) found = 1;
		}
		layered += found;
	}
	free(list);
	free(box);
	free(count);
	free(start);
	free(x);
	free(rest);
	return (double)layered / n;
}

#endif
