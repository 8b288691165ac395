#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "gltf_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"

struct gltf_export {
	FILE* file;
	uint64_t position; // where the next fwrite lands
	const char* path;
	weft_gltf_writer* writer;
};

static bool ends_with(const char* text, const char* suffix) {
	const size_t n = strlen(text), m = strlen(suffix);
	return n >= m && strcasecmp(text + n - m, suffix) == 0;
}

bool gltf_export_wanted(const char* path) { return ends_with(path, ".glb") || ends_with(path, ".gltf"); }

// The writer's byte sink over a FILE: seeks only when the writer jumps (its header at the end).
static bool file_write(void* context, uint64_t offset, const void* data, size_t size) {
	gltf_export* e = context;
	if (offset != e->position) {
		if (offset > (uint64_t)INT64_MAX || fseeko(e->file, (off_t)offset, SEEK_SET) != 0) return false;
		e->position = offset;
	}
	if (fwrite(data, 1, size, e->file) != size) return false;
	e->position += size;
	return true;
}

gltf_export* gltf_export_open(const char* path, weft_world* world, const weft_gltf_def* def, int* out_code) {
	*out_code = EXIT_BAD_INPUT;
	if (!ends_with(path, ".glb")) {
		cli_error("--export '%s': glTF is written as one binary file: name it .glb", path);
		return NULL;
	}
	struct stat info;
	if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
		cli_error("--export '%s' exists and is not a regular file", path);
		return NULL;
	}
	uint64_t bytes;
	if (weft_gltf_size(world, def, def->frame_capacity, &bytes) != WEFT_OK) {
		cli_error("--export '%s': %s", path, weft_last_error());
		return NULL;
	}
	gltf_export* e = calloc(1, sizeof *e);
	if (e == NULL) {
		cli_error("out of memory");
		*out_code = 1;
		return NULL;
	}
	e->path = path;
	e->file = fopen(path, "wb");
	if (e->file == NULL) {
		cli_error("cannot create '%s': %s", path, strerror(errno));
		free(e);
		return NULL;
	}
	weft_byte_sink sink = {file_write, e, NULL}; // a file keeps unused JSON room as spaces
	if (weft_gltf_writer_begin(world, def, sink, &e->writer) != WEFT_OK) {
		cli_error("cannot write '%s': %s%s%s", path, weft_last_error(), errno ? ": " : "",
		          errno ? strerror(errno) : "");
		*out_code = 1;
		gltf_export_abort(e);
		return NULL;
	}
	*out_code = 0;
	return e;
}

bool gltf_export_frame(gltf_export* e, weft_world* world) {
	errno = 0;
	if (weft_gltf_writer_add_frame(e->writer, world) != WEFT_OK) {
		cli_error("cannot write '%s': %s%s%s", e->path, weft_last_error(), errno ? ": " : "",
		          errno ? strerror(errno) : "");
		return false;
	}
	return true;
}

bool gltf_export_close(gltf_export* e, uint64_t* out_bytes) {
	errno = 0;
	bool ok = weft_gltf_writer_finish(e->writer, out_bytes) == WEFT_OK;
	if (!ok)
		cli_error("cannot write '%s': %s%s%s", e->path, weft_last_error(), errno ? ": " : "",
		          errno ? strerror(errno) : "");
	weft_gltf_writer_destroy(e->writer);
	e->writer = NULL;
	if (fclose(e->file) != 0 && ok) {
		cli_error("cannot write '%s': %s", e->path, strerror(errno));
		ok = false;
	}
	if (!ok) unlink(e->path);
	free(e);
	return ok;
}

void gltf_export_abort(gltf_export* e) {
	if (e == NULL) return;
	weft_gltf_writer_destroy(e->writer);
	fclose(e->file);
	unlink(e->path);
	free(e);
}
