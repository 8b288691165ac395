// The CLI's OBJ files: the core's OBJ text (weft_obj_write_cloth, weft_obj_write_colliders) into a file.
#include "obj_export.h"

#include <stdio.h>

// The sink over a FILE: the text comes front to back, so the offsets follow the file's position.
static bool file_write(void* context, uint64_t offset, const void* data, size_t size) {
	(void)offset;
	return fwrite(data, 1, size, context) == size;
}

// Closes the file; true when it and the text were written whole.
static bool close_written(FILE* file, weft_result written) { return (fclose(file) == 0) & (written == WEFT_OK); }

bool export_cloth_obj(weft_world* world, const char* path) {
	FILE* file = fopen(path, "w");
	return file != NULL &&
	       close_written(file, weft_obj_write_cloth(world, (weft_byte_sink){file_write, file, NULL}, NULL));
}

bool export_colliders_obj(const weft_world* world, const char* path) {
	FILE* file = fopen(path, "w");
	return file != NULL &&
	       close_written(file, weft_obj_write_colliders(world, (weft_byte_sink){file_write, file, NULL}, NULL));
}
