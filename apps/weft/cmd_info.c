// weft info: what a grid builds into (counts and colours), without simulating.
#include <stdio.h>

#include "args.h"
#include "commands.h"
#include "weft/weft.h"

int command_info(int argc, char** argv) {
	static const char* const allowed[] = {"grid", NULL};
	args a;
	int32_t width, height;
	if (!args_parse(argc, argv, allowed, &a) || !args_grid(&a, "grid", 64, &width, &height)) {
		return EXIT_BAD_INPUT;
	}
	weft_world_def world_def = weft_default_world_def();
	weft_cloth_def cloth_def = weft_default_cloth_def();
	cloth_def.width = width;
	cloth_def.height = height;
	weft_world* world = NULL;
	weft_result result = weft_world_create(&world_def, &cloth_def, &world);
	if (result != WEFT_OK) {
		cli_error("%s", weft_last_error());
		return result == WEFT_ERROR_OUT_OF_MEMORY ? 1 : EXIT_BAD_INPUT;
	}
	weft_constraints_view view = weft_world_constraints(world);
	int32_t overflow = view.color_offsets[view.color_count + 1] - view.color_offsets[view.color_count];
	printf("{\"grid\":\"%dx%d\",\"particles\":%d,\"constraints\":{\"stretch\":%d,\"shear\":%d,\"bend\":%d,"
	       "\"total\":%d},\"colors\":%d,\"overflow\":%d}\n",
	       (int)width, (int)height, (int)weft_world_particle_count(world), (int)view.count_by_type[WEFT_STRETCH],
	       (int)view.count_by_type[WEFT_SHEAR], (int)view.count_by_type[WEFT_BEND], (int)view.count,
	       (int)view.color_count, (int)overflow);
	weft_world_destroy(world);
	return 0;
}
