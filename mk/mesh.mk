# Mesh collision part: the OBJ reader's fuzz run (a test suite) and the mesh benchmark.
TEST_SUITES += test-fuzz
BENCH_PARTS += bench-mesh bench-soup

FUZZ_DIR := build-fuzz
FUZZ_SECONDS ?= 25

.PHONY: test-fuzz bench-mesh bench-soup

# libFuzzer + ASan/UBSan over the OBJ reader and the collider built from what it accepts (CMake's
# `fuzz` preset, clang-19), seeded from tests/fuzz/corpus (new inputs go to $(FUZZ_DIR)/corpus,
# not into the repository).
test-fuzz:
	@$(call cmake_preset,fuzz)
	@mkdir -p $(FUZZ_DIR)/corpus
	@$(FUZZ_DIR)/fuzz_obj -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/obj.dict -print_final_stats=0 $(FUZZ_DIR)/corpus tests/fuzz/corpus 2>$(FUZZ_DIR)/fuzz.log \
	  || { tail -n 60 $(FUZZ_DIR)/fuzz.log; exit 1; }
	@grep -E '^Done [0-9]+ runs' $(FUZZ_DIR)/fuzz.log || tail -n 3 $(FUZZ_DIR)/fuzz.log

bench-mesh: native
	@bash bench/mesh.sh $(BUILD_DIR)/weft

# A 200 000-triangle soup against the bunny at 32² (bench/soup.sh; the soup is generated, not committed).
bench-soup: native
	@bash bench/soup.sh $(BUILD_DIR)/weft
