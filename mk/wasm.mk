# The C core as WebAssembly (clang-19, wasm32-wasi, no JS glue): CMake's `wasm` preset
# (cmake/wasm32-wasi.cmake) compiles the core once and links it twice: as a reactor with the
# boundary exports of wasm/ (build-wasm/weft.wasm, the browser app's weft.wasm), and as one WASI
# command per C unit test (build-wasm/tests/test_*.wasm) that Node runs through node:wasi.
BUILD_PARTS += wasm
TEST_SUITES += test-wasm
BENCH_PARTS += bench-wasm bench-peers

WASM_DIR := build-wasm
WASM_UNIT_TESTS := $(patsubst tests/unit/%.c,$(WASM_DIR)/tests/%.wasm,$(wildcard tests/unit/test_*.c))

.PHONY: wasm test-wasm bench-wasm bench-peers
# Vite serves web/public/ as is; the copy is refreshed only when the module changed, so the web
# bundle (which depends on it) is not rebuilt for nothing.
wasm:
	@$(call cmake_preset,wasm)
	@mkdir -p web/public
	@cmp -s $(WASM_DIR)/weft.wasm web/public/weft.wasm || cp $(WASM_DIR)/weft.wasm web/public/weft.wasm
web/public/weft.wasm: wasm
	@:

test-wasm: wasm
	@node --no-warnings tests/wasm/run-unit.mjs $(WASM_UNIT_TESTS)
	@node --no-warnings --test tests/wasm/

bench-wasm: wasm native
	@node --no-warnings bench/wasm.mjs --native $(BUILD_DIR)/weft

# weft's wasm next to Jolt Physics' soft body (npm jolt-physics, its wasm build) on `hang` 128² in one
# Node process (bench/peers.mjs): bench/results/<machine>/peers.json.
bench-peers: wasm
	@node --no-warnings bench/peers.mjs
