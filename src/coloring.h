// Private part of the colouring: grouping constraints into contiguous colour batches.
#ifndef WEFT_COLORING_H
#define WEFT_COLORING_H

#include "world_internal.h"

// order[i] = index (in build order) of the constraint that goes to slot i; offsets has
// color_count + 2 entries (colours, overflow, end).
void weft_batch_by_colour(const uint8_t* colours, int32_t count, int32_t color_count, int32_t* offsets, int32_t* order);

#endif
