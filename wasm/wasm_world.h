// Shared by the boundary's files (wasm/*.c): the export macro and the handle JS holds.
#ifndef WEFT_WASM_WORLD_H
#define WEFT_WASM_WORLD_H

#include "weft/weft.h"

// Exported under `name`; everything else stays hidden (-fvisibility=hidden).
#define WASM_EXPORT(name) __attribute__((export_name(#name), visibility("default")))

typedef struct wasm_world {
	weft_world* world;
	weft_scene_def scene;       // the definition it was built from (its frame time)
	float out[16];              // small results (sphere centre, ray hit) read by JS after a call
	uint32_t* render_adjacency; // weft_world_render_adjacency, built once with the handle
	int32_t render_adjacency_words, render_strain_base;
	float* air_forces; // weft_world_air_forces, made on first use (tests)
} wasm_world;

// Wraps a world built from `scene` in a handle (destroys the world if that fails). 0 on failure.
wasm_world* wasm_world_adopt(weft_world* world, const weft_scene_def* scene);
// The named scene (string buffer) with a mesh as its only collider besides the ground
// (wasm/weft_wasm_gltf.c; the OBJ path uses it too). 0 on failure.
wasm_world* wasm_world_create_scene_mesh(int32_t grid, const float* positions, int32_t vertex_count,
                                         const uint32_t* indices, int32_t triangle_count);
// The scene name JS wrote into the string buffer before the call (0-terminated here).
const char* wasm_scene_name_argument(void);

#endif
