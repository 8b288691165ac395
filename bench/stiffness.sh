#!/usr/bin/env bash
# Stiffness tables (bench/stiffness.c): settled `hang` max stretch per grid with and without
# tethers, its sag across substep counts, free fall from 1 to 1000 substeps, the recovery from a
# violent drag at 10, 20, 50 substeps. Writes
# bench/results/<machine>/stiffness.json. `bash bench/stiffness.sh build/weft_stiffness --quick`
# runs the small grids only.
set -euo pipefail
stiffness=${1:-build/weft_stiffness}
shift || true
source "$(dirname "$0")/common.sh"
bench_setup stiffness.json
"$stiffness" "$@" > "$out"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out"
cat "$out" >&2
echo "wrote $out" >&2
