// Wavefront OBJ export of the cloth (positions, UVs, normals, triangles) and of the colliders.
#ifndef WEFT_CLI_OBJ_EXPORT_H
#define WEFT_CLI_OBJ_EXPORT_H

#include <stdbool.h>

#include "weft/weft.h"

// Writes the cloth as it is now, in world space. Returns false (errno set) on I/O failure.
bool export_cloth_obj(weft_world* world, const char* path);
// Writes the colliders as simulated (ground quad, tessellated spheres), in world space.
bool export_colliders_obj(const weft_world* world, const char* path);

#endif
