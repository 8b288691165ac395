// The SIMD solve's plan, built once with the world: where the constraints of each colour sit on
// the grid, the constraint values in arrays of their own, and room for the positions as rows.
//
// A colour of a grid is a set of constraints at fixed strides: vertical stretch, shear and vertical
// bend pair each particle of a row with the one a fixed offset away (a = a0 + i, b = a + d), the
// horizontal stretch pairs neighbours (a = a0 + 2i, b = a + 1), the horizontal bend pairs particles
// two apart in pairs of columns (a = a0 + 4⌊i/2⌋ + i mod 2, b = a + 2). With positions as rows of x,
// y, z and inverse mass, a group of 4 or 8 such constraints is a few vector loads and in-register
// shuffles instead of 16 gathers and transposes (solver_kernels.h). Nothing here assumes a grid:
// each group of 4 is checked against the constraints themselves, and whatever fits no pattern is
// solved one constraint at a time from its indices (any topology; the overflow batch likewise).
#include <string.h>

#include "solver.h"

// Strided runs hold whole groups of 4 constraints (the 4-lane paths' vector); the 8-lane path runs
// them two at a time and hands a last odd group to the 4-lane code.
#define GROUP 4

static bool group_fits(const weft_constraint* c, weft_segment_kind kind, int32_t* out_d) {
	const int64_t a0 = c[0].a, d = (int64_t)c[0].b - (int64_t)c[0].a;
	for (int32_t i = 0; i < GROUP; ++i) {
		int64_t a = c[i].a, b = c[i].b, want_a, want_b;
		switch (kind) {
		case WEFT_SEGMENT_CONTIGUOUS:
			want_a = a0 + i;
			want_b = a + d;
			break;
		case WEFT_SEGMENT_INTERLEAVED:
			want_a = a0 + 2 * i;
			want_b = a + 1;
			break;
		case WEFT_SEGMENT_PAIRED:
			want_a = a0 + 4 * (i >> 1) + (i & 1);
			want_b = a + 2;
			break;
		default: return false;
		}
		if (a != want_a || b != want_b) {
			return false;
		}
	}
	*out_d = (int32_t)d;
	return true;
}

// Particles a strided run's a0 moves per constraint.
static int32_t particle_step(weft_segment_kind kind) { return kind == WEFT_SEGMENT_CONTIGUOUS ? 1 : 2; }

// The segments of constraints [begin, end) of one colour; writes them when out is not NULL.
static int32_t plan_batch(const weft_constraint* constraints, int32_t begin, int32_t end, weft_solve_segment* out) {
	static const weft_segment_kind kinds[] = {WEFT_SEGMENT_CONTIGUOUS, WEFT_SEGMENT_INTERLEAVED, WEFT_SEGMENT_PAIRED};
	int32_t count = 0;
	weft_solve_segment current = {begin, begin, WEFT_SEGMENT_GATHER, 0, 0};
	for (int32_t k = begin; k < end;) {
		weft_segment_kind kind = WEFT_SEGMENT_GATHER;
		int32_t d = 0;
		for (size_t j = 0; j < sizeof kinds / sizeof kinds[0] && k + GROUP <= end; ++j) {
			if (group_fits(&constraints[k], kinds[j], &d)) {
				kind = kinds[j];
				break;
			}
		}
		const int32_t a0 = (int32_t)constraints[k].a;
		const bool continues =
		    current.end > current.begin && kind == (weft_segment_kind)current.kind &&
		    (kind == WEFT_SEGMENT_GATHER ||
		     (d == current.d && a0 == current.a0 + (current.end - current.begin) * particle_step(kind)));
		if (!continues) {
			if (current.end > current.begin) {
				if (out != NULL) out[count] = current;
				count++;
			}
			current = (weft_solve_segment){k, k, (int32_t)kind, a0, d};
		}
		const int32_t taken = kind == WEFT_SEGMENT_GATHER ? 1 : GROUP;
		current.end += taken;
		k += taken;
	}
	if (current.end > current.begin) {
		if (out != NULL) out[count] = current;
		count++;
	}
	return count;
}

weft_result weft_solver_plan_build(weft_world* world) {
	const weft_allocator* allocator = &world->allocator;
	const int32_t n = world->particle_count, count = world->constraint_count, colours = world->color_count;
	world->soa_stride = (n + 15) & ~15;
	const size_t rows = 4 * (size_t)world->soa_stride;
	int32_t segment_count = 0;
	for (int32_t c = 0; c < colours; ++c) {
		segment_count += plan_batch(world->constraints, world->color_offsets[c], world->color_offsets[c + 1], NULL);
	}
	world->soa = weft_alloc(allocator, rows * sizeof(float));
	world->rest_lengths = weft_alloc(allocator, (size_t)count * sizeof(float));
	world->compliances = weft_alloc(allocator, (size_t)count * sizeof(float));
	world->tether_anchor_rows = weft_alloc(allocator, rows * sizeof(int32_t));
	world->tether_distance_rows = weft_alloc(allocator, rows * sizeof(float));
	world->tether_groups = weft_alloc(allocator, rows / 4 * sizeof(int32_t));
	world->segments = weft_alloc(allocator, (size_t)segment_count * sizeof(weft_solve_segment));
	world->gathered = weft_alloc(allocator, (size_t)count * sizeof(int32_t));
	if (!world->soa || !world->rest_lengths || !world->compliances || !world->tether_anchor_rows ||
	    !world->tether_distance_rows || !world->tether_groups || !world->segments || !world->gathered) {
		return weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "out of memory for the solver's plan (%d constraints)", (int)count);
	}
	memset(world->soa, 0, rows * sizeof(float));
	for (int32_t k = 0; k < count; ++k) {
		world->rest_lengths[k] = world->constraints[k].rest_length;
		world->compliances[k] = world->constraints[k].compliance;
	}
	const int32_t stride = world->soa_stride, per = WEFT_TETHERS_PER_PARTICLE;
	for (int32_t slot = 0; slot < per; ++slot) {
		for (int32_t p = 0; p < stride; ++p) {
			const bool real = p < n;
			world->tether_anchor_rows[slot * stride + p] = real ? world->tether_anchor[p * per + slot] : -1;
			world->tether_distance_rows[slot * stride + p] = real ? world->tether_max_distance[p * per + slot] : 0.0f;
		}
	}
	for (int32_t slot = 0; slot < per; ++slot) {
		for (int32_t g = 0; g < stride / 4; ++g) {
			const int32_t* anchor = &world->tether_anchor_rows[slot * stride + 4 * g];
			int32_t kind = anchor[0]; // an anchor, or WEFT_TETHER_NONE (the anchors' -1)
			for (int32_t i = 1; i < 4; ++i) {
				kind = anchor[i] == kind ? kind : WEFT_TETHER_GATHER;
			}
			bool consecutive = anchor[0] >= 0;
			for (int32_t i = 1; i < 4; ++i) {
				consecutive &= anchor[i] == anchor[0] + i;
			}
			world->tether_groups[slot * (stride / 4) + g] =
			    kind == WEFT_TETHER_GATHER && consecutive ? WEFT_TETHER_CONSECUTIVE : kind;
		}
	}
	int32_t written = 0;
	for (int32_t c = 0; c < colours; ++c) {
		world->batch_segments[c] = written;
		written += plan_batch(world->constraints, world->color_offsets[c], world->color_offsets[c + 1],
		                      &world->segments[written]);
	}
	world->batch_segments[colours] = written;
	world->segment_count = written;
	// The gather segments' constraints of a colour in one list: solved LANES at a time whatever run
	// they came from (a row's last few constraints fill a vector together; order inside a batch
	// does not matter, no two of its constraints share a particle).
	int32_t gathered = 0;
	for (int32_t c = 0; c < colours; ++c) {
		world->batch_gathered[c] = gathered;
		for (int32_t j = world->batch_segments[c]; j < world->batch_segments[c + 1]; ++j) {
			const weft_solve_segment* segment = &world->segments[j];
			for (int32_t k = segment->begin; segment->kind == WEFT_SEGMENT_GATHER && k < segment->end; ++k) {
				world->gathered[gathered++] = k;
			}
		}
	}
	world->batch_gathered[colours] = gathered;
	return WEFT_OK;
}

void weft_solver_plan_free(weft_world* world) {
	const weft_allocator* allocator = &world->allocator;
	weft_free(allocator, world->soa);
	weft_free(allocator, world->rest_lengths);
	weft_free(allocator, world->compliances);
	weft_free(allocator, world->tether_anchor_rows);
	weft_free(allocator, world->tether_distance_rows);
	weft_free(allocator, world->tether_groups);
	weft_free(allocator, world->segments);
	weft_free(allocator, world->gathered);
}

int32_t weft_solver_batch_split(const weft_world* world, int32_t colour, int32_t position) {
	// Rounded down to a whole group of the strided run it falls in, so that a thread's slice of a
	// batch never cuts a group (every thread computes the same boundaries: the slices tile it).
	const weft_solve_segment* segments = world->segments;
	int32_t low = world->batch_segments[colour], high = world->batch_segments[colour + 1];
	while (low < high) {
		const int32_t mid = low + (high - low) / 2;
		if (segments[mid].end <= position) {
			low = mid + 1;
		} else {
			high = mid;
		}
	}
	if (low == world->batch_segments[colour + 1]) {
		return position;
	}
	const weft_solve_segment* s = &segments[low];
	if (s->kind == WEFT_SEGMENT_GATHER || position <= s->begin) {
		return position;
	}
	return s->begin + (position - s->begin) / GROUP * GROUP;
}
