// Uniform 3D grid of triangles, built once: cell_start offsets + cell_triangles (counting sort),
// and the class of every cell (outside, surface, inside, far) by flood fill.
//
// A triangle is listed in every cell its bounding box overlaps. That over-lists a little compared
// with an exact triangle/box test, but keeps the build trivial and the query guarantee simple: a
// point within cell_size of a triangle finds it in the point's cell or one of the 26 neighbours.
// Two flat arrays (no per-cell lists) so the GPU solver uploads them as storage buffers.
#include <math.h>
#include <string.h>

#include "mesh.h"

// Entries (cell, triangle) beyond this are refused (the collider would not be worth it): 16M, or
// 8 per triangle for very large meshes.
#define GRID_MAX_ENTRIES(triangles) \
	((int64_t)(triangles)*8 > ((int64_t)1 << 24) ? (int64_t)(triangles)*8 : ((int64_t)1 << 24))
#define GRID_MAX_CELLS ((int64_t)1 << 24)

static void triangle_cell_range(const weft_triangle_grid* grid, const float* vertices, const uint32_t* triangle,
                                int32_t lo[3], int32_t hi[3]) {
	for (int axis = 0; axis < 3; axis++) {
		float mn = vertices[4 * triangle[0] + axis], mx = mn;
		for (int k = 1; k < 3; k++) {
			float x = vertices[4 * triangle[k] + axis];
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
		}
		lo[axis] = weft_triangle_grid_coordinate(grid, axis, mn);
		hi[axis] = weft_triangle_grid_coordinate(grid, axis, mx);
		lo[axis] = lo[axis] < 0 ? 0 : lo[axis];
		hi[axis] = hi[axis] >= grid->dims[axis] ? grid->dims[axis] - 1 : hi[axis];
	}
}

// Every (cell, triangle) pair of the grid, in triangle order: counted into cell_start[cell + 1], or,
// with fill, written at the cursor cell_start[cell] (which then moves on).
static void list_triangles(weft_triangle_grid* grid, const float* vertices, const uint32_t* indices,
                           int32_t triangle_count, bool fill) {
	for (int32_t t = 0; t < triangle_count; t++) {
		int32_t lo[3], hi[3];
		triangle_cell_range(grid, vertices, indices + 3 * t, lo, hi);
		for (int32_t z = lo[2]; z <= hi[2]; z++)
			for (int32_t y = lo[1]; y <= hi[1]; y++)
				for (int32_t x = lo[0]; x <= hi[0]; x++) {
					int64_t cell = x + (int64_t)grid->dims[0] * (y + (int64_t)grid->dims[1] * z);
					if (fill) {
						grid->cell_triangles[grid->cell_start[cell]++] = (uint32_t)t;
					} else {
						grid->cell_start[cell + 1]++;
					}
				}
	}
}

weft_result weft_triangle_grid_build(weft_triangle_grid* grid, const weft_allocator* allocator, const float* vertices,
                                     const uint32_t* indices, int32_t triangle_count, float cell_size) {
	memset(grid, 0, sizeof *grid);
	if (!(cell_size > 0.0f) || triangle_count <= 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "mesh grid: bad cell size or no triangles");
	}
	float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t t = 0; t < triangle_count; t++) {
		for (int k = 0; k < 3; k++) {
			const float* v = vertices + 4 * indices[3 * t + k];
			for (int axis = 0; axis < 3; axis++) {
				mn[axis] = v[axis] < mn[axis] ? v[axis] : mn[axis];
				mx[axis] = v[axis] > mx[axis] ? v[axis] : mx[axis];
			}
		}
	}
	int64_t cells = 1;
	for (int axis = 0; axis < 3; axis++) {
		// One padding cell on each side: points within reach of the surface always fall inside.
		grid->origin[axis] = mn[axis] - cell_size;
		double span = ((double)mx[axis] - (double)mn[axis]) / cell_size;
		if (!(span < (double)GRID_MAX_CELLS)) {
			return weft_fail(WEFT_ERROR_TOO_LARGE, "mesh grid: %g cells along one axis", span);
		}
		grid->dims[axis] = (int32_t)floor(span) + 3;
		cells *= grid->dims[axis];
		if (cells > GRID_MAX_CELLS) {
			return weft_fail(WEFT_ERROR_TOO_LARGE, "mesh grid: more than %lld cells", (long long)GRID_MAX_CELLS);
		}
	}
	grid->cell_size = cell_size;
	grid->inverse_cell_size = 1.0f / cell_size;
	grid->cell_count = (int32_t)cells;

	int64_t entries = 0;
	for (int32_t t = 0; t < triangle_count; t++) {
		int32_t lo[3], hi[3];
		triangle_cell_range(grid, vertices, indices + 3 * t, lo, hi);
		entries += (int64_t)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
		if (entries > GRID_MAX_ENTRIES(triangle_count)) {
			return weft_fail(WEFT_ERROR_TOO_LARGE, "mesh grid: more than %lld cell entries",
			                 (long long)GRID_MAX_ENTRIES(triangle_count));
		}
	}
	grid->entry_count = (int32_t)entries;
	grid->cell_start = weft_alloc(allocator, sizeof(uint32_t) * ((size_t)cells + 1));
	grid->cell_triangles = weft_alloc(allocator, sizeof(uint32_t) * (size_t)(entries > 0 ? entries : 1));
	if (grid->cell_start == NULL || grid->cell_triangles == NULL) {
		weft_triangle_grid_destroy(grid, allocator);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh grid: out of memory");
	}
	memset(grid->cell_start, 0, sizeof(uint32_t) * ((size_t)cells + 1));
	// Counting sort: count per cell, prefix sum, fill (cell_start[c] runs as the write cursor).
	list_triangles(grid, vertices, indices, triangle_count, false);
	for (int64_t c = 0; c < cells; c++) {
		grid->cell_start[c + 1] += grid->cell_start[c];
	}
	list_triangles(grid, vertices, indices, triangle_count, true); // shifts cell_start by one cell
	for (int64_t c = cells; c > 0; c--) {
		grid->cell_start[c] = grid->cell_start[c - 1];
	}
	grid->cell_start[0] = 0;
	return WEFT_OK;
}

void weft_triangle_grid_destroy(weft_triangle_grid* grid, const weft_allocator* allocator) {
	weft_free(allocator, grid->cell_start);
	weft_free(allocator, grid->cell_triangles);
	grid->cell_start = NULL;
	grid->cell_triangles = NULL;
}

// Empty cells reachable from the border through empty cells (face neighbours) are outside; the
// other empty cells are enclosed, so inside a closed mesh (an open mesh has no inside).
weft_result weft_triangle_grid_classify(const weft_triangle_grid* grid, bool closed, const weft_allocator* allocator,
                                        uint8_t** out_flags) {
	int32_t cells = grid->cell_count;
	uint8_t* flags = weft_alloc(allocator, (size_t)cells);
	int32_t* stack = weft_alloc(allocator, sizeof(int32_t) * (size_t)cells);
	*out_flags = NULL;
	if (flags == NULL || stack == NULL) {
		weft_free(allocator, flags);
		weft_free(allocator, stack);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "mesh collider: out of memory");
	}
	const uint8_t unvisited = 255;
	for (int32_t c = 0; c < cells; c++) {
		bool empty = grid->cell_start[c] == grid->cell_start[c + 1];
		flags[c] = empty ? (closed ? unvisited : WEFT_CELL_OUTSIDE) : WEFT_CELL_SURFACE;
	}
	int32_t top = 0;
	const int32_t nx = grid->dims[0], ny = grid->dims[1], nz = grid->dims[2];
	for (int32_t c = 0; c < cells; c++) {
		int32_t x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
		bool border = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
		if (border && flags[c] == unvisited) {
			flags[c] = WEFT_CELL_OUTSIDE;
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
			if (flags[n] == unvisited) {
				flags[n] = WEFT_CELL_OUTSIDE;
				stack[top++] = n;
			}
		}
	}
	for (int32_t c = 0; c < cells; c++) {
		if (flags[c] == unvisited) flags[c] = WEFT_CELL_INSIDE;
	}
	// Outside cells without any surface cell around them are far from the mesh.
	for (int32_t c = 0; c < cells; c++) {
		if (flags[c] != WEFT_CELL_OUTSIDE) continue;
		int32_t x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
		bool near = false;
		for (int32_t dz = -1; dz <= 1 && !near; dz++)
			for (int32_t dy = -1; dy <= 1 && !near; dy++)
				for (int32_t dx = -1; dx <= 1 && !near; dx++) {
					int32_t a = x + dx, b = y + dy, d = z + dz;
					if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nz) continue;
					near = flags[a + nx * (b + ny * d)] == WEFT_CELL_SURFACE;
				}
		if (!near) flags[c] = WEFT_CELL_FAR;
	}
	weft_free(allocator, stack);
	*out_flags = flags;
	return WEFT_OK;
}
