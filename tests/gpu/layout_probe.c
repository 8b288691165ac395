// Prints, as JSON, the C side of every layout and constant the GPU solver mirrors in
// web/src/gpu/layout.ts and settings.ts; tests/gpu/layout.test.ts compares the two.
#include <stddef.h>
#include <stdio.h>

#include "weft/weft.h"

int main(void) {
	weft_world_def d = weft_default_world_def();
	printf("{\"constraint\":{\"size\":%zu,\"a\":%zu,\"b\":%zu,\"rest_length\":%zu,\"compliance\":%zu},",
	       sizeof(weft_constraint), offsetof(weft_constraint, a), offsetof(weft_constraint, b),
	       offsetof(weft_constraint, rest_length), offsetof(weft_constraint, compliance));
	printf("\"max_spheres\":%d,\"tethers_per_particle\":%d,\"stretch\":%d,", WEFT_MAX_SPHERES,
	       WEFT_TETHERS_PER_PARTICLE, (int)WEFT_STRETCH);
	printf("\"defaults\":{\"gravity\":[%.9g,%.9g,%.9g],\"substeps\":%d,\"iterations\":%d,\"damping\":%.9g,"
	       "\"wind\":[%.9g,%.9g,%.9g],\"drag\":%.9g,\"maxSpeed\":%.9g,\"groundEnabled\":%s,\"groundHeight\":%.9g,"
	       "\"friction\":%.9g,\"collisionMargin\":%.9g}}\n",
	       d.gravity.x, d.gravity.y, d.gravity.z, d.substeps, d.iterations, d.damping, d.wind.x, d.wind.y,
	       d.wind.z, d.drag, d.max_speed, d.ground_enabled ? "true" : "false", d.ground_height, d.friction,
	       d.collision_margin);
	return 0;
}
