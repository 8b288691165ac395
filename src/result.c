// Result codes, the last-error message and the allocation hook.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "world_internal.h"

// One message per thread: two threads, each with its own world, read back their own failures
// (wasm32 has no threads; clang then makes it an ordinary global).
static _Thread_local char last_error[512];

const char* weft_result_string(weft_result result) {
	switch (result) {
	case WEFT_OK: return "ok";
	case WEFT_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case WEFT_ERROR_TOO_LARGE: return "too large";
	case WEFT_ERROR_OUT_OF_MEMORY: return "out of memory";
	case WEFT_ERROR_PARSE: return "parse error";
	case WEFT_ERROR_IO: return "i/o error";
	case WEFT_ERROR_NON_FINITE: return "non-finite";
	}
	return "unknown result";
}

const char* weft_last_error(void) { return last_error; }

weft_result weft_fail(weft_result result, const char* format, ...) {
	va_list args;
	va_start(args, format);
	vsnprintf(last_error, sizeof last_error, format, args);
	va_end(args);
	return result;
}

static void* default_alloc(size_t size, void* user_data) {
	(void)user_data;
	return malloc(size);
}

static void default_free(void* ptr, void* user_data) {
	(void)user_data;
	free(ptr);
}

weft_allocator weft_resolve_allocator(weft_allocator allocator) {
	if (allocator.alloc == NULL || allocator.free == NULL) {
		allocator.alloc = default_alloc;
		allocator.free = default_free;
		allocator.user_data = NULL;
	}
	return allocator;
}

void* weft_alloc(const weft_allocator* allocator, size_t size) {
	return allocator->alloc(size ? size : 1, allocator->user_data);
}

void weft_free(const weft_allocator* allocator, void* ptr) {
	if (ptr != NULL) {
		allocator->free(ptr, allocator->user_data);
	}
}
