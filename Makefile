# weft front door. `make run` and `make test` are the quick start; see README.md.
# Parts of the build add themselves through mk/*.mk (wasm, web app, GPU solver, ...):
# each appends its targets to BUILD_PARTS, TEST_SUITES and BENCH_PARTS.
SHELL := /bin/bash
.DEFAULT_GOAL := build
JOBS ?= $(shell nproc)
BUILD_DIR := build
SANITIZE_DIR := build-sanitize
CMAKE_FLAGS ?= -G Ninja -DCMAKE_BUILD_TYPE=Release

BUILD_PARTS := native
TEST_SUITES := test-native test-sanitize test-threads
BENCH_PARTS := bench-core

-include mk/*.mk

.PHONY: setup build native test test-native test-sanitize test-threads bench bench-core run clean

setup:
	@bash scripts/setup.sh

build: setup
	@$(MAKE) --no-print-directory $(BUILD_PARTS)

native:
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@set -e; for suite in $(TEST_SUITES); do \
	  echo "== $$suite"; $(MAKE) --no-print-directory $$suite; done
	@echo "== all test suites passed"

test-native: native
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
test-sanitize:
	@cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=ON >/dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

# The threaded step under ThreadSanitizer (bit-identical to the serial step, no data races).
test-threads:
	@cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target test_determinism
	@TSAN_OPTIONS=halt_on_error=1 build-tsan/test_determinism

bench: build
	@$(MAKE) --no-print-directory $(BENCH_PARTS)

bench-core: native
	@bash bench/core.sh $(BUILD_DIR)/weft

run: build
	@bash scripts/serve.sh

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) build-tsan
