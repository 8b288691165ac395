// Private: the static triangle-mesh collider (mesh.c builds it with mesh_normals.c and
// mesh_spheres.c, triangle_grid.c indexes it, closest_point.c and mesh_collide.c query it).
// Flat arrays only, laid out as weft_mesh_collider_view documents, so the GPU solver uploads them
// as they are.
#ifndef WEFT_MESH_H
#define WEFT_MESH_H

#include "vec3.h"
#include "world_internal.h"

// Voronoi regions of a triangle (a, b, c) for the closest point of a query point.
typedef enum weft_triangle_region {
	WEFT_REGION_FACE = 0,
	WEFT_REGION_VERTEX_A,
	WEFT_REGION_VERTEX_B,
	WEFT_REGION_VERTEX_C,
	WEFT_REGION_EDGE_AB,
	WEFT_REGION_EDGE_BC,
	WEFT_REGION_EDGE_CA,
} weft_triangle_region;

// Closest point of triangle (a, b, c) to p by Voronoi regions (Ericson, Real-Time Collision
// Detection 5.1.5). Writes the point and returns its region. Degenerate triangles are handled
// (the region is then a vertex or an edge).
weft_triangle_region weft_closest_point_on_triangle(const float p[3], const float a[3], const float b[3],
                                                    const float c[3], float out_point[3]);

// Uniform grid of triangles: cell_start (cell_count + 1) and cell_triangles, as in the public view.
typedef struct weft_triangle_grid {
	float origin[3];
	float cell_size;
	float inverse_cell_size;
	int32_t dims[3];
	int32_t cell_count;
	int32_t entry_count;
	uint32_t* cell_start;
	uint32_t* cell_triangles;
} weft_triangle_grid;

// triangle_grid.c. Builds the grid over triangles (vertices float4, indices 3 per triangle).
// cell_size > 0; the grid covers the triangles' bounds padded by one cell on every side.
weft_result weft_triangle_grid_build(weft_triangle_grid* grid, const weft_allocator* allocator, const float* vertices,
                                     const uint32_t* indices, int32_t triangle_count, float cell_size);
void weft_triangle_grid_destroy(weft_triangle_grid* grid, const weft_allocator* allocator);
// Cell coordinate of x along axis (may be outside 0..dims-1; clamped to ±1e6).
static inline int32_t weft_triangle_grid_coordinate(const weft_triangle_grid* grid, int axis, float x) {
	return weft_floor_clamped((x - grid->origin[axis]) * grid->inverse_cell_size, 1.0e6f);
}

// Classification of grid cells (built once by flood fill from the grid's border).
enum {
	WEFT_CELL_OUTSIDE = 0, // no triangle, reachable from the border through empty cells
	WEFT_CELL_SURFACE = 1, // some triangle's box overlaps it
	WEFT_CELL_INSIDE = 2,  // no triangle, enclosed by a closed mesh
	WEFT_CELL_FAR = 3,     // outside, and no triangle in any of the 26 neighbours either
};
// triangle_grid.c. One WEFT_CELL_* per cell of a built grid (allocated; closed: whether the mesh
// is closed, else nothing is inside).
weft_result weft_triangle_grid_classify(const weft_triangle_grid* grid, bool closed, const weft_allocator* allocator,
                                        uint8_t** out_flags);

// Broadphase spheres of one collider at most.
#define WEFT_MESH_MAX_SPHERES 8
// Triangles examined for one point in one substep at most (mesh_collide.c): bounds the step for
// any mesh, a triangle soup included.
#define WEFT_MESH_MAX_TESTS 256
// Of them, at most this many from one grid cell.
#define WEFT_MESH_MAX_CELL_TESTS 128

struct weft_mesh_collider {
	int32_t vertex_count, triangle_count, sphere_count;
	bool closed;
	float* vertices;         // float4 per vertex
	float* vertex_normals;   // float4 per vertex
	uint32_t* indices;       // 3 per triangle
	float* face_normals;     // float4 per triangle (n, -n·v0)
	float* edge_normals;     // 3 float4 per triangle
	float* triangle_spheres; // float4 per triangle: centroid, distance to the farthest vertex
	float* spheres;          // float4 per sphere (centre, radius incl. reach)
	weft_triangle_grid grid;
	float grid_diagonal; // m
	bool edge_contacts;  // also push out the midpoints of the cloth's stretch edges
	bool ridge_lifts;    // lift stretch edges that run through it back over its ridge (a world's collider)
	uint8_t* cell_flags; // one WEFT_CELL_* per grid cell
	// The plane and bounding sphere of grid.cell_triangles' entries' triangles as eight rows (n.x,
	// n.y, n.z, d, centre x, y, z, radius; entry_count + 4 each, the padding far away): a cell's
	// entries are prefiltered four at a time (mesh_collide.c).
	float* entry_rows[8];
	int32_t max_cell_entries; // the most triangles one grid cell lists
	// Set on a world's collider (mesh.c), else NULL: float4 per particle, a point (xyz) and a lower
	// bound on its distance to the surface (w; 0 unknown, −k: none looked for in the next k substeps),
	// so a particle that stays farther than the margin from the surface skips its push-out
	// (mesh_collide.c).
	// With it, the triangle a particle's bound leaves out (UINT32_MAX: none): the one it touches,
	// which the push-out then tests alone while the bound lasts.
	float* clearance;
	uint32_t* clearance_triangle;
	int32_t clearance_count;
	// Also set on a world's collider: whether this substep's push-out moved each particle (1) or not
	// (0), and each particle's stretch edges (weft_stretch_adjacency at base 0: particle i's
	// constraint indices are stretch_lists[stretch_lists[i] .. stretch_lists[i + 1])), for
	// mesh_ridge_lifts.c.
	uint8_t* touched;
	uint32_t* stretch_lists;
	// Set on a world's collider too (mesh.c, beside clearance), for the strain sweeps
	// (strain_sweeps.c): per particle, during a frame's sweeps, where it was last looked at (xyz) and
	// a lower bound then on its distance to the surface (w; negative: not looked at).
	float* sweep_clearance;
};

// Builds a collider from world-space positions (3 floats per vertex); cell_size_hint ≤ 0 picks one.
// margin is the collision margin the grid must reach beyond.
weft_result weft_mesh_collider_create(const weft_allocator* allocator, const float* positions, int32_t vertex_count,
                                      const uint32_t* indices, int32_t triangle_count, float margin,
                                      weft_mesh_collider** out);
void weft_mesh_collider_destroy(weft_mesh_collider* mesh, const weft_allocator* allocator);

// mesh_normals.c. Of the first triangle_count triangles in mesh->indices, keeps the non-degenerate
// ones (compacted in place; mesh->triangle_count), orients them (weft_mesh_orient), computes face,
// vertex and edge pseudo-normals, and sets mesh->closed. Fails when every triangle is degenerate.
weft_result weft_mesh_build_normals(weft_mesh_collider* mesh, const weft_allocator* allocator, int32_t triangle_count);
// mesh_orient.c. Makes the winding of triangles (3 indices each into float4 vertices) consistent
// across shared edges, and outward for every closed piece (by its signed volume).
weft_result weft_mesh_orient(uint32_t* indices, int32_t triangle_count, const float* vertices,
                             const weft_allocator* allocator);
// mesh_spheres.c. The bounding sphere of every triangle; the broadphase spheres, grown by reach
// (k-means on the vertices).
void weft_mesh_triangle_spheres(weft_mesh_collider* mesh);
void weft_mesh_fit_spheres(weft_mesh_collider* mesh, float reach);

// mesh_collide.c. The push-out of one substep on count particles (float4 positions with inverse mass in w; previous
// = positions at the start of the substep). Particles with inverse mass 0 are left alone. Never
// allocates. Returns the number of particles moved.
int32_t weft_mesh_collide_particles(const weft_mesh_collider* mesh, float* positions, const float* previous,
                                    int32_t count, float margin, float friction);
// The push-out of one particle by where it is, not by its path: a point inside a closed mesh goes to
// its nearest surface point + margin, one within the margin outside to the margin (no friction;
// inside_only: not those). For the frame-end strain sweeps (strain_sweeps.c). Returns 1 if it moved
// the particle; 0 for an open mesh (no inside to tell), a kinematic particle or one in the clear.
// *out_clearance (if not NULL): a lower bound on the particle's distance to the surface afterwards,
// outside (0: none known).
int32_t weft_mesh_push_out_nearest(const weft_mesh_collider* mesh, float* position, float margin, bool inside_only,
                                   float* out_clearance);
// The world's mesh stage on particles [begin, end); whole (the stage runs on one thread) also
// pushes the midpoints of stretch edges out when edge contacts are on.
void weft_mesh_collide_range(weft_world* world, int32_t begin, int32_t end, bool whole);

// mesh_collide.c. A point moving p0 → p kept outside the mesh as a particle is (stopped a margin in
// front of a face its path crosses, the rest of the way along it; pushed out to the margin), with
// no friction: it slides over the surface (the hand, grab.c). A NULL mesh leaves p.
weft_vec3 weft_mesh_collide_path(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3 p, float margin);
// mesh_collide.c. The collision margin the push-out uses: clamped to [0, half a grid cell] (it sees
// only as far as the grid reaches).
float weft_mesh_clamp_margin(const weft_mesh_collider* mesh, float margin);
// mesh_collide.c. First crossing of segment p0 → p1 with a triangle (Möller–Trumbore), over the grid
// cells the segment's box overlaps, within *budget tests: *out_t along the segment, the triangle.
bool weft_mesh_first_crossing(const weft_mesh_collider* mesh, weft_vec3 p0, weft_vec3 p1, int32_t* budget, float* out_t,
                              uint32_t* out_triangle);
// mesh_ridge_lifts.c. Allocates and fills touched and stretch_lists of a world's collider.
weft_result weft_mesh_ridge_lifts_prepare(weft_mesh_collider* mesh, const weft_world* world);
// Stretch edges that cross the mesh (both ends outside, a ridge between them) lifted back over it;
// whole (one thread), after the particles' push-out.
void weft_mesh_lift_ridges(weft_world* world);

// The built-in "pole": a cylinder along the cloth's pinned first column, in world space (pole.c).
weft_result weft_world_set_pole_collider(weft_world* world);

// Signed distance of p to the mesh within the grid's reach: negative inside (closed meshes).
// Returns false when no triangle lies within reach. For tests and tools.
bool weft_mesh_signed_distance(const weft_mesh_collider* mesh, const float p[3], float* out_distance);

#endif
