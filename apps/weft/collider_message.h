// Why a user's OBJ was refused as a collider, said like the OBJ reader says it ("FILE:LINE: why").
#ifndef WEFT_CLI_COLLIDER_MESSAGE_H
#define WEFT_CLI_COLLIDER_MESSAGE_H

// Prints "error: PATH: reason" for a message of the collider's own checks
// (weft_world_set_mesh_collider: the function's name replaced by the file's), and
// "error: PATH:LINE: vertex K ..." when it names a vertex: the checks count vertices from 0, the
// file's `v` statements from 1 (the page says it the same way: web/src/core/obj.ts, namedError).
void collider_error(const char* path, const char* message);

#endif
