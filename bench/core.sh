#!/usr/bin/env bash
# Core benchmark: `hang` at N = 64, 128, 256, 10 substeps × 1 iteration, 600 frames, one thread, and
# at N = 128 and 256 on two threads, each alternated with its one-thread run (ROUNDS rounds; the
# figure is the median of the round medians). Writes bench/results/<machine>/core.json: one object
# per N and thread count (medians in ms_median), with
#   constraint_solves_per_second_per_core   constraints × substeps × iterations / (ms_median × threads)
#   compute_limit_ms                        the frame at the core's peak arithmetic: constraints ×
#       substeps × iterations × FLOPS_PER_CONSTRAINT / (the run's lanes (simd_width: 16 with
#       AVX-512, 8 with AVX2) × 2 vector operations a cycle (one add and one multiply; no FMA: the
#       scalar path's bits) × the clock of /proc/cpuinfo)
#   fraction_of_compute_limit               compute_limit_ms / (ms_median × threads)
# FLOPS_PER_CONSTRAINT = 35: what solver_kernels.h does per constraint in a substep's first
# iteration: w (1), d (3), |d|² (5), √ (1), α̃ (1), C and its negation (2), w + α̃ (1), ∆λ (1 ÷), the
# strain limit (rest × limit, − length, ÷ w, the comparison: 4), λ (1), s (1 ÷), w s for both ends
# (2), both ends' x, y, z (12). The root and the three divisions count as one each, though a divider takes several cycles for them; the clock is the nominal one (turbo
# runs faster), so the limit is a floor that no run reaches.
set -euo pipefail
BENCH_WEFT=${1:-build/weft}
source "$(dirname "$0")/common.sh"
bench_setup core.json 600
rounds=${WEFT_BENCH_ROUNDS:-3}
run() { "$weft" bench --scene hang --grid "$1" --substeps 10 --iterations 1 --frames "$frames" --threads "$2"; }
rows=()
for n in 64 128 256; do
  for round in $(seq "$rounds"); do
    row=$(run "$n" 1)
    echo "$row" >&2
    rows+=("$row")
    if [ "$n" -ge 128 ]; then
      row=$(run "$n" 2)
      echo "$row" >&2
      rows+=("$row")
    fi
  done
done
mhz=$(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | tr -d ' ' || true)
runs_file=$(mktemp)
trap 'rm -f "$runs_file"' EXIT
printf '%s\n' "${rows[@]}" > "$runs_file"
python3 - "$runs_file" "$out" "$machine" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cc --version | head -1)" "${mhz:-0}" "$rounds" <<'EOF'
import json, statistics, sys
runs_file, out, machine, cpu, date, compiler, mhz, rounds = sys.argv[1:]
mhz, rounds = float(mhz), int(rounds)
FLOPS_PER_CONSTRAINT, OPS_PER_CYCLE = 35, 2
runs = {}
for line in open(runs_file):
    row = json.loads(line)
    runs.setdefault((row["grid"], row["threads"]), []).append(row)
result = []
for (grid, threads), rows in sorted(runs.items()):
    row = dict(rows[0])
    row["round_medians"] = [r["ms_median"] for r in rows]
    row["ms_median"] = statistics.median(row["round_medians"])
    row["ms_min"] = min(r["ms_min"] for r in rows)
    solves = row["constraints"] * row["substeps"] * row["iterations"]
    row["constraint_solves_per_second"] = solves / (row["ms_median"] * 1e-3)
    row["constraint_solves_per_second_per_core"] = row["constraint_solves_per_second"] / threads
    if mhz > 0:
        lanes = max(row["simd_width"], 1)
        row["compute_limit_ms"] = solves * FLOPS_PER_CONSTRAINT / (lanes * OPS_PER_CYCLE * mhz * 1e6) * 1e3
        row["fraction_of_compute_limit"] = row["compute_limit_ms"] / (threads * row["ms_median"])
    result.append(row)
speedups = {}
for grid in sorted({g for g, _ in runs}):
    one = next((r for r in result if r["grid"] == grid and r["threads"] == 1), None)
    two = next((r for r in result if r["grid"] == grid and r["threads"] == 2), None)
    if one and two:
        speedups[str(grid)] = round(one["ms_median"] / two["ms_median"], 3)
doc = {
    "machine": machine, "cpu": cpu, "date": date, "compiler": compiler, "cpu_mhz": mhz, "rounds": rounds,
    "compute_limit": {"flops_per_constraint": FLOPS_PER_CONSTRAINT, "lanes": result[0]["simd_width"] if result else 0,
                      "vector_ops_per_cycle": OPS_PER_CYCLE,
                      "note": "constraints x substeps x iterations x flops / (lanes x ops per cycle x nominal clock)"},
    "two_threads_speedup": speedups,
    "runs": result,
}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(json.dumps({"two_threads_speedup": speedups,
                  "ms_median": {f'{r["grid"]}/{r["threads"]}': round(r["ms_median"], 3) for r in result}}), file=sys.stderr)
EOF
echo "wrote $out" >&2
