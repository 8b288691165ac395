// Self-collision: the cloth keeps a thickness t between its layers.
//
// Broad phase: a dense spatial hash. Space is cut into cubic cells of edge 2r, r = t + skin; each
// particle's cell is hashed into a table of at least 2× the particle count (a power of two), and a
// counting sort (count, prefix sum, scatter in particle order) lays the particle ids out bucket by
// bucket in one flat array, with a copy of their positions in the same order. The sphere of radius
// r around a particle lies in the 2 × 2 × 2 block of cells on its side of its cell's centre: 8
// buckets a query (27 cells of edge r read more buckets for fewer candidates, and measured 25%
// slower). A bucket may also hold particles of other cells (hash collisions), which are skipped.
// From the hash each particle gets a list of the particles within r (Verlet lists).
//
// The lists stay valid while no pair can have closed in by more than the skin: if Δ_i is particle
// i's displacement since the lists were built, |Δ_i − Δ_j| is at most the diagonal of the bounding
// box of all the Δ, so the lists are rebuilt in the first substep where that diagonal exceeds the
// skin. A cloth in free fall or at rest (all Δ alike) keeps its lists; a cloth folding fast rebuilds
// every substep. Every substep then tests only the listed pairs (measured at fold 128²: about 3
// per particle, against about 38 candidates in the 27 cells of a per-substep hash).
//
// Response (Jacobi, so threads and GPU invocations can each take a particle): for every listed
// particle j closer than t, particle i moves its share w_i/(w_i+w_j) of (t − d) away along the
// pair's direction, and friction removes the same share of the pair's relative tangential slip
// over the substep; a particle takes the mean of its pushes (their sum overshoots in a pile).
// Pairs that are close in the rest pose (grid neighbours up to the bend constraints' two spacings,
// and anything within t as built) are never listed: the cloth's own constraints hold them. Nothing
// limits speeds, so a cloth that touches nothing moves exactly as without self-collision.
#include <math.h>
#include <string.h>

#include "self_collision.h"
#include "vec3.h"

// Skin of the neighbour lists, in thicknesses.
#define SKIN 0.5f
// Near another layer (a non-empty list), a particle moves at most this many thicknesses a substep.
#define MAX_STEP 0.4f
// Listed neighbours per particle (the nearest are kept when more are within reach).
#define MAX_NEIGHBOURS 16
// Rest-pose distances up to this factor of the rest limit count as "that close at rest".
#define REST_TOLERANCE 1.01f
// Below this two particles have no direction and are left alone.
#define MIN_DISTANCE 1e-9f

struct weft_self_collision {
	uint32_t table_size;
	uint32_t* cell_start; // table_size + 1
	uint32_t* particles;  // particle ids grouped by bucket, ascending in each
	uint32_t* bucket;     // the bucket of each particle at the last rebuild
	float* sorted;        // float4 per slot of `particles`: that particle's position (x, y, z, id bits)
	uint32_t* neighbours; // MAX_NEIGHBOURS per particle
	uint8_t* neighbour_count;
	float* built_positions;            // float4 per particle: positions when the lists were built
	float* corrections;                // float4 per particle: this substep's pushes (xyz) and their count (w)
	float bounds[WEFT_MAX_THREADS][6]; // per thread: min xyz, max xyz of the displacements
	bool valid;                        // the lists hold for the current positions
	bool rebuild;                      // this substep rebuilds them
	int64_t rebuilds;
};

uint32_t weft_self_collision_table_size(int32_t particle_count) {
	uint32_t table = 1;
	while (table < 2u * (uint32_t)particle_count) {
		table <<= 1;
	}
	return table;
}

weft_result weft_self_collision_prepare(weft_world* world) {
	if (world->self != NULL) {
		return WEFT_OK;
	}
	const weft_allocator* a = &world->allocator;
	weft_self_collision* s = weft_alloc(a, sizeof *s);
	if (s == NULL) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for self-collision");
	}
	memset(s, 0, sizeof *s);
	const size_t n = (size_t)world->particle_count;
	s->table_size = weft_self_collision_table_size(world->particle_count);
	s->cell_start = weft_alloc(a, ((size_t)s->table_size + 1) * sizeof(uint32_t));
	s->particles = weft_alloc(a, n * sizeof(uint32_t));
	s->bucket = weft_alloc(a, n * sizeof(uint32_t));
	s->sorted = weft_alloc(a, n * 4 * sizeof(float));
	s->neighbours = weft_alloc(a, n * MAX_NEIGHBOURS * sizeof(uint32_t));
	s->neighbour_count = weft_alloc(a, n);
	s->built_positions = weft_alloc(a, n * 4 * sizeof(float));
	s->corrections = weft_alloc(a, n * 4 * sizeof(float));
	world->self = s;
	if (!s->cell_start || !s->particles || !s->bucket || !s->sorted || !s->neighbours || !s->neighbour_count ||
	    !s->built_positions || !s->corrections) {
		weft_self_collision_destroy(world);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for self-collision of %d particles",
		                 (int)world->particle_count);
	}
	return WEFT_OK;
}

void weft_self_collision_destroy(weft_world* world) {
	weft_self_collision* s = world->self;
	if (s == NULL) {
		return;
	}
	const weft_allocator* a = &world->allocator;
	void* arrays[] = {s->cell_start, s->particles,       s->bucket,          s->sorted,
	                  s->neighbours, s->neighbour_count, s->built_positions, s->corrections};
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) {
		weft_free(a, arrays[k]);
	}
	weft_free(a, s);
	world->self = NULL;
}

void weft_self_collision_invalidate(weft_world* world) {
	if (world->self != NULL) {
		world->self->valid = false;
		world->self->rebuilds = 0;
	}
}

int32_t weft_self_cell_coordinate(float x, float inverse_cell) { return weft_floor_clamped(x * inverse_cell, 1.0e9f); }

uint32_t weft_self_cell_hash(int32_t cx, int32_t cy, int32_t cz, uint32_t table_size) {
	uint32_t h = ((uint32_t)cx * WEFT_SELF_HASH_PRIME_X) ^ ((uint32_t)cy * WEFT_SELF_HASH_PRIME_Y) ^
	             ((uint32_t)cz * WEFT_SELF_HASH_PRIME_Z);
	return h & (table_size - 1);
}

static float reach(const weft_world* world) { return world->thickness * (1.0f + SKIN); }

void weft_self_collision_describe(const weft_world* world, weft_self_collision_view* out) {
	out->enabled = world->def.self_collision;
	out->thickness = world->thickness;
	out->reach = reach(world);
	out->rest_distance = fmaxf(world->thickness, world->self_rest_distance);
	out->max_step = MAX_STEP * world->thickness;
	out->table_size = weft_self_collision_table_size(world->particle_count);
	out->rebuilds = world->self != NULL ? world->self->rebuilds : 0;
}

void weft_self_collision_bounds(weft_world* world, int32_t thread, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
	const float* x = world->positions;
	const float* built = s->built_positions;
	for (int32_t p = begin; p < end; ++p) {
		for (int axis = 0; axis < 3; ++axis) {
			float d = x[4 * p + axis] - built[4 * p + axis];
			box[axis] = d < box[axis] ? d : box[axis];
			box[3 + axis] = d > box[3 + axis] ? d : box[3 + axis];
			if (d != d) { // NaN: rebuild
				box[3 + axis] = INFINITY;
			}
		}
	}
	memcpy(s->bounds[thread], box, sizeof box);
}

void weft_self_collision_decide(weft_world* world, int32_t thread_count) {
	weft_self_collision* s = world->self;
	float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
	for (int32_t t = 0; t < thread_count; ++t) {
		for (int axis = 0; axis < 3; ++axis) {
			box[axis] = fminf(box[axis], s->bounds[t][axis]);
			box[3 + axis] = fmaxf(box[3 + axis], s->bounds[t][3 + axis]);
		}
	}
	float dx = box[3] - box[0], dy = box[4] - box[1], dz = box[5] - box[2];
	float skin = world->thickness * SKIN;
	// Also rebuilds when a displacement is not finite (the comparison is then false).
	s->rebuild = !s->valid || !(dx * dx + dy * dy + dz * dz <= skin * skin);
	s->valid = true;
	s->rebuilds += s->rebuild;
}

void weft_self_collision_keys(weft_world* world, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	if (!s->rebuild) {
		return;
	}
	const float inverse_cell = 1.0f / (2.0f * reach(world));
	const float* x = world->positions;
	for (int32_t p = begin; p < end; ++p) {
		s->bucket[p] = weft_self_cell_hash(weft_self_cell_coordinate(x[4 * p], inverse_cell),
		                                   weft_self_cell_coordinate(x[4 * p + 1], inverse_cell),
		                                   weft_self_cell_coordinate(x[4 * p + 2], inverse_cell), s->table_size);
	}
}

void weft_self_collision_sort(weft_world* world) {
	weft_self_collision* s = world->self;
	if (!s->rebuild) {
		return;
	}
	const uint32_t n = (uint32_t)world->particle_count, table = s->table_size;
	uint32_t* start = s->cell_start;
	memset(start, 0, ((size_t)table + 1) * sizeof(uint32_t));
	for (uint32_t p = 0; p < n; ++p) {
		start[s->bucket[p] + 1]++;
	}
	for (uint32_t b = 0; b < table; ++b) {
		start[b + 1] += start[b];
	}
	// Scatter in particle order with start[b] as bucket b's cursor; then shift the cursors back.
	for (uint32_t p = 0; p < n; ++p) {
		s->particles[start[s->bucket[p]]++] = p;
	}
	for (uint32_t b = table; b > 0; --b) {
		start[b] = start[b - 1];
	}
	start[0] = 0;
	// The positions in bucket order, so the lists' candidate loops read contiguous memory.
	const float* x = world->positions;
	for (uint32_t k = 0; k < n; ++k) {
		const uint32_t p = s->particles[k];
		memcpy(&s->sorted[4 * k], &x[4 * p], 3 * sizeof(float));
		memcpy(&s->sorted[4 * k + 3], &p, sizeof p);
	}
}

// Adds j (d2 away) to a neighbour list, keeping the nearest MAX_NEIGHBOURS.
static void list_insert(uint32_t* list, float* list_d2, int32_t* count, uint32_t j, float d2) {
	if (*count < MAX_NEIGHBOURS) {
		list[*count] = j;
		list_d2[(*count)++] = d2;
		return;
	}
	int32_t farthest = 0;
	for (int32_t e = 1; e < MAX_NEIGHBOURS; ++e) {
		farthest = list_d2[e] > list_d2[farthest] ? e : farthest;
	}
	if (d2 < list_d2[farthest]) {
		list[farthest] = j;
		list_d2[farthest] = d2;
	}
}

// Candidates within reach, gathered without a branch per candidate and checked in a batch.
#define CANDIDATE_BATCH 64

void weft_self_collision_lists(weft_world* world, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	if (!s->rebuild) {
		return;
	}
	const float r = reach(world), r2 = r * r, inverse_cell = 1.0f / (2.0f * r);
	const float rest_limit = fmaxf(world->thickness, world->self_rest_distance) * REST_TOLERANCE;
	const float rest_limit2 = rest_limit * rest_limit;
	const float* x = world->positions;
	const float* rest = world->rest_positions;
	uint32_t batch[CANDIDATE_BATCH];
	float batch_d2[CANDIDATE_BATCH];
	// In bucket order: neighbouring queries then read the same buckets (the slices are of slots).
	for (int32_t slot = begin; slot < end; ++slot) {
		const int32_t i = (int32_t)s->particles[slot];
		const float* xi = &x[4 * i];
		const float* ri = &rest[4 * i];
		uint32_t* list = &s->neighbours[(size_t)i * MAX_NEIGHBOURS];
		float list_d2[MAX_NEIGHBOURS];
		int32_t count = 0;
		memcpy(&s->built_positions[4 * i], xi, 4 * sizeof(float));
		const int32_t c[3] = {weft_self_cell_coordinate(xi[0], inverse_cell),
		                      weft_self_cell_coordinate(xi[1], inverse_cell),
		                      weft_self_cell_coordinate(xi[2], inverse_cell)};
		// Cells of edge 2r: the sphere of radius r around xi lies in the 2 × 2 × 2 block of its own
		// cell and the neighbours on the sides of the cell's centre where xi sits.
		int32_t side[3];
		for (int axis = 0; axis < 3; ++axis) {
			side[axis] = xi[axis] * inverse_cell - (float)c[axis] < 0.5f ? -1 : 0;
		}
		for (int32_t dz = side[2]; dz <= side[2] + 1; ++dz) {
			for (int32_t dy = side[1]; dy <= side[1] + 1; ++dy) {
				for (int32_t dx = side[0]; dx <= side[0] + 1; ++dx) {
					const int32_t cell[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
					const uint32_t b = weft_self_cell_hash(cell[0], cell[1], cell[2], s->table_size);
					for (uint32_t k = s->cell_start[b], last = s->cell_start[b + 1]; k < last;) {
						// Gather up to a batch of the bucket's particles within reach (no branch each)...
						uint32_t found = 0;
						const uint32_t stop = last - k > CANDIDATE_BATCH ? k + CANDIDATE_BATCH : last;
						for (; k < stop; ++k) {
							const float* xj = &s->sorted[4 * k];
							float ex = xi[0] - xj[0], ey = xi[1] - xj[1], ez = xi[2] - xj[2];
							float d2 = ex * ex + ey * ey + ez * ez;
							batch[found] = k;
							batch_d2[found] = d2;
							found += d2 < r2;
						}
						// ...then keep those of this cell (not another sharing the bucket: no pair
						// twice) that were not close in the rest pose.
						for (uint32_t e = 0; e < found; ++e) {
							const float* xj = &s->sorted[4 * batch[e]];
							const uint32_t j = s->particles[batch[e]];
							if (j == (uint32_t)i || weft_self_cell_coordinate(xj[0], inverse_cell) != cell[0] ||
							    weft_self_cell_coordinate(xj[1], inverse_cell) != cell[1] ||
							    weft_self_cell_coordinate(xj[2], inverse_cell) != cell[2]) {
								continue;
							}
							const float* rj = &rest[4 * j];
							float rx = ri[0] - rj[0], ry = ri[1] - rj[1], rz = ri[2] - rj[2];
							if (rx * rx + ry * ry + rz * rz > rest_limit2) {
								list_insert(list, list_d2, &count, j, batch_d2[e]);
							}
						}
					}
				}
			}
		}
		s->neighbour_count[i] = (uint8_t)count;
	}
}

void weft_self_collision_contacts(weft_world* world, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	const float t = world->thickness;
	const float friction = world->def.friction;
	const float* x = world->positions;
	const float* previous = world->previous_positions;
	for (int32_t i = begin; i < end; ++i) {
		const float* xi = &x[4 * i];
		const float wi = xi[3];
		if (wi == 0.0f || s->neighbour_count[i] == 0) {
			continue; // apply skips it too
		}
		float* out = &s->corrections[4 * i];
		out[0] = out[1] = out[2] = out[3] = 0.0f;
		const float si[3] = {xi[0] - previous[4 * i], xi[1] - previous[4 * i + 1], xi[2] - previous[4 * i + 2]};
		const uint32_t* list = &s->neighbours[(size_t)i * MAX_NEIGHBOURS];
		for (int32_t e = 0; e < s->neighbour_count[i]; ++e) {
			const uint32_t j = list[e];
			const float* xj = &x[4 * j];
			float ex = xi[0] - xj[0], ey = xi[1] - xj[1], ez = xi[2] - xj[2];
			float d2 = ex * ex + ey * ey + ez * ez;
			if (!(d2 < t * t) || d2 < MIN_DISTANCE * MIN_DISTANCE) {
				continue;
			}
			const float share = wi / (wi + xj[3]);
			const float d = sqrtf(d2);
			const float nx = ex / d, ny = ey / d, nz = ez / d;
			const float push = (t - d) * share;
			// Friction: the pair's relative slip over the substep, its tangential part.
			float sx = si[0] - (xj[0] - previous[4 * j]);
			float sy = si[1] - (xj[1] - previous[4 * j + 1]);
			float sz = si[2] - (xj[2] - previous[4 * j + 2]);
			float along = sx * nx + sy * ny + sz * nz;
			float f = friction * share;
			out[0] += push * nx - f * (sx - along * nx);
			out[1] += push * ny - f * (sy - along * ny);
			out[2] += push * nz - f * (sz - along * nz);
			out[3] += 1.0f;
		}
	}
}

void weft_self_collision_apply(weft_world* world, int32_t begin, int32_t end) {
	const weft_self_collision* s = world->self;
	const float* c = s->corrections;
	const float* previous = world->previous_positions;
	const float max_step = MAX_STEP * world->thickness;
	float* x = world->positions;
	for (int32_t p = begin; p < end; ++p) {
		if (s->neighbour_count[p] == 0 || x[4 * p + 3] == 0.0f) {
			continue;
		}
		const float contacts = c[4 * p + 3];
		if (contacts > 0.0f) {
			const float mean = 1.0f / contacts;
			x[4 * p] += c[4 * p] * mean;
			x[4 * p + 1] += c[4 * p + 1] * mean;
			x[4 * p + 2] += c[4 * p + 2] * mean;
		}
		// Near another layer a particle moves at most MAX_STEP thicknesses a substep, so no pair
		// closes in by more than the thickness between two tests.
		float dx = x[4 * p] - previous[4 * p], dy = x[4 * p + 1] - previous[4 * p + 1],
		      dz = x[4 * p + 2] - previous[4 * p + 2];
		float step2 = dx * dx + dy * dy + dz * dz;
		if (step2 > max_step * max_step) {
			float scale = max_step / sqrtf(step2);
			x[4 * p] = previous[4 * p] + dx * scale;
			x[4 * p + 1] = previous[4 * p + 1] + dy * scale;
			x[4 * p + 2] = previous[4 * p + 2] + dz * scale;
		}
	}
}
