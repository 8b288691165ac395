# Behaviour: the stability sweep (every scene across compliance, substeps, iterations, grids and
# damping, with a violent drag); bench/results/<machine>/sweep.json.
BENCH_PARTS += bench-sweep

.PHONY: bench-sweep
bench-sweep: native
	@bash bench/sweep.sh $(BUILD_DIR)/weft_sweep
