#!/usr/bin/env bash
# Self-collision benchmark: the `fold` scene (cloth lowered onto the floor, piling up in folds) at
# N = 64, 128, 256, its own 10 substeps × 1 iteration, 600 frames (the fall, the pile and its
# settling), self-collision on and off, 1 and 2 threads; on and off run alternately so both see the
# same minutes of a shared machine. Writes bench/results/<machine>/fold.json with the on/off ratio
# of the medians per N and thread count.
set -euo pipefail
BENCH_WEFT=${1:-build/weft}
source "$(dirname "$0")/common.sh"
bench_setup fold.json 600
rows=()
for n in 64 128 256; do
  for threads in 1 2; do
    for self in 0 1; do
      row=$("$weft" bench --scene fold --grid "$n" --frames "$frames" --threads "$threads" --self-collision "$self")
      echo "$row" >&2
      rows+=("$row")
    done
  done
done
printf '%s\n' "${rows[@]}" | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin if line.strip()]
ratios = []
for on in (r for r in rows if r["self_collision"]):
    off = next(r for r in rows if not r["self_collision"] and r["grid"] == on["grid"] and r["threads"] == on["threads"])
    ratios.append({"grid": on["grid"], "threads": on["threads"], "on_ms_median": on["ms_median"], "off_ms_median": off["ms_median"],
                   "on_over_off_median": round(on["ms_median"] / off["ms_median"], 3),
                   "on_over_off_mean": round(on["ms_per_frame"] / off["ms_per_frame"], 3),
                   "per_particle_us_on": round(1e3 * on["ms_median"] / on["particles"], 5),
                   "list_rebuilds_per_frame": round(on["self_collision_rebuilds"] / on["frames"], 3)})
json.dump({"machine": sys.argv[1], "cpu": sys.argv[2], "date": sys.argv[3], "scene": "fold", "frames": rows[0]["frames"],
           "ratios": ratios, "runs": rows}, open(sys.argv[4], "w"), indent=1)
' "$machine" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(date -u +%Y-%m-%dT%H:%MZ)" "$out"
echo "wrote $out" >&2
