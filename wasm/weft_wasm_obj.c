// A user's OBJ file as the collider (the page's drag-and-drop and window.weft.loadObj).
//
// The file's bytes cross the boundary once: JS asks for a buffer here (obj_alloc), copies the file
// into it, and world_create_scene_obj parses it in place with the core's reader. The scene is built
// anew without its own colliders (spheres, built-in mesh; the ground stays: it is the floor) and the
// user's mesh, fitted under the cloth, takes their place. A fresh world rather than a swap in the
// running one: if anything fails the page still has its old world untouched, and the cloth starts
// from rest above the new mesh.
#include <stdint.h>
#include <stdlib.h>

#include "wasm_world.h"

// The file's name, for the reader's "name:line: why" messages; JS writes it (0-terminated).
static char name_buffer[128];

WASM_EXPORT(obj_name_buffer) char* wasm_obj_name_buffer(void) { return name_buffer; }
WASM_EXPORT(obj_name_buffer_size) int32_t wasm_obj_name_buffer_size(void) { return (int32_t)sizeof name_buffer; }

// A buffer of size bytes for the file (at least 1, so an empty file still gets a real address).
// 0 when memory cannot grow that far.
WASM_EXPORT(obj_alloc) void* wasm_obj_alloc(int32_t size) {
	return size < 0 ? NULL : malloc(size > 0 ? (size_t)size : 1);
}
WASM_EXPORT(obj_free) void wasm_obj_free(void* data) { free(data); }

// The named scene (string buffer) at grid × grid with the OBJ in data[0..size) as its only collider
// besides the ground. 0 on failure; last_error() then names the line and the reason. Does not free data.
WASM_EXPORT(world_create_scene_obj)
wasm_world* wasm_world_create_scene_obj(int32_t grid, const char* data, int32_t size) {
	name_buffer[sizeof name_buffer - 1] = '\0';
	if (size < 0) return NULL;
	weft_mesh_data mesh;
	if (weft_obj_parse(data, (size_t)size, name_buffer[0] ? name_buffer : NULL, NULL, &mesh) != WEFT_OK) return NULL;

	wasm_world* handle =
	    wasm_world_create_scene_mesh(grid, mesh.positions, mesh.vertex_count, mesh.indices, mesh.triangle_count);
	weft_mesh_data_free(&mesh);
	return handle;
}
