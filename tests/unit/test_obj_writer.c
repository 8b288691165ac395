// OBJ writer (src/obj_writer.c): the cloth's and the colliders' text read back by the core's own
// OBJ reader (the same vertices, triangles, texture coordinates and normals), a sink that refuses
// a write, and bad arguments.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

typedef struct text {
	char* data;
	size_t size, capacity;
	int64_t refuse_after; // a write that would end past this many bytes fails (-1: never)
	bool in_order;        // every write came at the end of the text so far
} text;

static bool text_write(void* context, uint64_t offset, const void* data, size_t size) {
	text* t = context;
	t->in_order &= offset == t->size;
	if (t->refuse_after >= 0 && (int64_t)(offset + size) > t->refuse_after) return false;
	if (offset + size > t->capacity) {
		t->capacity = 2 * (offset + size);
		t->data = realloc(t->data, t->capacity);
	}
	memcpy(t->data + offset, data, size);
	t->size = offset + size;
	return true;
}

// The cloth's (or the colliders') text of world, in order, read back by the core's OBJ reader.
static bool written_and_read(weft_world* world, bool cloth, text* t, weft_mesh_data* mesh) {
	const weft_byte_sink sink = {text_write, t, NULL};
	uint64_t size = 0;
	const weft_result written =
	    cloth ? weft_obj_write_cloth(world, sink, &size) : weft_obj_write_colliders(world, sink, &size);
	return written == WEFT_OK && size == t->size && t->in_order &&
	       weft_obj_parse(t->data, t->size, cloth ? "cloth.obj" : "colliders.obj", NULL, mesh) == WEFT_OK;
}

static weft_world* scene_world(const char* name, int32_t grid, int32_t frames) {
	weft_scene_def scene;
	weft_world* world = NULL;
	if (weft_scene(name, grid, &scene) != WEFT_OK || weft_world_create_from_scene(&scene, &world) != WEFT_OK)
		return NULL;
	for (int32_t f = 0; f < frames; ++f) weft_world_step(world, scene.frame_dt);
	return world;
}

TEST(cloth_read_back) {
	weft_world* world = scene_world("sphere", 24, 30);
	CHECK(world != NULL);
	if (world == NULL) return;
	text t = {NULL, 0, 0, -1, true};
	weft_mesh_data mesh;
	CHECK(written_and_read(world, true, &t, &mesh));
	CHECK(t.size > 16384); // more than one buffer's worth: flushed in order
	CHECK(strncmp(t.data, "# weft cloth, frame 30", 22) == 0);
	const int32_t n = weft_world_particle_count(world);
	CHECK(mesh.vertex_count == n && mesh.texcoord_count == n && mesh.normal_count == n);
	CHECK(mesh.triangle_count == weft_world_index_count(world) / 3);
	// The positions as written: 6 decimals (half a unit of the last, 5e-7 m) read into floats (an
	// ulp at these magnitudes, ≤ 2.4e-7 m).
	const float* x = weft_world_positions(world);
	double worst = 0.0;
	for (int32_t p = 0; p < n && mesh.vertex_count == n; ++p) {
		for (int axis = 0; axis < 3; ++axis) {
			const double d = mesh.positions[3 * p + axis] - x[4 * p + axis];
			worst = d > worst ? d : -d > worst ? -d : worst;
		}
	}
	CHECK(worst <= 7.5e-7);
	weft_mesh_data_free(&mesh);
	free(t.data);
	weft_world_destroy(world);
}

TEST(colliders_read_back) {
	weft_world* world = scene_world("bunny", 16, 1);
	CHECK(world != NULL);
	if (world == NULL) return;
	text t = {NULL, 0, 0, -1, true};
	weft_mesh_data mesh;
	CHECK(written_and_read(world, false, &t, &mesh));
	weft_mesh_collider_view bunny;
	CHECK(weft_world_mesh_collider(world, &bunny) == WEFT_OK);
	// The ground quad (4 vertices, 2 triangles) and the bunny; the scene has no sphere.
	CHECK(weft_world_sphere_count(world) == 0);
	CHECK(mesh.vertex_count == 4 + bunny.vertex_count);
	CHECK(mesh.triangle_count == 2 + bunny.triangle_count);
	weft_mesh_data_free(&mesh);
	free(t.data);
	weft_world_destroy(world);
}

TEST(refused_write_and_bad_arguments) {
	weft_world* world = scene_world("hang", 24, 0);
	CHECK(world != NULL);
	if (world == NULL) return;
	text t = {NULL, 0, 0, 20000, true};
	uint64_t size = 0;
	CHECK(weft_obj_write_cloth(world, (weft_byte_sink){text_write, &t, NULL}, &size) == WEFT_ERROR_IO);
	CHECK(strstr(weft_last_error(), "OBJ") != NULL);
	CHECK(weft_obj_write_cloth(NULL, (weft_byte_sink){text_write, &t, NULL}, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_cloth(world, (weft_byte_sink){NULL, &t, NULL}, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_colliders(NULL, (weft_byte_sink){text_write, &t, NULL}, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	free(t.data);
	weft_world_destroy(world);
}

// A solver that runs the cloth elsewhere (the page's GPU solver) names its own frame and time; the
// rest of the text is the world's, byte for byte.
TEST(frame_and_time_given) {
	weft_world* world = scene_world("hang", 16, 3);
	CHECK(world != NULL);
	if (world == NULL) return;
	text own = {NULL, 0, 0, -1, true}, given = {NULL, 0, 0, -1, true};
	CHECK(weft_obj_write_cloth(world, (weft_byte_sink){text_write, &own, NULL}, NULL) == WEFT_OK);
	CHECK(weft_obj_write_cloth_at(world, 1234, 20.5667, (weft_byte_sink){text_write, &given, NULL}, NULL) == WEFT_OK);
	const char* own_header = "# weft cloth, frame 3, t = 0.0500 s\n";
	const char* given_header = "# weft cloth, frame 1234, t = 20.5667 s\n";
	CHECK(own.size > strlen(own_header) && strncmp(own.data, own_header, strlen(own_header)) == 0);
	CHECK(given.size > strlen(given_header) && strncmp(given.data, given_header, strlen(given_header)) == 0);
	CHECK(own.size - strlen(own_header) == given.size - strlen(given_header) &&
	      memcmp(own.data + strlen(own_header), given.data + strlen(given_header), own.size - strlen(own_header)) == 0);
	const weft_byte_sink sink = {text_write, &given, NULL};
	CHECK(weft_obj_write_cloth_at(world, -1, 0.0, sink, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_cloth_at(world, 0, -0.5, sink, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_cloth_at(world, 0, NAN, sink, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_cloth_at(world, 0, INFINITY, sink, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_write_cloth_at(NULL, 0, 0.0, sink, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	free(own.data);
	free(given.data);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(cloth_read_back);
	RUN_TEST(colliders_read_back);
	RUN_TEST(refused_write_and_bad_arguments);
	RUN_TEST(frame_and_time_given);
	return TEST_SUMMARY();
}
