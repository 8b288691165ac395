// The stability sweep's violent drag, one script for the sweep (bench/sweep.c) and the tests that
// replay it: a particle in the middle of the cloth grabbed at frame 60, pulled 1 m along z over 5
// frames and back over 5, let go at frame 70.
#ifndef WEFT_TEST_SWEEP_DRAG_H
#define WEFT_TEST_SWEEP_DRAG_H

#include <stdbool.h>

#include "weft/weft.h"

// The dragged particle of a grid × grid cloth of n particles.
static inline int32_t sweep_drag_particle(int32_t n, int32_t grid) { return n / 2 + grid / 2; }

// Before stepping frame f: grabs, moves or lets go as the drag says (*start: where it began).
// False if the world refused the grab or a move.
static inline bool sweep_drag_frame(weft_world* world, int32_t dragged, int32_t f, weft_vec3* start) {
	const int32_t t = f - 60; // the drag: frames 60..70
	if (t == 0) {
		const float* x = weft_world_positions(world);
		*start = (weft_vec3){x[4 * dragged], x[4 * dragged + 1], x[4 * dragged + 2]};
		return weft_world_grab(world, dragged, *start) == WEFT_OK;
	}
	if (t > 0 && t <= 10) {
		const float s = t <= 5 ? (float)t / 5.0f : (float)(10 - t) / 5.0f;
		const bool moved = weft_world_grab_move(world, (weft_vec3){start->x, start->y, start->z + s}) == WEFT_OK;
		if (t == 10) weft_world_release(world);
		return moved;
	}
	return true;
}

#endif
