#!/usr/bin/env bash
# Core benchmark: `hang` at N = 64, 128, 256, 10 substeps × 1 iteration, 600 frames, single thread.
# Writes bench/results/<machine>/core.json (one object per N, medians in ms_median).
set -euo pipefail
BENCH_WEFT=${1:-build/weft}
source "$(dirname "$0")/common.sh"
bench_setup core.json 600
rows=()
for n in 64 128 256; do
  row=$("$weft" bench --scene hang --grid "$n" --substeps 10 --iterations 1 --frames "$frames")
  echo "$row" >&2
  rows+=("$row")
done
{
  printf '{"machine":"%s","cpu":"%s","date":"%s","compiler":"%s","runs":[\n' "$machine" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cc --version | head -1)"
  for k in "${!rows[@]}"; do
    [ "$k" -gt 0 ] && printf ',\n'
    printf '%s' "${rows[$k]}"
  done
  printf '\n'
  printf ']}\n'
} > "$out"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out"
echo "wrote $out" >&2
