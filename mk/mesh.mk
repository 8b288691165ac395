# Mesh collision part: the OBJ reader's fuzz run (a test suite) and the mesh benchmark.
TEST_SUITES += test-fuzz
BENCH_PARTS += bench-mesh

FUZZ_DIR := build-fuzz
FUZZ_SECONDS ?= 25
FUZZ_CC ?= clang-19

.PHONY: test-fuzz bench-mesh

# libFuzzer + ASan/UBSan over the OBJ reader and the collider built from what it accepts, seeded
# from tests/fuzz/corpus (new inputs go to $(FUZZ_DIR)/corpus, not into the repository).
$(FUZZ_DIR)/fuzz_obj: tests/fuzz/fuzz_obj.c $(wildcard src/*.c src/*.h include/weft/*.h)
	@mkdir -p $(FUZZ_DIR)
	@$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -ffp-contract=off \
	  -Iinclude -Isrc tests/fuzz/fuzz_obj.c $(filter %.c,$(wildcard src/*.c)) -lm -lpthread -o $@

test-fuzz: $(FUZZ_DIR)/fuzz_obj
	@mkdir -p $(FUZZ_DIR)/corpus
	@$(FUZZ_DIR)/fuzz_obj -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/obj.dict -print_final_stats=0 $(FUZZ_DIR)/corpus tests/fuzz/corpus 2>$(FUZZ_DIR)/fuzz.log \
	  || { tail -n 60 $(FUZZ_DIR)/fuzz.log; exit 1; }
	@grep -E '^Done [0-9]+ runs' $(FUZZ_DIR)/fuzz.log || tail -n 3 $(FUZZ_DIR)/fuzz.log

bench-mesh: native
	@bash bench/mesh.sh $(BUILD_DIR)/weft

# The Stanford bunny's C arrays for builds outside CMake (e.g. the wasm build): depend on
# bunny-data and add -I$(BUILD_DIR)/generated; src/bunny.c picks the header up when it is there.
WEFT_BUNNY_HEADER := $(BUILD_DIR)/generated/weft_bunny_data.h
.PHONY: bunny-data
bunny-data: $(WEFT_BUNNY_HEADER)
$(WEFT_BUNNY_HEADER): scripts/gen_bunny.js
	@package=web/node_modules/bunny; \
	if [ ! -f $$package/index.js ]; then package=$(BUILD_DIR)/npm/node_modules/bunny; \
	  [ -f $$package/index.js ] || npm install --no-save --no-audit --no-fund --prefix $(BUILD_DIR)/npm bunny@1.0.1 >/dev/null; fi; \
	node scripts/gen_bunny.js $$package $@
