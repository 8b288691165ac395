// The binary glTF 2.0 writer (.glb): the cloth as a morph-target animation plus the colliders,
// shared by the CLI (a FILE sink) and the page (a growable buffer in wasm memory).
//
// Layout. The file is header, JSON chunk, BIN chunk. Every array is its own bufferView and accessor,
// in this order inside BIN (all 4-byte components, so every offset is 4-aligned):
//   static  cloth indices, base positions, base normals; ground; unit sphere; mesh collider
//   frames  per added frame: POSITION deltas, NORMAL deltas (from the base pose)
//   tail    keyframe times, morph weights (keys × targets), one translation track per sphere
// The static part does not depend on the frame count, so it is written at begin and each frame
// streams to its place as it comes; the tail and the JSON are written by finish. The JSON's size
// is fixed at begin for frame_capacity frames: every number in it grows with the frame count or is
// known at begin, except min/max, which are printed at a fixed width. Fewer frames give a shorter
// JSON, padded with spaces (JSON whitespace) to the reserved size.
// The cloth has no texture coordinates: no material of the file samples a texture, so a TEXCOORD_0
// would be an attribute nothing uses (the glTF validator says so).
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "world_internal.h"

_Static_assert(sizeof(float) == 4 && sizeof(uint32_t) == 4, "glTF components are 4 bytes");

#define GLB_HEADER_BYTES 12
#define GLB_CHUNK_HEADER_BYTES 8
#define GLB_MAX_BYTES UINT32_MAX
#define GROUND_HALF_SIZE 10.0f
#define SPHERE_VERTICES WEFT_UNIT_SPHERE_VERTICES
#define SPHERE_INDICES (3 * WEFT_UNIT_SPHERE_TRIANGLES)

enum { GL_FLOAT = 5126, GL_UNSIGNED_INT = 5125, GL_ARRAY_BUFFER = 34962, GL_ELEMENT_ARRAY_BUFFER = 34963 };

typedef struct gltf_block {
	uint64_t offset; // in the BIN chunk
	uint64_t length;
	int32_t count;
	int32_t components; // 1 (SCALAR), 2, 3
	int32_t component_type;
	int32_t target; // 0: none
	bool min_max;
	float min[3], max[3];
} gltf_block;

// Where each array went (block indices; -1 when absent).
typedef struct gltf_layout {
	gltf_block* blocks;
	int32_t count;
	int32_t cloth_indices, cloth_positions, cloth_normals;
	int32_t ground_positions, ground_normals, ground_indices;
	int32_t sphere_positions, sphere_normals, sphere_indices;
	int32_t mesh_positions, mesh_indices;
	int32_t first_frame; // frame k: first_frame + 2k (positions), + 1 (normals)
	int32_t times, weights, first_translation;
	uint64_t static_bytes, frame_bytes, bin_bytes;
} gltf_layout;

struct weft_gltf_writer {
	weft_allocator allocator;
	weft_byte_sink sink;
	weft_gltf_def def;
	int32_t vertex_count, index_count, sphere_count, mesh_vertex_count, mesh_triangle_count;
	bool ground;
	float ground_height;
	int32_t frame_count;
	int64_t base_frame, last_frame;
	float* base;          // 6 floats per vertex: position, unit normal
	float* scratch;       // 6 floats per vertex: one frame's deltas
	float* frame_min_max; // 12 floats per frame: position delta min, max; unused normal slots
	float* times;         // frame_capacity + 1
	float* translations;  // (frame_capacity + 1) × spheres × 3
	float radii[WEFT_MAX_SPHERES];
	float bounds[4][6]; // min/max of the base cloth, ground, sphere, mesh positions
	gltf_block* blocks;
	int32_t block_capacity;
	uint64_t json_reserved;
	bool finished, failed;
};

weft_gltf_def weft_default_gltf_def(void) {
	weft_gltf_def def;
	memset(&def, 0, sizeof def);
	def.frame_capacity = 600;
	def.frame_dt = 1.0f / 60.0f;
	def.cloth = true;
	def.colliders = true;
	return def;
}

// ---- layout --------------------------------------------------------------------------------

static int32_t add_block(gltf_layout* layout, uint64_t* offset, int32_t count, int32_t components,
                         int32_t component_type, int32_t target, const float* min_max) {
	gltf_block* block = &layout->blocks[layout->count];
	memset(block, 0, sizeof *block);
	block->offset = *offset;
	block->count = count;
	block->components = components;
	block->component_type = component_type;
	block->target = target;
	block->length = (uint64_t)count * (uint64_t)components * 4u;
	if (min_max != NULL) {
		block->min_max = true;
		memcpy(block->min, min_max, 3 * sizeof(float));
		memcpy(block->max, min_max + 3, 3 * sizeof(float));
	}
	*offset += block->length;
	return layout->count++;
}

static bool animated(const weft_gltf_writer* w, int32_t frames) {
	return (w->def.cloth && frames > 0) || w->sphere_count > 0;
}

// The layout of a file with `frames` frames (blocks: room for 16 + 2 frames + spheres).
static void layout_build(const weft_gltf_writer* w, int32_t frames, gltf_layout* layout) {
	gltf_block* blocks = layout->blocks;
	memset(layout, 0, sizeof *layout);
	layout->blocks = blocks;
	layout->cloth_indices = layout->cloth_positions = layout->cloth_normals = -1;
	layout->ground_positions = layout->ground_normals = layout->ground_indices = -1;
	layout->sphere_positions = layout->sphere_normals = layout->sphere_indices = -1;
	layout->mesh_positions = layout->mesh_indices = layout->first_frame = -1;
	layout->times = layout->weights = layout->first_translation = -1;
	uint64_t offset = 0;
	const int32_t v = w->vertex_count;
	if (w->def.cloth) {
		layout->cloth_indices =
		    add_block(layout, &offset, w->index_count, 1, GL_UNSIGNED_INT, GL_ELEMENT_ARRAY_BUFFER, NULL);
		layout->cloth_positions = add_block(layout, &offset, v, 3, GL_FLOAT, GL_ARRAY_BUFFER, w->bounds[0]);
		layout->cloth_normals = add_block(layout, &offset, v, 3, GL_FLOAT, GL_ARRAY_BUFFER, NULL);
	}
	if (w->ground) {
		layout->ground_positions = add_block(layout, &offset, 4, 3, GL_FLOAT, GL_ARRAY_BUFFER, w->bounds[1]);
		layout->ground_normals = add_block(layout, &offset, 4, 3, GL_FLOAT, GL_ARRAY_BUFFER, NULL);
		layout->ground_indices = add_block(layout, &offset, 6, 1, GL_UNSIGNED_INT, GL_ELEMENT_ARRAY_BUFFER, NULL);
	}
	if (w->sphere_count > 0) {
		layout->sphere_positions =
		    add_block(layout, &offset, SPHERE_VERTICES, 3, GL_FLOAT, GL_ARRAY_BUFFER, w->bounds[2]);
		layout->sphere_normals = add_block(layout, &offset, SPHERE_VERTICES, 3, GL_FLOAT, GL_ARRAY_BUFFER, NULL);
		layout->sphere_indices =
		    add_block(layout, &offset, SPHERE_INDICES, 1, GL_UNSIGNED_INT, GL_ELEMENT_ARRAY_BUFFER, NULL);
	}
	if (w->mesh_vertex_count > 0) {
		layout->mesh_positions =
		    add_block(layout, &offset, w->mesh_vertex_count, 3, GL_FLOAT, GL_ARRAY_BUFFER, w->bounds[3]);
		layout->mesh_indices =
		    add_block(layout, &offset, 3 * w->mesh_triangle_count, 1, GL_UNSIGNED_INT, GL_ELEMENT_ARRAY_BUFFER, NULL);
	}
	layout->static_bytes = offset;
	if (w->def.cloth) {
		layout->frame_bytes = (uint64_t)v * 24u;
		layout->first_frame = layout->count;
		for (int32_t k = 0; k < frames; ++k) {
			add_block(layout, &offset, v, 3, GL_FLOAT, GL_ARRAY_BUFFER, w->frame_min_max + 12 * k);
			add_block(layout, &offset, v, 3, GL_FLOAT, GL_ARRAY_BUFFER, NULL);
		}
	}
	if (animated(w, frames)) {
		float time_range[6] = {0.0f, 0.0f, 0.0f, w->times[frames], 0.0f, 0.0f};
		layout->times = add_block(layout, &offset, frames + 1, 1, GL_FLOAT, 0, time_range);
		if (w->def.cloth && frames > 0) {
			layout->weights = add_block(layout, &offset, (frames + 1) * frames, 1, GL_FLOAT, 0, NULL);
		}
		layout->first_translation = layout->count;
		for (int32_t s = 0; s < w->sphere_count; ++s) add_block(layout, &offset, frames + 1, 3, GL_FLOAT, 0, NULL);
	}
	layout->bin_bytes = offset;
}

// ---- JSON -----------------------------------------------------------------------------------

typedef struct emitter {
	char* data; // NULL: only measure
	uint64_t size, capacity;
} emitter;

static void emit(emitter* e, const char* format, ...) {
	va_list args, again;
	va_start(args, format);
	va_copy(again, args);
	int n = vsnprintf(NULL, 0, format, args);
	if (n > 0 && e->data != NULL && e->size + (uint64_t)n + 1 <= e->capacity + 1) {
		// vsnprintf writes a terminating NUL: print into a bounded temporary when at the very end.
		char tail[512];
		if (e->size + (uint64_t)n + 1 <= e->capacity) {
			vsnprintf(e->data + e->size, (size_t)n + 1, format, again);
		} else if ((size_t)n < sizeof tail) {
			vsnprintf(tail, sizeof tail, format, again);
			memcpy(e->data + e->size, tail, (size_t)n);
		}
	}
	va_end(again);
	va_end(args);
	if (n > 0) e->size += (uint64_t)n;
}

// The exact float, at a fixed width (so the JSON's size does not depend on the values).
static void emit_floats(emitter* e, const float* values, int32_t count) {
	emit(e, "[");
	for (int32_t k = 0; k < count; ++k) emit(e, "%s%24.16e", k ? "," : "", (double)values[k]);
	emit(e, "]");
}

static void emit_sep(emitter* e, bool* first) {
	if (!*first) emit(e, ",");
	*first = false;
}

static void emit_json(const weft_gltf_writer* w, const gltf_layout* L, int32_t frames, emitter* e) {
	static const char* const types[] = {"", "SCALAR", "VEC2", "VEC3"};
	emit(e, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"weft\"},\"scene\":0,\"scenes\":[{\"name\":\"weft\","
	        "\"nodes\":[");
	// Nodes, in order: cloth, ground, spheres, mesh; meshes likewise with one unit sphere mesh.
	int32_t nodes = 0, meshes = 0;
	int32_t cloth_node = -1, sphere_node = -1, cloth_mesh = -1, ground_mesh = -1, sphere_mesh = -1, mesh_mesh = -1;
	if (w->def.cloth) cloth_node = nodes++, cloth_mesh = meshes++;
	int32_t ground_node = w->ground ? nodes++ : -1;
	if (w->ground) ground_mesh = meshes++;
	if (w->sphere_count > 0) sphere_node = nodes, nodes += w->sphere_count, sphere_mesh = meshes++;
	int32_t mesh_node = w->mesh_vertex_count > 0 ? nodes++ : -1;
	if (mesh_node >= 0) mesh_mesh = meshes++;
	for (int32_t n = 0; n < nodes; ++n) emit(e, "%s%d", n ? "," : "", (int)n);
	emit(e, "]}],\"nodes\":[");
	bool first = true;
	if (cloth_node >= 0) {
		emit_sep(e, &first);
		emit(e, "{\"name\":\"cloth\",\"mesh\":%d,\"extras\":{\"weft\":\"cloth\"}}", (int)cloth_mesh);
	}
	if (ground_node >= 0) {
		emit_sep(e, &first);
		emit(e, "{\"name\":\"ground\",\"mesh\":%d,\"extras\":{\"weft\":\"ground\"}}", (int)ground_mesh);
	}
	for (int32_t s = 0; s < w->sphere_count; ++s) {
		emit_sep(e, &first);
		float r[3] = {w->radii[s], w->radii[s], w->radii[s]};
		emit(e, "{\"name\":\"sphere%d\",\"mesh\":%d,\"translation\":", (int)s, (int)sphere_mesh);
		emit_floats(e, w->translations + 3 * s, 3);
		emit(e, ",\"scale\":");
		emit_floats(e, r, 3);
		emit(e, ",\"extras\":{\"weft\":\"sphere\"}}");
	}
	if (mesh_node >= 0) {
		emit_sep(e, &first);
		emit(e, "{\"name\":\"collider\",\"mesh\":%d,\"extras\":{\"weft\":\"mesh\"}}", (int)mesh_mesh);
	}
	emit(e, "],\"meshes\":[");
	first = true;
	if (cloth_mesh >= 0) {
		emit_sep(e, &first);
		emit(e,
		     "{\"name\":\"cloth\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d},\"indices\":%d,"
		     "\"material\":0",
		     (int)L->cloth_positions, (int)L->cloth_normals, (int)L->cloth_indices);
		if (frames > 0) {
			emit(e, ",\"targets\":[");
			for (int32_t k = 0; k < frames; ++k) {
				emit(e, "%s{\"POSITION\":%d,\"NORMAL\":%d}", k ? "," : "", (int)(L->first_frame + 2 * k),
				     (int)(L->first_frame + 2 * k + 1));
			}
			emit(e, "]}],\"weights\":[");
			for (int32_t k = 0; k < frames; ++k) emit(e, "%s0", k ? "," : "");
			emit(e, "]}");
		} else {
			emit(e, "}]}");
		}
	}
	if (ground_mesh >= 0) {
		emit_sep(e, &first);
		emit(e,
		     "{\"name\":\"ground\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d},\"indices\":%d,"
		     "\"material\":1}]}",
		     (int)L->ground_positions, (int)L->ground_normals, (int)L->ground_indices);
	}
	if (sphere_mesh >= 0) {
		emit_sep(e, &first);
		emit(e,
		     "{\"name\":\"sphere\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d},\"indices\":%d,"
		     "\"material\":1}]}",
		     (int)L->sphere_positions, (int)L->sphere_normals, (int)L->sphere_indices);
	}
	if (mesh_mesh >= 0) {
		emit_sep(e, &first);
		emit(e,
		     "{\"name\":\"collider\",\"primitives\":[{\"attributes\":{\"POSITION\":%d},\"indices\":%d,"
		     "\"material\":1}]}",
		     (int)L->mesh_positions, (int)L->mesh_indices);
	}
	emit(e, "],\"materials\":[{\"name\":\"cloth\",\"doubleSided\":true,\"pbrMetallicRoughness\":{\"baseColorFactor\":"
	        "[0.8,0.75,0.65,1],\"metallicFactor\":0,\"roughnessFactor\":0.8}},{\"name\":\"collider\","
	        "\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.55,1],\"metallicFactor\":0,\"roughnessFactor\":"
	        "0.6}}]");
	if (L->times >= 0) {
		emit(e, ",\"animations\":[{\"name\":\"simulation\",\"samplers\":[");
		int32_t samplers = 0;
		if (L->weights >= 0) {
			emit(e, "{\"input\":%d,\"output\":%d,\"interpolation\":\"LINEAR\"}", (int)L->times, (int)L->weights);
			samplers++;
		}
		for (int32_t s = 0; s < w->sphere_count; ++s, ++samplers) {
			emit(e, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"LINEAR\"}", samplers ? "," : "", (int)L->times,
			     (int)(L->first_translation + s));
		}
		emit(e, "],\"channels\":[");
		samplers = 0;
		if (L->weights >= 0) {
			emit(e, "{\"sampler\":0,\"target\":{\"node\":%d,\"path\":\"weights\"}}", (int)cloth_node);
			samplers++;
		}
		for (int32_t s = 0; s < w->sphere_count; ++s, ++samplers) {
			emit(e, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"translation\"}}", samplers ? "," : "",
			     (int)samplers, (int)(sphere_node + s));
		}
		emit(e, "]}]");
	}
	emit(e, ",\"accessors\":[");
	for (int32_t b = 0; b < L->count; ++b) {
		const gltf_block* block = &L->blocks[b];
		emit(e, "%s{\"bufferView\":%d,\"componentType\":%d,\"count\":%d,\"type\":\"%s\"", b ? "," : "", (int)b,
		     (int)block->component_type, (int)block->count, types[block->components]);
		if (block->min_max) {
			emit(e, ",\"min\":");
			emit_floats(e, block->min, block->components);
			emit(e, ",\"max\":");
			emit_floats(e, block->max, block->components);
		}
		emit(e, "}");
	}
	emit(e, "],\"bufferViews\":[");
	for (int32_t b = 0; b < L->count; ++b) {
		const gltf_block* block = &L->blocks[b];
		emit(e, "%s{\"buffer\":0,\"byteOffset\":%" PRIu64 ",\"byteLength\":%" PRIu64, b ? "," : "", block->offset,
		     block->length);
		if (block->target) emit(e, ",\"target\":%d", (int)block->target);
		emit(e, "}");
	}
	emit(e, "],\"buffers\":[{\"byteLength\":%" PRIu64 "}]}", L->bin_bytes);
}

// ---- writing --------------------------------------------------------------------------------

static uint64_t bin_data_offset(const weft_gltf_writer* w) {
	return GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES + w->json_reserved + GLB_CHUNK_HEADER_BYTES;
}

static weft_result sink_write(weft_gltf_writer* w, uint64_t offset, const void* data, size_t size) {
	if (!w->sink.write(w->sink.context, offset, data, size)) {
		w->failed = true;
		return weft_fail(WEFT_ERROR_IO, "glTF: could not write %zu bytes at byte %" PRIu64 " of the .glb", size,
		                 offset);
	}
	return WEFT_OK;
}

static weft_result write_block(weft_gltf_writer* w, const gltf_layout* L, int32_t block, const void* data) {
	return sink_write(w, bin_data_offset(w) + L->blocks[block].offset, data, (size_t)L->blocks[block].length);
}

// count float4s (or float3s, stride 3) as tight float3s, through the scratch.
static weft_result write_vec3s(weft_gltf_writer* w, const gltf_layout* L, int32_t block, const float* values,
                               int32_t stride) {
	const int32_t count = L->blocks[block].count;
	for (int32_t i = 0; i < count; ++i) memcpy(w->scratch + 3 * i, values + stride * i, 3 * sizeof(float));
	return write_block(w, L, block, w->scratch);
}

static void bounds_of(const float* values, int32_t count, int32_t stride, float out[6]) {
	for (int32_t k = 0; k < 3; ++k) out[k] = out[3 + k] = count > 0 ? values[k] : 0.0f;
	for (int32_t i = 1; i < count; ++i) {
		for (int32_t k = 0; k < 3; ++k) {
			out[k] = fminf(out[k], values[stride * i + k]);
			out[3 + k] = fmaxf(out[3 + k], values[stride * i + k]);
		}
	}
}

static void unit_normal(const float* n, float* out) {
	const float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (length > 1e-12f && isfinite(length)) {
		out[0] = n[0] / length, out[1] = n[1] / length, out[2] = n[2] / length;
	} else {
		out[0] = 0.0f, out[1] = 1.0f, out[2] = 0.0f;
	}
}

// Counts and checks, shared by begin and weft_gltf_size (no allocation).
static weft_result writer_shape(const weft_world* world, const weft_gltf_def* def, weft_gltf_writer* w) {
	if (world == NULL || def == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: world and def are needed");
	if (def->frame_capacity < 0 || def->frame_capacity > WEFT_GLTF_MAX_FRAMES) {
		return weft_fail(WEFT_ERROR_TOO_LARGE, "glTF: frame_capacity must be in 0..%d (got %d)", WEFT_GLTF_MAX_FRAMES,
		                 (int)def->frame_capacity);
	}
	if (!(def->frame_dt > 0.0f && def->frame_dt <= 1.0f)) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: frame_dt must be in (0, 1] s (got %g)",
		                 (double)def->frame_dt);
	}
	memset(w, 0, sizeof *w);
	w->def = *def;
	w->vertex_count = weft_world_particle_count(world);
	w->index_count = weft_world_index_count(world);
	if (def->colliders) {
		weft_world_def world_def = weft_world_get_def(world);
		w->ground = world_def.ground_enabled;
		w->ground_height = world_def.ground_height;
		w->sphere_count = weft_world_sphere_count(world);
		weft_mesh_collider_view mesh;
		if (weft_world_mesh_collider(world, &mesh) == WEFT_OK) {
			w->mesh_vertex_count = mesh.vertex_count;
			w->mesh_triangle_count = mesh.triangle_count;
		}
	}
	if (!def->cloth && !w->ground && w->sphere_count == 0 && w->mesh_vertex_count == 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: nothing to write (no cloth and no colliders)");
	}
	return WEFT_OK;
}

static uint64_t file_bytes(uint64_t json_bytes, uint64_t bin_bytes) {
	return GLB_HEADER_BYTES + 2 * GLB_CHUNK_HEADER_BYTES + json_bytes + bin_bytes;
}

static uint64_t pad4(uint64_t n) { return (n + 3u) & ~(uint64_t)3u; }

// The JSON's size and the layout for `frames` frames, through w (its arrays may be NULL: a measure).
static weft_result measure(weft_gltf_writer* w, int32_t frames, gltf_block* blocks, float* frame_min_max, float* times,
                           float* translations, uint64_t* out_json, uint64_t* out_bin) {
	w->frame_min_max = frame_min_max;
	w->times = times;
	w->translations = translations;
	gltf_layout layout;
	layout.blocks = blocks;
	layout_build(w, frames, &layout);
	emitter e = {NULL, 0, 0};
	emit_json(w, &layout, frames, &e);
	*out_json = pad4(e.size);
	*out_bin = layout.bin_bytes;
	if (file_bytes(*out_json, *out_bin) > GLB_MAX_BYTES) {
		return weft_fail(WEFT_ERROR_TOO_LARGE,
		                 "glTF: %d frames of %d particles would take %.2f GiB; a .glb holds at most 4 GiB (sample "
		                 "fewer frames)",
		                 (int)frames, (int)w->vertex_count, (double)file_bytes(*out_json, *out_bin) / 1073741824.0);
	}
	return WEFT_OK;
}

static int32_t block_capacity(int32_t frames) { return 16 + 2 * frames + WEFT_MAX_SPHERES; }

weft_result weft_gltf_size(const weft_world* world, const weft_gltf_def* def, int32_t frames, uint64_t* out_size) {
	weft_gltf_writer w;
	weft_result result = writer_shape(world, def, &w);
	if (result != WEFT_OK) return result;
	if (out_size == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: out_size is NULL");
	if (frames < 0 || frames > def->frame_capacity) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: frames must be in 0..%d, the frame_capacity (got %d)",
		                 (int)def->frame_capacity, (int)frames);
	}
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	const int32_t blocks = block_capacity(frames);
	gltf_block* block_array = weft_alloc(&allocator, (size_t)blocks * sizeof(gltf_block));
	float* zeros = weft_alloc(&allocator, ((size_t)frames * 12 + (size_t)(frames + 1) * (3 * WEFT_MAX_SPHERES + 1)) *
	                                          sizeof(float));
	if (block_array == NULL || zeros == NULL) {
		weft_free(&allocator, block_array);
		weft_free(&allocator, zeros);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "glTF: out of memory");
	}
	memset(zeros, 0, ((size_t)frames * 12 + (size_t)(frames + 1) * (3 * WEFT_MAX_SPHERES + 1)) * sizeof(float));
	uint64_t json, bin;
	result = measure(&w, frames, block_array, zeros, zeros + 12 * (size_t)frames,
	                 zeros + 12 * (size_t)frames + (frames + 1), &json, &bin);
	if (result == WEFT_OK) *out_size = file_bytes(json, bin);
	weft_free(&allocator, block_array);
	weft_free(&allocator, zeros);
	return result;
}

static void record_spheres(weft_gltf_writer* w, const weft_world* world, int32_t key) {
	for (int32_t s = 0; s < w->sphere_count; ++s) {
		weft_vec3 center;
		float radius;
		weft_world_get_sphere(world, (weft_sphere_id){s}, &center, &radius, NULL);
		float* t = w->translations + 3 * ((size_t)key * (size_t)w->sphere_count + (size_t)s);
		t[0] = center.x, t[1] = center.y, t[2] = center.z;
		w->radii[s] = radius;
	}
}

static weft_result write_static(weft_gltf_writer* w, weft_world* world) {
	gltf_layout layout;
	layout.blocks = w->blocks;
	layout_build(w, 0, &layout);
	weft_result result = WEFT_OK;
	if (w->def.cloth) {
		result = write_block(w, &layout, layout.cloth_indices, weft_world_indices(world));
		if (result == WEFT_OK) result = write_vec3s(w, &layout, layout.cloth_positions, w->base, 6);
		if (result == WEFT_OK) result = write_vec3s(w, &layout, layout.cloth_normals, w->base + 3, 6);
	}
	if (result == WEFT_OK && w->ground) {
		const float h = w->ground_height, s = GROUND_HALF_SIZE;
		const float positions[12] = {-s, h, -s, s, h, -s, s, h, s, -s, h, s};
		const float normals[12] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
		const uint32_t indices[6] = {0, 2, 1, 0, 3, 2};
		result = write_block(w, &layout, layout.ground_positions, positions);
		if (result == WEFT_OK) result = write_block(w, &layout, layout.ground_normals, normals);
		if (result == WEFT_OK) result = write_block(w, &layout, layout.ground_indices, indices);
	}
	if (result == WEFT_OK && w->sphere_count > 0) {
		float positions[3 * SPHERE_VERTICES];
		uint32_t indices[SPHERE_INDICES];
		weft_unit_sphere(positions, indices);
		result = write_block(w, &layout, layout.sphere_positions, positions);
		if (result == WEFT_OK) result = write_block(w, &layout, layout.sphere_normals, positions);
		if (result == WEFT_OK) result = write_block(w, &layout, layout.sphere_indices, indices);
	}
	if (result == WEFT_OK && w->mesh_vertex_count > 0) {
		weft_mesh_collider_view mesh;
		weft_world_mesh_collider(world, &mesh);
		result = write_block(w, &layout, layout.mesh_indices, mesh.indices);
		// The mesh may have more vertices than the cloth: its positions go out in scratch-sized runs.
		const int32_t run = 2 * w->vertex_count;
		const gltf_block* block = &layout.blocks[layout.mesh_positions];
		for (int32_t first = 0; result == WEFT_OK && first < mesh.vertex_count; first += run) {
			const int32_t count = mesh.vertex_count - first < run ? mesh.vertex_count - first : run;
			for (int32_t i = 0; i < count; ++i) memcpy(w->scratch + 3 * i, mesh.vertices + 4 * (first + i), 12);
			result = sink_write(w, bin_data_offset(w) + block->offset + (uint64_t)first * 12u, w->scratch,
			                    (size_t)count * 12u);
		}
	}
	return result;
}

weft_result weft_gltf_writer_begin(weft_world* world, const weft_gltf_def* def, weft_byte_sink sink,
                                   weft_gltf_writer** out_writer) {
	if (out_writer == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: out_writer is NULL");
	*out_writer = NULL;
	if (sink.write == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: the sink has no write function");
	// Arrays go out as they lie in memory; glTF is little-endian (as are x86, ARM and wasm).
	const uint32_t one = 1;
	if (*(const uint8_t*)&one != 1)
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: needs a little-endian machine");
	weft_gltf_writer shape;
	weft_result result = writer_shape(world, def, &shape);
	if (result != WEFT_OK) return result;
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	weft_gltf_writer* w = weft_alloc(&allocator, sizeof *w);
	if (w == NULL) return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "glTF: out of memory");
	*w = shape;
	w->allocator = allocator;
	w->sink = sink;
	const size_t cap = (size_t)def->frame_capacity;
	const size_t v = (size_t)(w->vertex_count > 0 ? w->vertex_count : 1);
	w->block_capacity = block_capacity(def->frame_capacity);
	w->blocks = weft_alloc(&allocator, (size_t)w->block_capacity * sizeof(gltf_block));
	w->base = weft_alloc(&allocator, v * 6 * sizeof(float));
	w->scratch = weft_alloc(&allocator, v * 6 * sizeof(float));
	float* frame_min_max = weft_alloc(&allocator, (cap * 12 + 1) * sizeof(float));
	float* times = weft_alloc(&allocator, (cap + 1) * sizeof(float));
	float* translations = weft_alloc(&allocator, ((cap + 1) * (size_t)w->sphere_count * 3 + 1) * sizeof(float));
	w->frame_min_max = frame_min_max, w->times = times, w->translations = translations;
	if (w->blocks == NULL || w->base == NULL || w->scratch == NULL || frame_min_max == NULL || times == NULL ||
	    translations == NULL) {
		weft_gltf_writer_destroy(w);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "glTF: out of memory for %d frames", (int)def->frame_capacity);
	}
	memset(frame_min_max, 0, (cap * 12 + 1) * sizeof(float));
	memset(times, 0, (cap + 1) * sizeof(float));
	memset(translations, 0, ((cap + 1) * (size_t)w->sphere_count * 3 + 1) * sizeof(float));
	weft_world_update_render_data(world);
	const float* x = weft_world_positions(world);
	const float* n = weft_world_normals(world);
	for (int32_t i = 0; i < w->vertex_count; ++i) {
		memcpy(w->base + 6 * i, x + 4 * i, 3 * sizeof(float));
		unit_normal(n + 4 * i, w->base + 6 * i + 3);
	}
	bounds_of(w->base, w->vertex_count, 6, w->bounds[0]);
	const float ground[6] = {-GROUND_HALF_SIZE, w->ground_height, -GROUND_HALF_SIZE,
	                         GROUND_HALF_SIZE,  w->ground_height, GROUND_HALF_SIZE};
	memcpy(w->bounds[1], ground, sizeof ground);
	if (w->sphere_count > 0) {
		float positions[3 * SPHERE_VERTICES];
		uint32_t indices[SPHERE_INDICES];
		weft_unit_sphere(positions, indices);
		bounds_of(positions, SPHERE_VERTICES, 3, w->bounds[2]);
	}
	if (w->mesh_vertex_count > 0) {
		weft_mesh_collider_view mesh;
		weft_world_mesh_collider(world, &mesh);
		bounds_of(mesh.vertices, mesh.vertex_count, 4, w->bounds[3]);
	}
	record_spheres(w, world, 0);
	w->base_frame = w->last_frame = weft_world_frame(world);
	uint64_t bin;
	result = measure(w, def->frame_capacity, w->blocks, frame_min_max, times, translations, &w->json_reserved, &bin);
	if (result == WEFT_OK) result = write_static(w, world);
	if (result != WEFT_OK) {
		weft_gltf_writer_destroy(w);
		return result;
	}
	*out_writer = w;
	return WEFT_OK;
}

weft_result weft_gltf_writer_add_frame(weft_gltf_writer* w, weft_world* world) {
	if (w == NULL || world == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: writer and world are needed");
	if (w->finished || w->failed) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: the recording is %s", w->finished ? "finished" : "broken");
	}
	if (w->frame_count >= w->def.frame_capacity) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: the recording is full (%d frames)",
		                 (int)w->def.frame_capacity);
	}
	if (weft_world_particle_count(world) != w->vertex_count) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: the world has %d particles, the recording %d",
		                 (int)weft_world_particle_count(world), (int)w->vertex_count);
	}
	const int64_t frame = weft_world_frame(world);
	if (frame <= w->last_frame) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: frame %lld is not after the last one recorded (%lld)",
		                 (long long)frame, (long long)w->last_frame);
	}
	const int32_t k = w->frame_count;
	gltf_layout layout;
	layout.blocks = w->blocks;
	layout_build(w, k + 1, &layout);
	if (w->def.cloth) {
		weft_world_update_render_data(world);
		const float* x = weft_world_positions(world);
		const float* n = weft_world_normals(world);
		const int32_t v = w->vertex_count;
		float* positions = w->scratch;
		float* normals = w->scratch + 3 * (size_t)v;
		for (int32_t i = 0; i < v; ++i) {
			float unit[3];
			unit_normal(n + 4 * i, unit);
			for (int32_t c = 0; c < 3; ++c) {
				const float p = x[4 * i + c];
				if (!isfinite(p)) {
					return weft_fail(WEFT_ERROR_NON_FINITE, "glTF: particle %d of frame %lld is not finite", (int)i,
					                 (long long)frame);
				}
				positions[3 * i + c] = p - w->base[6 * i + c];
				normals[3 * i + c] = unit[c] - w->base[6 * i + 3 + c];
			}
		}
		bounds_of(positions, v, 3, w->frame_min_max + 12 * k);
		weft_result result = write_block(w, &layout, layout.first_frame + 2 * k, positions);
		if (result == WEFT_OK) result = write_block(w, &layout, layout.first_frame + 2 * k + 1, normals);
		if (result != WEFT_OK) return result;
	}
	w->times[k + 1] = (float)((double)(frame - w->base_frame) * (double)w->def.frame_dt);
	record_spheres(w, world, k + 1);
	w->last_frame = frame;
	w->frame_count++;
	return WEFT_OK;
}

int32_t weft_gltf_writer_frame_count(const weft_gltf_writer* w) { return w ? w->frame_count : 0; }

static void put_u32(uint8_t* out, uint32_t value) {
	for (int k = 0; k < 4; ++k) out[k] = (uint8_t)(value >> (8 * k));
}

weft_result weft_gltf_writer_finish(weft_gltf_writer* w, uint64_t* out_size) {
	if (w == NULL) return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: writer is NULL");
	if (w->finished || w->failed) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: the recording is %s", w->finished ? "finished" : "broken");
	}
	const int32_t frames = w->frame_count;
	gltf_layout layout;
	layout.blocks = w->blocks;
	layout_build(w, frames, &layout);
	weft_result result = WEFT_OK;
	if (layout.times >= 0) result = write_block(w, &layout, layout.times, w->times);
	if (result == WEFT_OK && layout.weights >= 0) {
		// Key j shows frame j: target j − 1 at weight 1 (key 0 is the base pose), row by row.
		float* row = w->scratch;
		const size_t row_bytes = (size_t)frames * sizeof(float);
		const bool fits = (size_t)frames <= 6 * (size_t)w->vertex_count;
		for (int32_t key = 0; result == WEFT_OK && key <= frames; ++key) {
			if (fits) {
				memset(row, 0, row_bytes);
				if (key > 0) row[key - 1] = 1.0f;
				result =
				    sink_write(w, bin_data_offset(w) + layout.blocks[layout.weights].offset + (uint64_t)key * row_bytes,
				               row, row_bytes);
			} else {
				for (int32_t t = 0; result == WEFT_OK && t < frames; ++t) {
					const float value = key > 0 && t == key - 1 ? 1.0f : 0.0f;
					result = sink_write(w,
					                    bin_data_offset(w) + layout.blocks[layout.weights].offset +
					                        (uint64_t)key * row_bytes + (uint64_t)t * 4u,
					                    &value, 4);
				}
			}
		}
	}
	for (int32_t s = 0; result == WEFT_OK && layout.first_translation >= 0 && s < w->sphere_count; ++s) {
		float* track = w->scratch; // (frames + 1) × 3 floats; spill to single writes when larger
		const bool fits = (size_t)(frames + 1) * 3 <= 6 * (size_t)w->vertex_count;
		const gltf_block* block = &layout.blocks[layout.first_translation + s];
		for (int32_t key = 0; key <= frames && result == WEFT_OK; ++key) {
			const float* t = w->translations + 3 * ((size_t)key * (size_t)w->sphere_count + (size_t)s);
			if (fits) {
				memcpy(track + 3 * key, t, 12);
			} else {
				result = sink_write(w, bin_data_offset(w) + block->offset + (uint64_t)key * 12u, t, 12);
			}
		}
		if (fits && result == WEFT_OK) result = write_block(w, &layout, layout.first_translation + s, track);
	}
	if (result != WEFT_OK) return result;

	char* json = weft_alloc(&w->allocator, (size_t)w->json_reserved + GLB_HEADER_BYTES + 2 * GLB_CHUNK_HEADER_BYTES);
	if (json == NULL) return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "glTF: out of memory for the JSON");
	uint8_t* header = (uint8_t*)json;
	char* text = json + GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES;
	emitter e = {text, 0, w->json_reserved};
	emit_json(w, &layout, frames, &e);
	if (e.size > w->json_reserved) {
		weft_free(&w->allocator, json);
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "glTF: internal error: the JSON outgrew its reserved size");
	}
	// The JSON room not used: given back when the sink can move the binary chunk down, else spaces.
	uint64_t json_bytes = w->json_reserved;
	if (w->sink.move != NULL && pad4(e.size) < w->json_reserved) {
		json_bytes = pad4(e.size);
		const uint64_t from = bin_data_offset(w), to = from - (w->json_reserved - json_bytes);
		if (!w->sink.move(w->sink.context, to, from, (size_t)layout.bin_bytes)) {
			weft_free(&w->allocator, json);
			w->failed = true;
			return weft_fail(WEFT_ERROR_IO, "glTF: could not move the binary chunk of the .glb");
		}
	}
	memset(text + e.size, ' ', (size_t)(json_bytes - e.size));
	const uint64_t total = file_bytes(json_bytes, layout.bin_bytes);
	memcpy(header, "glTF", 4);
	put_u32(header + 4, 2);
	put_u32(header + 8, (uint32_t)total);
	put_u32(header + 12, (uint32_t)json_bytes);
	memcpy(header + 16, "JSON", 4);
	uint8_t* bin_header = (uint8_t*)text + json_bytes;
	put_u32(bin_header, (uint32_t)layout.bin_bytes);
	memcpy(bin_header + 4, "BIN\0", 4);
	result = sink_write(w, 0, json, (size_t)json_bytes + GLB_HEADER_BYTES + 2 * GLB_CHUNK_HEADER_BYTES);
	weft_free(&w->allocator, json);
	if (result != WEFT_OK) return result;
	w->finished = true;
	if (out_size != NULL) *out_size = total;
	return WEFT_OK;
}

void weft_gltf_writer_destroy(weft_gltf_writer* w) {
	if (w == NULL) return;
	weft_allocator allocator = w->allocator;
	weft_free(&allocator, w->blocks);
	weft_free(&allocator, w->base);
	weft_free(&allocator, w->scratch);
	weft_free(&allocator, w->frame_min_max);
	weft_free(&allocator, w->times);
	weft_free(&allocator, w->translations);
	weft_free(&allocator, w);
}
