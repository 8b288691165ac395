#!/usr/bin/env bash
# Whether the `fold` pile keeps its layers apart at the benchmark's sizes (bench/fold_contacts.c):
# writes bench/results/<machine>/fold_contacts.json.
set -euo pipefail
program=${1:-build/weft_fold_contacts}
source "$(dirname "$0")/common.sh"
bench_setup fold_contacts.json 600
"$program" --frames "$frames" > "$out.tmp"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out.tmp" # valid JSON, or no file
mv "$out.tmp" "$out"
echo "wrote $out" >&2
