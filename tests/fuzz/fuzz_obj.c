// libFuzzer target: the OBJ reader, and the mesh collider built from whatever it accepts.
// Invariants: a parse either fails with "fuzz.obj:LINE: reason" or yields indices in range; a
// collider built from it (fitted or not) and one step of a small cloth stay finite-safe (no
// crash, no out-of-bounds access: ASan/UBSan watch), never hang.
// Build and run: make test-fuzz (the CMake preset `fuzz`, run by mk/mesh.mk).
#include <stdlib.h>
#include <string.h>

#include "weft/weft.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static weft_world* small_world(void) {
	static weft_world* world = NULL;
	if (world == NULL) {
		weft_world_def def = weft_default_world_def();
		weft_cloth_def cloth = weft_default_cloth_def();
		cloth.width = 4;
		cloth.height = 4;
		cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
		cloth.pin = WEFT_PIN_NONE;
		def.substeps = 2;
		if (weft_world_create(&def, &cloth, &world) != WEFT_OK) {
			abort();
		}
	}
	return world;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
	weft_mesh_data mesh;
	weft_result result = weft_obj_parse((const char*)data, size, "fuzz.obj", NULL, &mesh);
	if (result != WEFT_OK) {
		if (result != WEFT_ERROR_PARSE && result != WEFT_ERROR_OUT_OF_MEMORY) abort();
		if (strncmp(weft_last_error(), "fuzz.obj:", 9) != 0) abort();
		if (mesh.positions != NULL || mesh.indices != NULL || mesh.triangle_count != 0) abort();
		return 0;
	}
	if (mesh.triangle_count <= 0 || mesh.vertex_count <= 0) abort();
	for (int64_t i = 0; i < 3 * (int64_t)mesh.triangle_count; i++) {
		if (mesh.indices[i] >= (uint32_t)mesh.vertex_count) abort();
	}
	if (mesh.triangle_count <= 256) {
		weft_world* world = small_world();
		weft_world_reset(world);
		bool fit = size & 1;
		if (weft_world_set_mesh_collider(world, mesh.positions, mesh.vertex_count, mesh.indices, mesh.triangle_count,
		                                 fit) == WEFT_OK) {
			weft_world_step(world, 1.0f / 60.0f);
			weft_world_remove_mesh_collider(world);
		}
	}
	weft_mesh_data_free(&mesh);
	return 0;
}
