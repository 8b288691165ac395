#!/usr/bin/env bash
# `make run`: serves the built web app (web/dist, built by `make build`) on loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f web/dist/index.html ] || [ ! -f web/dist/weft.wasm ]; then
  echo "error: web/dist is not built; run 'make build' first" >&2
  exit 2
fi
exec node scripts/static-server.mjs web/dist "${WEFT_PORT:-8080}"
