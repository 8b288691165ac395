#!/usr/bin/env bash
# Stability sweep (bench/sweep.c): every scene × compliance 0…1 × substeps 1…1000 × iterations 1, 10
# × grids 4, 32, 96 × damping 0, 1, and 512² at compliance 0, 1 and 10 substeps, 1 iteration,
# damping 0 (a spot check), with a violent drag in the second second. Writes
# bench/results/<machine>/sweep.json (per run: finite, max stretch after the first second, pass).
# `bash bench/sweep.sh build/weft_sweep --quick` runs the corners only.
set -euo pipefail
sweep=${1:-build/weft_sweep}
shift || true
source "$(dirname "$0")/common.sh"
bench_setup sweep.json
"$sweep" "$@" > "$out"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(f\"sweep: {d['passed']} of {d['runs_total']} runs passed\", file=sys.stderr)" "$out"
echo "wrote $out" >&2
