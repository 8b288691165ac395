// Mesh push-out, once per substep after the constraint solve (never allocates).
//
// For each free particle whose path this substep (previous → current) touches a bounding sphere:
//  1. Continuous: if the path crosses a triangle, the first crossing decides. A particle that came
//     from the front side is put back in front of that triangle's plane (at the margin), so a
//     fast particle cannot tunnel through a thin wall; repeated (3 rounds at most) in case the
//     correction crosses a neighbouring face in a crease. Coming from behind: in a closed mesh the
//     particle is leaving the solid (let it); in an open shell it goes back behind.
//  2. Static: the particle was outside when the substep began (the previous one pushed it out)
//     and did not cross, so only triangles within the margin matter: the closest one there, by
//     Voronoi regions, and the pseudo-normal of its feature (vertex, edge, face) say inside or
//     outside; the particle moves to q + margin along the outward direction. The grid's cell
//     classes make this cheap: no search at all in cells far from the surface, and an outward
//     search of growing radius from an empty cell inside the mesh (a particle released there
//     after a grab), so even that case recovers.
//  3. Friction, as for the ground and spheres: the tangential slip of the substep stops where it
//     is at most friction × the push along the normal (static), else friction × it is removed.
// Work per point is bounded: at most WEFT_MESH_MAX_TESTS triangles are examined for one point in
// one substep (over all the searches above), and at most WEFT_MESH_MAX_CELL_TESTS of one cell. A
// mesh whose triangles are listed sparsely never reaches either (the bunny lists at most 21 in a
// cell and examines at most ~210 for one point); a triangle soup, where one cell lists 100 000
// huge overlapping triangles, would otherwise cost milliseconds a particle: there the first ones
// listed (in Morton order) decide, and the step stays bounded.
// Optionally (weft_world_set_mesh_edge_contacts) the midpoints of the cloth's stretch edges go
// through the same steps first, their correction shared by the two ends.
#include <math.h>

#include "mesh.h"
#include "simd4.h"
#include "vec3.h"

// End of the entries [begin, end) of one cell that the remaining *budget of tests allows (and at
// most WEFT_MESH_MAX_CELL_TESTS of them); takes them off it.
static inline uint32_t weft_budget_end(uint32_t begin, uint32_t end, int32_t* budget) {
	uint32_t count = end - begin;
	if (count > WEFT_MESH_MAX_CELL_TESTS) {
		count = WEFT_MESH_MAX_CELL_TESTS;
	}
	if (count > (uint32_t)*budget) {
		count = (uint32_t)*budget;
	}
	*budget -= (int32_t)count;
	return begin + count;
}

static const float* vertex_of(const weft_mesh_collider* mesh, uint32_t triangle, int corner) {
	return mesh->vertices + 4 * mesh->indices[3 * triangle + corner];
}

// Pseudo-normal of the feature of `triangle` that holds a closest point in `region`.
static weft_vec3 pseudo_normal(const weft_mesh_collider* mesh, uint32_t triangle, weft_triangle_region region) {
	switch (region) {
	case WEFT_REGION_VERTEX_A: return weft_load3(mesh->vertex_normals + 4 * mesh->indices[3 * triangle + 0]);
	case WEFT_REGION_VERTEX_B: return weft_load3(mesh->vertex_normals + 4 * mesh->indices[3 * triangle + 1]);
	case WEFT_REGION_VERTEX_C: return weft_load3(mesh->vertex_normals + 4 * mesh->indices[3 * triangle + 2]);
	case WEFT_REGION_EDGE_AB: return weft_load3(mesh->edge_normals + 4 * (3 * triangle + 0));
	case WEFT_REGION_EDGE_BC: return weft_load3(mesh->edge_normals + 4 * (3 * triangle + 1));
	case WEFT_REGION_EDGE_CA: return weft_load3(mesh->edge_normals + 4 * (3 * triangle + 2));
	case WEFT_REGION_FACE: break;
	}
	return weft_load3(mesh->face_normals + 4 * triangle);
}

// The closest triangle found so far within the bound best_d2.
typedef struct closest_state {
	float best_d2;
	uint32_t exclude; // a triangle the search passes over (UINT32_MAX: none)
	bool found;
	uint32_t triangle;
	weft_triangle_region region;
	weft_vec3 point;
} closest_state;

// Tests one triangle against the bound, keeping the closer. plane_distance: p's signed distance
// to the triangle's plane (a lower bound), then its bounding sphere, then the exact test.
static inline void test_triangle(const weft_mesh_collider* mesh, uint32_t t, weft_vec3 p, const float query[3],
                                 float plane_distance, closest_state* state) {
	if (plane_distance * plane_distance >= state->best_d2 || t == state->exclude) return;
	const float* bound = mesh->triangle_spheres + 4 * t;
	weft_vec3 to_centre = weft_sub(p, weft_load3(bound));
	float centre_distance2 = weft_dot(to_centre, to_centre);
	if (centre_distance2 > bound[3] * bound[3]) {
		float gap = sqrtf(centre_distance2) - bound[3];
		if (gap * gap >= state->best_d2) return;
	}
	float q[3];
	weft_triangle_region region =
	    weft_closest_point_on_triangle(query, vertex_of(mesh, t, 0), vertex_of(mesh, t, 1), vertex_of(mesh, t, 2), q);
	weft_vec3 d = weft_sub(p, weft_load3(q));
	float d2 = weft_dot(d, d);
	if (d2 < state->best_d2) {
		state->best_d2 = d2;
		state->triangle = t;
		state->region = region;
		state->point = weft_load3(q);
		state->found = true;
	}
}

static inline float plane_distance_of(const weft_mesh_collider* mesh, uint32_t t, weft_vec3 p) {
	const float* plane = mesh->face_normals + 4 * t;
	return weft_dot(weft_load3(plane), p) + plane[3];
}

#if defined(WEFT_SIMD)
// Four entries' plane distances of p (their planes in lanes: normals nx, ny, nz, offsets d).
static inline vf plane_lanes(vf nx, vf ny, vf nz, vf d, weft_vec3 p) {
	return vadd(vadd(vadd(vmul(nx, vsplat(p.x)), vmul(ny, vsplat(p.y))), vmul(nz, vsplat(p.z))), d);
}

// The lanes whose plane the path from p0 (plane distances s0) to p (s1) does not keep to one side
// of: segment_crosses' first test, its comparisons, NaN included.
static inline uint32_t path_meets_planes(vf s0, vf s1) {
	const vf zero = vzero();
	const int one_side =
	    vbits(vand(vgreater(s0, zero), vgreater(s1, zero))) | vbits(vand(vgreater(zero, s0), vgreater(zero, s1)));
	return ~(uint32_t)one_side;
}
#endif

// Of the grid entries [k, k + 4) below end, those the exact tests could keep (a bit each): p
// within the bound of the triangle's plane and of its bounding sphere (test_triangle's first two
// tests), or, when `path`, the path p0 → p not on one side of the plane (segment_crosses' first
// test). The lanes compute those tests' expressions and comparisons, NaN included, so the entries
// left out are exactly those the tests would reject.
static inline uint32_t plane_candidates(const weft_mesh_collider* mesh, uint32_t k, uint32_t end, weft_vec3 p0,
                                        weft_vec3 p, bool path, float best_d2) {
	const uint32_t lanes = end - k >= 4 ? 0xfu : (1u << (end - k)) - 1u;
#if defined(WEFT_SIMD)
	float* const* row = mesh->entry_rows;
	const vf px = vsplat(p.x), py = vsplat(p.y), pz = vsplat(p.z), best = vsplat(best_d2);
	const vf nx = vload(&row[0][k]), ny = vload(&row[1][k]), nz = vload(&row[2][k]), d = vload(&row[3][k]);
	const vf s1 = plane_lanes(nx, ny, nz, d, p);
	const vf s1s1 = vmul(s1, s1);
	const vf tx = vsub(px, vload(&row[4][k])), ty = vsub(py, vload(&row[5][k])), tz = vsub(pz, vload(&row[6][k]));
	const vf radius = vload(&row[7][k]);
	const vf centre2 = vadd(vadd(vmul(tx, tx), vmul(ty, ty)), vmul(tz, tz));
	const vf gap = vsub(vsqrt(centre2), radius);
	const int beyond_sphere =
	    vbits(vand(vgreater(centre2, vmul(radius, radius)), vgreater_equal(vmul(gap, gap), best)));
	const int beyond_plane = vbits(vgreater_equal(s1s1, best));
	uint32_t keep = ~(uint32_t)(beyond_plane | beyond_sphere);
	if (path) {
		keep |= path_meets_planes(plane_lanes(nx, ny, nz, d, p0), s1);
	}
	return keep & lanes;
#else
	(void)mesh, (void)p0, (void)p, (void)path, (void)best_d2;
	return lanes;
#endif
}

// Of the grid entries [k, k + 4) below end, those whose plane the path p0 → p1 meets: what
// plane_candidates keeps for a path with no bound (its bound's tests then keep nothing), without
// working those tests out.
static inline uint32_t path_candidates(const weft_mesh_collider* mesh, uint32_t k, uint32_t end, weft_vec3 p0,
                                       weft_vec3 p1) {
	const uint32_t lanes = end - k >= 4 ? 0xfu : (1u << (end - k)) - 1u;
#if defined(WEFT_SIMD)
	float* const* row = mesh->entry_rows;
	const vf nx = vload(&row[0][k]), ny = vload(&row[1][k]), nz = vload(&row[2][k]), d = vload(&row[3][k]);
	return path_meets_planes(plane_lanes(nx, ny, nz, d, p0), plane_lanes(nx, ny, nz, d, p1)) & lanes;
#else
	(void)mesh, (void)p0, (void)p1;
	return lanes;
#endif
}

// Tests the triangles of one cell against the bound, keeping the closest (within *budget tests).
static void scan_cell(const weft_mesh_collider* mesh, int32_t cell, weft_vec3 p, const float query[3],
                      closest_state* state, int32_t* budget) {
	const weft_triangle_grid* grid = &mesh->grid;
	uint32_t begin = grid->cell_start[cell], end = weft_budget_end(begin, grid->cell_start[cell + 1], budget);
	for (uint32_t k = begin; k < end; k += 4) {
		for (uint32_t bits = plane_candidates(mesh, k, end, p, p, false, state->best_d2); bits; bits &= bits - 1) {
			uint32_t t = grid->cell_triangles[k + (uint32_t)__builtin_ctz(bits)];
			test_triangle(mesh, t, p, query, plane_distance_of(mesh, t, p), state);
		}
	}
}

// A point's grid cell: its coordinates and index (-1 outside the grid), computed once a position.
typedef struct grid_place {
	int32_t c[3];
	int32_t index;
} grid_place;

static grid_place place_of(const weft_triangle_grid* grid, weft_vec3 p) {
	grid_place place = {{weft_triangle_grid_coordinate(grid, 0, p.x), weft_triangle_grid_coordinate(grid, 1, p.y),
	                     weft_triangle_grid_coordinate(grid, 2, p.z)},
	                    -1};
	if (place.c[0] >= 0 && place.c[1] >= 0 && place.c[2] >= 0 && place.c[0] < grid->dims[0] &&
	    place.c[1] < grid->dims[1] && place.c[2] < grid->dims[2]) {
		place.index = place.c[0] + grid->dims[0] * (place.c[1] + grid->dims[1] * place.c[2]);
	}
	return place;
}

// Closest point over the triangles listed in p's cell and the neighbours within max_distance (at
// most the 26 around it when max_distance ≤ cell_size); *out_normal is the pseudo-normal of the
// feature holding it. own_scanned: p's own cell was already scanned into *state (may be NULL).
static bool closest_on_mesh_from(const weft_mesh_collider* mesh, weft_vec3 p, grid_place place, float max_distance,
                                 closest_state* state, bool own_scanned, int32_t* budget, weft_vec3* out_point,
                                 weft_vec3* out_normal, float* out_distance2) {
	const weft_triangle_grid* grid = &mesh->grid;
	const int32_t cx = place.c[0], cy = place.c[1], cz = place.c[2];
	float reach = max_distance;
	// Outside the grid's box by more than the reach: nothing can be that close.
	int32_t pad = (int32_t)ceilf(reach * grid->inverse_cell_size);
	if (cx < -pad || cy < -pad || cz < -pad || cx >= grid->dims[0] + pad || cy >= grid->dims[1] + pad ||
	    cz >= grid->dims[2] + pad) {
		return false;
	}
	float reach2 = reach * reach;
	const float query[3] = {p.x, p.y, p.z};
	// p's own cell first (it usually holds the closest triangle), then only the neighbours that
	// overlap the ball of the best distance so far: a particle resting at the margin visits one or
	// two cells, not 27. Cells or triangle planes farther than the bound are skipped.
	const int32_t own = place.index;
	if (own >= 0 && !own_scanned) {
		scan_cell(mesh, own, p, query, state, budget);
	}
	float radius = sqrtf(state->best_d2);
	int32_t lo[3], hi[3];
	for (int axis = 0; axis < 3; axis++) {
		lo[axis] = weft_triangle_grid_coordinate(grid, axis, query[axis] - radius);
		hi[axis] = weft_triangle_grid_coordinate(grid, axis, query[axis] + radius);
		lo[axis] = lo[axis] < 0 ? 0 : lo[axis];
		hi[axis] = hi[axis] >= grid->dims[axis] ? grid->dims[axis] - 1 : hi[axis];
	}
	for (int32_t z = lo[2]; z <= hi[2]; z++) {
		for (int32_t y = lo[1]; y <= hi[1]; y++) {
			for (int32_t x = lo[0]; x <= hi[0]; x++) {
				// Distance from p to the cell's box (before touching the cell's memory).
				float gap2 = 0.0f;
				const int32_t coordinate[3] = {x, y, z};
				for (int axis = 0; axis < 3; axis++) {
					float cell_lo = grid->origin[axis] + grid->cell_size * (float)coordinate[axis];
					float g = query[axis] < cell_lo
					              ? cell_lo - query[axis]
					              : (query[axis] > cell_lo + grid->cell_size ? query[axis] - cell_lo - grid->cell_size
					                                                         : 0.0f);
					gap2 += g * g;
				}
				if (gap2 >= state->best_d2) continue;
				int32_t cell = x + grid->dims[0] * (y + grid->dims[1] * z);
				if (cell == own || grid->cell_start[cell] == grid->cell_start[cell + 1]) continue;
				scan_cell(mesh, cell, p, query, state, budget);
			}
		}
	}
	if (!state->found || !(state->best_d2 <= reach2)) {
		return false;
	}
	*out_point = state->point;
	*out_normal = pseudo_normal(mesh, state->triangle, state->region);
	*out_distance2 = state->best_d2;
	return true;
}

static closest_state closest_start(float max_distance) {
	// Only what could beat the reach counts; the bound shrinks as closer triangles turn up.
	return (closest_state){max_distance * max_distance * 1.0001f, UINT32_MAX, false, 0, WEFT_REGION_FACE, {0, 0, 0}};
}

static bool closest_on_mesh(const weft_mesh_collider* mesh, weft_vec3 p, float max_distance, int32_t* budget,
                            weft_vec3* out_point, weft_vec3* out_normal, float* out_distance2) {
	closest_state state = closest_start(max_distance);
	return closest_on_mesh_from(mesh, p, place_of(&mesh->grid, p), max_distance, &state, false, budget, out_point,
	                            out_normal, out_distance2);
}

// Whether segment p0 → p1 crosses triangle t, given both ends' plane distances; *out_t where.
static inline bool segment_crosses(const weft_mesh_collider* mesh, uint32_t t, weft_vec3 p0, weft_vec3 direction,
                                   float s0, float s1, float* out_t) {
	// Both ends on one side of the triangle's plane: no crossing.
	if ((s0 > 0.0f && s1 > 0.0f) || (s0 < 0.0f && s1 < 0.0f)) return false;
	const float tolerance = 1e-5f; // barycentric slack: a path through a shared edge hits one side
	weft_vec3 v0 = weft_load3(vertex_of(mesh, t, 0));
	weft_vec3 e1 = weft_sub(weft_load3(vertex_of(mesh, t, 1)), v0),
	          e2 = weft_sub(weft_load3(vertex_of(mesh, t, 2)), v0);
	weft_vec3 h = weft_cross(direction, e2);
	float det = weft_dot(e1, h);
	if (det == 0.0f) return false;
	float inverse = 1.0f / det;
	weft_vec3 s = weft_sub(p0, v0);
	float u = weft_dot(s, h) * inverse;
	if (!(u >= -tolerance && u <= 1.0f + tolerance)) return false;
	weft_vec3 q = weft_cross(s, e1);
	float v = weft_dot(direction, q) * inverse;
	if (!(v >= -tolerance && u + v <= 1.0f + tolerance)) return false;
	float hit = weft_dot(e2, q) * inverse;
	if (!(hit >= 0.0f && hit <= 1.0f)) return false;
	*out_t = hit;
	return true;
}

// The common case in one pass over one cell: p0 and p in the same cell. Looks for a crossing of
// p0 → p and, at the same time, the closest triangle to p within the bound. Returns true if the
// path crosses a triangle there (the caller then takes the general path).
static bool scan_cell_fused(const weft_mesh_collider* mesh, int32_t cell, weft_vec3 p0, weft_vec3 p,
                            closest_state* state, int32_t* budget) {
	const weft_triangle_grid* grid = &mesh->grid;
	const float query[3] = {p.x, p.y, p.z};
	weft_vec3 direction = weft_sub(p, p0);
	bool moving = direction.x != 0.0f || direction.y != 0.0f || direction.z != 0.0f;
	uint32_t begin = grid->cell_start[cell], end = weft_budget_end(begin, grid->cell_start[cell + 1], budget);
	for (uint32_t k = begin; k < end; k += 4) {
		for (uint32_t bits = plane_candidates(mesh, k, end, p0, p, moving, state->best_d2); bits; bits &= bits - 1) {
			uint32_t t = grid->cell_triangles[k + (uint32_t)__builtin_ctz(bits)];
			float s1 = plane_distance_of(mesh, t, p);
			float hit;
			if (moving && segment_crosses(mesh, t, p0, direction, plane_distance_of(mesh, t, p0), s1, &hit)) {
				return true;
			}
			test_triangle(mesh, t, p, query, s1, state);
		}
	}
	return false;
}

bool weft_mesh_signed_distance(const weft_mesh_collider* mesh, const float p[3], float* out_distance) {
	weft_vec3 q, n;
	float d2;
	int32_t budget = INT32_MAX; // exact, for tests and tools
	if (mesh == NULL || !closest_on_mesh(mesh, weft_load3(p), mesh->grid.cell_size, &budget, &q, &n, &d2)) {
		return false;
	}
	float d = sqrtf(d2);
	*out_distance = (mesh->closed && weft_dot(weft_sub(weft_load3(p), q), n) < 0.0f) ? -d : d;
	return true;
}

bool weft_mesh_first_crossing(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3 p1, int32_t* budget, float* out_t,
                              uint32_t* out_triangle) {
	const weft_triangle_grid* grid = &mesh->grid;
	int32_t lo[3], hi[3];
	float a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z};
	for (int axis = 0; axis < 3; axis++) {
		float mn = a[axis] < b[axis] ? a[axis] : b[axis];
		float mx = a[axis] < b[axis] ? b[axis] : a[axis];
		lo[axis] = weft_triangle_grid_coordinate(grid, axis, mn);
		hi[axis] = weft_triangle_grid_coordinate(grid, axis, mx);
		if (hi[axis] < 0 || lo[axis] >= grid->dims[axis]) {
			return false;
		}
		lo[axis] = lo[axis] < 0 ? 0 : lo[axis];
		hi[axis] = hi[axis] >= grid->dims[axis] ? grid->dims[axis] - 1 : hi[axis];
	}
	weft_vec3 direction = weft_sub(p1, p0);
	float best_t = INFINITY;
	uint32_t best_triangle = 0;
	for (int32_t z = lo[2]; z <= hi[2]; z++)
		for (int32_t y = lo[1]; y <= hi[1]; y++)
			for (int32_t x = lo[0]; x <= hi[0]; x++) {
				int32_t cell = x + grid->dims[0] * (y + grid->dims[1] * z);
				uint32_t begin = grid->cell_start[cell];
				uint32_t end = weft_budget_end(begin, grid->cell_start[cell + 1], budget);
				for (uint32_t k = begin; k < end; k += 4) {
					// Only entries whose plane the path meets.
					for (uint32_t bits = path_candidates(mesh, k, end, p0, p1); bits; bits &= bits - 1) {
						uint32_t t = grid->cell_triangles[k + (uint32_t)__builtin_ctz(bits)];
						float hit;
						if (segment_crosses(mesh, t, p0, direction, plane_distance_of(mesh, t, p0),
						                    plane_distance_of(mesh, t, p1), &hit) &&
						    hit < best_t) {
							best_t = hit;
							best_triangle = t;
						}
					}
				}
			}
	if (best_t == INFINITY) {
		return false;
	}
	*out_t = best_t;
	*out_triangle = best_triangle;
	return true;
}

static uint8_t cell_flag(const weft_mesh_collider* mesh, grid_place place) {
	return place.index < 0 ? WEFT_CELL_FAR : mesh->cell_flags[place.index];
}

// False when the segment p0 → p1 lies in one empty cell or two face-adjacent empty cells (their
// union is convex and no triangle overlaps it), so it cannot cross the surface.
static bool may_cross(const weft_mesh_collider* mesh, grid_place a, grid_place b) {
	int32_t steps = 0;
	for (int axis = 0; axis < 3; axis++) {
		int32_t d = a.c[axis] - b.c[axis];
		steps += d < 0 ? -d : d;
	}
	if (steps > 1) {
		return true;
	}
	uint8_t fa = cell_flag(mesh, a), fb = cell_flag(mesh, b);
	bool empty_a = fa == WEFT_CELL_OUTSIDE || fa == WEFT_CELL_FAR || fa == WEFT_CELL_INSIDE;
	bool empty_b = fb == WEFT_CELL_OUTSIDE || fb == WEFT_CELL_FAR || fb == WEFT_CELL_INSIDE;
	return !(empty_a && empty_b);
}

// Does segment p0 → p1 come within any bounding sphere? (The end point first: it is the usual hit.)
static bool near_mesh(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3 p1) {
	for (int32_t s = 0; s < mesh->sphere_count; s++) {
		const float* sphere = mesh->spheres + 4 * s;
		weft_vec3 offset = weft_sub(p1, weft_load3(sphere));
		if (weft_dot(offset, offset) <= sphere[3] * sphere[3]) {
			return true;
		}
	}
	weft_vec3 d = weft_sub(p1, p0);
	float length2 = weft_dot(d, d);
	float inverse = length2 > 0.0f ? 1.0f / length2 : 0.0f;
	for (int32_t s = 0; s < mesh->sphere_count; s++) {
		const float* sphere = mesh->spheres + 4 * s;
		weft_vec3 c = weft_load3(sphere);
		float t = weft_dot(weft_sub(c, p0), d) * inverse;
		t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
		weft_vec3 offset = weft_sub(weft_add(p0, weft_scale(d, t)), c);
		if (weft_dot(offset, offset) <= sphere[3] * sphere[3]) {
			return true;
		}
	}
	return false;
}

// The push of a point p nearest to q (pseudo: the pseudo-normal of q's feature; d2 = |p − q|²) out
// to q + margin along the outward direction, when it is inside or nearer than the margin; returns
// whether it moved p, *out_normal the direction.
static bool push_from_closest(const weft_mesh_collider* mesh, weft_vec3* p, weft_vec3 q, weft_vec3 pseudo, float d2,
                              float margin, weft_vec3* out_normal) {
	weft_vec3 offset = weft_sub(*p, q);
	float d = sqrtf(d2);
	float side = weft_dot(offset, pseudo);
	bool inside = mesh->closed && side < 0.0f;
	if (!(inside || d < margin)) {
		return false;
	}
	weft_vec3 direction;
	if (d > 1e-7f) {
		direction = weft_scale(offset, (inside ? -1.0f : 1.0f) / d);
	} else {
		direction = (side < 0.0f && !mesh->closed) ? weft_scale(pseudo, -1.0f) : pseudo;
	}
	*p = weft_add(q, weft_scale(direction, margin));
	*out_normal = direction;
	return true;
}

// Friction as for the ground and spheres (collide.c): the tangential slip of the substep stopped
// where it is at most friction × the push, else friction × it removed (the mesh is static).
static weft_vec3 with_friction(weft_vec3 p0, weft_vec3 unpushed, weft_vec3 p, weft_vec3 normal, float friction) {
	weft_vec3 motion = weft_sub(p, p0);
	weft_vec3 tangential = weft_sub(motion, weft_scale(normal, weft_dot(motion, normal)));
	// Static: a slip of at most friction × the push along the normal (unpushed → p) stops.
	const float hold = friction * weft_dot(weft_sub(p, unpushed), normal);
	const float removed = weft_dot(tangential, tangential) <= hold * hold ? 1.0f : friction;
	return weft_sub(p, weft_scale(tangential, removed));
}

// The push-out of one point moving p0 → *p this substep (steps 1-3 above). Returns whether it moved;
// *out_triangle (may be NULL) is the triangle of its contact when that was the closest one within
// the margin and no crossing moved it, else UINT32_MAX.
static bool collide_point(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3* inout_p, float margin,
                          float friction, uint32_t* out_triangle) {
	uint32_t contact_triangle = UINT32_MAX;
	weft_vec3 p = *inout_p;
	if (out_triangle != NULL) {
		*out_triangle = UINT32_MAX;
	}
	if (!near_mesh(mesh, p0, p)) {
		return false;
	}
	weft_vec3 normal = {0, 0, 0};
	bool crossed = false;
	bool contact = false;
	weft_vec3 q, pseudo;
	float d2;
	bool found = false;
	int32_t budget = WEFT_MESH_MAX_TESTS;

	// Fast path: p0 and p in the same surface cell (a particle resting on or sliding along the
	// mesh), one pass over that cell for both the crossing and the closest triangle. Same answer
	// as the general path below, which takes over if the path crosses.
	const weft_triangle_grid* grid = &mesh->grid;
	const grid_place place0 = place_of(grid, p0);
	grid_place place = place_of(grid, p);
	if (place.index >= 0 && place.index == place0.index && mesh->cell_flags[place.index] == WEFT_CELL_SURFACE) {
		closest_state state = closest_start(margin);
		if (!scan_cell_fused(mesh, place.index, p0, p, &state, &budget)) {
			found = closest_on_mesh_from(mesh, p, place, margin, &state, true, &budget, &q, &pseudo, &d2);
			contact_triangle = state.triangle;
			goto resolve;
		}
	}

	// A correction can cross another face in a concave crease: a few rounds until the path is clear.
	for (int round = 0; round < 3; round++) {
		float t;
		uint32_t triangle;
		if (!((p.x != p0.x || p.y != p0.y || p.z != p0.z) && may_cross(mesh, place0, place) &&
		      weft_mesh_first_crossing(mesh, p0, p, &budget, &t, &triangle))) {
			break;
		}
		weft_vec3 n = weft_load3(mesh->face_normals + 4 * triangle);
		weft_vec3 hit = weft_add(p0, weft_scale(weft_sub(p, p0), t));
		// Back onto the crossed triangle's plane, margin in front of it, keeping the tangential
		// motion (friction below decides how much of it survives).
		float height = weft_dot(weft_sub(p, hit), n);
		crossed = true;
		if (weft_dot(weft_sub(p0, hit), n) >= 0.0f) {
			p = weft_add(p, weft_scale(n, margin - height));
			normal = n;
			contact = true;
		} else if (!mesh->closed) {
			p = weft_add(p, weft_scale(n, -margin - height));
			normal = weft_scale(n, -1.0f);
			contact = true;
		} else {
			break; // leaving a closed mesh: let it
		}
		place = place_of(grid, p);
	}

	// Only contacts within the margin matter, so the search is that small: the particle was
	// outside at the start of the substep (the previous one pushed it out) and did not cross
	// the surface (step 1), so it is outside unless within the margin, where the pseudo-normal
	// of the true closest point decides. A particle found in an empty cell enclosed by the mesh
	// (e.g. released there after a grab) searches outwards until it finds the surface.
	uint8_t flag = cell_flag(mesh, place);
	if (flag == WEFT_CELL_INSIDE) {
		for (float search = mesh->grid.cell_size; !found && budget > 0 && search < 2.0f * mesh->grid_diagonal;
		     search *= 2.0f) {
			closest_state state = closest_start(search);
			found = closest_on_mesh_from(mesh, p, place, search, &state, false, &budget, &q, &pseudo, &d2);
		}
	} else if (flag != WEFT_CELL_FAR) {
		closest_state state = closest_start(margin);
		found = closest_on_mesh_from(mesh, p, place, margin, &state, false, &budget, &q, &pseudo, &d2);
		contact_triangle = state.triangle;
	}
resolve:; // (a label before a declaration: C23)
	const bool pushed = found && push_from_closest(mesh, &p, q, pseudo, d2, margin, &normal);
	if (!pushed && !contact) {
		return false;
	}
	if (out_triangle != NULL && pushed && !crossed) {
		*out_triangle = contact_triangle; // the closest triangle's push alone moved it
	}
	*inout_p = with_friction(p0, *inout_p, p, normal, friction);
	return true;
}

// The push-out of a point moving p0 → *p this substep whose only triangle within reach is t (every
// other one stays farther than the margin from its whole path): what collide_point does then, with
// one triangle: the same tests in the same order, so the same bits. Returns 1 if it moved the point,
// 0 if not, -1 where collide_point must decide (the path crosses t, or the point is in a cell that
// is neither SURFACE nor OUTSIDE).
static int collide_point_with(const weft_mesh_collider* mesh, uint32_t t, weft_vec3 p0, weft_vec3* inout_p,
                              float margin, float friction) {
	// No bounding-sphere test: the spheres hold every point within a cell of the surface, so a path
	// outside them neither crosses t nor comes within the margin of it, and the tests below say so.
	weft_vec3 p = *inout_p;
	const uint8_t flag = cell_flag(mesh, place_of(&mesh->grid, p));
	if (flag != WEFT_CELL_SURFACE && flag != WEFT_CELL_OUTSIDE) {
		return -1;
	}
	const weft_vec3 direction = weft_sub(p, p0);
	float hit;
	if ((direction.x != 0.0f || direction.y != 0.0f || direction.z != 0.0f) &&
	    segment_crosses(mesh, t, p0, direction, plane_distance_of(mesh, t, p0), plane_distance_of(mesh, t, p), &hit)) {
		return -1;
	}
	const float query[3] = {p.x, p.y, p.z};
	closest_state state = closest_start(margin);
	test_triangle(mesh, t, p, query, plane_distance_of(mesh, t, p), &state);
	weft_vec3 normal;
	if (!state.found || !(state.best_d2 <= margin * margin) ||
	    !push_from_closest(mesh, &p, state.point, pseudo_normal(mesh, t, state.region), state.best_d2, margin,
	                       &normal)) {
		return 0;
	}
	*inout_p = with_friction(p0, *inout_p, p, normal, friction);
	return 1;
}

// Clearances: a particle that was farther than L from the surface at a point a can be no nearer
// than L − |x − a| anywhere; if that stays above the margin along its whole path p0 → p this
// substep (the path lies within max(|p0 − a|, |p − a|) of a), it can neither cross the surface nor
// come within the margin, and collide_point would leave it as it is: it is skipped. A particle in
// contact keeps the same kind of bound on every triangle but the one it touches: while that lasts,
// only that triangle can cross its path or come within the margin, and collide_point_with tests it
// alone (a particle resting on the bunny: one exact test a substep instead of a search of the cells
// around it). The bounds are shrunk by CLEARANCE_SLACK for the rounding of the distances.
#define CLEARANCE_SLACK 1e-4f
// A contact's bound looks this many margins far at most (its particle slides: a search of the cell
// around it would rarely pay).
#define CONTACT_REACH 3.0f
// Substeps to wait before searching again where a bound was of no use.
#define RETRY_AFTER 4.0f

static float distance_to(const float* a, weft_vec3 p) {
	float dx = p.x - a[0], dy = p.y - a[1], dz = p.z - a[2];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

// Whether a particle's clearance still holds along its path p0 → p: the bound less the path's
// farthest point from the bound's centre is above the margin (compared squared: no root).
static inline bool clearance_holds(const float* clearance, weft_vec3 p0, weft_vec3 p, float margin) {
	const float room = clearance[3] - margin;
	if (!(room > 0.0f)) {
		return false;
	}
	const float x0 = p0.x - clearance[0], y0 = p0.y - clearance[1], z0 = p0.z - clearance[2];
	const float x1 = p.x - clearance[0], y1 = p.y - clearance[1], z1 = p.z - clearance[2];
	const float room2 = room * room;
	return x0 * x0 + y0 * y0 + z0 * z0 < room2 && x1 * x1 + y1 * y1 + z1 * z1 < room2;
}

// A lower bound on p's distance to every triangle but `exclude` (UINT32_MAX: none), 0 when the
// search could not tell: a FAR cell's (or a point outside the grid: both are a cell from any
// triangle), else the closest triangle within a cell, when the search read every triangle there.
static float clearance_at(const weft_mesh_collider* mesh, weft_vec3 p, uint32_t exclude, float reach) {
	const weft_triangle_grid* grid = &mesh->grid;
	const grid_place place = place_of(grid, p);
	float bound;
	if (cell_flag(mesh, place) == WEFT_CELL_FAR) {
		bound = grid->cell_size;
	} else {
		if (mesh->max_cell_entries > WEFT_MESH_MAX_CELL_TESTS) {
			return 0.0f; // a cell's list would be cut short
		}
		int32_t budget = WEFT_MESH_MAX_TESTS;
		closest_state state = closest_start(reach);
		state.exclude = exclude;
		weft_vec3 q, n;
		float d2;
		bool found = closest_on_mesh_from(mesh, p, place, reach, &state, false, &budget, &q, &n, &d2);
		if (budget <= 0) {
			return 0.0f;
		}
		bound = found ? sqrtf(d2) : reach;
	}
	return bound * (1.0f - CLEARANCE_SLACK) - CLEARANCE_SLACK * grid->cell_size;
}

weft_vec3 weft_mesh_collide_path(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3 p, float margin) {
	if (mesh != NULL) {
		collide_point(mesh, p0, &p, weft_mesh_clamp_margin(mesh, margin), 0.0f, NULL);
	}
	return p;
}

float weft_mesh_clamp_margin(const weft_mesh_collider* mesh, float margin) {
	// The push-out can only see as far as the grid reaches.
	float max_margin = 0.5f * mesh->grid.cell_size;
	return margin < 0.0f ? 0.0f : (margin > max_margin ? max_margin : margin);
}

// The push-out of count particles; clearance (float4 per particle, or NULL) as above, with the
// triangle each one's bound leaves out (UINT32_MAX: none).
static int32_t collide_particles(const weft_mesh_collider* mesh, float* positions, const float* previous,
                                 float* clearance, uint32_t* clearance_triangle, uint8_t* pushed, int32_t count,
                                 float margin, float friction) {
	margin = weft_mesh_clamp_margin(mesh, margin);
	int32_t moved = 0;
	for (int32_t i = 0; i < count; i++) {
		float* position = positions + 4 * i;
		float* clear = clearance != NULL ? clearance + 4 * i : NULL;
		if (pushed != NULL) {
			pushed[i] = 0;
		}
		if (position[3] == 0.0f) {
			if (clear != NULL) {
				clear[3] = 0.0f; // pinned or grabbed: moved by other means
			}
			continue;
		}
		weft_vec3 p = weft_load3(position);
		const weft_vec3 p0 = weft_load3(previous + 4 * i);
		if (clear != NULL && clearance_holds(clear, p0, p, margin)) {
			const uint32_t only = clearance_triangle[i];
			const int result = only == UINT32_MAX ? 0 : collide_point_with(mesh, only, p0, &p, margin, friction);
			if (result >= 0) {
				if (result > 0) {
					weft_store3(position, p);
					moved++;
					if (pushed != NULL) {
						pushed[i] = 1;
					}
				}
				continue;
			}
		}
		uint32_t touched;
		const bool contact = collide_point(mesh, p0, &p, margin, friction, &touched);
		if (contact) {
			weft_store3(position, p);
			moved++;
			if (pushed != NULL) {
				pushed[i] = 1;
			}
		}
		if (clear != NULL) {
			// Worth a wider search only where it may last a few substeps, and in contact only with
			// the one triangle the push came from.
			const float step = distance_to(previous + 4 * i, p);
			if (clear[3] < 0.0f) {
				clear[3] += 1.0f; // the last search found no use: wait
			} else if (step < 0.25f * (mesh->grid.cell_size - margin) && (!contact || touched != UINT32_MAX)) {
				const uint32_t exclude = contact ? touched : UINT32_MAX;
				weft_store3(clear, p);
				const float reach = contact && CONTACT_REACH * margin < mesh->grid.cell_size ? CONTACT_REACH * margin
				                                                                             : mesh->grid.cell_size;
				clear[3] = clearance_at(mesh, p, exclude, reach);
				if (!(clear[3] > margin + 2.0f * step)) {
					clear[3] = -RETRY_AFTER; // would not last two substeps like this one: no use
				}
				clearance_triangle[i] = exclude;
			} else {
				clear[3] = 0.0f;
			}
		}
	}
	return moved;
}

int32_t weft_mesh_collide_particles(const weft_mesh_collider* mesh, float* positions, const float* previous,
                                    int32_t count, float margin, float friction) {
	if (mesh == NULL || positions == NULL || previous == NULL) {
		return 0;
	}
	return collide_particles(mesh, positions, previous, NULL, NULL, NULL, count, margin, friction);
}

int32_t weft_mesh_push_out_nearest(const weft_mesh_collider* mesh, float* position, float margin, bool inside_only,
                                   float* out_clearance) {
	float clearance = 0.0f; // a lower bound on the distance to the surface afterwards (0: none known)
	int32_t moved = 0;
	if (mesh == NULL || position == NULL || !mesh->closed || position[3] == 0.0f) {
		goto done;
	}
	margin = weft_mesh_clamp_margin(mesh, margin);
	weft_vec3 p = weft_load3(position);
	if (!near_mesh(mesh, p, p)) {
		clearance = margin; // outside every bounding sphere, grown by at least the margin
		goto done;
	}
	const weft_triangle_grid* grid = &mesh->grid;
	const grid_place place = place_of(grid, p);
	const uint8_t flag = cell_flag(mesh, place);
	if (flag == WEFT_CELL_FAR) {
		clearance = grid->cell_size; // no triangle in this cell or any around it
		goto done;
	}
	// An empty cell outside: only the margin matters. A surface cell holds a triangle, so the closest
	// one lies within its diagonal (less than two cells). An empty cell inside: outwards until found.
	float search = flag == WEFT_CELL_OUTSIDE ? margin : 2.0f * grid->cell_size;
	int32_t budget = WEFT_MESH_MAX_TESTS;
	weft_vec3 q, pseudo, normal;
	float d2;
	bool found = false;
	for (; !found && budget > 0 && search < 2.0f * mesh->grid_diagonal; search *= 2.0f) {
		closest_state state = closest_start(search);
		found = closest_on_mesh_from(mesh, p, place, search, &state, false, &budget, &q, &pseudo, &d2);
		if (flag != WEFT_CELL_INSIDE) {
			break;
		}
	}
	if (!found) {
		clearance = flag == WEFT_CELL_OUTSIDE && budget > 0 ? margin : 0.0f; // none within the margin
		goto done;
	}
	const bool inside = weft_dot(weft_sub(p, q), pseudo) < 0.0f;
	if (inside_only && !inside) {
		clearance = budget > 0 ? sqrtf(d2) : 0.0f; // outside, that far from its nearest point
		goto done;
	}
	if (push_from_closest(mesh, &p, q, pseudo, d2, margin, &normal)) {
		weft_store3(position, p); // a margin from that point; maybe nearer another face (a crease)
		moved = 1;
	}
done:
	if (out_clearance != NULL) {
		*out_clearance = clearance;
	}
	return moved;
}

// Edges: particles alone let a feature thinner than the cloth's spacing (the bunny's ears) slip
// between two neighbours, and the edge then snags on it. The midpoint of every stretch edge is
// pushed out like a particle, and the correction is shared by the edge's two ends (by inverse
// mass), so the edge slides off instead.
static void collide_edges(weft_world* world, float margin, float friction) {
	const weft_mesh_collider* mesh = world->mesh;
	float* x = world->positions;
	const float* previous = world->previous_positions;
	for (int32_t k = 0; k < world->constraint_count; k++) {
		if (world->types[k] != WEFT_STRETCH) continue;
		uint32_t a = world->constraints[k].a, b = world->constraints[k].b;
		float wa = x[4 * a + 3], wb = x[4 * b + 3];
		if (wa + wb == 0.0f) continue;
		weft_vec3 pa = weft_load3(x + 4 * a), pb = weft_load3(x + 4 * b);
		weft_vec3 m = weft_scale(weft_add(pa, pb), 0.5f);
		weft_vec3 m0 = weft_scale(weft_add(weft_load3(previous + 4 * a), weft_load3(previous + 4 * b)), 0.5f);
		weft_vec3 moved = m;
		if (!collide_point(mesh, m0, &moved, margin, friction, NULL)) continue;
		weft_vec3 delta = weft_sub(moved, m);
		float sa = 2.0f * wa / (wa + wb), sb = 2.0f * wb / (wa + wb);
		weft_store3(x + 4 * a, weft_add(pa, weft_scale(delta, sa)));
		weft_store3(x + 4 * b, weft_add(pb, weft_scale(delta, sb)));
	}
}

void weft_mesh_collide_range(weft_world* world, int32_t begin, int32_t end, bool whole) {
	const weft_mesh_collider* mesh = world->mesh;
	if (whole && mesh->edge_contacts) {
		collide_edges(world, weft_mesh_clamp_margin(mesh, world->def.collision_margin), world->def.friction);
	}
	const bool clearances = mesh->clearance != NULL && mesh->clearance_count == world->particle_count;
	float* clearance = clearances ? mesh->clearance + 4 * (int64_t)begin : NULL;
	uint32_t* clearance_triangle = clearances ? mesh->clearance_triangle + begin : NULL;
	uint8_t* pushed =
	    mesh->touched != NULL && mesh->clearance_count == world->particle_count ? mesh->touched + begin : NULL;
	collide_particles(mesh, world->positions + 4 * (int64_t)begin, world->previous_positions + 4 * (int64_t)begin,
	                  clearance, clearance_triangle, pushed, end - begin, world->def.collision_margin,
	                  world->def.friction);
}
