// glTF on the page: recording the running world into a .glb (the core's writer, src/gltf_writer.c,
// over a growable buffer in linear memory), and a glTF's triangles as the collider.
//
// A recording keeps its file in one buffer that grows as frames come (wasm_buffer.h; the frames live
// once, in the file's own layout); JS reads the finished bytes through gltf_record_bytes/size.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_buffer.h"
#include "wasm_world.h"

typedef struct wasm_recording {
	weft_gltf_writer* writer;
	wasm_buffer file;
	uint64_t file_size; // set by finish
} wasm_recording;

// Starts recording the world h (its current state is the base pose) for at most `capacity` frames
// of its scene's frame time; cloth/colliders 1 or 0. 0 on failure (last_error says why).
WASM_EXPORT(gltf_record_begin)
wasm_recording* wasm_gltf_record_begin(wasm_world* h, int32_t capacity, int32_t cloth, int32_t colliders) {
	wasm_recording* r = calloc(1, sizeof *r);
	if (!r) return NULL;
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = capacity;
	def.frame_dt = h->scene.frame_dt;
	def.cloth = cloth != 0;
	def.colliders = colliders != 0;
	if (weft_gltf_writer_begin(h->world, &def, wasm_buffer_sink(&r->file), &r->writer) != WEFT_OK) {
		free(r->file.data);
		free(r);
		return NULL;
	}
	return r;
}

// Adds h's current state as the next frame; a weft_result.
WASM_EXPORT(gltf_record_add) int32_t wasm_gltf_record_add(wasm_recording* r, wasm_world* h) {
	return weft_gltf_writer_add_frame(r->writer, h->world);
}
WASM_EXPORT(gltf_record_frames) int32_t wasm_gltf_record_frames(const wasm_recording* r) {
	return weft_gltf_writer_frame_count(r->writer);
}
// Writes the rest of the file; a weft_result. Then gltf_record_bytes/size give the .glb.
WASM_EXPORT(gltf_record_finish) int32_t wasm_gltf_record_finish(wasm_recording* r) {
	return weft_gltf_writer_finish(r->writer, &r->file_size);
}
WASM_EXPORT(gltf_record_bytes) const uint8_t* wasm_gltf_record_bytes(const wasm_recording* r) { return r->file.data; }
WASM_EXPORT(gltf_record_size) uint32_t wasm_gltf_record_size(const wasm_recording* r) { return (uint32_t)r->file_size; }
WASM_EXPORT(gltf_record_destroy) void wasm_gltf_record_destroy(wasm_recording* r) {
	if (!r) return;
	weft_gltf_writer_destroy(r->writer);
	free(r->file.data);
	free(r);
}

// The named scene (string buffer) at grid × grid with a triangle mesh (3 floats per vertex, 3
// indices per triangle, e.g. read from a glTF by the page) as its only collider besides the
// ground, fitted under the cloth as an OBJ is. 0 on failure; last_error() says why. The arrays
// are copied (the caller frees them).
WASM_EXPORT(world_create_scene_mesh)
wasm_world* wasm_world_create_scene_mesh(int32_t grid, const float* positions, int32_t vertex_count,
                                         const uint32_t* indices, int32_t triangle_count) {
	weft_scene_def scene;
	weft_world* world = NULL;
	weft_result result = weft_scene(wasm_scene_name_argument(), grid, &scene);
	if (result == WEFT_OK) result = weft_world_create(&scene.world, &scene.cloth, &world);
	if (result == WEFT_OK)
		result = weft_world_set_mesh_collider(world, positions, vertex_count, indices, triangle_count, true);
	if (result != WEFT_OK) {
		weft_world_destroy(world);
		return NULL;
	}
	scene.sphere_count = 0;
	scene.mesh_collider = NULL;
	return wasm_world_adopt(world, &scene);
}
