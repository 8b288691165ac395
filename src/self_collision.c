// Self-collision: the cloth keeps a thickness t between its layers.
//
// Broad phase: a dense spatial hash. Space is cut into cubic cells of edge r, r = t + skin; each
// particle's cell is hashed into a table of at least 2× the particle count (a power of two), and a
// counting sort (count, prefix sum, scatter in particle order) lays the particle ids out bucket by
// bucket in one flat array, with a copy of their positions, cells and rest positions in the same
// order. The hash is linear in the cell's x (the GPU's too), so the 3 cells of a row are 3
// consecutive buckets: the sphere of radius r around a particle lies in the 27 cells around its
// own, read as 9 slot ranges worked out once for all the particles of a cell (15% faster at fold
// 128² than 8 cells of edge 2r: (3r)³ of candidates, not (4r)³). A bucket may also hold particles of
// other cells (hash collisions), which are skipped; so are rest-pose neighbours, in the same four
// lanes as the distance test (in a single layer every particle within reach is one). From the hash
// each particle gets a list of the particles within r (Verlet lists), nearest first.
//
// The lists stay valid while no unlisted pair can have closed in by more than the skin. The test
// works on patches (blocks of the grid): each substep takes the box of every patch's displacements
// since the build; a pair of patches that were near at the build (boxes within reach + margin) or
// a patch with itself holds while the union of their boxes has a diagonal of at most the skin, and
// all other pairs, farther apart than reach + margin, while the box of all displacements spans at
// most skin + margin. A cloth in free fall or at rest (all Δ alike) keeps its lists, and so does
// one whose parts move only far from each other (a falling flap above a resting pile); a cloth
// folding fast rebuilds every substep. The skin follows the motion: it starts at half a thickness
// (weft_self_collision_view's reach), grows by a quarter at each rebuild of lists that lasted under
// 10 substeps, up to one thickness (its largest_reach: the GPU's lists keep that one), and shrinks
// back after lists that lasted over 40 (a resting pile then rebuilds once more to get the shortest
// lists): measured on the swinging `hang` 64², 2.76 rebuilds a frame become 1.5. The same diagonals bound how far a listed pair can have
// closed in, so a substep's contacts are the prefix of a list built within t + that bound: the
// rest are no contact and are not read (at rest, about half of the listed pairs). Candidates,
// contacts and the patch boxes go four at a time (SSE2 or SIMD128, simd4.h; the contacts 8 at a
// time with AVX2, two particles side by side: self_contacts_avx2.c), lanes computing the scalar
// expressions, so SIMD on or off gives the same bits.
//
// Response (Jacobi, so threads and GPU invocations can each take a particle): for every listed
// particle j closer than t, particle i moves its share w_i'/(w_i'+w_j') of (t − d) away along the
// pair's direction n (from j to i), w' the inverse masses scaled for stacking: w_i' = w_i (1 + l),
// w_j' = w_j (1 − l), l = STACK_LEAN × (n · up), so the upper of a vertical pair takes 3/4 (equal
// masses) and a pile does not sink into itself under its own weight; and friction removes the same
// share of the pair's relative tangential slip over the substep; a particle takes the sum of its
// pushes over their worth in pushes (the sum of their sizes, its shares of the depths, over the
// largest): their mean where they are alike (their sum overshoots in a pile), yet continuous as
// contacts open and close (a plain mean doubles the remaining push when one of two contacts opens:
// the kicks that kept a fold pile from resting).
// Pairs that are close in the rest pose (grid neighbours up to the bend constraints' two spacings,
// and anything within t as built) are never listed: the cloth's own constraints hold them. The
// response's stages take the particles in index order, each thread its own range, and skip those
// with an empty list (a single layer, such as a swinging `hang`, has none): a thread then writes
// only its own particles, as the passes after it read them. (Taken in bucket order, as the lists
// are built, two threads' pushes landed all over each other's ranges: `fold` 128² on two threads
// took 8.3 ms a frame against 5.8, slower than one thread.) Nothing limits speeds, so a cloth that
// touches nothing moves exactly as without self-collision.
#include <math.h>
#include <string.h>

#include "self_collision.h"
#include "simd4.h"

#if defined(WEFT_SIMD)
#define WEFT_CONTACT_LANES 1
// The float4s of particles j[0..3] of a as lanes of x, y, z and w (self_contacts.h).
static inline void gather_xyzw(const float* a, const uint32_t* j, vf* x, vf* y, vf* z, vf* w) {
	*x = vload(&a[4 * j[0]]);
	*y = vload(&a[4 * j[1]]);
	*z = vload(&a[4 * j[2]]);
	*w = vload(&a[4 * j[3]]);
	transpose(x, y, z, w);
}
#endif
#include "self_contacts.h"
#include "solver.h"
#include "vec3.h"

// Skin of the neighbour lists, in thicknesses: the least of the CPU's, which grows by SKIN_GROWTH
// at a rebuild while lists last fewer than SKIN_SHORT substeps, up to SKIN_MAX (or less for a
// cloth thicker than a spacing: largest_skin, the GPU's throughout), and
// shrinks back by the same factor at a rebuild after more than SKIN_LONG (forced then while it is
// above SKIN: a resting pile returns to the shortest lists).
#define SKIN 0.5f
#define SKIN_MAX 1.0f
#define SKIN_GROWTH 1.25f
#define SKIN_SHORT 10
#define SKIN_LONG 40
// Near another layer (a non-empty list), a particle moves at most this many thicknesses a substep.
#define MAX_STEP 0.4f
// Rest-pose distances up to this factor of the rest limit count as "that close at rest".
#define REST_TOLERANCE 1.01f
// The margin on the reach of a substep's contacts (list entries built closer than the thickness
// plus how far the pair can have closed in since): rounding.
#define CONTACT_SLACK 1e-3f
// Patches of the rebuild test: blocks of PATCH_EDGE × PATCH_EDGE grid particles (the edge doubles
// until there are at most MAX_PATCHES). Two patches are near when their boxes at the build are
// within NEAR_MARGIN reaches of each other; NEAR_PAIRS_PER_PATCH bounds the near pairs kept.
// Smaller patches bend and turn less within themselves and with their neighbours, so the lists
// last longer: `fold`, 600 frames, one thread, edge 8 → 4: rebuilds 551 → 473 at 128², 892 → 783
// at 256²; edge 2 rebuilt as often as 4, and its four times as many near pairs made the test
// dearer than the lists it saved (×2 the frame).
#define PATCH_EDGE 4
#define MAX_PATCHES 4096
#define NEAR_MARGIN 1.0f
#define NEAR_PAIRS_PER_PATCH 48
// Stacking: in a contact the upper particle (against gravity) weighs less and the lower more, as
// far as the pair is vertical: their inverse masses times 1 ± STACK_LEAN × (the pair's direction
// · up) (contact_push). Even shares let a pile sink into itself under its own weight: `fold` 256²
// at its 10 substeps ended with 3 419 pairs of triangles through each other, 128² at 5 substeps
// 6 157; with 0.5, none (0.3: 580 at 128², 5 substeps; 0.8: the settled 64² pile jitters at 0.13
// m/s against 0.01).
#define STACK_LEAN 0.5f
// Far beyond every candidate: the padding after the last sorted slot.
#define FAR_AWAY 1.0e30f
// The lists stage's regions (one a thread): bins of the histogram of cell coordinates their
// bounds are read from.
#define REGION_BINS 4096

struct weft_self_collision {
	uint32_t table_size;
	uint32_t* cell_start;  // table_size + 1
	uint32_t* particles;   // particle ids grouped by bucket, ascending in each
	uint32_t* bucket;      // the bucket of each particle at the last rebuild
	float* sorted[3];      // per slot of `particles` (+ 4 padding): that particle's x, y and z
	int32_t* cell;         // per particle: its cell's coordinates at the last rebuild (3 each)
	int32_t* sorted_cell;  // per slot: its cell's coordinates (3 each)
	float* sorted_rest[3]; // per slot (+ 4 padding): that particle's rest x, y and z
	uint64_t* neighbours;  // MAX_NEIGHBOURS per particle, each entry_key(squared distance at the build, partner)
	uint8_t* neighbour_count;
	uint64_t* farthest;      // per particle with a full list: its largest entry (the one a nearer partner replaces)
	int32_t* particle_patch; // the patch of each particle
	float* patch_reach2;     // per patch, this substep: entries built farther than this (squared) are no contact
	float* built_positions;  // float4 per particle: positions when the lists were built
	float* corrections;      // float4 per particle: this substep's pushes (xyz) and their scale (w, apply)
	int32_t patch_edge, patches_u, patch_count;
	float* patch_moves;      // per patch: min xyz, max xyz of its displacements since the build
	float* patch_boxes;      // per patch: min xyz, max xyz of its positions at the build
	uint16_t* near_pairs;    // pairs (p, q), p < q, of near patches at the build
	uint16_t* patch_order;   // the patches by the low x of their boxes at the build
	float* sweep_boxes[6];   // the boxes in that order (+ 4 padding): min x, y, z, max x, y, z, one array each
	int32_t near_pair_count; // -1: too many to keep (the test falls back to one box for all)
	float skin;              // the skin of the current lists, in thicknesses (SKIN to SKIN_MAX)
	int32_t lasted;          // substeps since the current lists were built
	bool valid;              // the lists hold for the current positions
	bool rebuild;            // this substep rebuilds them
	int32_t lanes;           // 0 (scalar), 4 or 8: this frame's solve's (the contacts' lanes; 8: 4 elsewhere)
	int64_t rebuilds;
	// The lists stage's regions: thread t builds the lists of the particles whose cell coordinate
	// along region_axis (1: y, 2: z) lies in [region_bounds[t], region_bounds[t + 1]).
	int32_t region_axis;
	int64_t region_bounds[WEFT_MAX_THREADS + 1];
	int32_t region_histogram[REGION_BINS];
};

uint32_t weft_self_collision_table_size(int32_t particle_count) {
	uint32_t table = 1;
	while (table < 2u * (uint32_t)particle_count) {
		table <<= 1;
	}
	return table;
}

// Patch edge (grid particles) for a width × height grid: PATCH_EDGE, doubled until at most
// MAX_PATCHES patches cover the grid.
static int32_t patch_edge_for(int32_t width, int32_t height) {
	int32_t edge = PATCH_EDGE;
	while ((int64_t)((width + edge - 1) / edge) * ((height + edge - 1) / edge) > MAX_PATCHES) {
		edge *= 2;
	}
	return edge;
}

int32_t weft_self_collision_patch_count(const weft_world* world) {
	const int32_t edge = patch_edge_for(world->width, world->height);
	return ((world->width + edge - 1) / edge) * ((world->height + edge - 1) / edge);
}

static void patch_block(const weft_world* world, int32_t patch, int32_t* u0, int32_t* u1, int32_t* v0, int32_t* v1);

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
	s->skin = SKIN;
	const size_t n = (size_t)world->particle_count;
	s->table_size = weft_self_collision_table_size(world->particle_count);
	s->patch_edge = patch_edge_for(world->width, world->height);
	s->patches_u = (world->width + s->patch_edge - 1) / s->patch_edge;
	s->patch_count = weft_self_collision_patch_count(world);
	const size_t patches = (size_t)s->patch_count;
	s->cell_start = weft_alloc(a, ((size_t)s->table_size + 1) * sizeof(uint32_t));
	s->particles = weft_alloc(a, n * sizeof(uint32_t));
	s->bucket = weft_alloc(a, n * sizeof(uint32_t));
	for (int axis = 0; axis < 3; ++axis) {
		s->sorted[axis] = weft_alloc(a, (n + 4) * sizeof(float));
	}
	s->cell = weft_alloc(a, n * 3 * sizeof(int32_t));
	s->sorted_cell = weft_alloc(a, n * 3 * sizeof(int32_t));
	for (int axis = 0; axis < 3; ++axis) {
		s->sorted_rest[axis] = weft_alloc(a, (n + 4) * sizeof(float));
	}
	s->neighbours = weft_alloc(a, n * MAX_NEIGHBOURS * sizeof(uint64_t));
	s->neighbour_count = weft_alloc(a, n);
	s->farthest = weft_alloc(a, n * sizeof(uint64_t));
	s->particle_patch = weft_alloc(a, n * sizeof(int32_t));
	s->patch_reach2 = weft_alloc(a, patches * sizeof(float));
	s->built_positions = weft_alloc(a, n * 4 * sizeof(float));
	s->corrections = weft_alloc(a, n * 4 * sizeof(float));
	s->patch_moves = weft_alloc(a, patches * 6 * sizeof(float));
	s->patch_boxes = weft_alloc(a, patches * 6 * sizeof(float));
	s->near_pairs = weft_alloc(a, patches * NEAR_PAIRS_PER_PATCH * 2 * sizeof(uint16_t));
	s->patch_order = weft_alloc(a, patches * sizeof(uint16_t));
	bool sweep_allocated = true;
	for (int k = 0; k < 6; ++k) {
		s->sweep_boxes[k] = weft_alloc(a, (patches + 4) * sizeof(float));
		sweep_allocated &= s->sweep_boxes[k] != NULL;
	}
	world->self = s;
	if (!s->cell_start || !s->particles || !s->bucket || !s->sorted[0] || !s->sorted[1] || !s->sorted[2] ||
	    !s->sorted_cell || !s->sorted_rest[0] || !s->sorted_rest[1] || !s->sorted_rest[2] || !s->neighbours ||
	    !s->neighbour_count || !s->farthest || !s->particle_patch || !s->patch_reach2 || !s->built_positions ||
	    !s->corrections || !s->patch_moves || !s->patch_boxes || !s->near_pairs || !s->patch_order || !s->cell ||
	    !sweep_allocated) {
		weft_self_collision_destroy(world);
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for self-collision of %d particles",
		                 (int)world->particle_count);
	}
	for (int32_t patch = 0; patch < s->patch_count; ++patch) {
		s->patch_order[patch] = (uint16_t)patch;
		int32_t u0, u1, v0, v1;
		patch_block(world, patch, &u0, &u1, &v0, &v1);
		for (int32_t v = v0; v < v1; ++v) {
			for (int32_t u = u0; u < u1; ++u) {
				s->particle_patch[v * world->width + u] = patch;
			}
		}
	}
	for (int k = 0; k < 6; ++k) {
		for (size_t m = patches; m < patches + 4; ++m) {
			s->sweep_boxes[k][m] = INFINITY; // past the last patch: beyond any reach, the sweep stops
		}
	}
	for (int axis = 0; axis < 3; ++axis) {
		for (size_t k = n; k < n + 4; ++k) {
			s->sorted[axis][k] = FAR_AWAY;
			s->sorted_rest[axis][k] = 0.0f;
		}
	}
	return WEFT_OK;
}

void weft_self_collision_destroy(weft_world* world) {
	weft_self_collision* s = world->self;
	if (s == NULL) {
		return;
	}
	const weft_allocator* a = &world->allocator;
	void* arrays[] = {s->cell_start,     s->particles,       s->bucket,          s->sorted[0],      s->sorted[1],
	                  s->sorted[2],      s->sorted_cell,     s->sorted_rest[0],  s->sorted_rest[1], s->sorted_rest[2],
	                  s->neighbours,     s->neighbour_count, s->built_positions, s->corrections,    s->patch_moves,
	                  s->patch_boxes,    s->near_pairs,      s->particle_patch,  s->patch_reach2,   s->patch_order,
	                  s->cell,           s->farthest,        s->sweep_boxes[0],  s->sweep_boxes[1], s->sweep_boxes[2],
	                  s->sweep_boxes[3], s->sweep_boxes[4],  s->sweep_boxes[5]};
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) {
		weft_free(a, arrays[k]);
	}
	weft_free(a, s);
	world->self = NULL;
}

void weft_self_collision_invalidate(weft_world* world) {
	if (world->self != NULL) {
		world->self->valid = false;
		world->self->skin = SKIN;
		world->self->rebuilds = 0;
	}
}

int32_t weft_self_cell_coordinate(float x, float inverse_cell) { return weft_floor_clamped(x * inverse_cell, 1.0e9f); }

// Linear in x: the cells x - 1, x, x + 1 of a row are consecutive buckets (the GPU's hash too).
static uint32_t row_hash(int32_t cy, int32_t cz) {
	return ((uint32_t)cy * WEFT_SELF_HASH_PRIME_Y) ^ ((uint32_t)cz * WEFT_SELF_HASH_PRIME_Z);
}

uint32_t weft_self_cell_hash(int32_t cx, int32_t cy, int32_t cz, uint32_t table_size) {
	return ((uint32_t)cx + row_hash(cy, cz)) & (table_size - 1);
}

// The least reach (weft_self_collision_view), and the reach of the CPU's current lists.
static float reach(const weft_world* world) { return world->thickness * (1.0f + SKIN); }
static float list_reach(const weft_world* world) { return world->thickness * (1.0f + world->self->skin); }
static float largest_skin(const weft_world* world);

void weft_self_collision_describe(const weft_world* world, weft_self_collision_view* out) {
	out->enabled = world->def.self_collision;
	out->thickness = world->thickness;
	out->reach = reach(world);
	out->largest_reach = world->thickness * (1.0f + largest_skin(world));
	out->rest_distance = fmaxf(world->thickness, world->self_rest_distance);
	out->max_step = MAX_STEP * world->thickness;
	out->table_size = weft_self_collision_table_size(world->particle_count);
	out->rebuilds = world->self != NULL ? world->self->rebuilds : 0;
}

// The grid block of patch `patch`: columns [u0, u1), rows [v0, v1).
static void patch_block(const weft_world* world, int32_t patch, int32_t* u0, int32_t* u1, int32_t* v0, int32_t* v1) {
	const weft_self_collision* s = world->self;
	const int32_t edge = s->patch_edge;
	*u0 = (patch % s->patches_u) * edge;
	*v0 = (patch / s->patches_u) * edge;
	*u1 = *u0 + edge < world->width ? *u0 + edge : world->width;
	*v1 = *v0 + edge < world->height ? *v0 + edge : world->height;
}

static void box_empty(float* box) {
	box[0] = box[1] = box[2] = INFINITY;
	box[3] = box[4] = box[5] = -INFINITY;
}

static inline float smaller(float a, float b) { return b < a ? b : a; }
static inline float larger(float a, float b) { return b > a ? b : a; }

static void box_add(float* box, const float* other) {
	for (int axis = 0; axis < 3; ++axis) {
		box[axis] = smaller(box[axis], other[axis]);
		box[3 + axis] = larger(box[3 + axis], other[3 + axis]);
	}
}

// Squared diagonal of the union of two boxes (NaN-safe: a NaN corner gives +inf).
static float union_diagonal2(const float* a, const float* b) {
	float d2 = 0.0f;
	for (int axis = 0; axis < 3; ++axis) {
		float e = larger(a[3 + axis], b[3 + axis]) - smaller(a[axis], b[axis]);
		d2 += e * e;
	}
	return d2 == d2 ? d2 : INFINITY;
}

void weft_self_collision_bounds(weft_world* world, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	const float* x = world->positions;
	const float* built = s->built_positions;
	for (int32_t patch = begin; patch < end; ++patch) {
		float box[6];
		box_empty(box);
		bool not_finite = false;
		int32_t u0, u1, v0, v1;
		patch_block(world, patch, &u0, &u1, &v0, &v1);
#if defined(WEFT_SIMD)
		if (world->simd_width > 0) {
			// Lanes x, y, z, w: the w lane (inverse masses) has no displacement and is ignored.
			vf low = vsplat(INFINITY), high = vsplat(-INFINITY), nan = vsplat(0.0f);
			for (int32_t v = v0; v < v1; ++v) {
				for (int32_t p = v * world->width + u0, last = v * world->width + u1; p < last; ++p) {
					const vf d = vsub(vload(&x[4 * p]), vload(&built[4 * p]));
					low = vmin(low, d);
					high = vmax(high, d);
					nan = vor(nan, visnan(d));
				}
			}
			float l[4], h[4];
			vstore(l, low);
			vstore(h, high);
			memcpy(box, l, 3 * sizeof(float));
			memcpy(&box[3], h, 3 * sizeof(float));
			not_finite = (vbits(nan) & 7) != 0;
		} else
#endif
		{
			for (int32_t v = v0; v < v1; ++v) {
				for (int32_t p = v * world->width + u0, last = v * world->width + u1; p < last; ++p) {
					for (int axis = 0; axis < 3; ++axis) {
						float d = x[4 * p + axis] - built[4 * p + axis];
						box[axis] = d < box[axis] ? d : box[axis];
						box[3 + axis] = d > box[3 + axis] ? d : box[3 + axis];
						not_finite |= d != d;
					}
				}
			}
		}
		if (not_finite) { // NaN: rebuild
			box[3] = INFINITY;
		}
		memcpy(&s->patch_moves[6 * patch], box, sizeof box);
	}
}

// The largest skin (thicknesses): SKIN_MAX, but the lists reach no farther than the rest-pose
// limit where the least skin stays within it. Beyond it a flat layer's lists fill with its own
// particles (√5 spacings apart at rest), which touch only where the cloth is squeezed to the
// thickness. At 1.3 spacings of thickness (a skin of at most 0.54 here) `fold` 128² takes 3% fewer
// instructions than at one spacing, and 20% more with a skin of up to 1 (callgrind, 300 frames).
// At one spacing of thickness the limit is two spacings, a skin of 1: SKIN_MAX.
static float largest_skin(const weft_world* world) {
	const float within_rest = fmaxf(world->thickness, world->self_rest_distance) / world->thickness - 1.0f;
	return fmaxf(SKIN, fminf(SKIN_MAX, within_rest));
}

// The lists hold while no unlisted pair can be closer than the thickness. A pair of near patches
// (or of one patch) was farther than the reach r at the build, so it holds while their joint box
// of displacements spans at most the skin; a pair of other patches was farther than r + margin,
// so it holds while the box of all displacements spans at most skin + margin. A cloth moving as
// one keeps its lists, and so does a pile whose parts move only far from each other.
// The skin adapts to the motion (all in this whole stage, so threads and SIMD see the same): lists
// that last under SKIN_SHORT substeps make the next skin wider (fewer rebuilds, longer lists),
// lists that last over SKIN_LONG narrower (shorter lists: a resting pile tests fewer pairs).
void weft_self_collision_decide(weft_world* world) {
	weft_self_collision* s = world->self;
	const float skin = world->thickness * s->skin;
	const float far_skin = skin + NEAR_MARGIN * list_reach(world);
	bool rebuild = !s->valid || (s->lasted > SKIN_LONG && s->skin > SKIN);
	// Per patch, the most one of its particles and a listed partner (of its patch or a near one)
	// can have closed in since the build (squared): the joint boxes' diagonals.
	float* closure2 = s->patch_reach2;
	if (!rebuild) {
		float all[6];
		box_empty(all);
		for (int32_t patch = 0; patch < s->patch_count; ++patch) {
			const float* moves = &s->patch_moves[6 * patch];
			box_add(all, moves);
			closure2[patch] = union_diagonal2(moves, moves);
			rebuild |= !(closure2[patch] <= skin * skin);
		}
		const float all2 = union_diagonal2(all, all);
		const float limit = s->near_pair_count < 0 ? skin : far_skin;
		rebuild |= !(all2 <= limit * limit);
		// Every displacement within one box no wider than the skin (a resting pile, a cloth moving
		// as one): every pair holds, and all2 bounds each patch's closure, so the pairs are not
		// looked at (`fold` 128²: 70% of the substeps; 64² 93%, 256² 64%). Their contacts then read
		// entries up to t + that bound, farther than a pair's own, which adds no contact.
		const bool quiet = all2 <= skin * skin;
		for (int32_t k = 0; k < s->near_pair_count && !rebuild && !quiet; ++k) {
			const int32_t p = s->near_pairs[2 * k], q = s->near_pairs[2 * k + 1];
			const float d2 = union_diagonal2(&s->patch_moves[6 * p], &s->patch_moves[6 * q]);
			closure2[p] = larger(closure2[p], d2);
			closure2[q] = larger(closure2[q], d2);
			rebuild = !(d2 <= skin * skin);
		}
		// The contacts of this substep: entries built within t + that closure.
		const float within_all = (world->thickness + sqrtf(all2)) * (1.0f + CONTACT_SLACK);
		for (int32_t patch = 0; patch < s->patch_count && !rebuild; ++patch) {
			if (quiet || s->near_pair_count < 0) {
				closure2[patch] = within_all * within_all;
				continue;
			}
			const float c = sqrtf(closure2[patch]);
			const float within = (world->thickness + c) * (1.0f + CONTACT_SLACK);
			closure2[patch] = within * within;
		}
	}
	if (rebuild) { // fresh lists: entries within t (and the slack) are the contacts
		const float within = world->thickness * (1.0f + CONTACT_SLACK);
		for (int32_t patch = 0; patch < s->patch_count; ++patch) {
			closure2[patch] = within * within;
		}
	}
	if (rebuild && s->valid) {
		const int32_t lasted = s->lasted + 1;
		if (lasted < SKIN_SHORT) {
			const float largest = largest_skin(world);
			s->skin = s->skin * SKIN_GROWTH < largest ? s->skin * SKIN_GROWTH : largest;
		} else if (lasted > SKIN_LONG) {
			s->skin = s->skin / SKIN_GROWTH > SKIN ? s->skin / SKIN_GROWTH : SKIN;
		}
	}
	s->lasted = rebuild ? 0 : s->lasted + 1;
	s->rebuild = rebuild;
	s->lanes = world->simd_width;
	s->valid = true;
	s->rebuilds += rebuild;
}

void weft_self_collision_keys(weft_world* world, int32_t begin, int32_t end) {
	weft_self_collision* s = world->self;
	if (!s->rebuild) {
		return;
	}
	const float inverse_cell = 1.0f / list_reach(world);
	const float* x = world->positions;
	for (int32_t p = begin; p < end; ++p) {
		// The lists' positions (the rebuild test's origin), from the thread that owns p.
		memcpy(&s->built_positions[4 * p], &x[4 * p], 4 * sizeof(float));
		int32_t* c = &s->cell[3 * p];
		for (int axis = 0; axis < 3; ++axis) {
			c[axis] = weft_self_cell_coordinate(x[4 * p + axis], inverse_cell);
		}
		s->bucket[p] = weft_self_cell_hash(c[0], c[1], c[2], s->table_size);
	}
}

// The patches' boxes at the build and the pairs of them within reach + margin (gap along the
// axis where they are farthest apart: never more than their distance).
static void find_near_patches(weft_world* world) {
	weft_self_collision* s = world->self;
	const float* x = world->positions;
	for (int32_t patch = 0; patch < s->patch_count; ++patch) {
		float* box = &s->patch_boxes[6 * patch];
		box_empty(box);
		int32_t u0, u1, v0, v1;
		patch_block(world, patch, &u0, &u1, &v0, &v1);
#if defined(WEFT_SIMD)
		if (world->simd_width > 0) {
			// Lanes x, y, z, w (the w lane's inverse masses ignored). vmin(x, low) is x < low ? x : low
			// on SSE2 as in the scalar path; either way a box of finite positions gets the same values.
			vf low = vsplat(INFINITY), high = vsplat(-INFINITY);
			for (int32_t v = v0; v < v1; ++v) {
				for (int32_t p = v * world->width + u0, last = v * world->width + u1; p < last; ++p) {
					const vf position = vload(&x[4 * p]);
					low = vmin(position, low);
					high = vmax(position, high);
				}
			}
			float l[4], h[4];
			vstore(l, low);
			vstore(h, high);
			memcpy(box, l, 3 * sizeof(float));
			memcpy(&box[3], h, 3 * sizeof(float));
			continue;
		}
#endif
		for (int32_t v = v0; v < v1; ++v) {
			for (int32_t p = v * world->width + u0, last = v * world->width + u1; p < last; ++p) {
				for (int axis = 0; axis < 3; ++axis) {
					box[axis] = smaller(box[axis], x[4 * p + axis]);
					box[3 + axis] = larger(box[3 + axis], x[4 * p + axis]);
				}
			}
		}
	}
	// Sweep and prune along x: the patches by the low x of their boxes (insertion sort from the last
	// build's order, nearly sorted already), each paired with those after it that start within reach
	// + margin of its high x (the same pairs as testing them all, found in a different order).
	uint16_t* order = s->patch_order;
	const float* boxes = s->patch_boxes;
	for (int32_t k = 1; k < s->patch_count; ++k) {
		const uint16_t patch = order[k];
		const float low = boxes[6 * patch];
		int32_t at = k;
		for (; at > 0 && boxes[6 * order[at - 1]] > low; --at) {
			order[at] = order[at - 1];
		}
		order[at] = patch;
	}
	for (int32_t k = 0; k < s->patch_count; ++k) {
		for (int m = 0; m < 6; ++m) {
			s->sweep_boxes[m][k] = boxes[6 * order[k] + m];
		}
	}
	// A pair is near where none of the six gaps (one box's low side beyond the other's high side,
	// either way, along each axis) exceeds reach + margin: a NaN gap exceeds nothing.
	const float near = list_reach(world) * (1.0f + NEAR_MARGIN);
	const int32_t capacity = s->patch_count * NEAR_PAIRS_PER_PATCH;
	const float* const* sweep = (const float* const*)s->sweep_boxes;
	int32_t count = 0;
	for (int32_t k = 0; k < s->patch_count && count >= 0; ++k) {
		const int32_t p = order[k];
		float a[6];
		for (int m = 0; m < 6; ++m) {
			a[m] = sweep[m][k];
		}
		// Candidates in sweep order while their low x is within near of a's high x, four at a time
		// (padding past the last patch stops it); the near ones appended in that order.
		for (int32_t l = k + 1; l < s->patch_count; l += 4) {
			int32_t within, far;
#if defined(WEFT_SIMD)
			if (world->simd_width > 0) {
				const vf v_near = vsplat(near);
				const vf low_x = vload(&sweep[0][l]);
				within = vbits(vgreater_equal(v_near, vsub(low_x, vsplat(a[3]))));
				vf beyond = vgreater(vsub(vsplat(a[0]), vload(&sweep[3][l])), v_near);
				for (int axis = 1; axis < 3; ++axis) {
					beyond = vor(beyond, vgreater(vsub(vsplat(a[axis]), vload(&sweep[3 + axis][l])), v_near));
					beyond = vor(beyond, vgreater(vsub(vload(&sweep[axis][l]), vsplat(a[3 + axis])), v_near));
				}
				far = vbits(beyond);
			} else
#endif
			{
				within = far = 0;
				for (int32_t m = 0; m < 4; ++m) {
					within |= (sweep[0][l + m] - a[3] <= near) << m;
					bool beyond = a[0] - sweep[3][l + m] > near;
					for (int axis = 1; axis < 3; ++axis) {
						beyond |= a[axis] - sweep[3 + axis][l + m] > near;
						beyond |= sweep[axis][l + m] - a[3 + axis] > near;
					}
					far |= beyond << m;
				}
			}
			// The lanes before the first one beyond the window (sorted by low x: the rest are too).
			const int32_t window = __builtin_ctz((uint32_t)~within | 0x10u);
			int32_t found = within & ~far & ((1 << window) - 1);
			while (found != 0) {
				const int32_t q = order[l + __builtin_ctz((uint32_t)found)];
				found &= found - 1;
				if (count == capacity) {
					count = -1;
					break;
				}
				s->near_pairs[2 * count] = (uint16_t)(p < q ? p : q);
				s->near_pairs[2 * count + 1] = (uint16_t)(p < q ? q : p);
				count++;
			}
			if (window < 4 || count < 0) {
				break;
			}
		}
	}
	s->near_pair_count = count;
}

// The lists stage's regions for thread_count threads (weft_self_collision_lists): slabs of cells
// along y or z, whichever the particles span farther, with as many particles each.
static void choose_regions(weft_world* world, int32_t thread_count) {
	weft_self_collision* s = world->self;
	const int32_t n = world->particle_count;
	s->region_axis = 2;
	s->region_bounds[0] = INT64_MIN;
	s->region_bounds[thread_count] = INT64_MAX;
	if (thread_count == 1) {
		return;
	}
	int32_t low[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, high[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
	for (int32_t p = 0; p < n; ++p) {
		for (int axis = 1; axis < 3; ++axis) {
			const int32_t c = s->cell[3 * p + axis];
			low[axis] = c < low[axis] ? c : low[axis];
			high[axis] = c > high[axis] ? c : high[axis];
		}
	}
	const int64_t span_y = (int64_t)high[1] - low[1] + 1, span_z = (int64_t)high[2] - low[2] + 1;
	const int32_t axis = span_y > span_z ? 1 : 2;
	s->region_axis = axis;
	const int64_t span = axis == 1 ? span_y : span_z;
	const int64_t width = (span + REGION_BINS - 1) / REGION_BINS; // cells a bin
	memset(s->region_histogram, 0, sizeof s->region_histogram);
	for (int32_t p = 0; p < n; ++p) {
		s->region_histogram[((int64_t)s->cell[3 * p + axis] - low[axis]) / width]++;
	}
	// Thread t's slab starts at the first bin before which t / thread_count of the particles lie.
	int64_t below = 0;
	int32_t bin = 0;
	for (int32_t t = 1; t < thread_count; ++t) {
		const int64_t share = (int64_t)n * t / thread_count;
		while (bin < REGION_BINS && below + s->region_histogram[bin] <= share) {
			below += s->region_histogram[bin++];
		}
		s->region_bounds[t] = low[axis] + bin * width;
	}
}

// The counting sort of the particles by bucket, and their positions, cells and rest positions in
// bucket order.
static void sort_by_bucket(weft_world* world) {
	weft_self_collision* s = world->self;
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
	// The positions and cells in bucket order, so the lists' candidate loops read contiguous memory.
	const float* x = world->positions;
	const float* rest = world->rest_positions;
	for (uint32_t k = 0; k < n; ++k) {
		const uint32_t p = s->particles[k];
		for (int axis = 0; axis < 3; ++axis) {
			s->sorted[axis][k] = x[4 * p + axis];
			s->sorted_cell[3 * k + axis] = s->cell[3 * p + axis];
			s->sorted_rest[axis][k] = rest[4 * p + axis];
		}
	}
}

// Neither part reads what the other writes (both read the positions and the keys stage's cells),
// so with two threads or more they run side by side: the near patches' sweep is the dearer part
// (at 256² three times the sort's time).
void weft_self_collision_sort(weft_world* world, int32_t thread, int32_t thread_count) {
	if (!world->self->rebuild) {
		return;
	}
	if (thread == 0) {
		sort_by_bucket(world);
	}
	if (thread == (thread_count > 1 ? 1 : 0)) {
		find_near_patches(world);
		choose_regions(world, thread_count);
	}
}

// The largest of a full list's entries.
static uint64_t largest_entry(const uint64_t* list) {
	uint64_t largest = list[0];
	for (int32_t e = 1; e < MAX_NEIGHBOURS; ++e) {
		largest = list[e] > largest ? list[e] : largest;
	}
	return largest;
}

// Adds j (d2 away) to particle i's list, keeping the nearest MAX_NEIGHBOURS. A full list keeps its
// largest entry at hand: in a pile most candidates are farther and are turned away by one
// comparison (at `fold` 256² one insertion in seven finds its list full).
static inline __attribute__((always_inline)) void list_insert(weft_self_collision* s, uint32_t i, uint32_t j,
                                                              float d2) {
	uint64_t* list = &s->neighbours[(size_t)i * MAX_NEIGHBOURS];
	const uint64_t key = entry_key(d2, j);
	const int32_t count = s->neighbour_count[i];
	if (count < MAX_NEIGHBOURS) {
		list[count] = key;
		s->neighbour_count[i] = (uint8_t)(count + 1);
		if (count + 1 == MAX_NEIGHBOURS) {
			s->farthest[i] = largest_entry(list);
		}
		return;
	}
	if (key < s->farthest[i]) {
		int32_t e = 0;
		while (list[e] != s->farthest[i]) {
			++e; // entries are distinct (their partners are): the largest is one of them
		}
		list[e] = key;
		s->farthest[i] = largest_entry(list);
	}
}

// Slots k in [first, last) of one bucket whose particle is within r2 of xi and not within
// rest_limit2 of ri in the rest pose: bit k - first of the returned masks, four slots at a time
// (the lanes compute the scalar expressions). In a single layer every particle within reach is a
// rest-pose neighbour: the lanes drop them without a branch each.
static inline __attribute__((always_inline)) uint32_t scan_four(const weft_self_collision* s, const float* xi,
                                                                const float* ri, float r2, float rest_limit2,
                                                                uint32_t k, uint32_t last) {
	uint32_t mask = 0;
#if defined(WEFT_SIMD)
	if (s->lanes > 0) {
		vf ex = vsub(vsplat(xi[0]), vload(&s->sorted[0][k]));
		vf ey = vsub(vsplat(xi[1]), vload(&s->sorted[1][k]));
		vf ez = vsub(vsplat(xi[2]), vload(&s->sorted[2][k]));
		vf d2 = vadd(vadd(vmul(ex, ex), vmul(ey, ey)), vmul(ez, ez));
		mask = (uint32_t)vless_bits(d2, vsplat(r2));
		vf rx = vsub(vsplat(ri[0]), vload(&s->sorted_rest[0][k]));
		vf ry = vsub(vsplat(ri[1]), vload(&s->sorted_rest[1][k]));
		vf rz = vsub(vsplat(ri[2]), vload(&s->sorted_rest[2][k]));
		vf rest2 = vadd(vadd(vmul(rx, rx), vmul(ry, ry)), vmul(rz, rz));
		mask &= (uint32_t)vless_bits(vsplat(rest_limit2), rest2);
	} else
#endif
	{
		for (uint32_t lane = 0; lane < 4; ++lane) {
			float ex = xi[0] - s->sorted[0][k + lane], ey = xi[1] - s->sorted[1][k + lane],
			      ez = xi[2] - s->sorted[2][k + lane];
			float rx = ri[0] - s->sorted_rest[0][k + lane], ry = ri[1] - s->sorted_rest[1][k + lane],
			      rz = ri[2] - s->sorted_rest[2][k + lane];
			mask |= (uint32_t)(ex * ex + ey * ey + ez * ez < r2 && rx * rx + ry * ry + rz * rz > rest_limit2) << lane;
		}
	}
	const uint32_t left = last - k;
	return left >= 4 ? mask : mask & ((1u << left) - 1u);
}

// A range of slots of a row of 3 cells around a particle's cell (dy, dz = -1…1): a row's buckets
// are one range, or two where they wrap past the table's end. At most 18 a cell, empty ones left out.
#define MAX_RANGES 18
typedef struct slot_range {
	uint32_t begin, end;
	int32_t y, z; // the row's cells
	bool own;     // the row lies in the lists stage's region of the thread that reads it
} slot_range;

// The 9 rows of cells of edge r around `cell`: the sphere of radius r around any point of the cell
// lies in them. (Leaving out the rows and end cells that a particle's sphere cannot reach saves
// fewer candidate tests than working the rows out once a cell costs: lists 25–33% faster at
// `hang` 64² and `fold` 128², the same lists.)
static int32_t row_ranges(const weft_world* world, const int32_t cell[3], int64_t region_low, int64_t region_high,
                          slot_range ranges[MAX_RANGES]) {
	const weft_self_collision* s = world->self;
	int32_t count = 0;
	for (int32_t dz = -1; dz <= 1; ++dz) {
		for (int32_t dy = -1; dy <= 1; ++dy) {
			const int32_t cy = cell[1] + dy, cz = cell[2] + dz;
			const int32_t along = s->region_axis == 1 ? cy : cz;
			const bool own = along >= region_low && along < region_high;
			const uint32_t b = weft_self_cell_hash(cell[0] - 1, cy, cz, s->table_size);
			const bool wraps = b + 3 > s->table_size;
			const slot_range row[2] = {
			    {s->cell_start[b], wraps ? (uint32_t)world->particle_count : s->cell_start[b + 3], cy, cz, own},
			    {0, wraps ? s->cell_start[b + 3 - s->table_size] : 0, cy, cz, own}};
			for (int part = 0; part < 2; ++part) {
				if (row[part].begin < row[part].end) {
					ranges[count++] = row[part];
				}
			}
		}
	}
	return count;
}

// A particle's candidates within reach and not close in the rest pose, as the scan finds them: each
// its slot and (above FOUND_SLOT_BITS) the row range it came from. Appended without a branch (all
// four lanes' entries are written, the found ones first, and the count grows by how many), then
// put in the lists together: the scan's tests four at a time no longer branch on what they found
// (`fold` 128², 150 frames, callgrind: the lists' mispredicted branches 68 M → 33 M; alternated,
// 300 frames, 8.29 → 7.68 ms a frame; at 256² its stores cost what its branches saved, 75.9 → 76.3).
#define FOUND_MAX 256
#define FOUND_SLOT_BITS 27 // slots below 2^27: particles (a world has fewer than 2^24)
_Static_assert(MAX_RANGES < 1 << (32 - FOUND_SLOT_BITS), "a range index fits above the slot");
typedef struct found_candidates {
	uint32_t entry[FOUND_MAX];
	uint32_t count;
} found_candidates;
// For each mask of four lanes: its set lanes in order, then the others (written past the count).
static const uint8_t FOUND_LANES[16][4] = {
    {0, 1, 2, 3}, {0, 1, 2, 3}, {1, 0, 2, 3}, {0, 1, 2, 3}, {2, 0, 1, 3}, {0, 2, 1, 3}, {1, 2, 0, 3}, {0, 1, 2, 3},
    {3, 0, 1, 2}, {0, 3, 1, 2}, {1, 3, 0, 2}, {0, 1, 3, 2}, {2, 3, 0, 1}, {0, 2, 3, 1}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const uint8_t FOUND_COUNT[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// Puts the found candidates of particle i (cell `cell`) in its list, those of this row's cells only
// (not others sharing the buckets: no pair twice), and i in the partner's where the partner's row
// is in this call's region (its list is this call's, and its own scan does not look back at i).
static void list_found(weft_self_collision* s, uint32_t i, const float* xi, const int32_t cell[3],
                       const slot_range* ranges, found_candidates* found) {
	for (uint32_t e = 0; e < found->count; ++e) {
		const uint32_t slot_j = found->entry[e] & ((1u << FOUND_SLOT_BITS) - 1u);
		const slot_range* range = &ranges[found->entry[e] >> FOUND_SLOT_BITS];
		const int32_t* cj = &s->sorted_cell[3 * slot_j];
		if (cj[1] == range->y && cj[2] == range->z && cj[0] >= cell[0] - 1 && cj[0] <= cell[0] + 1) {
			const uint32_t j = s->particles[slot_j];
			float ex = xi[0] - s->sorted[0][slot_j], ey = xi[1] - s->sorted[1][slot_j],
			      ez = xi[2] - s->sorted[2][slot_j];
			const float d2 = ex * ex + ey * ey + ez * ez; // the same bits from j's side
			list_insert(s, i, j, d2);
			if (range->own) {
				list_insert(s, j, i, d2);
			}
		}
	}
	found->count = 0;
}

// The candidates in slots [from, to) of row range ranges[r] within reach of xi and not close in the rest
// pose, appended to `found` (put in the lists first when it might overflow).
static inline __attribute__((always_inline)) void scan_slots(weft_self_collision* s, uint32_t i, const float* xi,
                                                             const float ri[3], const int32_t cell[3],
                                                             const slot_range* ranges, uint8_t r, uint32_t from,
                                                             uint32_t to, float r2, float rest_limit2,
                                                             found_candidates* found) {
	for (uint32_t k = from; k < to; k += 4) {
		if (found->count > FOUND_MAX - 4) {
			list_found(s, i, xi, cell, ranges, found);
		}
		const uint32_t mask = scan_four(s, xi, ri, r2, rest_limit2, k, to);
		const uint32_t base = (uint32_t)r << FOUND_SLOT_BITS | k;
		for (uint32_t q = 0; q < 4; ++q) {
			found->entry[found->count + q] = base + FOUND_LANES[mask][q];
		}
		found->count += FOUND_COUNT[mask];
	}
}

// The smaller of entries a and b to a, the larger to b, without a branch.
static inline __attribute__((always_inline)) void order_pair(uint64_t* list, int32_t a, int32_t b) {
	const uint64_t x = list[a], y = list[b];
	list[a] = x < y ? x : y;
	list[b] = x < y ? y : x;
}

// Batcher's odd–even merge sort of 4, 8 or 16 entries: each half sorted, then merged by a fixed
// network of pairs (5, 19 and 63 pairs in all; checked offline on every 0–1 input, the 0–1
// principle; the golden state hashes of test_determinism pin the lists' order).
// Branch-free: an insertion sort's comparisons go either way at random here, and their
// mispredictions made it a fifth of the lists' time at `fold` 256².
_Static_assert(MAX_NEIGHBOURS == 16, "the sorting networks go up to 16 entries");
#define ORDER(a, b) order_pair(list, a, b)
static inline __attribute__((always_inline)) void sort_4(uint64_t* list) {
	ORDER(0, 1), ORDER(2, 3), ORDER(0, 2), ORDER(1, 3), ORDER(1, 2);
}
static inline __attribute__((always_inline)) void sort_8(uint64_t* list) {
	sort_4(list);
	sort_4(list + 4);
	ORDER(0, 4), ORDER(2, 6), ORDER(2, 4), ORDER(1, 5), ORDER(3, 7), ORDER(3, 5), ORDER(1, 2), ORDER(3, 4), ORDER(5, 6);
}
static inline __attribute__((always_inline)) void sort_16(uint64_t* list) {
	sort_8(list);
	sort_8(list + 8);
	ORDER(0, 8), ORDER(4, 12), ORDER(4, 8), ORDER(2, 10), ORDER(6, 14), ORDER(6, 10), ORDER(2, 4), ORDER(6, 8);
	ORDER(10, 12), ORDER(1, 9), ORDER(5, 13), ORDER(5, 9), ORDER(3, 11), ORDER(7, 15), ORDER(7, 11), ORDER(3, 5);
	ORDER(7, 9), ORDER(11, 13), ORDER(1, 2), ORDER(3, 4), ORDER(5, 6), ORDER(7, 8), ORDER(9, 10), ORDER(11, 12);
	ORDER(13, 14);
}
#undef ORDER

// Nearest first (a substep's contacts are a prefix of the list), padded to whole fours.
static void finish_list(weft_self_collision* s, uint32_t i) {
	uint64_t* list = &s->neighbours[(size_t)i * MAX_NEIGHBOURS];
	const int32_t count = s->neighbour_count[i];
	if (count > 1) {
		const int32_t size = count <= 4 ? 4 : count <= 8 ? 8 : 16;
		for (int32_t e = count; e < size; ++e) {
			list[e] = UINT64_MAX; // after every entry
		}
		if (size == 4) {
			sort_4(list);
		} else if (size == 8) {
			sort_8(list);
		} else {
			sort_16(list);
		}
	}
	for (int32_t e = count; e % 4 != 0; ++e) {
		list[e] = entry_key(INFINITY, i); // padding to whole fours: coincident with i, never a contact
	}
}

// Thread `thread`'s lists: those of the particles in its region (a slab of cells along y or z with
// as many particles as the others', weft_self_collision_sort), in slot order. A pair within the
// region is found once (by the lower slot, which fills both lists: half the candidate tests of
// looking both ways), a pair across two regions by each side (a thread writes only its own
// particles' lists). A row of cells lies in one region, so a slot range is wholly within it or
// without. (Regions of slots, halves of the bucket order, put about half the pairs across: at
// `fold` 128², 300 frames, two threads tested 1.48 × one thread's fours of candidates; in slabs
// 1.08 ×, 49% and 51% of them on each.) The lists' order is total (nearer), so they are the same
// for any thread count.
void weft_self_collision_lists(weft_world* world, int32_t thread, int32_t thread_count) {
	weft_self_collision* s = world->self;
	if (!s->rebuild) {
		return;
	}
	const float r = list_reach(world), r2 = r * r;
	const float rest_limit = fmaxf(world->thickness, world->self_rest_distance) * REST_TOLERANCE;
	const float rest_limit2 = rest_limit * rest_limit;
	const float* x = world->positions;
	const int32_t n = world->particle_count, axis = s->region_axis;
	const int64_t low = s->region_bounds[thread],
	              high = thread + 1 < thread_count ? s->region_bounds[thread + 1] : INT64_MAX;
	for (int32_t slot = 0; slot < n; ++slot) {
		const int32_t along = s->sorted_cell[3 * slot + axis];
		if (along >= low && along < high) {
			s->neighbour_count[s->particles[slot]] = 0;
		}
	}
	int32_t cell[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
	slot_range ranges[MAX_RANGES];
	int32_t range_count = 0;
	found_candidates found;
	found.count = 0;
	// In bucket order: neighbouring queries then read the same buckets.
	for (int32_t slot = 0; slot < n; ++slot) {
		const int32_t* c = &s->sorted_cell[3 * slot];
		if (c[axis] < low || c[axis] >= high) {
			continue;
		}
		const uint32_t i = s->particles[slot];
		// Copies (not pointers into arrays the lists write): their splats stay out of the loops.
		const float xi[3] = {x[4 * i], x[4 * i + 1], x[4 * i + 2]};
		const float ri[3] = {s->sorted_rest[0][slot], s->sorted_rest[1][slot], s->sorted_rest[2][slot]};
		// The rows of the 3 × 3 × 3 cells around its own, worked out once for the particles of a cell
		// (neighbours in bucket order).
		if (c[0] != cell[0] || c[1] != cell[1] || c[2] != cell[2]) {
			memcpy(cell, c, sizeof cell);
			range_count = row_ranges(world, cell, low, high, ranges);
		}
		for (const slot_range* range = ranges; range < ranges + range_count; ++range) {
			// A row of this region: the slots after i's (both sides). Another's: all (i's side only:
			// its particles find i themselves).
			const uint32_t after = range->begin > (uint32_t)slot + 1 ? range->begin : (uint32_t)slot + 1;
			const uint32_t from = range->own ? after : range->begin;
			if (from < range->end) {
				scan_slots(s, i, xi, ri, cell, ranges, (uint8_t)(range - ranges), from, range->end, r2, rest_limit2,
				           &found);
			}
		}
		list_found(s, i, xi, cell, ranges, &found);
		// i's list is complete: the lower slots of this region put themselves in it before, its own
		// scan took the rest, and no later scan looks back at it. Sorted now, while it is in the cache.
		finish_list(s, i);
	}
}

// One contact of particle i with j (d2 < t², not coincident): its push and friction (xyz); returns
// the push's size, i's share of the depth.
static inline float contact_push(float out[3], const float* xi, const float si[3], const float* xj, const float* pj,
                                 float t, float friction, const float lean_up[3]) {
	float ex = xi[0] - xj[0], ey = xi[1] - xj[1], ez = xi[2] - xj[2];
	float d2 = ex * ex + ey * ey + ez * ez;
	const float d = sqrtf(d2);
	const float inverse_d = 1.0f / d;
	const float nx = ex * inverse_d, ny = ey * inverse_d, nz = ez * inverse_d;
	// The upper of the two takes more of the push (mass scaled by height, as in stacking solvers):
	// the lower layer is less pushed into the one under it, so a pile does not sink into itself.
	const float lean = nx * lean_up[0] + ny * lean_up[1] + nz * lean_up[2];
	const float wi = xi[3] * (1.0f + lean), wj = xj[3] * (1.0f - lean);
	const float share = wi / (wi + wj);
	const float push = (t - d) * share;
	// Friction: the pair's relative slip over the substep, its tangential part.
	float sx = si[0] - (xj[0] - pj[0]);
	float sy = si[1] - (xj[1] - pj[1]);
	float sz = si[2] - (xj[2] - pj[2]);
	float along = sx * nx + sy * ny + sz * nz;
	const float tx = sx - along * nx, ty = sy - along * ny, tz = sz - along * nz;
	// Static friction: a slip of at most friction × the depth stops (i takes its share); a larger
	// one loses friction × it.
	const float hold = friction * (t - d);
	const float f = tx * tx + ty * ty + tz * tz <= hold * hold ? share : friction * share;
	out[0] = push * nx - f * tx;
	out[1] = push * ny - f * ty;
	out[2] = push * nz - f * tz;
	return push;
}

// The contacts of particle i with its listed entries [e, e + 4) into out (xyz sum, w the sum of
// the sizes of their pushes, i's shares of the depths) and *largest (the largest), in entry order
// (the list is padded to whole fours with i itself, which is no contact).
static void contacts_four(float out[4], float* largest, const float* x, const float* previous, const float* xi,
                          const float si[3], const uint64_t* list, int32_t e, float t, float friction,
                          const float lean_up[3]) {
	const float t2 = t * t, min2 = MIN_DISTANCE * MIN_DISTANCE;
	for (int32_t k = e; k < e + 4; ++k) {
		const uint32_t j = entry_partner(list[k]);
		const float* xj = &x[4 * j];
		float ex = xi[0] - xj[0], ey = xi[1] - xj[1], ez = xi[2] - xj[2];
		float d2 = ex * ex + ey * ey + ez * ez;
		if (!(d2 < t2) || d2 < min2) {
			continue;
		}
		float c[3];
		const float size = contact_push(c, xi, si, xj, &previous[4 * j], t, friction, lean_up);
		out[0] += c[0];
		out[1] += c[1];
		out[2] += c[2];
		out[3] += size;
		*largest = size > *largest ? size : *largest;
	}
}

// Response (Jacobi): each particle sums the pushes of its listed partners closer than t.
void weft_self_collision_contacts(weft_world* world, int32_t begin, int32_t end) {
	const weft_self_collision* s = world->self;
	weft_self_contacts_job job = {world->positions,    world->previous_positions, s->neighbours,  s->neighbour_count,
	                              s->particle_patch,   s->patch_reach2,           s->corrections, world->thickness,
	                              world->def.friction, {0.0f, 0.0f, 0.0f},        s->lanes};
	const weft_vec3 g = world->def.gravity;
	const float g_length = sqrtf(g.x * g.x + g.y * g.y + g.z * g.z);
	if (g_length > 0.0f) {
		const float lean = STACK_LEAN / g_length;
		job.lean[0] = -g.x * lean;
		job.lean[1] = -g.y * lean;
		job.lean[2] = -g.z * lean;
	}
	if (s->lanes >= 8) {
		weft_self_contacts_8(&job, begin, end);
	} else {
		weft_self_contacts_4(&job, begin, end);
	}
}

void weft_self_contacts_4(const weft_self_contacts_job* job, int32_t begin, int32_t end) {
	const float t = job->t, friction = job->friction;
	const float* x = job->x;
	const float* previous = job->previous;
#if defined(WEFT_SIMD)
	const vf t_lanes = vsplat(t), t2_lanes = vsplat(t * t), min2_lanes = vsplat(MIN_DISTANCE * MIN_DISTANCE);
	const vf friction_lanes = vsplat(friction);
#endif
	for (int32_t i = begin; i < end; ++i) {
		if (!contacts_listed(job, i)) {
			continue;
		}
		const int32_t reached = contact_entries(job, i);
		if (reached == 0) {
			job->corrections[4 * i + 3] = 0.0f; // no contact: apply moves it by nothing
			continue;
		}
		const uint64_t* list = &job->neighbours[(size_t)i * MAX_NEIGHBOURS];
		const float* xi = &x[4 * i];
		const float si[3] = {xi[0] - previous[4 * i], xi[1] - previous[4 * i + 1], xi[2] - previous[4 * i + 2]};
		float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // in registers: corrections may alias x for the compiler
		float largest = 0.0f;
#if defined(WEFT_SIMD)
		if (job->lanes == 4) { // lists are padded to whole fours
			const contact_lanes lanes_i = {vsplat(xi[0]),
			                               vsplat(xi[1]),
			                               vsplat(xi[2]),
			                               vsplat(xi[3]),
			                               vsplat(si[0]),
			                               vsplat(si[1]),
			                               vsplat(si[2]),
			                               t_lanes,
			                               t2_lanes,
			                               min2_lanes,
			                               friction_lanes,
			                               vsplat(job->lean[0]),
			                               vsplat(job->lean[1]),
			                               vsplat(job->lean[2])};
			vf sums = vzero(), largests = vzero();
			for (int32_t e = 0; e < reached; e += 4) {
				const uint32_t j[4] = {entry_partner(list[e]), entry_partner(list[e + 1]), entry_partner(list[e + 2]),
				                       entry_partner(list[e + 3])};
				sums = contacts_lanes(sums, &largests, x, previous, &lanes_i, j);
			}
			vstore(sum, sums);
			largest = vmax_lanes(largests); // sizes are +0 or positive, as in the scalar path's maximum
		} else
#endif
		{
			for (int32_t e = 0; e < reached; e += 4) {
				contacts_four(sum, &largest, x, previous, xi, si, list, e, t, friction, job->lean);
			}
		}
		sum[3] = contact_worth(sum[3], largest);
		memcpy(&job->corrections[4 * i], sum, sizeof sum);
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
		// The sum of the pushes over their worth in pushes (the sum of their sizes, the shares of the
		// depths, over the largest): a lone push whole, a mean of equal ones, and a push that fades
		// (a contact opening) fades from the count too instead of doubling the others when it goes.
		const float worth = c[4 * p + 3];
		if (worth > 0.0f) {
			x[4 * p] += c[4 * p] * worth;
			x[4 * p + 1] += c[4 * p + 1] * worth;
			x[4 * p + 2] += c[4 * p + 2] * worth;
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
