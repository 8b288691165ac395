// libFuzzer target: the OBJ reader, and the mesh collider built from whatever it accepts.
// Invariants: a parse either fails with "fuzz.obj:LINE: reason" or yields indices in range; a
// collider built from it (fitted or not), its orientation included, and one step of a small cloth
// stay finite-safe (no crash, no out-of-bounds access: ASan/UBSan watch), never hang; a closed
// collider walks every edge once each way and encloses a non-negative volume (outward).
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

// The orientation's promise on a built collider: closed means every edge is shared by exactly two
// triangles walking it in opposite directions, and the enclosed signed volume is not negative.
static void check_orientation(const weft_world* world) {
	weft_mesh_collider_view view;
	if (weft_world_mesh_collider(world, &view) != WEFT_OK) abort();
	if (!view.closed) return;
	const float* v = view.vertices;
	const uint32_t* t = view.indices;
	double volume = 0.0, extent = 0.0;
	for (int32_t k = 0; k < view.triangle_count; k++) {
		double p[3][3];
		for (int c = 0; c < 3; c++)
			for (int axis = 0; axis < 3; axis++) {
				p[c][axis] = (double)v[4 * t[3 * k + c] + axis] - (double)v[axis];
				extent = p[c][axis] > extent ? p[c][axis] : (-p[c][axis] > extent ? -p[c][axis] : extent);
			}
		volume += p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
		          p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) + p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
		// Each directed edge a → b appears once; its reverse b → a once too (checked by count).
		for (int e = 0; e < 3; e++) {
			uint32_t a = t[3 * k + e], b = t[3 * k + (e + 1) % 3];
			int forward = 0, backward = 0;
			for (int32_t j = 0; j < view.triangle_count; j++)
				for (int f = 0; f < 3; f++) {
					uint32_t x = t[3 * j + f], y = t[3 * j + (f + 1) % 3];
					forward += x == a && y == b;
					backward += x == b && y == a;
				}
			if (forward != 1 || backward != 1) abort();
		}
	}
	if (volume < -1e-5 * extent * extent * extent) abort();
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
			check_orientation(world);
			weft_world_step(world, 1.0f / 60.0f);
			weft_world_remove_mesh_collider(world);
		}
	}
	weft_mesh_data_free(&mesh);
	return 0;
}
