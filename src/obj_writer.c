// Wavefront OBJ text of the cloth and of the colliders (weft.h: weft_obj_write_cloth,
// weft_obj_write_colliders), through a byte sink: files for the CLI, wasm memory for the page.
// Lines are formatted into a buffer and handed to the sink a buffer at a time, front to back.
#include <stdarg.h>
#include <stdio.h>

#include "world_internal.h"

// Room kept free for one line: the longest is a vertex of three %.6f floats (≤ 47 characters each).
#define LINE_ROOM 256

typedef struct obj_text {
	weft_byte_sink sink;
	uint64_t written; // bytes handed to the sink
	size_t used;      // bytes waiting in the buffer
	bool failed;
	char buffer[16384];
} obj_text;

static void text_flush(obj_text* t) {
	if (t->used > 0 && !t->failed) {
		t->failed = !t->sink.write(t->sink.context, t->written, t->buffer, t->used);
	}
	t->written += t->used;
	t->used = 0;
}

static void text_line(obj_text* t, const char* format, ...) {
	if (sizeof t->buffer - t->used < LINE_ROOM) {
		text_flush(t);
	}
	va_list args;
	va_start(args, format);
	const int n = vsnprintf(t->buffer + t->used, sizeof t->buffer - t->used, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= sizeof t->buffer - t->used) {
		t->failed = true; // a line longer than the buffer: not one this file writes
		return;
	}
	t->used += (size_t)n;
}

// The buffer (16 KiB: from the world's allocator, off the stack, which is small in wasm).
static obj_text* text_begin(const weft_world* world, weft_byte_sink sink) {
	obj_text* t = weft_alloc(&world->allocator, sizeof *t);
	if (t != NULL) {
		t->sink = sink;
		t->written = 0;
		t->used = 0;
		t->failed = false;
	}
	return t;
}

static weft_result text_finish(const weft_world* world, obj_text* t, uint64_t* out_size) {
	text_flush(t);
	if (out_size != NULL) {
		*out_size = t->written;
	}
	const bool failed = t->failed;
	weft_free(&world->allocator, t);
	return failed ? weft_fail(WEFT_ERROR_IO, "the OBJ text could not be written") : WEFT_OK;
}

// The core's unit sphere at c with radius r, its vertices numbered after `base`.
static int32_t sphere_lines(obj_text* t, weft_vec3 c, float r, int32_t base) {
	float positions[3 * WEFT_UNIT_SPHERE_VERTICES];
	uint32_t indices[3 * WEFT_UNIT_SPHERE_TRIANGLES];
	weft_unit_sphere(positions, indices);
	for (int v = 0; v < WEFT_UNIT_SPHERE_VERTICES; ++v) {
		const float* p = &positions[3 * v];
		text_line(t, "v %.6f %.6f %.6f\n", c.x + r * p[0], c.y + r * p[1], c.z + r * p[2]);
	}
	for (int k = 0; k < WEFT_UNIT_SPHERE_TRIANGLES; ++k) {
		const uint32_t* tri = &indices[3 * k];
		text_line(t, "f %d %d %d\n", base + (int)tri[0] + 1, base + (int)tri[1] + 1, base + (int)tri[2] + 1);
	}
	return WEFT_UNIT_SPHERE_VERTICES;
}

weft_result weft_obj_write_cloth(weft_world* world, weft_byte_sink sink, uint64_t* out_size) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world or sink is NULL");
	}
	return weft_obj_write_cloth_at(world, weft_world_frame(world), weft_world_time(world), sink, out_size);
}

weft_result weft_obj_write_cloth_at(weft_world* world, int64_t frame, double time, weft_byte_sink sink,
                                    uint64_t* out_size) {
	if (world == NULL || sink.write == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world or sink is NULL");
	}
	if (frame < 0 || !(time >= 0.0 && time <= 1e15)) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "frame must be at least 0 and time a finite number of seconds, at least 0");
	}
	obj_text* t = text_begin(world, sink);
	if (t == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the OBJ text's buffer");
	}
	weft_world_update_render_data(world);
	const int32_t n = weft_world_particle_count(world);
	const float* x = weft_world_positions(world);
	const float* uv = weft_world_uvs(world);
	const float* normal = weft_world_normals(world);
	const uint32_t* indices = weft_world_indices(world);
	text_line(t, "# weft cloth, frame %lld, t = %.4f s\no cloth\n", (long long)frame, time);
	for (int32_t p = 0; p < n; ++p) text_line(t, "v %.6f %.6f %.6f\n", x[4 * p], x[4 * p + 1], x[4 * p + 2]);
	for (int32_t p = 0; p < n; ++p) text_line(t, "vt %.6f %.6f\n", uv[2 * p], 1.0f - uv[2 * p + 1]);
	for (int32_t p = 0; p < n; ++p) {
		text_line(t, "vn %.5f %.5f %.5f\n", normal[4 * p], normal[4 * p + 1], normal[4 * p + 2]);
	}
	for (int32_t k = 0; k < weft_world_index_count(world); k += 3) {
		unsigned a = indices[k] + 1, b = indices[k + 1] + 1, c = indices[k + 2] + 1;
		text_line(t, "f %u/%u/%u %u/%u/%u %u/%u/%u\n", a, a, a, b, b, b, c, c, c);
	}
	return text_finish(world, t, out_size);
}

weft_result weft_obj_write_colliders(const weft_world* world, weft_byte_sink sink, uint64_t* out_size) {
	if (world == NULL || sink.write == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world or sink is NULL");
	}
	obj_text* t = text_begin(world, sink);
	if (t == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the OBJ text's buffer");
	}
	text_line(t, "# weft colliders as simulated, world space\n");
	int32_t base = 0;
	const weft_world_def def = weft_world_get_def(world);
	if (def.ground_enabled) {
		const float h = def.ground_height, s = 10.0f;
		text_line(t, "o ground\nv %g %g %g\nv %g %g %g\nv %g %g %g\nv %g %g %g\nf 1 3 2\nf 1 4 3\n", -s, h, -s, s, h,
		          -s, s, h, s, -s, h, s);
		base += 4;
	}
	for (int32_t k = 0; k < weft_world_sphere_count(world); ++k) {
		weft_vec3 center;
		float radius;
		weft_world_get_sphere(world, (weft_sphere_id){k}, &center, &radius, NULL);
		text_line(t, "o sphere%d\n", (int)k);
		base += sphere_lines(t, center, radius, base);
	}
	weft_mesh_collider_view mesh;
	if (weft_world_mesh_collider(world, &mesh) == WEFT_OK) {
		text_line(t, "o mesh\n");
		for (int32_t v = 0; v < mesh.vertex_count; ++v) {
			const float* p = mesh.vertices + 4 * v;
			text_line(t, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
		}
		for (int32_t k = 0; k < mesh.triangle_count; ++k) {
			const uint32_t* tri = mesh.indices + 3 * k;
			text_line(t, "f %d %d %d\n", base + (int)tri[0] + 1, base + (int)tri[1] + 1, base + (int)tri[2] + 1);
		}
	}
	return text_finish(world, t, out_size);
}
