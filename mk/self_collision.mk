# Self-collision part: the fold benchmark (native, 1 and 2 threads, on and off).
BENCH_PARTS += bench-fold

.PHONY: bench-fold
bench-fold: native
	@bash bench/fold.sh $(BUILD_DIR)/weft
