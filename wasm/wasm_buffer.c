// A growable byte buffer as a weft_byte_sink (wasm_buffer.h).
#include "wasm_buffer.h"

#include <stdlib.h>
#include <string.h>

static bool buffer_write(void* context, uint64_t offset, const void* data, size_t size) {
	wasm_buffer* r = context;
	if (offset > SIZE_MAX - size) return false;
	const size_t end = (size_t)offset + size;
	if (end > r->capacity) {
		size_t capacity = r->capacity ? r->capacity : 1 << 16;
		while (capacity < end) {
			if (capacity > SIZE_MAX / 2) return false;
			capacity *= 2;
		}
		uint8_t* grown = realloc(r->data, capacity);
		if (!grown) return false;
		r->data = grown;
		r->capacity = capacity;
	}
	if (offset > r->size) memset(r->data + r->size, 0, (size_t)offset - r->size);
	memcpy(r->data + offset, data, size);
	if (end > r->size) r->size = end;
	return true;
}

static bool buffer_move(void* context, uint64_t to, uint64_t from, size_t size) {
	wasm_buffer* r = context;
	if (from > r->size || size > r->size - (size_t)from || to > from) return false;
	memmove(r->data + to, r->data + from, size);
	return true;
}

weft_byte_sink wasm_buffer_sink(wasm_buffer* buffer) { return (weft_byte_sink){buffer_write, buffer, buffer_move}; }
