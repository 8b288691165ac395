# Sourced by the bench scripts: `bench_setup NAME.json [FRAMES]` sets weft (the CLI, $1 of the
# script or build/weft), frames (WEFT_BENCH_FRAMES or FRAMES), machine and out
# (bench/results/<machine>/NAME.json, its folder made) and enters the repository root.
bench_setup() {
  cd "$(dirname "${BASH_SOURCE[1]}")/.."
  weft=${BENCH_WEFT:-build/weft}
  frames=${WEFT_BENCH_FRAMES:-${2:-600}}
  machine=$(bash bench/machine.sh)
  out=bench/results/$machine/$1
  mkdir -p "$(dirname "$out")"
}
