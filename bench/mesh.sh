#!/usr/bin/env bash
# Mesh collision benchmark: the `bunny` scene at N = 64 and 128 (1 iteration, single thread, CPU),
# with the bunny and without it (--collider none), so the difference is the cost of mesh collision,
# at 10 substeps (the issue's workload, "summary") and at the scene's own 40 ("scene_substeps": the
# ears pierce a fine cloth at 10, which then keeps sliding); and the `sphere` scene (10 substeps)
# with its sphere and without it (--spheres 0). The bunny runs keep the frame's substeps fixed
# (--max-substeps 0), so the difference is the collision's cost at the same substeps; one more run
# a grid takes the scene's default (frames where the cloth near the mesh moves fast take up to its
# max_substeps, 32 at 64² and 40 at 128²: "adaptive", with its mean substeps a frame). Writes
# bench/results/<machine>/mesh.json (the sphere's runs under "sphere").
set -euo pipefail
BENCH_WEFT=${1:-build/weft}
source "$(dirname "$0")/common.sh"
bench_setup mesh.json 300
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for n in 64 128; do
  for collider in bunny none sphere no-sphere bunny-40 none-40 bunny-adaptive; do
    flags=(--scene bunny --max-substeps 0)
    substeps=10
    case $collider in
      none) flags+=(--collider none) ;;
      sphere) flags=(--scene sphere) ;;
      no-sphere) flags=(--scene sphere --spheres 0) ;;
      bunny-40) substeps=40 ;;
      none-40) flags+=(--collider none) substeps=40 ;;
      bunny-adaptive) flags=(--scene bunny) ;;
    esac
    row=$("$weft" bench "${flags[@]}" --grid "$n" --substeps "$substeps" --iterations 1 --frames "$frames" 2>/dev/null)
    echo "$collider $row" >&2
    echo "$collider $row" >>"$rows"
  done
done
python3 - "$rows" "$out" "$machine" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cc --version | head -1)" <<'PY'
import json, sys
rows_path, out, machine, cpu, date, compiler = sys.argv[1:]
runs, sphere_runs, adaptive_runs = [], [], []
for line in open(rows_path):
    collider, row = line.split(" ", 1)
    run = json.loads(row)
    if collider == "bunny-adaptive":
        run["mesh_collision"] = True
        run["adaptive_substeps"] = True
        adaptive_runs.append(run)
    elif collider.split("-")[0] in ("bunny", "none"):
        run["mesh_collision"] = collider.startswith("bunny")
        runs.append(run)
    else:
        run["sphere_collision"] = collider == "sphere"
        sphere_runs.append(run)
summary, scene_substeps, sphere = {}, {}, {}
for n in sorted({r["grid"] for r in runs}):
    for substeps, table in ((10, summary), (40, scene_substeps)):
        with_mesh = next(r for r in runs if r["grid"] == n and r["substeps"] == substeps and r["mesh_collision"])
        without = next(r for r in runs if r["grid"] == n and r["substeps"] == substeps and not r["mesh_collision"])
        table[str(n)] = {"ms_per_frame_with_mesh": with_mesh["ms_per_frame"],
                         "ms_per_frame_without_mesh": without["ms_per_frame"],
                         "mesh_ms_per_frame": round(with_mesh["ms_per_frame"] - without["ms_per_frame"], 4),
                         "median_ratio": round(with_mesh["ms_median"] / without["ms_median"], 3),
                         "max_stretch_with_mesh": with_mesh["max_stretch"]}
    adaptive = next(r for r in adaptive_runs if r["grid"] == n)
    summary[str(n)]["adaptive"] = {"ms_median": adaptive["ms_median"], "ms_per_frame": adaptive["ms_per_frame"],
                                   "substeps_per_frame": adaptive["substeps_per_frame"],
                                   "max_stretch": adaptive["max_stretch"]}
    with_sphere = next(r for r in sphere_runs if r["grid"] == n and r["sphere_collision"])
    no_sphere = next(r for r in sphere_runs if r["grid"] == n and not r["sphere_collision"])
    sphere[str(n)] = {"ms_median_with_sphere": with_sphere["ms_median"],
                      "ms_median_without_sphere": no_sphere["ms_median"],
                      "median_ratio": round(with_sphere["ms_median"] / no_sphere["ms_median"], 3)}
doc = {"machine": machine, "cpu": cpu, "date": date, "compiler": compiler, "scene": "bunny", "solver": "cpu",
       "summary": summary, "scene_substeps": {"substeps": 40, "summary": scene_substeps},
       "runs": runs + adaptive_runs,
       "sphere": {"scene": "sphere", "note": "the sphere scene with its moving sphere and without it (--spheres 0)",
                  "summary": sphere, "runs": sphere_runs}}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
PY
echo "wrote $out" >&2
