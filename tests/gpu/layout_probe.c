// Prints, as JSON, the C side of every layout and constant the GPU solver mirrors in
// web/src/core/layout.ts, core/world.ts, gpu/layout.ts and settings.ts; tests/gpu/layout.test.ts
// compares the two. The mesh collider's cell classes and triangle regions are private to the core
// (src/mesh.h), included by path so the probe needs no more than -Iinclude.
#include <stddef.h>
#include <stdio.h>

#include "../../src/mesh.h"
#include "weft/weft.h"

int main(void) {
	weft_world_def d = weft_default_world_def();
	printf("{\"constraint\":{\"size\":%zu,\"a\":%zu,\"b\":%zu,\"rest_length\":%zu,\"compliance\":%zu},",
	       sizeof(weft_constraint), offsetof(weft_constraint, a), offsetof(weft_constraint, b),
	       offsetof(weft_constraint, rest_length), offsetof(weft_constraint, compliance));
	printf("\"max_spheres\":%d,\"tethers_per_particle\":%d,", WEFT_MAX_SPHERES, WEFT_TETHERS_PER_PARTICLE);
	printf("\"constraint_types\":{\"STRETCH\":%d,\"SHEAR\":%d,\"BEND\":%d},", (int)WEFT_STRETCH, (int)WEFT_SHEAR,
	       (int)WEFT_BEND);
	printf("\"mesh_cell\":{\"OUTSIDE\":%d,\"SURFACE\":%d,\"INSIDE\":%d,\"FAR\":%d},", WEFT_CELL_OUTSIDE,
	       WEFT_CELL_SURFACE, WEFT_CELL_INSIDE, WEFT_CELL_FAR);
	printf("\"mesh_region\":{\"FACE\":%d,\"VERTEX_A\":%d,\"VERTEX_B\":%d,\"VERTEX_C\":%d,\"EDGE_AB\":%d,"
	       "\"EDGE_BC\":%d,\"EDGE_CA\":%d},",
	       WEFT_REGION_FACE, WEFT_REGION_VERTEX_A, WEFT_REGION_VERTEX_B, WEFT_REGION_VERTEX_C, WEFT_REGION_EDGE_AB,
	       WEFT_REGION_EDGE_BC, WEFT_REGION_EDGE_CA);
	printf("\"defaults\":{\"gravity\":[%.9g,%.9g,%.9g],\"substeps\":%d,\"iterations\":%d,\"damping\":%.9g,"
	       "\"wind\":[%.9g,%.9g,%.9g],\"drag\":%.9g,\"lift\":%.9g,\"airDensity\":%.9g,\"gustStrength\":%.9g,"
	       "\"gustSeed\":%u,\"maxSpeed\":%.9g,\"groundEnabled\":%s,\"groundHeight\":%.9g,"
	       "\"friction\":%.9g,\"collisionMargin\":%.9g,\"selfCollision\":%s,\"pinVelocity\":[%.9g,%.9g,%.9g],"
	       "\"pinMotionTime\":%.9g,\"stretchLimit\":%.9g},",
	       d.gravity.x, d.gravity.y, d.gravity.z, d.substeps, d.iterations, d.damping, d.wind.x, d.wind.y, d.wind.z,
	       d.drag, d.lift, d.air_density, d.gust_strength, d.gust_seed, d.max_speed,
	       d.ground_enabled ? "true" : "false", d.ground_height, d.friction, d.collision_margin,
	       d.self_collision ? "true" : "false", d.pin_velocity.x, d.pin_velocity.y, d.pin_velocity.z, d.pin_motion_time,
	       (double)(1.0f + weft_default_cloth_def().strain_limit));
	printf("\"self_hash_primes\":[%u,%u,%u],", WEFT_SELF_HASH_PRIME_X, WEFT_SELF_HASH_PRIME_Y, WEFT_SELF_HASH_PRIME_Z);
	// The self-collision view of the fold scene at a few grid sizes (table size, lengths), natively.
	printf("\"self_views\":[");
	const int32_t grids[] = {2, 40, 64, 100};
	for (int k = 0; k < 4; ++k) {
		weft_world* world = NULL;
		if (weft_world_create_scene("fold", grids[k], &world) != WEFT_OK) {
			return 1;
		}
		weft_self_collision_view v = weft_world_self_collision(world);
		printf("%s{\"grid\":%d,\"enabled\":%s,\"thickness\":%.9g,\"reach\":%.9g,\"largestReach\":%.9g,"
		       "\"restDistance\":%.9g,\"maxStep\":%.9g,\"tableSize\":%u}",
		       k ? "," : "", (int)grids[k], v.enabled ? "true" : "false", (double)v.thickness, (double)v.reach,
		       (double)v.largest_reach, (double)v.rest_distance, (double)v.max_step, v.table_size);
		weft_world_destroy(world);
	}
	printf("]}\n");
	return 0;
}
