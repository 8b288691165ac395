// The binary glTF writer (src/gltf_writer.c): GLB structure, byte lengths and 4-byte alignment,
// the frames as morph targets that give back the simulated positions, the one-pass streaming, and
// the refusals (a sink that fails, absurd sizes, frames past the capacity or out of order).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

// A growable buffer sink that also counts how often the writer went back (offset below the end).
typedef struct memory_sink {
	uint8_t* data;
	size_t size, capacity;
	int backward_writes;
	size_t fail_after;  // refuse writes reaching past this many bytes (0: never)
	int writes_allowed; // refuse every write after this many (0: never)
	int writes;
} memory_sink;

static bool memory_write(void* context, uint64_t offset, const void* data, size_t size) {
	memory_sink* m = context;
	if (m->fail_after != 0 && offset + size > m->fail_after) return false;
	if (m->writes_allowed != 0 && ++m->writes > m->writes_allowed) return false;
	if (offset < m->size) m->backward_writes++;
	if (offset + size > m->capacity) {
		size_t capacity = m->capacity ? m->capacity : 4096;
		while (capacity < offset + size) capacity *= 2;
		uint8_t* grown = realloc(m->data, capacity);
		if (grown == NULL) return false;
		memset(grown + m->capacity, 0xAB, capacity - m->capacity);
		m->data = grown;
		m->capacity = capacity;
	}
	memcpy(m->data + offset, data, size);
	if (offset + size > m->size) m->size = (size_t)(offset + size);
	return true;
}

static uint32_t u32_at(const uint8_t* p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// The JSON chunk as a NUL-terminated copy.
static char* json_of(const memory_sink* m) {
	const uint32_t length = u32_at(m->data + 12);
	char* json = malloc(length + 1);
	memcpy(json, m->data + 20, length);
	json[length] = '\0';
	return json;
}

// The n-th value of "key": in the JSON (counting from 0), or -1.
static long long nth_number(const char* json, const char* key, int n) {
	const char* p = json;
	for (int k = 0; (p = strstr(p, key)) != NULL; ++k, p += strlen(key)) {
		if (k == n) return atoll(p + strlen(key));
	}
	return -1;
}

static int occurrences(const char* json, const char* text) {
	int count = 0;
	for (const char* p = json; (p = strstr(p, text)) != NULL; p += strlen(text)) count++;
	return count;
}

static bool memory_move(void* context, uint64_t to, uint64_t from, size_t size) {
	memory_sink* m = context;
	if (from + size > m->size || to > from) return false;
	memmove(m->data + to, m->data + from, size);
	return true;
}

// A sphere scene recorded for `frames` frames, every `every`-th world frame; positions[k] holds
// frame k's xyz (frame 0 = the base pose).
static weft_world* record_into(memory_sink* sink, bool movable, int32_t capacity, int32_t frames, int32_t every,
                               float** positions, uint64_t* out_size) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", 8, &world) == WEFT_OK);
	const int32_t n = weft_world_particle_count(world);
	*positions = malloc(sizeof(float) * 3 * (size_t)n * (size_t)(frames + 1));
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = capacity;
	weft_gltf_writer* writer = NULL;
	weft_byte_sink byte_sink = {memory_write, sink, movable ? memory_move : NULL};
	CHECK(weft_gltf_writer_begin(world, &def, byte_sink, &writer) == WEFT_OK);
	for (int32_t k = 0; k <= frames; ++k) {
		if (k > 0) {
			for (int32_t s = 0; s < every; ++s) weft_world_step(world, def.frame_dt);
			CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_OK);
		}
		const float* x = weft_world_positions(world);
		for (int32_t i = 0; i < n; ++i) memcpy(*positions + 3 * ((size_t)k * n + i), x + 4 * i, 12);
	}
	CHECK(weft_gltf_writer_frame_count(writer) == frames);
	uint64_t size = 0;
	CHECK(weft_gltf_writer_finish(writer, &size) == WEFT_OK);
	CHECK(movable ? size <= sink->size : size == sink->size);
	if (out_size != NULL) *out_size = size;
	weft_gltf_writer_destroy(writer);
	return world;
}

static weft_world* record(memory_sink* sink, int32_t capacity, int32_t frames, int32_t every, float** positions) {
	return record_into(sink, false, capacity, frames, every, positions, NULL);
}

TEST(glb_structure) {
	memory_sink sink = {0};
	float* positions = NULL;
	weft_world* world = record(&sink, 3, 3, 2, &positions);
	CHECK(sink.size > 28);
	CHECK(memcmp(sink.data, "glTF", 4) == 0);
	CHECK(u32_at(sink.data + 4) == 2);
	CHECK(u32_at(sink.data + 8) == sink.size);
	const uint32_t json_length = u32_at(sink.data + 12);
	CHECK(json_length % 4 == 0);
	CHECK(memcmp(sink.data + 16, "JSON", 4) == 0);
	const uint8_t* bin = sink.data + 20 + json_length;
	CHECK(memcmp(bin + 4, "BIN\0", 4) == 0);
	CHECK(u32_at(bin) % 4 == 0);
	CHECK(20 + json_length + 8 + u32_at(bin) == sink.size);
	// One pass: everything in order, then the header and JSON once at the end.
	CHECK(sink.backward_writes == 1);

	char* json = json_of(&sink);
	CHECK(nth_number(json, "\"byteLength\":", occurrences(json, "\"byteLength\":") - 1) == u32_at(bin));
	CHECK(occurrences(json, "\"targets\":[") == 1);
	CHECK(occurrences(json, "\"path\":\"weights\"") == 1);
	CHECK(occurrences(json, "\"path\":\"translation\"") == 1); // the sphere's motion
	CHECK(occurrences(json, "\"weft\":\"ground\"") == 1);
	CHECK(occurrences(json, "\"weft\":\"sphere\"") == 1);
	// No texture coordinates: no material samples a texture, so the validator would call them unused.
	CHECK(occurrences(json, "TEXCOORD") == 0);
	// Every bufferView is 4-aligned, inside the BIN chunk, and they do not overlap.
	const int views = occurrences(json, "\"byteOffset\":");
	CHECK(views == 9 + 2 * 3 + 3); // cloth 3, ground 3, sphere 3; 2 per frame; times, weights, translation
	long long end = 0;
	for (int v = 0; v < views; ++v) {
		long long offset = nth_number(json, "\"byteOffset\":", v), length = nth_number(json, "\"byteLength\":", v);
		CHECK(offset % 4 == 0 && length % 4 == 0);
		CHECK(offset == end);
		end = offset + length;
	}
	CHECK(end == (long long)u32_at(bin));

	// Frame k = base + target k: bufferView 1 holds the base positions, 9 + 2(k−1) frame k's deltas.
	const int32_t n = weft_world_particle_count(world);
	const float* base = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 1));
	float worst = 0.0f;
	for (int32_t k = 1; k <= 3; ++k) {
		const float* delta = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 9 + 2 * (k - 1)));
		for (int32_t i = 0; i < 3 * n; ++i) {
			float error = fabsf(base[i] + delta[i] - positions[3 * (size_t)k * n + i]);
			worst = error > worst ? error : worst;
		}
	}
	CHECK(worst < 1e-6f);
	CHECK(memcmp(base, positions, 12) == 0);
	// Keyframe times: frame k at k × every × frame_dt.
	const float* times = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 15));
	CHECK_NEAR(times[0], 0.0, 0.0);
	CHECK_NEAR(times[3], 6.0 / 60.0, 1e-6);
	// Weights: key j puts 1 on target j − 1 only.
	const float* weights = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 16));
	CHECK(weights[0] == 0.0f && weights[1] == 0.0f && weights[2] == 0.0f);
	CHECK(weights[3] == 1.0f && weights[4] == 0.0f && weights[3 * 3 + 2] == 1.0f);
	free(json);
	free(positions);
	free(sink.data);
	weft_world_destroy(world);
}

TEST(fewer_frames_than_capacity) {
	memory_sink sink = {0};
	float* positions = NULL;
	weft_world* world = record(&sink, 50, 2, 1, &positions);
	char* json = json_of(&sink);
	CHECK(occurrences(json, "\"POSITION\":") == 3 + 2); // cloth, ground, sphere; 2 targets
	const size_t text = strlen(json);
	CHECK(json[text - 1] == ' '); // padded with JSON whitespace
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = 50;
	uint64_t predicted = 0;
	CHECK(weft_gltf_size(world, &def, 50, &predicted) == WEFT_OK);
	CHECK(predicted > sink.size);
	free(json);
	free(positions);
	free(sink.data);
	weft_world_destroy(world);
}

// A sink that can move bytes gets the unused JSON room back: the file is as if the capacity had
// been the frame count.
TEST(unused_capacity_given_back) {
	memory_sink sink = {0};
	float* positions = NULL;
	uint64_t size = 0;
	weft_world* world = record_into(&sink, true, 50, 2, 1, &positions, &size);
	CHECK(size < sink.size);
	CHECK(u32_at(sink.data + 8) == size);
	const uint32_t json_length = u32_at(sink.data + 12);
	const uint8_t* bin = sink.data + 20 + json_length;
	CHECK(memcmp(bin + 4, "BIN\0", 4) == 0);
	CHECK(20 + json_length + 8 + u32_at(bin) == size);
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = 2;
	uint64_t tight = 0;
	CHECK(weft_gltf_size(world, &def, 2, &tight) == WEFT_OK);
	CHECK(size == tight);
	// Frame 2 = base + its target, read where the moved chunk now is.
	sink.size = (size_t)size;
	char* json = json_of(&sink);
	const int32_t n = weft_world_particle_count(world);
	const float* base = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 1));
	const float* delta = (const float*)(bin + 8 + nth_number(json, "\"byteOffset\":", 11));
	float worst = 0.0f;
	for (int32_t i = 0; i < 3 * n; ++i) worst = fmaxf(worst, fabsf(base[i] + delta[i] - positions[6 * (size_t)n + i]));
	CHECK(worst < 1e-6f);
	free(json);
	free(positions);
	free(sink.data);
	weft_world_destroy(world);
}

TEST(size_matches_the_file) {
	memory_sink sink = {0};
	float* positions = NULL;
	weft_world* world = record(&sink, 4, 4, 1, &positions);
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = 4;
	uint64_t predicted = 0;
	CHECK(weft_gltf_size(world, &def, 4, &predicted) == WEFT_OK);
	CHECK(predicted == sink.size);
	free(positions);
	free(sink.data);
	weft_world_destroy(world);
}

TEST(failing_sink) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("sphere", 8, &world) == WEFT_OK);
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = 4;
	// Refused at begin (the static part does not fit).
	memory_sink tiny = {0};
	tiny.fail_after = 64;
	weft_gltf_writer* writer = (weft_gltf_writer*)&tiny; // must be reset to NULL
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &tiny, NULL}, &writer) == WEFT_ERROR_IO);
	CHECK(writer == NULL);
	CHECK(strstr(weft_last_error(), "could not write") != NULL);
	// Refused mid-recording: the frame fails, then the writer stays broken.
	memory_sink later = {0};
	later.writes_allowed = 10; // begin's: cloth 4, ground 3, sphere 3
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &later, NULL}, &writer) == WEFT_OK);
	weft_world_step(world, def.frame_dt);
	CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_ERROR_IO);
	weft_world_step(world, def.frame_dt);
	CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_gltf_writer_finish(writer, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	weft_gltf_writer_destroy(writer);
	// No write function at all.
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){NULL, NULL, NULL}, &writer) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	free(tiny.data);
	free(later.data);
	weft_world_destroy(world);
}

TEST(absurd_sizes) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("hang", 256, &world) == WEFT_OK);
	weft_gltf_def def = weft_default_gltf_def();
	memory_sink sink = {0};
	weft_gltf_writer* writer = NULL;
	// 3000 frames × 65536 particles × 24 bytes: past the 4 GiB of a .glb, refused before any write.
	def.frame_capacity = 3000;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) ==
	      WEFT_ERROR_TOO_LARGE);
	CHECK(strstr(weft_last_error(), "4 GiB") != NULL);
	CHECK(sink.size == 0 && writer == NULL);
	uint64_t size = 0;
	CHECK(weft_gltf_size(world, &def, 3000, &size) == WEFT_ERROR_TOO_LARGE);
	// More frames than the capacity, or no out_size: the message says which.
	CHECK(weft_gltf_size(world, &def, 3001, &size) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "0..3000, the frame_capacity (got 3001)") != NULL);
	CHECK(weft_gltf_size(world, &def, 1, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "out_size is NULL") != NULL);
	def.frame_capacity = WEFT_GLTF_MAX_FRAMES + 1;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) ==
	      WEFT_ERROR_TOO_LARGE);
	def.frame_capacity = -1;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) ==
	      WEFT_ERROR_TOO_LARGE);
	def = weft_default_gltf_def();
	def.frame_dt = 0.0f;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	def = weft_default_gltf_def();
	def.cloth = false;
	def.colliders = false;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) ==
	      WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(writer == NULL && sink.size == 0);
	weft_world_destroy(world);
}

TEST(frames_out_of_order_or_past_capacity) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("hang", 8, &world) == WEFT_OK);
	weft_gltf_def def = weft_default_gltf_def();
	def.frame_capacity = 1;
	memory_sink sink = {0};
	weft_gltf_writer* writer = NULL;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) == WEFT_OK);
	CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_ERROR_INVALID_ARGUMENT); // not stepped
	weft_world_step(world, def.frame_dt);
	CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_OK);
	weft_world_step(world, def.frame_dt);
	CHECK(weft_gltf_writer_add_frame(writer, world) == WEFT_ERROR_INVALID_ARGUMENT); // full
	weft_world* other = NULL;
	CHECK(weft_world_create_scene("hang", 9, &other) == WEFT_OK);
	CHECK(weft_gltf_writer_finish(writer, NULL) == WEFT_OK);
	CHECK(weft_gltf_writer_finish(writer, NULL) == WEFT_ERROR_INVALID_ARGUMENT); // once
	weft_gltf_writer_destroy(writer);
	def.frame_capacity = 2;
	CHECK(weft_gltf_writer_begin(world, &def, (weft_byte_sink){memory_write, &sink, NULL}, &writer) == WEFT_OK);
	weft_world_step(other, def.frame_dt);
	weft_world_step(other, def.frame_dt);
	weft_world_step(other, def.frame_dt);
	CHECK(weft_gltf_writer_add_frame(writer, other) == WEFT_ERROR_INVALID_ARGUMENT); // other particle count
	weft_gltf_writer_destroy(writer);
	weft_gltf_writer_destroy(NULL);
	free(sink.data);
	weft_world_destroy(other);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(glb_structure);
	RUN_TEST(fewer_frames_than_capacity);
	RUN_TEST(unused_capacity_given_back);
	RUN_TEST(size_matches_the_file);
	RUN_TEST(failing_sink);
	RUN_TEST(absurd_sizes);
	RUN_TEST(frames_out_of_order_or_past_capacity);
	return TEST_SUMMARY();
}
