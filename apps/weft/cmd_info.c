// weft info: what a grid builds into (counts, colours, the world's size), worked out without building it.
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
	weft_cloth_def cloth_def = weft_default_cloth_def();
	cloth_def.width = width;
	cloth_def.height = height;
	weft_cloth_census census;
	if (weft_cloth_census_of(&cloth_def, &census) != WEFT_OK) {
		cli_error("%s", weft_last_error());
		return EXIT_BAD_INPUT;
	}
	printf("{\"grid\":\"%dx%d\",\"particles\":%d,\"constraints\":{\"stretch\":%d,\"shear\":%d,\"bend\":%d,"
	       "\"total\":%d},\"colors\":%d,\"overflow\":%d,\"world_bytes\":%llu,\"fits\":%s}\n",
	       (int)width, (int)height, (int)census.particles, (int)census.count_by_type[WEFT_STRETCH],
	       (int)census.count_by_type[WEFT_SHEAR], (int)census.count_by_type[WEFT_BEND], (int)census.count,
	       (int)census.color_count, (int)census.overflow_count, (unsigned long long)census.world_bytes,
	       census.fits ? "true" : "false");
	return 0;
}
