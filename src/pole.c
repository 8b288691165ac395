// The flag's pole: a closed cylinder along the cloth's first column (its pinned edge), from the
// ground (at most the cloth's height below it) to a little above the cloth, just behind the edge so
// the pinned particles sit outside its surface. It is an ordinary mesh collider: drawn
// by both renderers and collided by both solvers like any other mesh.
#include <math.h>

#include "mesh.h"
#include "vec3.h"

#define POLE_SEGMENTS 16
#define POLE_RADIUS 0.03f // m
#define POLE_ABOVE 0.15f  // m above the cloth's top
#define POLE_RING 0.1f    // m between rings
#define POLE_MAX_RINGS 64

weft_result weft_world_set_pole_collider(weft_world* world) {
	const int32_t w = world->width, h = world->height;
	const float* rest = world->rest_positions;
	// The pinned edge: column 0, from (0, 0) to (0, h-1); the cloth extends along +u from it.
	const weft_vec3 top = weft_load3(&rest[0]), bottom = weft_load3(&rest[4 * (h - 1) * w]);
	const weft_vec3 across = w > 1 ? weft_sub(weft_load3(&rest[4]), top) : (weft_vec3){1.0f, 0.0f, 0.0f};
	const float spacing = weft_length(across);
	if (!(spacing > 0.0f)) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "a pole needs a cloth at least two particles wide");
	}
	const weft_vec3 u = weft_scale(across, 1.0f / spacing);
	// Down to the ground, but no farther than the cloth's own height (at least a metre) below it.
	const float cloth_low = fminf(top.y, bottom.y), cloth_high = fmaxf(top.y, bottom.y);
	const float reach = fmaxf(1.0f, cloth_high - cloth_low);
	const bool ground_below = world->def.ground_enabled && world->def.ground_height < cloth_low;
	const float low = ground_below ? fmaxf(world->def.ground_height, cloth_low - reach) : cloth_low - reach;
	const float high = cloth_high + POLE_ABOVE;
	// Thick enough to be round where coordinates are large (64 float steps across at least).
	const float extent = fmaxf(fmaxf(fabsf(top.x), fabsf(top.z)), fmaxf(fabsf(low), fabsf(high)));
	const float radius = fmaxf(POLE_RADIUS, 64.0f * extent * 1.2e-7f);
	const float offset = radius + 2.0f * world->def.collision_margin;
	const float x = top.x - u.x * offset, z = top.z - u.z * offset;
	// Rings every ~POLE_RING m keep the triangles short, so the collider's grid cells and bounding
	// spheres stay tight around the pole and particles a little away from it skip it cheaply.
	const int32_t rings = (int32_t)fminf(fmaxf(ceilf((high - low) / POLE_RING), 1.0f), (float)POLE_MAX_RINGS);
	float positions[3 * ((POLE_MAX_RINGS + 1) * POLE_SEGMENTS + 2)];
	uint32_t indices[3 * (2 * POLE_MAX_RINGS + 2) * POLE_SEGMENTS];
	const float two_pi = 6.28318530717959f;
	for (int32_t ring = 0; ring <= rings; ++ring) {
		const float y = low + (high - low) * (float)ring / (float)rings;
		for (int32_t k = 0; k < POLE_SEGMENTS; ++k) {
			// Angles by the deterministic sine (cos a = sin(a + π/2)): the same mesh everywhere.
			const float angle = two_pi * (float)k / (float)POLE_SEGMENTS;
			float* p = &positions[3 * (ring * POLE_SEGMENTS + k)];
			p[0] = x + radius * weft_sin(angle + 1.57079632679490f);
			p[1] = y;
			p[2] = z + radius * weft_sin(angle);
		}
	}
	const uint32_t bottom_centre = (uint32_t)((rings + 1) * POLE_SEGMENTS), top_centre = bottom_centre + 1;
	float* c0 = &positions[3 * bottom_centre];
	float* c1 = &positions[3 * top_centre];
	c0[0] = c1[0] = x;
	c0[2] = c1[2] = z;
	c0[1] = low;
	c1[1] = high;
	uint32_t* t = indices;
	for (uint32_t k = 0; k < POLE_SEGMENTS; ++k) {
		const uint32_t next = (k + 1) % POLE_SEGMENTS;
		for (uint32_t ring = 0; ring < (uint32_t)rings; ++ring) {
			// Counter-clockwise seen from outside (the angle runs from +x towards +z).
			const uint32_t a = ring * POLE_SEGMENTS + k, b = ring * POLE_SEGMENTS + next;
			const uint32_t c = b + POLE_SEGMENTS, d = a + POLE_SEGMENTS;
			*t++ = a, *t++ = d, *t++ = c;
			*t++ = a, *t++ = c, *t++ = b;
		}
		const uint32_t top_ring = (uint32_t)rings * POLE_SEGMENTS;
		*t++ = bottom_centre, *t++ = k, *t++ = next;                    // bottom cap, facing down
		*t++ = top_centre, *t++ = top_ring + next, *t++ = top_ring + k; // top cap, facing up
	}
	const int32_t vertices = (rings + 1) * POLE_SEGMENTS + 2, triangles = (2 * rings + 2) * POLE_SEGMENTS;
	return weft_world_set_mesh_collider(world, positions, vertices, indices, triangles, false);
}
