// A growable byte buffer in linear memory, as a weft_byte_sink (the boundary's files that hand a
// core writer's output to JS: wasm/weft_wasm_gltf.c, wasm/weft_wasm_obj_text.c). Growing may grow
// memory: JS re-makes its views after each call (WeftWorld does by itself).
#ifndef WEFT_WASM_BUFFER_H
#define WEFT_WASM_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "weft/weft.h"

typedef struct wasm_buffer {
	uint8_t* data;
	size_t size, capacity;
} wasm_buffer;

// The sink that writes into (and grows) *buffer; move is memmove within what is written.
weft_byte_sink wasm_buffer_sink(wasm_buffer* buffer);

#endif
