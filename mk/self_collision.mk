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

# Whether the fold pile's layers stay apart at 64²–256², 10 and 5 substeps, one and more spacings of
# thickness (bench/results/<machine>/fold_contacts.json).
BENCH_PARTS += bench-fold-contacts
.PHONY: bench-fold-contacts
bench-fold-contacts: native
	@bash bench/fold_contacts.sh $(BUILD_DIR)/weft_fold_contacts
