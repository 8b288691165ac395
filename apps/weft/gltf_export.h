// `weft run --export FILE.glb`: the recording as one binary glTF (src/gltf_writer.c) through a FILE.
#ifndef WEFT_CLI_GLTF_EXPORT_H
#define WEFT_CLI_GLTF_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/weft.h"

typedef struct gltf_export gltf_export;

// True when the --export path names a glTF file (.glb or .gltf, any case).
bool gltf_export_wanted(const char* path);
// Checks the destination (a .glb whose folder exists, not a directory or a device), that `frames`
// sampled frames fit in a .glb, then creates the file and writes the base pose and the colliders.
// Prints the error and returns NULL otherwise; *out_code is then the exit code (2: bad input).
gltf_export* gltf_export_open(const char* path, weft_world* world, const weft_gltf_def* def, int* out_code);
// Streams the world's current state as the next frame. Prints the error and returns false on failure.
bool gltf_export_frame(gltf_export* export, weft_world* world);
// Finishes and closes the file (*out_bytes its size). Prints the error and returns false on failure
// (the file is removed); the export is freed either way.
bool gltf_export_close(gltf_export* export, uint64_t* out_bytes);
// Closes and removes the unfinished file, frees the export (NULL is fine).
void gltf_export_abort(gltf_export* export);

#endif
