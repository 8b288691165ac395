// The strain limit, held at the end of every frame.
//
// Each constraint's correction respects the strain limit (weft_strain_limited), but a frame's
// Gauss-Seidel sweeps do not converge: one sweep a frame (1 substep × 1 iteration) moves a particle's
// neighbours a few constraints at a time, and a collider pushes particles after the solve. A fine
// cloth that lands on a sphere at 1 substep, or one dragged by the hand, then ends its frame with
// edges several times their rest length (`sphere` 96² at 1 substep: 3900%).
//
// So the frame ends with a check: if a stretch constraint (a grid edge) is longer than its rest
// length × (1 + TRIGGER × strain limit), sweeps run until the longest edge a sweep finds is within
// that or the most sweeps a frame (MIN_SWEEPS, more on a large grid) have run. A sweep takes every
// grid edge in space order, alternately from the first particle to the last and back, phased so
// that the last a frame may run goes away from the pins and the hand (a correction travels across
// the cloth in the sweep's direction; an order by colour moves it one edge a sweep),
// each edge longer than rest × (1 + strain limit) shortened to that length (inverse-mass weighted,
// most of it on the end the sweep reaches second: DOWNSTREAM_SHARE). After each sweep the particles
// it moved into a closed mesh are pushed out, and after the last the colliders push out (without
// friction) every particle the sweeps moved into them or within their margin: no frame ends inside a
// collider. A closed mesh pushes such a particle to its nearest surface point, not back along its
// path: where an edge hooks on a feature thinner than the cloth's spacing (a bunny's ear between its
// two ends, which the particles' push-out cannot see), the path back would restore the stretch every
// frame (bunny 32² dragged at 100 substeps: 155%, held after the release); a sweep that pulls an end
// past the middle of the feature brings it out on the far side, and the cloth slips off it instead.
// Pushed out only after the last sweep, a particle pulled into something thick went past its middle
// as well: at 1 substep the sweeps pulled the part of a 32² cloth on the bunny's head down into the
// head, half of it came out on the far side, the edges between the halves ran through the head for
// good (max stretch 5.3 after the first second; 96²: 17.5). After each sweep it keeps to its side
// (0.96; 96²: 4.5, where the ears come up through the cloth between its particles). Spheres and the
// ground are convex and thick: pushed out at the end alone, as before (between sweeps too they
// cost `sphere` 96² at 1 substep a quarter more). Each particle's move over all this, δ, adds δ/dt
// to its velocity: what the frame's solve would have taken out of its motion had it converged.
//
// At settings where the solve holds the limit the check is all that runs: one pass over the grid's
// edges. The sweeps are serial and in a fixed order, so every SIMD width and thread count gives the
// same bits. The GPU solver does not run them (it has no frame-end readback to decide on).
#include <math.h>
#include <string.h>

#include "mesh.h"
#include "world_internal.h"

// The check's strain, in strain limits: a cloth that sits at its limit somewhere (a rubber sheet, a
// drape over the bunny's ears) never sweeps; a frame that left an edge at twice it does.
#define TRIGGER 2.0f
// Most sweeps in one frame: MIN_SWEEPS, or a quarter of the grid's width plus height where that is
// more (128 at 256², 256 at 512²). A finer cloth needs more: `hang` 512² at 1 substep × 1 iteration,
// its bottom edge whipping after the sweep's drag, ran out of 64 sweeps in every frame and ended
// frames at 2.68 × its rest length; with 256, 1.60 ×. Grids up to 128² keep 64.
#define MIN_SWEEPS 64
// The share of an edge's correction (by inverse mass) that goes to the end a sweep reaches second.
// Split evenly, a correction spreads both ways, as heat does: a chain of n edges needs of the order
// of n² sweeps, and 64 of them left the longest edge of `sphere` 256² (1 iteration, the sweep's drag)
// at 82.6 × its rest length at 1 substep and 2.7 × at 10. Weighted to the far end, a sweep carries
// the excess along in its direction to the cloth's border or a kinematic particle (as
// follow-the-leader does for hair), and as the sweeps alternate direction neither side is favoured
// for long: 1.37 × and 1.39 × (test_stability.c fine_cloth_holds), in fewer sweeps. All of it to
// the far end (1.0) stretches the edge behind again with the next edge's correction (`hang` 512² at
// 1 substep, no drag: 4.95 ×).
#define DOWNSTREAM_SHARE 0.9f

// Squared length of edge (p, q) now and at rest.
static inline void edge_lengths2(const float* x, const float* rest, int32_t p, int32_t q, float* now2, float* rest2) {
	float dx = x[4 * p] - x[4 * q], dy = x[4 * p + 1] - x[4 * q + 1], dz = x[4 * p + 2] - x[4 * q + 2];
	float rx = rest[4 * p] - rest[4 * q], ry = rest[4 * p + 1] - rest[4 * q + 1],
	      rz = rest[4 * p + 2] - rest[4 * q + 2];
	*now2 = dx * dx + dy * dy + dz * dz;
	*rest2 = rx * rx + ry * ry + rz * rz;
}

// Edges (p, p + step) for p in [begin, end): 1 if one is longer than rest × factor (or not finite).
// No branch and no early exit: the loop vectorises.
static int32_t edges_beyond(const float* x, const float* rest, int32_t begin, int32_t end, int32_t step,
                            float factor2) {
	int32_t beyond = 0;
	for (int32_t p = begin; p < end; ++p) {
		float now2, rest2;
		edge_lengths2(x, rest, p, p + step, &now2, &rest2);
		beyond |= !(now2 <= rest2 * factor2);
	}
	return beyond;
}

static inline int32_t smaller(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t larger(int32_t a, int32_t b) { return a > b ? a : b; }

// The check's length factor (the trigger, in stretch ratios).
static float trigger(const weft_world* world) { return 1.0f + (world->stretch_limit - 1.0f) * TRIGGER; }

bool weft_strain_check(const weft_world* world, int32_t begin, int32_t end) {
	if (!(world->stretch_limit < INFINITY)) {
		return false;
	}
	const float* x = world->positions;
	const float* rest = world->rest_positions;
	const int32_t w = world->width, h = world->height;
	const float factor = trigger(world), factor2 = factor * factor;
	// Vertical edges start on every row but the last; horizontal ones at every column but the last.
	int32_t beyond = edges_beyond(x, rest, begin, smaller(end, w * (h - 1)), w, factor2);
	for (int32_t v = begin / w; v * w < end; ++v) {
		beyond |= edges_beyond(x, rest, larger(begin, v * w), smaller(end, v * w + w - 1), 1, factor2);
	}
	return beyond != 0;
}

// Shortens edge (p, q) to rest × limit if it is longer and marks both ends moved in this sweep
// (*newly_moved: bit 0 for p, 1 for q, set where that end had not moved in this sweep before); p is
// the end the sweep reaches first, q the one it reaches next. Each end moves by its share of the
// inverse mass, weighted DOWNSTREAM_SHARE for q and the rest for p. Returns (length / rest)² before,
// or 0 for an edge that cannot move (both ends kinematic) or need not be looked at (neither end
// moved in this sweep or the last: it was within the limit, or brought to it, when last looked at).
static inline float limit_edge(float* x, const float* rest, float* moved, float sweep_index, int32_t p, int32_t q,
                               float limit2, uint32_t* newly_moved) {
	float* xa = &x[4 * p];
	float* xb = &x[4 * q];
	const float wa = xa[3] * (1.0f - DOWNSTREAM_SHARE), wb = xb[3] * DOWNSTREAM_SHARE;
	const float w = wa + wb;
	if (w == 0.0f || (moved[p] < sweep_index - 1.0f && moved[q] < sweep_index - 1.0f)) {
		return 0.0f; // kinematic, or neither end has moved since the edge was last looked at
	}
	float now2, rest2;
	edge_lengths2(x, rest, p, q, &now2, &rest2);
	if (now2 > rest2 * limit2) {
		const float length = sqrtf(now2), most = sqrtf(rest2 * limit2);
		const float s = (length - most) / (length * w);
		const float sa = s * wa, sb = s * wb;
		const float dx = xa[0] - xb[0], dy = xa[1] - xb[1], dz = xa[2] - xb[2];
		xa[0] -= sa * dx;
		xa[1] -= sa * dy;
		xa[2] -= sa * dz;
		xb[0] += sb * dx;
		xb[1] += sb * dy;
		xb[2] += sb * dz;
		*newly_moved = (uint32_t)(moved[p] != sweep_index) | (uint32_t)(moved[q] != sweep_index) << 1;
		moved[p] = moved[q] = sweep_index;
	}
	return now2 / rest2;
}

// Whether the frame's last sweep (if it runs them all) goes from the first particle to the last:
// away from the kinematic particles (pins, the hand), whose mean index is then in the first half.
// A sweep carries the excess in its direction; one towards a pin leaves it all in the edge next to
// the pin, which cannot take any of it (`hang` 512² at 10 substeps, the sweep's drag: in the frame
// the hand pulled, 256 sweeps ended with the edge under a pinned corner at 2.18 × its rest length;
// ending away from the pins, 1.62 ×). Without any, the first sweep goes forward.
static bool last_sweep_forward(const weft_world* world, int32_t max_sweeps) {
	double sum = 0.0;
	int32_t count = 0;
	for (int32_t p = 0; p < world->particle_count; ++p) {
		if (world->positions[4 * p + 3] == 0.0f) {
			sum += (double)p;
			count++;
		}
	}
	if (count == 0) {
		return max_sweeps % 2 == 1;
	}
	return sum / (double)count < 0.5 * (double)(world->particle_count - 1);
}

// Which particles a sweep visits. Sweep k looks only at edges with an end moved in sweep k − 1 or k,
// so where the last sweep moved few particles, it visits only the particles that reach first an
// edge of one of them (a bitmap, `visit`, a bit a particle: those particles, dilated against the
// sweep's direction), and those that reach first an edge of a particle it moves itself, marked
// ahead of it as it goes: all those whose edges qualify, in the same order, so it does what a visit
// of every particle would (`bunny` 128² at 10 substeps: 14% of the visits did anything). Where the
// last sweep moved many (a cloth stretched all over, `hang` 256² at 1 substep after the sweep's
// drag), the bitmaps would cost more than they save: it visits every particle, as the first sweep
// does. `count`: how many particles the last sweep moved; `moved`: the bitmap of them where
// `marked` (a sweep that visited from the bitmap, or one that moved few).
typedef struct sweep_marks {
	uint64_t *visit, *moved;
	int32_t words;
	int32_t count;
	bool marked;
} sweep_marks;

// A sweep visits the marked particles alone where the last one moved fewer than a SPARSE_SHARE-th of
// them (a visit from the bitmap costs more than one in a pass over all, and a moved particle marks up
// to three).
#define SPARSE_SHARE 8

static inline bool few_moved(const sweep_marks* marks, int32_t n) { return marks->count * SPARSE_SHARE < n; }

static inline void set_mark(uint64_t* bits, int32_t p) { bits[p >> 6] |= (uint64_t)1 << (p & 63); }

// dst |= src shifted by `by` bits towards lower indices (by > 0) or higher (by < 0), over `words`.
static void or_shifted(uint64_t* dst, const uint64_t* src, int32_t words, int32_t by) {
	const int32_t whole = (by >= 0 ? by : -by) / 64, part = (by >= 0 ? by : -by) % 64;
	for (int32_t i = 0; i < words; ++i) {
		uint64_t value = 0;
		if (by >= 0) { // bit b of the result is bit b + by of src
			const int32_t from = i + whole;
			if (from < words) value = src[from] >> part;
			if (part != 0 && from + 1 < words) value |= src[from + 1] << (64 - part);
		} else { // bit b of the result is bit b − |by| of src
			const int32_t from = i - whole;
			if (from >= 0) value = src[from] << part;
			if (part != 0 && from - 1 >= 0) value |= src[from - 1] >> (64 - part);
		}
		dst[i] |= value;
	}
}

// What a sweep of direction `along` reads: the positions, the rest pose, when each particle last
// moved, the grid's shape and the limit.
typedef struct sweep_pass {
	float* x;
	const float* rest;
	float* moved;
	float sweep_index, limit2;
	int32_t along, w, h;
} sweep_pass;

// Edge (p, p + step): limited. `marking` (visiting from the bitmap): an end it moved for the first
// time in this sweep is counted and marked moved, and the particles ahead that reach an edge of it
// first are marked to visit: q = p + step itself and, for an edge along a column, q − along (q's
// edge along its row); p's own edges are its visit's, the others behind. Returns the largest
// (length / rest)² so far.
static inline __attribute__((always_inline)) float visit_edge(const sweep_pass* pass, sweep_marks* marks, bool marking,
                                                              int32_t p, int32_t step, float worst) {
	uint32_t newly_moved = 0;
	const float ratio2 =
	    limit_edge(pass->x, pass->rest, pass->moved, pass->sweep_index, p, p + step, pass->limit2, &newly_moved);
	if (marking && newly_moved != 0) {
		const int32_t q = p + step;
		marks->count += (int32_t)(newly_moved & 1u) + (int32_t)(newly_moved >> 1);
		if (newly_moved & 1u) set_mark(marks->moved, p);
		if (newly_moved & 2u) {
			set_mark(marks->moved, q);
			set_mark(marks->visit, q);
			if (step != pass->along) set_mark(marks->visit, q - pass->along);
		}
	}
	return ratio2 > worst ? ratio2 : worst;
}

// Particle p's two edges (those it reaches first in the sweep's direction).
static inline __attribute__((always_inline)) float visit_particle(const sweep_pass* pass, sweep_marks* marks,
                                                                  bool marking, int32_t p, float worst) {
	const int32_t w = pass->w, u = p % w, v = p / w, along = pass->along;
	if (along > 0 ? u + 1 < w : u > 0) {
		worst = visit_edge(pass, marks, marking, p, along, worst);
	}
	if (along > 0 ? v + 1 < pass->h : v > 0) {
		worst = visit_edge(pass, marks, marking, p, along * w, worst);
	}
	return worst;
}

// One sweep: the grid's edges in space order, from the first particle to the last or back (a
// correction travels across the cloth in the sweep's direction; an order by colour moves it one
// edge a sweep). Sweep k (from 1) looks only at edges with an end moved in sweep k − 1
// or k (moved: the sweep each particle last moved in, 0 for all before the first), so a few
// stretched edges cost a few edges a sweep (visiting only the particles `marks` says, as above).
// Returns the largest (length / rest)² it found before correcting.
static float sweep(weft_world* world, float* moved, sweep_marks* marks, int32_t k, bool forward) {
	const int32_t n = world->particle_count, words = marks->words;
	const sweep_pass pass = {
	    world->positions, world->rest_positions, moved,        (float)k, world->stretch_limit * world->stretch_limit,
	    forward ? 1 : -1, world->width,          world->height};
	const size_t bytes = (size_t)words * sizeof(uint64_t);
	const bool sparse = k > 1 && marks->marked && few_moved(marks, n);
	marks->count = 0;
	marks->marked = sparse;
	float worst = 0.0f;
	if (!sparse) { // every particle, nothing marked; then how many moved
		for (int32_t i = 0; i < n; ++i) {
			worst = visit_particle(&pass, marks, false, forward ? i : n - 1 - i, worst);
		}
		int32_t count = 0;
		for (int32_t p = 0; p < n; ++p) {
			count += moved[p] == pass.sweep_index; // vectorises
		}
		marks->count = count;
		return worst;
	}
	// To visit: the last sweep's moved particles and those that reach first an edge of one of them in
	// this sweep's direction (r − along, r − along·w).
	memcpy(marks->visit, marks->moved, bytes);
	or_shifted(marks->visit, marks->moved, words, pass.along);
	or_shifted(marks->visit, marks->moved, words, pass.along * pass.w);
	if (n % 64 != 0) {
		marks->visit[words - 1] &= ((uint64_t)1 << (n % 64)) - 1; // none shifted past the last particle
	}
	memset(marks->moved, 0, bytes);
	for (int32_t i = 0; i < words; ++i) {
		const int32_t word = forward ? i : words - 1 - i;
		uint64_t ahead = ~(uint64_t)0; // the word's bits the sweep has not passed
		for (;;) {
			// Read again after every visit: it may have marked particles ahead in this word.
			const uint64_t bits = marks->visit[word] & ahead;
			if (bits == 0) break;
			const int32_t bit = forward ? __builtin_ctzll(bits) : 63 - __builtin_clzll(bits);
			ahead = forward ? (bit == 63 ? 0 : ~(uint64_t)0 << (bit + 1)) : ((uint64_t)1 << bit) - 1;
			worst = visit_particle(&pass, marks, true, 64 * word + bit, worst);
		}
	}
	return worst;
}

// After a sweep that visited every particle and moved few: the bitmap of those it moved, for the
// next sweep (and hold_out_of_mesh).
static void marks_from_moved(sweep_marks* marks, const float* moved, float sweep_index, int32_t n) {
	memset(marks->moved, 0, (size_t)marks->words * sizeof(uint64_t));
	for (int32_t p = 0; p < n; ++p) {
		if (moved[p] == sweep_index) set_mark(marks->moved, p);
	}
}

// One particle the sweep moved (not kinematic), held out of the closed mesh as below.
static void hold_out(weft_world* world, float* x, float* checks, int32_t p) {
	float* xp = &x[4 * p];
	if (xp[3] == 0.0f) {
		return;
	}
	float* check = &checks[4 * p];
	const float dx = xp[0] - check[0], dy = xp[1] - check[1], dz = xp[2] - check[2];
	if (check[3] >= 0.0f && dx * dx + dy * dy + dz * dz < check[3] * check[3]) {
		return;
	}
	weft_mesh_push_out_nearest(world->mesh, xp, world->def.collision_margin, true, &check[3]);
	memcpy(check, xp, 3 * sizeof(float));
}

// Between sweeps: the particles sweep k moved inside a closed mesh, pushed out (those within its
// margin outside, and those in a sphere or the ground, wait for the end). A particle looked at
// before in this frame is looked at again only once it has moved as far as it then was from the
// surface (the triangle inequality: till then it cannot be inside; after a push-out, at once: a
// crease may hold it nearer another face). The same bits as looking at every moved particle after
// every sweep, which took `bunny` 96² at 1 substep 162 ms a frame: now 17.4, against 12.0 when the
// particles were pushed out only after the last sweep.
static void hold_out_of_mesh(weft_world* world, const float* moved, const sweep_marks* marks, int32_t k) {
	float* x = world->positions;
	float* checks = world->mesh->sweep_clearance;
	if (marks->marked) {
		for (int32_t word = 0; word < marks->words; ++word) {
			for (uint64_t bits = marks->moved[word]; bits != 0; bits &= bits - 1) {
				hold_out(world, x, checks, 64 * word + __builtin_ctzll(bits));
			}
		}
		return;
	}
	for (int32_t p = 0; p < world->particle_count; ++p) {
		if (moved[p] == (float)k) {
			hold_out(world, x, checks, p);
		}
	}
}

int32_t weft_strain_sweeps(weft_world* world, float dt) {
	const float factor = trigger(world);
	// Where every particle was, and when it last moved: the solve's rows are free between frames
	// (integrate rebuilds them).
	float* x = world->positions;
	float* before = world->soa;
	const int32_t n = world->particle_count, stride = world->soa_stride;
	float* moved = world->soa + 3 * stride;
	for (int32_t p = 0; p < n; ++p) {
		for (int axis = 0; axis < 3; ++axis) {
			before[axis * stride + p] = x[4 * p + axis];
		}
		moved[p] = 0.0f;
	}
	const bool closed_mesh = world->mesh != NULL && world->mesh->closed && world->mesh->sweep_clearance != NULL;
	if (closed_mesh) {
		for (int32_t p = 0; p < n; ++p) {
			world->mesh->sweep_clearance[4 * p + 3] = -1.0f; // not looked at yet
		}
	}
	const int32_t max_sweeps = larger(MIN_SWEEPS, (world->width + world->height) / 4);
	// The directions alternate, the last (sweep max_sweeps) away from the kinematic particles.
	const bool last_forward = last_sweep_forward(world, max_sweeps);
	const int32_t words = weft_sweep_mark_words(n);
	sweep_marks marks = {world->sweep_marks, world->sweep_marks + words, words, 0, false};
	int32_t sweeps = 0;
	while (sweeps < max_sweeps) {
		const bool forward = ((max_sweeps - (sweeps + 1)) % 2 == 0) == last_forward;
		const float worst2 = sweep(world, moved, &marks, sweeps + 1, forward);
		sweeps++;
		if (!marks.marked && few_moved(&marks, n)) {
			marks_from_moved(&marks, moved, (float)sweeps, n); // the next sweep visits from the bitmap
			marks.marked = true;
		}
		if (closed_mesh) {
			hold_out_of_mesh(world, moved, &marks, sweeps);
		}
		if (!(worst2 > factor * factor)) {
			break; // NaN too: the step's finiteness check reports it
		}
	}
	// The moved particles meet the colliders again (the others are where the substep's colliders
	// left them), and their moves become velocity.
	const float inverse_dt = 1.0f / dt;
	for (int32_t p = 0; p < n; ++p) {
		float* xp = &x[4 * p];
		if (moved[p] == 0.0f || xp[3] == 0.0f) {
			continue;
		}
		weft_collide_primitives_push_out(world, p);
		if (world->mesh != NULL && world->mesh->closed) {
			weft_mesh_push_out_nearest(world->mesh, xp, world->def.collision_margin, false, NULL);
		} else if (world->mesh != NULL) { // an open mesh has no inside: back along the path
			weft_mesh_collide_particles(world->mesh, xp, &world->previous_positions[4 * p], 1,
			                            world->def.collision_margin, 0.0f);
		}
		for (int axis = 0; axis < 3; ++axis) {
			world->velocities[4 * p + axis] += (xp[axis] - before[axis * stride + p]) * inverse_dt;
		}
	}
	return sweeps;
}
