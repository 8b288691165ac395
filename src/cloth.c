// Cloth builder: the particle grid, its distance constraints (stretch, shear, bend), UVs and
// triangles, then the colouring that orders the constraints into batches.
#include <math.h>
#include <string.h>

#include "cloth.h"
#include "coloring.h"

float weft_cloth_spacing(const weft_cloth_def* def) {
	float u = def->width > 1 ? def->size_u / (float)(def->width - 1) : INFINITY;
	float v = def->height > 1 ? def->size_v / (float)(def->height - 1) : INFINITY;
	return fminf(u, v);
}

void weft_cloth_counts(int32_t width, int32_t height, int32_t counts[3]) {
	int64_t w = width, h = height;
	counts[WEFT_STRETCH] = (int32_t)(w * (h - 1) + h * (w - 1));
	counts[WEFT_SHEAR] = (int32_t)(2 * (w - 1) * (h - 1));
	counts[WEFT_BEND] = (int32_t)(w * (h > 2 ? h - 2 : 0) + h * (w > 2 ? w - 2 : 0));
}

static weft_vec3 grid_point(const weft_cloth_def* def, int32_t i, int32_t j) {
	float s = def->width > 1 ? (float)i / (float)(def->width - 1) : 0.0f;
	float t = def->height > 1 ? (float)j / (float)(def->height - 1) : 0.0f;
	float du = s * def->size_u, dv = t * def->size_v;
	return (weft_vec3){def->origin.x + def->axis_u.x * du + def->axis_v.x * dv,
	                   def->origin.y + def->axis_u.y * du + def->axis_v.y * dv,
	                   def->origin.z + def->axis_u.z * du + def->axis_v.z * dv};
}

static void build_particles(weft_world* world, const weft_cloth_def* def) {
	const int32_t w = def->width, h = def->height;
	const float inverse_mass = (float)world->particle_count / def->mass;
	for (int32_t j = 0; j < h; ++j) {
		for (int32_t i = 0; i < w; ++i) {
			int32_t p = j * w + i;
			weft_vec3 x = grid_point(def, i, j);
			float* rest = &world->rest_positions[4 * p];
			rest[0] = x.x;
			rest[1] = x.y;
			rest[2] = x.z;
			rest[3] = inverse_mass;
			world->uvs[2 * p] = w > 1 ? (float)i / (float)(w - 1) : 0.0f;
			world->uvs[2 * p + 1] = h > 1 ? (float)j / (float)(h - 1) : 0.0f;
		}
	}
	switch (def->pin) {
	case WEFT_PIN_NONE: break;
	case WEFT_PIN_TOP_CORNERS:
		world->rest_positions[3] = 0.0f;
		world->rest_positions[4 * (w - 1) + 3] = 0.0f;
		break;
	case WEFT_PIN_TOP_EDGE:
		for (int32_t i = 0; i < w; ++i) {
			world->rest_positions[4 * i + 3] = 0.0f;
		}
		break;
	case WEFT_PIN_LEFT_EDGE:
		for (int32_t j = 0; j < h; ++j) {
			world->rest_positions[4 * (j * w) + 3] = 0.0f;
		}
		break;
	case WEFT_PIN_LIST:
		for (int32_t k = 0; k < def->pin_count; ++k) {
			world->rest_positions[4 * def->pin_indices[k] + 3] = 0.0f;
		}
		break;
	}
}

static void build_triangles(weft_world* world) {
	const int32_t w = world->width, h = world->height;
	uint32_t* out = world->indices;
	for (int32_t j = 0; j + 1 < h; ++j) {
		for (int32_t i = 0; i + 1 < w; ++i) {
			uint32_t p00 = (uint32_t)(j * w + i), p10 = p00 + 1, p01 = p00 + (uint32_t)w, p11 = p01 + 1;
			// Counter-clockwise seen from the side axis_u × (-axis_v) points to.
			*out++ = p00;
			*out++ = p01;
			*out++ = p10;
			*out++ = p10;
			*out++ = p01;
			*out++ = p11;
		}
	}
}

// Appends one constraint in build order with its type and the grid colouring's proposal.
typedef struct constraint_builder {
	uint32_t* pairs;
	uint8_t* types;
	uint8_t* hints;
	int32_t count;
} constraint_builder;

static void add(constraint_builder* builder, int32_t a, int32_t b, weft_constraint_type type, int hint) {
	int32_t k = builder->count++;
	builder->pairs[2 * k] = (uint32_t)a;
	builder->pairs[2 * k + 1] = (uint32_t)b;
	builder->types[k] = (uint8_t)type;
	builder->hints[k] = (uint8_t)hint;
}

// The 12-colouring of a grid: each family (horizontal/vertical stretch, two diagonals, horizontal/
// vertical bend) touches every particle twice, and a parity pattern splits it into two matchings.
// Batch order matters with few iterations: the batches solved last are the ones best satisfied at
// the end of a sweep. Bend first, shear, then stretch last keeps the stiff, visible stretch
// constraints closest to rest and avoids a striped strain pattern (with stretch solved first, the
// bend corrections left neighbouring stretch constraints alternately long and short: the mean
// neighbour-to-neighbour strain difference was half the strain itself, now a tenth on `hang`).
static void build_constraints(const weft_world* world, constraint_builder* builder) {
	const int32_t w = world->width, h = world->height;
	for (int32_t j = 0; j < h; ++j) {
		for (int32_t i = 0; i < w; ++i) {
			int32_t p = j * w + i;
			if (i + 1 < w) add(builder, p, p + 1, WEFT_STRETCH, 8 + (i & 1));
			if (j + 1 < h) add(builder, p, p + w, WEFT_STRETCH, 10 + (j & 1));
			if (i + 1 < w && j + 1 < h) {
				add(builder, p, p + w + 1, WEFT_SHEAR, 4 + (j & 1));
				add(builder, p + 1, p + w, WEFT_SHEAR, 6 + (j & 1));
			}
			if (i + 2 < w) add(builder, p, p + 2, WEFT_BEND, 0 + ((i >> 1) & 1));
			if (j + 2 < h) add(builder, p, p + 2 * w, WEFT_BEND, 2 + ((j >> 1) & 1));
		}
	}
}

// build_constraints' classes, each a parity over the positions where its family has constraints:
// positions 0..n-1 (n ≤ 0: none) hold one class from 1 on and two from 2 on (x & 1), or from 3 on
// for the bends ((x >> 1) & 1: positions 0, 1 share one).
static int32_t parity_classes(int32_t n) { return n <= 0 ? 0 : n == 1 ? 1 : 2; }
static int32_t pair_parity_classes(int32_t n) { return n <= 0 ? 0 : n <= 2 ? 1 : 2; }

int32_t weft_cloth_hint_colours(int32_t width, int32_t height) {
	const int32_t w = width, h = height;
	const int32_t stretch = parity_classes(w - 1) + parity_classes(h - 1);
	const int32_t shear = w >= 2 ? 2 * parity_classes(h - 1) : 0; // two diagonals, by row parity
	const int32_t bend = pair_parity_classes(w - 2) + pair_parity_classes(h - 2);
	return stretch + shear + bend;
}

static float distance(const float* a, const float* b) {
	float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

weft_result weft_cloth_build(weft_world* world, const weft_cloth_def* def) {
	build_particles(world, def);
	build_triangles(world);

	const int32_t count = world->constraint_count;
	const weft_allocator* allocator = &world->allocator;
	size_t scratch_size = weft_coloring_scratch_size(world->particle_count);
	uint32_t* pairs = weft_alloc(allocator, (size_t)count * 2 * sizeof(uint32_t));
	uint8_t* types = weft_alloc(allocator, (size_t)count);
	uint8_t* hints = weft_alloc(allocator, (size_t)count);
	uint8_t* colours = weft_alloc(allocator, (size_t)count);
	int32_t* order = weft_alloc(allocator, (size_t)count * sizeof(int32_t));
	void* scratch = weft_alloc(allocator, scratch_size);
	weft_result result = WEFT_OK;
	if (!pairs || !types || !hints || !colours || !order || !scratch) {
		result = weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory while colouring %d constraints", (int)count);
		goto done;
	}
	constraint_builder builder = {pairs, types, hints, 0};
	build_constraints(world, &builder);

	int32_t color_count = 0;
	result = weft_color_constraints(pairs, count, world->particle_count, WEFT_COLOR_BUDGET, hints, colours,
	                                &color_count, scratch);
	if (result != WEFT_OK) {
		goto done;
	}
	world->color_count = color_count;
	weft_batch_by_colour(colours, count, color_count, world->color_offsets, order);

	const float compliance[3] = {def->stretch_compliance, def->shear_compliance, def->bend_compliance};
	for (int32_t slot = 0; slot < count; ++slot) {
		int32_t k = order[slot];
		uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
		world->constraints[slot] = (weft_constraint){
		    .a = a,
		    .b = b,
		    .rest_length = distance(&world->rest_positions[4 * a], &world->rest_positions[4 * b]),
		    .compliance = compliance[types[k]],
		};
		world->types[slot] = types[k];
		if (types[k] == WEFT_STRETCH) {
			world->strain_counts[a]++;
			world->strain_counts[b]++;
		}
	}
done:
	weft_free(allocator, pairs);
	weft_free(allocator, types);
	weft_free(allocator, hints);
	weft_free(allocator, colours);
	weft_free(allocator, order);
	weft_free(allocator, scratch);
	return result;
}
