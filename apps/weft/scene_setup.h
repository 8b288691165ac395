// Builds the world a command asked for (scene, grid, solver settings), reporting bad input.
#ifndef WEFT_CLI_SCENE_SETUP_H
#define WEFT_CLI_SCENE_SETUP_H

#include "args.h"
#include "weft/weft.h"

typedef struct scene_setup {
	const char* scene;
	int32_t grid;
	weft_world* world;
	float frame_dt;
} scene_setup;

// Reads --scene and --grid (and --substeps/--iterations/--threads when present) and creates the
// world. On failure prints the error and returns the exit code (2 for bad input), else 0.
int scene_setup_create(const args* a, scene_setup* out);

#endif
