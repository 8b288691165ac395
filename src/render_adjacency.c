// The render data as gathers: per vertex, the triangles it is a corner of and the stretch
// constraints it ends, in ascending order (the order weft_world_update_render_data sums in). A GPU
// has no float atomics, so its render-data kernel gathers per vertex through these lists instead of
// scattering per triangle / per constraint (web/src/gpu/shaders/render_data.wgsl). Topology only:
// built once per world, from the public arrays.
#include <stdbool.h>
#include <stdint.h>

#include "weft/weft.h"
#include "world_internal.h"

// Counting sort of (vertex, item) pairs into offsets + items at words[base...]; the offsets are
// absolute word indices. `emit` is called twice with the same pairs: to count, then to place.
typedef struct lists {
	uint32_t* words;
	int32_t base, n;
	bool placing;
} lists;

static void emit(lists* l, uint32_t vertex, uint32_t item) {
	if (!l->placing) {
		l->words[l->base + vertex + 1]++;
		return;
	}
	l->words[l->words[l->base + vertex]++] = item;
}

// After counting: turns counts into first entries (absolute); after placing: the offsets have moved
// to each list's end, so shift them back by one vertex.
static void count_to_offsets(lists* l) {
	uint32_t* o = l->words + l->base;
	o[0] = (uint32_t)(l->base + l->n + 1);
	for (int32_t v = 0; v < l->n; ++v) o[v + 1] += o[v];
	l->placing = true;
}
static void restore_offsets(lists* l) {
	uint32_t* o = l->words + l->base;
	for (int32_t v = l->n; v > 0; --v) o[v] = o[v - 1];
	o[0] = (uint32_t)(l->base + l->n + 1);
}

static void triangle_pairs(const weft_world* world, lists* l) {
	const uint32_t* indices = weft_world_indices(world);
	int32_t triangles = weft_world_index_count(world) / 3;
	for (int32_t t = 0; t < triangles; ++t) {
		for (int k = 0; k < 3; ++k) {
			if (indices[3 * t + k] < (uint32_t)l->n) emit(l, indices[3 * t + k], (uint32_t)t);
		}
	}
}

static void stretch_pairs(const weft_world* world, lists* l) {
	weft_constraints_view c = weft_world_constraints(world);
	for (int32_t k = 0; k < c.count; ++k) {
		if (c.types[k] != WEFT_STRETCH) continue;
		uint32_t a = (uint32_t)c.constraints[k].a, b = (uint32_t)c.constraints[k].b;
		if (a < (uint32_t)l->n && b < (uint32_t)l->n) {
			emit(l, a, (uint32_t)k);
			emit(l, b, (uint32_t)k);
		}
	}
}

static int32_t stretch_entries(const weft_world* world, int32_t n) {
	weft_constraints_view c = weft_world_constraints(world);
	int32_t entries = 0;
	for (int32_t k = 0; k < c.count; ++k) {
		uint32_t a = (uint32_t)c.constraints[k].a, b = (uint32_t)c.constraints[k].b;
		if (c.types[k] == WEFT_STRETCH && a < (uint32_t)n && b < (uint32_t)n) entries += 2;
	}
	return entries;
}

int32_t weft_stretch_adjacency(const weft_world* world, uint32_t* words, int32_t base) {
	const int32_t n = weft_world_particle_count(world);
	const int32_t size = n + 1 + stretch_entries(world, n);
	if (words == NULL) return size;
	for (int32_t i = 0; i < size; ++i) words[base + i] = 0;
	lists stretch = {words, base, n, false};
	stretch_pairs(world, &stretch);
	count_to_offsets(&stretch);
	stretch_pairs(world, &stretch);
	restore_offsets(&stretch);
	return size;
}

int32_t weft_world_render_adjacency(const weft_world* world, uint32_t* out_words, int32_t capacity,
                                    int32_t* out_strain_base) {
	if (world == NULL) return 0;
	int32_t n = weft_world_particle_count(world);
	const uint32_t* indices = weft_world_indices(world);
	int32_t index_count = weft_world_index_count(world), triangle_entries = 0;
	for (int32_t i = 0; i + 2 < index_count; i += 3) {
		for (int k = 0; k < 3; ++k) triangle_entries += indices[i + k] < (uint32_t)n;
	}
	int32_t strain_base = n + 1 + triangle_entries;
	int32_t words = strain_base + weft_stretch_adjacency(world, NULL, 0);
	if (out_strain_base) *out_strain_base = strain_base;
	if (out_words == NULL || capacity < words) return words;
	for (int32_t i = 0; i < words; ++i) out_words[i] = 0;
	lists triangles = {out_words, 0, n, false};
	triangle_pairs(world, &triangles);
	count_to_offsets(&triangles);
	triangle_pairs(world, &triangles);
	restore_offsets(&triangles);
	weft_stretch_adjacency(world, out_words, strain_base);
	return words;
}
