// Private part of the cloth builder.
#ifndef WEFT_CLOTH_H
#define WEFT_CLOTH_H

#include "world_internal.h"

// Constraints of each type on a width × height grid (any size ≥ 1, so ropes work too).
void weft_cloth_counts(int32_t width, int32_t height, int32_t counts[3]);
// Colours the grid colouring's hints use on a width × height grid (build_constraints' classes that
// hold a constraint): the colour count of the built cloth, as the colouring takes every hint there.
int32_t weft_cloth_hint_colours(int32_t width, int32_t height);
// The smaller spacing of the grid's two directions, m (a cloth one particle wide has only the
// other; INFINITY for a single particle): the default thickness, the self-collision rest distance
// (two of it), the bunny scene's margin bound.
float weft_cloth_spacing(const weft_cloth_def* def);

#endif
