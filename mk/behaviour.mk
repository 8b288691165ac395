# Behaviour: the stability sweep (every scene across compliance, substeps, iterations, grids and
# damping, with a violent drag); bench/results/<machine>/sweep.json. The stiffness tables (settled
# stretch with and without tethers, sag across substeps, free fall); stiffness.json.
BENCH_PARTS += bench-sweep bench-stiffness

.PHONY: bench-sweep bench-stiffness
bench-sweep: native
	@bash bench/sweep.sh $(BUILD_DIR)/weft_sweep

bench-stiffness: native
	@bash bench/stiffness.sh $(BUILD_DIR)/weft_stiffness
