# The browser app (web/, Vite + TypeScript), its end-to-end tests and `make run`'s server.
BUILD_PARTS += web
TEST_SUITES += test-web test-e2e

WEB_SOURCES := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json web/package.json

.PHONY: web test-web test-e2e
web: web/dist/index.html

# Type-check, then bundle; weft.wasm comes along from web/public/.
web/dist/index.html: $(WEB_SOURCES) web/public/weft.wasm
	@echo "  web   web/dist"
	@cd web && npx tsc --noEmit && npx vite build --logLevel warn

test-e2e: web
	@node --test --test-concurrency=1 tests/e2e/

# The app's pure TypeScript (URL parsing, camera, uniform layouts) under Node.
test-web:
	@node --test tests/web/
