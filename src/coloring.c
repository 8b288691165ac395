// Constraint graph colouring.
//
// Gauss-Seidel wants each constraint to see the corrections of the ones solved before it, which
// is serial by nature. But two constraints that share no particle do not interact within one
// sweep, so they can be solved at the same time. Colouring groups constraints into batches
// ("colours") with no shared particle inside a batch; the solver then runs batch after batch, and
// everything inside a batch is parallel (SIMD lanes, threads, GPU invocations) while the result is
// still a Gauss-Seidel sweep in batch order.
//
// A grid particle touches 12 constraints (4 stretch, 4 shear, 4 bend), so 12 colours is the lower
// bound. Plain greedy in build order reaches 13 on grids; the cloth builder knows the structure
// and proposes an exact 12-colouring as hints (parity patterns per constraint family). Hints are
// only proposals: every hint is checked against the particles' used-colour masks, so any topology
// still gets a valid colouring, and greedy fills in whatever the hints could not place.
//
// As in Box2D, the colour budget is fixed (WEFT_COLOR_BUDGET); a constraint that fits no colour
// goes to an overflow batch that the solver runs serially. The colour masks are one 32-bit word per
// particle, so the budget must stay at most 32.
#include <string.h>

#include "coloring.h"

_Static_assert(WEFT_COLOR_BUDGET <= 32, "colour masks are 32-bit words");

size_t weft_coloring_scratch_size(int32_t particle_count) {
	return particle_count > 0 ? (size_t)particle_count * sizeof(uint32_t) : 0;
}

static int32_t lowest_free_colour(uint32_t used, int32_t budget) {
	for (int32_t c = 0; c < budget; ++c) {
		if ((used & (1u << c)) == 0) {
			return c;
		}
	}
	return budget;
}

weft_result weft_color_constraints(const uint32_t* pairs, int32_t count, int32_t particle_count, int32_t budget,
                                   const uint8_t* hint, uint8_t* colours, int32_t* out_color_count, void* scratch) {
	const char* missing = pairs == NULL             ? "pairs"
	                      : colours == NULL         ? "colours"
	                      : out_color_count == NULL ? "out_color_count"
	                      : scratch == NULL         ? "scratch"
	                                                : NULL;
	if (missing != NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_color_constraints: %s is NULL", missing);
	}
	if (count < 0 || particle_count <= 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT,
		                 "weft_color_constraints: count must be >= 0 and particle_count > 0 (got %d, %d)", (int)count,
		                 (int)particle_count);
	}
	if (budget < 1 || budget > WEFT_COLOR_BUDGET) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "colour budget must be in 1..%d (got %d)", WEFT_COLOR_BUDGET,
		                 (int)budget);
	}
	for (int32_t k = 0; k < count; ++k) {
		if (pairs[2 * k] >= (uint32_t)particle_count || pairs[2 * k + 1] >= (uint32_t)particle_count ||
		    pairs[2 * k] == pairs[2 * k + 1]) {
			return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "constraint %d has bad particles (%u, %u)", (int)k,
			                 (unsigned)pairs[2 * k], (unsigned)pairs[2 * k + 1]);
		}
	}
	uint32_t* used = scratch;
	memset(used, 0, weft_coloring_scratch_size(particle_count));
	const uint8_t unassigned = 0xff;

	// Pass 1: keep every hint that is still free at both particles.
	for (int32_t k = 0; k < count; ++k) {
		colours[k] = unassigned;
		if (hint == NULL || hint[k] >= budget) {
			continue;
		}
		uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
		uint32_t bit = 1u << hint[k];
		if (((used[a] | used[b]) & bit) == 0) {
			colours[k] = hint[k];
			used[a] |= bit;
			used[b] |= bit;
		}
	}
	// Pass 2: greedy for the rest; no free colour means the overflow batch.
	for (int32_t k = 0; k < count; ++k) {
		if (colours[k] != unassigned) {
			continue;
		}
		uint32_t a = pairs[2 * k], b = pairs[2 * k + 1];
		int32_t c = lowest_free_colour(used[a] | used[b], budget);
		colours[k] = (uint8_t)c;
		if (c < budget) {
			used[a] |= 1u << c;
			used[b] |= 1u << c;
		}
	}
	// Compact: colours used become 0..n-1 in order, overflow becomes n.
	uint8_t remap[WEFT_COLOR_BUDGET + 1];
	bool present[WEFT_COLOR_BUDGET + 1] = {0};
	for (int32_t k = 0; k < count; ++k) {
		present[colours[k]] = true;
	}
	int32_t used_count = 0;
	for (int32_t c = 0; c < budget; ++c) {
		remap[c] = (uint8_t)(present[c] ? used_count++ : 0xff);
	}
	remap[budget] = (uint8_t)used_count;
	for (int32_t k = 0; k < count; ++k) {
		colours[k] = remap[colours[k]];
	}
	*out_color_count = used_count;
	return WEFT_OK;
}

void weft_batch_by_colour(const uint8_t* colours, int32_t count, int32_t color_count, int32_t* offsets,
                          int32_t* order) {
	// Counting sort, stable: offsets[c] = first constraint of colour c; overflow is colour
	// color_count; offsets[color_count + 1] = count.
	for (int32_t c = 0; c <= color_count + 1; ++c) {
		offsets[c] = 0;
	}
	for (int32_t k = 0; k < count; ++k) {
		offsets[colours[k] + 1]++;
	}
	for (int32_t c = 0; c <= color_count; ++c) {
		offsets[c + 1] += offsets[c];
	}
	int32_t cursor[WEFT_COLOR_BUDGET + 1];
	for (int32_t c = 0; c <= color_count; ++c) {
		cursor[c] = offsets[c];
	}
	for (int32_t k = 0; k < count; ++k) {
		order[cursor[colours[k]]++] = k;
	}
}
