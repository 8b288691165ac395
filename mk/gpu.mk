# The GPU solver (web/src/gpu): parity and layout tests under Node + Dawn. Without a GPU (here, CI)
# Dawn runs on Mesa llvmpipe through GLES (scripts/apt-packages/gpu.txt); docs/architecture.md (twins).
# The H200 benchmark runs on the device machine: bench/gpu/pack.sh builds its bundle.
TEST_SUITES += test-gpu

# The native preset builds the layout probe into build/gpu/; the bundled tests land next to it.
GPU_DIR := $(BUILD_DIR)/gpu

.PHONY: test-gpu gpu-bench-pack
test-gpu: wasm native
	@node tests/gpu/build.mjs $(GPU_DIR) tests/gpu/parity.test.ts tests/gpu/mesh.test.ts tests/gpu/layout.test.ts tests/gpu/fallback.test.ts tests/gpu/self_collision.test.ts tests/gpu/air.test.ts tests/gpu/behaviour.test.ts
	@EGL_PLATFORM=surfaceless WEFT_WASM=$(WASM_DIR)/weft.wasm WEFT_LAYOUT_PROBE=$(GPU_DIR)/layout_probe \
	  node --test $(GPU_DIR)/layout.test.mjs $(GPU_DIR)/parity.test.mjs $(GPU_DIR)/mesh.test.mjs $(GPU_DIR)/fallback.test.mjs $(GPU_DIR)/self_collision.test.mjs $(GPU_DIR)/air.test.mjs $(GPU_DIR)/behaviour.test.mjs

# Bundle for the H200 run (see bench/gpu/pack.sh); the results land in bench/results/h200/gpu.json.
gpu-bench-pack: wasm
	@bash bench/gpu/pack.sh
