// Boundary exports of the static mesh collider (the bunny, a user OBJ): what the page draws and
// what the GPU solver uploads.
// All counts are 0 and all pointers 0 when the world has no mesh collider. Arrays as documented
// on weft_mesh_collider_view: float4 strides, cells indexed x + dims[0] * (y + dims[1] * z).
#include <stdint.h>
#include <string.h>

#include "wasm_world.h"

static weft_mesh_collider_view mesh_view(const wasm_world* h) {
	weft_mesh_collider_view view;
	memset(&view, 0, sizeof view);
	if (weft_world_mesh_collider(h->world, &view) != WEFT_OK) memset(&view, 0, sizeof view);
	return view;
}

WASM_EXPORT(world_mesh_vertex_count) int32_t wasm_world_mesh_vertex_count(const wasm_world* h) {
	return mesh_view(h).vertex_count;
}
WASM_EXPORT(world_mesh_triangle_count) int32_t wasm_world_mesh_triangle_count(const wasm_world* h) {
	return mesh_view(h).triangle_count;
}
WASM_EXPORT(world_mesh_sphere_count) int32_t wasm_world_mesh_sphere_count(const wasm_world* h) {
	return mesh_view(h).sphere_count;
}
WASM_EXPORT(world_mesh_cell_count) int32_t wasm_world_mesh_cell_count(const wasm_world* h) {
	return mesh_view(h).cell_count;
}
WASM_EXPORT(world_mesh_cell_entry_count) int32_t wasm_world_mesh_cell_entry_count(const wasm_world* h) {
	return mesh_view(h).cell_entry_count;
}
WASM_EXPORT(world_mesh_closed) int32_t wasm_world_mesh_closed(const wasm_world* h) {
	return mesh_view(h).closed ? 1 : 0;
}
WASM_EXPORT(world_mesh_vertices_ptr) const float* wasm_world_mesh_vertices_ptr(const wasm_world* h) {
	return mesh_view(h).vertices;
}
WASM_EXPORT(world_mesh_vertex_normals_ptr) const float* wasm_world_mesh_vertex_normals_ptr(const wasm_world* h) {
	return mesh_view(h).vertex_normals;
}
WASM_EXPORT(world_mesh_indices_ptr) const uint32_t* wasm_world_mesh_indices_ptr(const wasm_world* h) {
	return mesh_view(h).indices;
}
WASM_EXPORT(world_mesh_face_normals_ptr) const float* wasm_world_mesh_face_normals_ptr(const wasm_world* h) {
	return mesh_view(h).face_normals;
}
WASM_EXPORT(world_mesh_edge_normals_ptr) const float* wasm_world_mesh_edge_normals_ptr(const wasm_world* h) {
	return mesh_view(h).edge_normals;
}
WASM_EXPORT(world_mesh_triangle_spheres_ptr) const float* wasm_world_mesh_triangle_spheres_ptr(const wasm_world* h) {
	return mesh_view(h).triangle_spheres;
}
WASM_EXPORT(world_mesh_spheres_ptr) const float* wasm_world_mesh_spheres_ptr(const wasm_world* h) {
	return mesh_view(h).spheres;
}
WASM_EXPORT(world_mesh_cell_start_ptr) const uint32_t* wasm_world_mesh_cell_start_ptr(const wasm_world* h) {
	return mesh_view(h).cell_start;
}
WASM_EXPORT(world_mesh_cell_triangles_ptr) const uint32_t* wasm_world_mesh_cell_triangles_ptr(const wasm_world* h) {
	return mesh_view(h).cell_triangles;
}
WASM_EXPORT(world_mesh_cell_flags_ptr) const uint8_t* wasm_world_mesh_cell_flags_ptr(const wasm_world* h) {
	return mesh_view(h).cell_flags;
}
// out[0..2] grid origin (m), out[3] cell size (m), out[4..6] grid dims (as floats, exact below 2^24).
WASM_EXPORT(world_mesh_grid) float* wasm_world_mesh_grid(wasm_world* h) {
	weft_mesh_collider_view view = mesh_view(h);
	for (int k = 0; k < 3; ++k) {
		h->out[k] = view.grid_origin[k];
		h->out[4 + k] = (float)view.grid_dims[k];
	}
	h->out[3] = view.cell_size;
	return h->out;
}

// Ridge lifts on or off (weft_world_set_mesh_ridge_lifts; the GPU solver has none). 0 or an error code;
// world_mesh_ridge_lifts: 1 when on.
WASM_EXPORT(world_set_mesh_ridge_lifts) int32_t wasm_world_set_mesh_ridge_lifts(wasm_world* h, int32_t on) {
	return weft_world_set_mesh_ridge_lifts(h->world, on != 0);
}
WASM_EXPORT(world_mesh_ridge_lifts) int32_t wasm_world_mesh_ridge_lifts(const wasm_world* h) {
	return weft_world_mesh_ridge_lifts(h->world) ? 1 : 0;
}
