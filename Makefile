# weft front door. `make run` and `make test` are the quick start; see README.md.
# Parts of the build add themselves through mk/*.mk (wasm, web app, GPU solver, ...):
# each appends its targets to BUILD_PARTS, TEST_SUITES and BENCH_PARTS.
# Every C compile goes through CMake: CMakePresets.json names the builds (native, asan, tsan, fuzz,
# wasm), each in its own folder; make drives them, npm, Vite and Node.
SHELL := /bin/bash
.DEFAULT_GOAL := build
JOBS ?= $(shell nproc)
BUILD_DIR := build
# $(call cmake_preset,NAME): configure (quietly) and build one preset.
cmake_preset = cmake --preset $(1) >/dev/null && cmake --build --preset $(1) -j $(JOBS)

BUILD_PARTS := native
TEST_SUITES := test-native test-sanitize test-threads
BENCH_PARTS := bench-core

-include mk/*.mk
# Last: a formatting slip (mk/format.mk) should not hide a failing test behind it.
TEST_SUITES += format-check

.PHONY: setup build native test test-native test-sanitize test-threads bench bench-core run clean

setup:
	@bash scripts/setup.sh

build: setup
	@$(MAKE) --no-print-directory $(BUILD_PARTS)

# libweft, the CLI build/weft, the unit tests and the GPU layout probe (build/gpu/layout_probe).
native:
	@$(call cmake_preset,native)

test: build
	@set -e; for suite in $(TEST_SUITES); do \
	  echo "== $$suite"; $(MAKE) --no-print-directory $$suite; done
	@echo "== all test suites passed"

test-native: native
	@ctest --preset native -j $(JOBS)

# The unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan).
test-sanitize:
	@$(call cmake_preset,asan)
	@ctest --preset asan -j $(JOBS)

# The threaded step under ThreadSanitizer (build-tsan; bit-identical to the serial step, no data races).
test-threads:
	@$(call cmake_preset,tsan)
	@ctest --preset tsan

bench: build
	@$(MAKE) --no-print-directory $(BENCH_PARTS)

bench-core: native
	@bash bench/core.sh $(BUILD_DIR)/weft

run: build
	@bash scripts/serve.sh

clean:
	rm -rf $(BUILD_DIR) build-asan build-tsan build-fuzz build-wasm web/public/weft.wasm
