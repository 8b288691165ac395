// The unit sphere the exporters draw sphere colliders with (the glTF writer, the CLI's OBJ): two
// poles and rings of segments between them, counter-clockwise from outside.
#include <math.h>

#include "weft/weft.h"

#define RINGS WEFT_UNIT_SPHERE_RINGS
#define SEGMENTS WEFT_UNIT_SPHERE_SEGMENTS

void weft_unit_sphere(float* positions, uint32_t* indices) {
	const double pi = 3.14159265358979323846;
	int32_t v = 0;
	positions[v++] = 0.0f, positions[v++] = 1.0f, positions[v++] = 0.0f;
	for (int32_t i = 1; i < RINGS; ++i) {
		const double theta = pi * i / RINGS;
		for (int32_t j = 0; j < SEGMENTS; ++j) {
			const double phi = 2.0 * pi * j / SEGMENTS;
			positions[v++] = (float)(sin(theta) * cos(phi));
			positions[v++] = (float)cos(theta);
			positions[v++] = (float)(sin(theta) * sin(phi));
		}
	}
	positions[v++] = 0.0f, positions[v++] = -1.0f, positions[v++] = 0.0f;
	const uint32_t south = WEFT_UNIT_SPHERE_VERTICES - 1;
	int32_t t = 0;
	for (int32_t j = 0; j < SEGMENTS; ++j) {
		const uint32_t a = 1 + (uint32_t)j, b = 1 + (uint32_t)((j + 1) % SEGMENTS);
		indices[t++] = 0, indices[t++] = b, indices[t++] = a;
		const uint32_t c = a + (RINGS - 2) * SEGMENTS, d = b + (RINGS - 2) * SEGMENTS;
		indices[t++] = south, indices[t++] = c, indices[t++] = d;
	}
	for (int32_t i = 0; i < RINGS - 2; ++i) {
		for (int32_t j = 0; j < SEGMENTS; ++j) {
			const uint32_t a = 1 + (uint32_t)(i * SEGMENTS + j);
			const uint32_t b = 1 + (uint32_t)(i * SEGMENTS + (j + 1) % SEGMENTS);
			const uint32_t c = a + SEGMENTS, d = b + SEGMENTS;
			indices[t++] = a, indices[t++] = b, indices[t++] = c;
			indices[t++] = b, indices[t++] = d, indices[t++] = c;
		}
	}
}
