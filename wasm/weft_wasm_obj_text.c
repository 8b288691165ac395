// OBJ text on the page: the cloth as it is now (or the colliders), the core's writer
// (weft_obj_write_cloth, the same text as `weft run --export DIR`), into a buffer JS copies out once.
#include <stdlib.h>

#include "wasm_buffer.h"
#include "wasm_world.h"

static wasm_buffer text;

// Writes h's cloth (what 0) or colliders (what 1) as OBJ text into the module's buffer (the last
// text's is reused); its bytes: obj_text_bytes(), -1 on failure (last_error says why). The cloth's
// first line names `frame` and `time` (s) where frame ≥ 0 (the page's GPU solver runs the cloth,
// not h's world), else the world's own.
WASM_EXPORT(obj_text) int32_t wasm_obj_text(wasm_world* h, int32_t what, double frame, double time) {
	text.size = 0;
	uint64_t size = 0;
	const weft_byte_sink sink = wasm_buffer_sink(&text);
	weft_result result;
	if (what != 0) {
		result = weft_obj_write_colliders(h->world, sink, &size);
	} else if (frame >= 0.0) {
		// Beyond 2^53 a frame is no exact integer: refused (as a negative one) by the writer.
		result = weft_obj_write_cloth_at(h->world, frame <= 9.0e15 ? (int64_t)frame : -1, time, sink, &size);
	} else {
		result = weft_obj_write_cloth(h->world, sink, &size);
	}
	return result == WEFT_OK && size <= INT32_MAX ? (int32_t)size : -1;
}
WASM_EXPORT(obj_text_bytes) const uint8_t* wasm_obj_text_bytes(void) { return text.data; }
// Frees the buffer (a big cloth's text need not stay in memory).
WASM_EXPORT(obj_text_free) void wasm_obj_text_free(void) {
	free(text.data);
	text = (wasm_buffer){0};
}
