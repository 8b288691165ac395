// The Stanford bunny, built into the library from the npm package `bunny` (scripts/gen_bunny.js
// writes weft_bunny_data.h at build time; cmake/bunny.cmake puts it on the include path). A build
// without it (no node, no npm) still compiles: the bunny is then empty and the `bunny` scene says so.
#include "weft/weft.h"

#if defined(__has_include)
#if __has_include("weft_bunny_data.h")
#include "weft_bunny_data.h"
#define WEFT_HAVE_BUNNY 1
#endif
#endif

void weft_bunny_mesh(const float** out_positions, int32_t* out_vertex_count, const uint32_t** out_indices,
                     int32_t* out_triangle_count) {
#ifdef WEFT_HAVE_BUNNY
	if (out_positions) *out_positions = weft_bunny_positions;
	if (out_vertex_count) *out_vertex_count = WEFT_BUNNY_VERTEX_COUNT;
	if (out_indices) *out_indices = weft_bunny_indices;
	if (out_triangle_count) *out_triangle_count = WEFT_BUNNY_TRIANGLE_COUNT;
#else
	if (out_positions) *out_positions = NULL;
	if (out_vertex_count) *out_vertex_count = 0;
	if (out_indices) *out_indices = NULL;
	if (out_triangle_count) *out_triangle_count = 0;
#endif
}
