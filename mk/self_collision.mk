# Self-collision part: the fold benchmark (native, 1 and 2 threads, on and off).
BENCH_PARTS += bench-fold

.PHONY: bench-fold
bench-fold: native
	@bash bench/fold.sh $(BUILD_DIR)/weft

# The same in WebAssembly under Node, beside the native CLI (bench/results/<machine>/fold_wasm.json).
BENCH_PARTS += bench-fold-wasm
.PHONY: bench-fold-wasm
bench-fold-wasm: wasm native
	@node --no-warnings bench/fold_wasm.mjs --native $(BUILD_DIR)/weft
