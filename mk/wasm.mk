# The C core as WebAssembly (clang-19, wasm32-wasi, no JS glue). The core objects are compiled once
# and linked twice: as a reactor with the boundary exports of wasm/ (the browser app's weft.wasm),
# and as one WASI command per C unit test (tests/unit/test_*.c) that Node runs through node:wasi.
BUILD_PARTS += wasm
TEST_SUITES += test-wasm
BENCH_PARTS += bench-wasm

WASM_CC ?= clang-19
WASM_DIR := $(BUILD_DIR)/wasm
# -ffp-contract=off: the same bits as the native build (determinism). -fvisibility=hidden: only the
# boundary's export_name functions leave the module. -msimd128 lets clang vectorise the loops.
WASM_CFLAGS := -std=c11 -O3 --target=wasm32-wasi -ffp-contract=off -fvisibility=hidden -msimd128 \
  -Wall -Wextra -Wno-unused-parameter -Iinclude -Isrc -MMD -MP
WASM_BUILTINS := $(wildcard $(shell $(WASM_CC) --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null))
WASM_LDLIBS := -lc -lm $(WASM_BUILTINS)

WASM_CORE_OBJECTS := $(patsubst src/%.c,$(WASM_DIR)/core/%.o,$(wildcard src/*.c))

# The Stanford bunny's arrays (src/bunny.c includes them when present) come from mk/mesh.mk's
# bunny-data rule, the same header CMake generates for the native build.
ifdef WEFT_BUNNY_HEADER
WASM_CFLAGS += -I$(dir $(WEFT_BUNNY_HEADER))
$(WASM_DIR)/core/bunny.o: $(WEFT_BUNNY_HEADER)
endif

WASM_BOUNDARY_OBJECTS := $(patsubst wasm/%.c,$(WASM_DIR)/boundary/%.o,$(wildcard wasm/*.c))
WASM_UNIT_TESTS := $(patsubst tests/unit/%.c,$(WASM_DIR)/tests/%.wasm,$(wildcard tests/unit/test_*.c))

.PHONY: wasm test-wasm bench-wasm
wasm: $(WASM_DIR)/weft.wasm web/public/weft.wasm

$(WASM_DIR)/core/%.o: src/%.c
	@mkdir -p $(@D)
	@echo "  wasm  $<"
	@$(WASM_CC) $(WASM_CFLAGS) -c $< -o $@
$(WASM_DIR)/boundary/%.o: wasm/%.c
	@mkdir -p $(@D)
	@echo "  wasm  $<"
	@$(WASM_CC) $(WASM_CFLAGS) -c $< -o $@

# Reactor: no main; JS calls _initialize() once, then the exports.
$(WASM_DIR)/weft.wasm: $(WASM_CORE_OBJECTS) $(WASM_BOUNDARY_OBJECTS)
	@echo "  link  $@"
	@$(WASM_CC) --target=wasm32-wasi -mexec-model=reactor -nodefaultlibs -Wl,--export-dynamic -Wl,--strip-all \
	  -o $@ $^ $(WASM_LDLIBS)

# Vite serves web/public/ as is.
web/public/weft.wasm: $(WASM_DIR)/weft.wasm
	@mkdir -p $(@D)
	@cp $< $@

# Paths in the tests are WEFT_SOURCE_DIR "/..."; the runner preopens the repository root as "/",
# so an empty prefix makes the same paths work inside the WASI sandbox.
$(WASM_DIR)/tests/%.wasm: tests/unit/%.c $(WASM_CORE_OBJECTS)
	@mkdir -p $(@D)
	@echo "  wasm  $@"
	@$(WASM_CC) $(WASM_CFLAGS) -Itests/unit -DWEFT_SOURCE_DIR='""' -nodefaultlibs -Wl,--strip-all \
	  -o $@ $< $(WASM_CORE_OBJECTS) $(WASM_LDLIBS)

test-wasm: wasm $(WASM_UNIT_TESTS)
	@node --no-warnings tests/wasm/run-unit.mjs $(WASM_UNIT_TESTS)
	@node --no-warnings --test tests/wasm/

bench-wasm: wasm native
	@node --no-warnings bench/wasm.mjs --native $(BUILD_DIR)/weft

-include $(wildcard $(WASM_DIR)/*/*.d)
