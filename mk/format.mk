# Formatting as code: .clang-format (C, clang-format 14), .prettierrc.json + .prettierignore
# (TypeScript, JavaScript, JSON, HTML; prettier from web/node_modules), .editorconfig for editors.
# `make format` rewrites the tree; `make format-check` (the last test suite, see Makefile) fails and
# lists the files when one is not formatted. Generated and vendored files are left alone.
CLANG_FORMAT ?= clang-format
PRETTIER := web/node_modules/.bin/prettier
FORMAT_C_SOURCES = $(shell find apps include src tests wasm bench -path tests/fuzz/corpus -prune -o \( -name '*.c' -o -name '*.h' \) -print | sort)

.PHONY: format format-check
format: setup
	@$(CLANG_FORMAT) -i $(FORMAT_C_SOURCES)
	@$(PRETTIER) --log-level warn --write .

format-check: setup
	@status=0; unformatted=$$(for f in $(FORMAT_C_SOURCES); do \
	    $(CLANG_FORMAT) --dry-run --Werror "$$f" >/dev/null 2>&1 || echo "$$f"; done); \
	if [ -n "$$unformatted" ]; then echo "format-check: not clang-formatted (run make format):"; \
	  echo "$$unformatted" | sed 's/^/  /'; status=1; fi; \
	$(PRETTIER) --log-level warn --check . || { echo "format-check: not prettier-formatted (run make format)"; status=1; }; \
	exit $$status
