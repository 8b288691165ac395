// The static triangle-mesh collider: built once from user triangles (validation, optional fit to
// the scene, Morton order, pseudo-normals in mesh_normals.c, bounding spheres in mesh_spheres.c,
// the triangle grid and its cell classes in triangle_grid.c), then only read by the step
// (mesh_collide.c). This file holds the collider's creation and the public API.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "vec3.h"

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
	weft_triangle_grid_destroy(&mesh->grid, allocator);
	weft_free(allocator, mesh->cell_flags);
	for (int row = 0; row < 8; row++) {
		weft_free(allocator, mesh->entry_rows[row]);
	}
	weft_free(allocator, mesh->clearance);
	weft_free(allocator, mesh->clearance_triangle);
	weft_free(allocator, mesh->touched);
	weft_free(allocator, mesh->stretch_lists);
	weft_free(allocator, mesh->sweep_clearance);
	weft_free(allocator, mesh);
}

// Each grid entry's triangle plane and bounding sphere in rows; the padding is a plane and a
// sphere no point is near (d and the centre huge, radius 0).
static weft_result entry_rows(weft_mesh_collider* mesh, const weft_allocator* allocator) {
	const size_t count = (size_t)mesh->grid.entry_count + 4;
	for (int row = 0; row < 8; row++) {
		mesh->entry_rows[row] = weft_alloc(allocator, sizeof(float) * count);
		if (mesh->entry_rows[row] == NULL) {
			return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
		}
	}
	const float far[8] = {0.0f, 0.0f, 0.0f, 1e30f, 1e30f, 1e30f, 1e30f, 0.0f};
	for (int32_t cell = 0; cell < mesh->grid.cell_count; cell++) {
		const int32_t entries = (int32_t)(mesh->grid.cell_start[cell + 1] - mesh->grid.cell_start[cell]);
		mesh->max_cell_entries = entries > mesh->max_cell_entries ? entries : mesh->max_cell_entries;
	}
	for (size_t k = 0; k < count; k++) {
		const bool entry = k < (size_t)mesh->grid.entry_count;
		const uint32_t t = entry ? mesh->grid.cell_triangles[k] : 0;
		for (int row = 0; row < 8; row++) {
			const float* source = row < 4 ? mesh->face_normals + 4 * t : mesh->triangle_spheres + 4 * t;
			mesh->entry_rows[row][k] = entry ? source[row % 4] : far[row];
		}
	}
	return WEFT_OK;
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
			                vertices[4 * indices[3 * t + 2] + axis]) /
			               3.0f;
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

weft_result weft_mesh_collider_create(const weft_allocator* allocator, const float* positions, int32_t vertex_count,
                                      const uint32_t* indices, int32_t triangle_count, float margin,
                                      weft_mesh_collider** out) {
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
	mesh->spheres = weft_alloc(allocator, sizeof(float) * 4 * WEFT_MESH_MAX_SPHERES);
	if (!mesh->vertices || !mesh->vertex_normals || !mesh->indices || !mesh->face_normals || !mesh->edge_normals ||
	    !mesh->triangle_spheres || !mesh->spheres) {
		weft_mesh_collider_destroy(mesh, allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	for (int32_t v = 0; v < vertex_count; v++) {
		weft_store3(mesh->vertices + 4 * v, weft_load3(positions + 3 * v));
		mesh->vertices[4 * v + 3] = 0.0f;
	}

	// Triangles in Morton order of their centroids: neighbours in space are neighbours in memory,
	// so a query touches few cache lines.
	sort_key* order = weft_alloc(allocator, sizeof(sort_key) * (size_t)triangle_count);
	if (order == NULL) {
		weft_mesh_collider_destroy(mesh, allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	spatial_order(mesh->vertices, vertex_count, indices, triangle_count, order);
	for (int32_t t = 0; t < triangle_count; t++) {
		memcpy(mesh->indices + 3 * t, indices + 3 * order[t].index, 3 * sizeof(uint32_t));
	}
	weft_free(allocator, order);

	// Keep the non-degenerate triangles, with their pseudo-normals and bounding spheres.
	weft_result result = weft_mesh_build_normals(mesh, allocator, triangle_count);
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, allocator);
		return result;
	}
	weft_mesh_triangle_spheres(mesh);
	int32_t kept = mesh->triangle_count;

	// Cell size: about one mean edge (few triangles per cell), at least 4 margins (the reach must
	// exceed the margin), and coarse enough for at most ~2M cells.
	double edge_length_sum = 0.0;
	float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t t = 0; t < kept; t++) {
		for (int k = 0; k < 3; k++) {
			const float* v = mesh->vertices + 4 * mesh->indices[3 * t + k];
			const float* next = mesh->vertices + 4 * mesh->indices[3 * t + (k + 1) % 3];
			edge_length_sum += sqrt((double)weft_distance2(weft_load3(next), weft_load3(v)));
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
	float coarse = (float)weft_cbrt(volume / (double)(1 << 21));
	cell = cell > coarse ? cell : coarse;
	cell = cell > 1e-6f ? cell : 1e-6f;
	result = weft_triangle_grid_build(&mesh->grid, allocator, mesh->vertices, mesh->indices, kept, cell);
	if (result == WEFT_OK) {
		result = weft_triangle_grid_classify(&mesh->grid, mesh->closed, allocator, &mesh->cell_flags);
	}
	if (result == WEFT_OK) {
		result = entry_rows(mesh, allocator);
	}
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, allocator);
		return result;
	}
	weft_mesh_fit_spheres(mesh, mesh->grid.cell_size);
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
	weft_result result = weft_mesh_collider_create(&world->allocator, source, vertex_count, indices, triangle_count,
	                                               world->def.collision_margin, &mesh);
	weft_free(&world->allocator, fitted);
	if (result != WEFT_OK) {
		return result;
	}
	// Every particle's clearance unknown (0) to begin with. The strain sweeps' clearances are reset at
	// the start of each frame's sweeps (strain_sweeps.c), so they need no fill here.
	mesh->clearance = weft_alloc(&world->allocator, sizeof(float) * 4 * (size_t)world->particle_count);
	mesh->clearance_triangle = weft_alloc(&world->allocator, sizeof(uint32_t) * (size_t)world->particle_count);
	mesh->sweep_clearance = weft_alloc(&world->allocator, sizeof(float) * 4 * (size_t)world->particle_count);
	if (mesh->clearance == NULL || mesh->clearance_triangle == NULL || mesh->sweep_clearance == NULL) {
		weft_mesh_collider_destroy(mesh, &world->allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	memset(mesh->clearance, 0, sizeof(float) * 4 * (size_t)world->particle_count);
	memset(mesh->clearance_triangle, 0xff, sizeof(uint32_t) * (size_t)world->particle_count);
	mesh->clearance_count = world->particle_count;
	mesh->ridge_lifts = true;
	result = weft_mesh_ridge_lifts_prepare(mesh, world);
	if (result != WEFT_OK) {
		weft_mesh_collider_destroy(mesh, &world->allocator);
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
	if (strcmp(name, "pole") == 0) {
		return weft_world_set_pole_collider(world);
	}
	if (strcmp(name, "bunny") != 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "unknown built-in mesh '%s' (bunny, pole)", name);
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

// WEFT_OK if the world has a mesh collider, else the error of `function` (a switch of the collider).
static weft_result mesh_switch_target(const weft_world* world, const char* function) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "%s: world is NULL", function);
	}
	if (world->mesh == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "%s: the world has no mesh collider", function);
	}
	return WEFT_OK;
}

weft_result weft_world_set_mesh_edge_contacts(weft_world* world, bool enabled) {
	const weft_result result = mesh_switch_target(world, "weft_world_set_mesh_edge_contacts");
	if (result == WEFT_OK) {
		world->mesh->edge_contacts = enabled;
	}
	return result;
}

weft_result weft_world_set_mesh_ridge_lifts(weft_world* world, bool enabled) {
	const weft_result result = mesh_switch_target(world, "weft_world_set_mesh_ridge_lifts");
	if (result == WEFT_OK) {
		world->mesh->ridge_lifts = enabled;
	}
	return result;
}

bool weft_world_mesh_ridge_lifts(const weft_world* world) {
	return world != NULL && world->mesh != NULL && world->mesh->ridge_lifts;
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
