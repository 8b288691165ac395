#!/usr/bin/env bash
# Triangle-soup benchmark (issue 12): the `bunny` scene at 32² for 30 frames with its bunny, then
# with a generated soup of 200 000 random overlapping triangles as --collider (bench/gen_soup.py,
# written to a temporary file, never committed). The soup's cost per frame must stay within a
# bound of the bunny's: the target is 10×; the run fails beyond WEFT_SOUP_MAX_RATIO (default 20,
# generous for a shared machine). Each figure is the median of 3 runs. Also reports the wall
# time of loading and building the soup's collider. Writes bench/results/<machine>/soup.json.
set -euo pipefail
cd "$(dirname "$0")/.."
weft=${1:-build/weft}
triangles=${WEFT_SOUP_TRIANGLES:-200000}
max_ratio=${WEFT_SOUP_MAX_RATIO:-20}
machine=$(bash bench/machine.sh)
out=bench/results/$machine/soup.json
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 bench/gen_soup.py "$triangles" >"$tmp/soup.obj"
for run in 1 2 3; do
  for collider in bunny soup; do
    flags=()
    [ "$collider" = soup ] && flags=(--collider "$tmp/soup.obj")
    start=$(date +%s.%N)
    row=$("$weft" bench --scene bunny --grid 32 --frames 30 "${flags[@]}" 2>/dev/null)
    end=$(date +%s.%N)
    echo "$collider $start $end $row" >&2
    echo "$collider $start $end $row" >>"$tmp/rows"
  done
done
python3 - "$tmp/rows" "$out" "$machine" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cc --version | head -1)" "$triangles" "$max_ratio" "$(stat -c %s "$tmp/soup.obj")" <<'PY'
import json, statistics, sys
rows_path, out, machine, cpu, date, compiler, triangles, max_ratio, soup_bytes = sys.argv[1:]
runs = []
for line in open(rows_path):
    collider, start, end, row = line.split(" ", 3)
    run = json.loads(row)
    run["collider"] = collider
    frames_s = run["ms_per_frame"] * run["frames"] / 1e3
    run["setup_s"] = round(float(end) - float(start) - frames_s, 3)  # load, build, process start
    runs.append(run)
def median(collider, key):
    return statistics.median(r[key] for r in runs if r["collider"] == collider)
bunny, soup = median("bunny", "ms_per_frame"), median("soup", "ms_per_frame")
ratio = soup / bunny
summary = {"triangles": int(triangles), "obj_bytes": int(soup_bytes),
           "bunny_ms_per_frame": round(bunny, 4), "soup_ms_per_frame": round(soup, 4),
           "ratio": round(ratio, 2), "target_ratio": 10, "max_ratio": float(max_ratio),
           "bunny_setup_s": round(median("bunny", "setup_s"), 3), "soup_setup_s": round(median("soup", "setup_s"), 3)}
doc = {"machine": machine, "cpu": cpu, "date": date, "compiler": compiler, "scene": "bunny", "grid": 32,
       "frames": 30, "summary": summary, "runs": runs}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(json.dumps(summary), file=sys.stderr)
if ratio > float(max_ratio):
    sys.exit("soup: %.2f ms a frame is %.1f× the bunny's %.2f ms (bound %s×)" % (soup, ratio, bunny, max_ratio))
PY
echo "wrote $out" >&2
