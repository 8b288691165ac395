#!/usr/bin/env bash
# CLI contract (docs/architecture.md, contracts): JSON on stdout, errors on stderr with exit code 2, OBJ export.
set -u
weft="$1"
passed=0 failed=0
check() { # check "name" command...
  local name="$1"; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name" >&2; fi
}
json_get() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(eval('d' + sys.argv[1]))" "$1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

info=$("$weft" info --grid 64x32)
check "info particles" [ "$(echo "$info" | json_get "['particles']")" = 2048 ]
check "info total" [ "$(echo "$info" | json_get "['constraints']['total']")" = $((6*64*32 - 5*(64+32) + 2)) ]
check "info stretch" [ "$(echo "$info" | json_get "['constraints']['stretch']")" = $((64*31 + 32*63)) ]
check "info colors" [ "$(echo "$info" | json_get "['colors']")" = 12 ]
check "info fits" [ "$(echo "$info" | json_get "['fits']")" = True ]
# Worked out, not built: the largest grid answers at once, and says it is beyond the 8 GiB a world takes.
huge=$(timeout 5 "$weft" info --grid 4096)
check "info 4096 particles" [ "$(echo "$huge" | json_get "['particles']")" = 16777216 ]
check "info 4096 does not fit" [ "$(echo "$huge" | json_get "['fits']")" = False ]
check "info 4096 bytes" python3 -c "import json,sys; sys.exit(0 if json.loads(sys.argv[1])['world_bytes'] > 8 << 30 else 1)" "$huge"
check "info 3693 fits" [ "$("$weft" info --grid 3693 | json_get "['fits']")" = True ]

bench=$("$weft" bench --scene hang --grid 16 --substeps 5 --iterations 2 --frames 20 --threads 1)
for key in scene grid particles constraints colors substeps iterations frames threads ms_per_frame max_stretch nan; do
  check "bench key $key" python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if '$key' in d else 1)" "$bench"
done
check "bench substeps" [ "$(echo "$bench" | json_get "['substeps']")" = 5 ]
# The most substeps a frame's motion asked for: the substeps without a collider; kept to 1 substep
# (--max-substeps 0), the bunny's landing asks for many more.
check "bench most wanted, no collider" [ "$(echo "$bench" | json_get "['most_substeps_wanted']")" = 5 ]
wanted=$("$weft" bench --scene bunny --grid 24 --substeps 1 --max-substeps 0 --frames 40 --threads 1 | json_get "['most_substeps_wanted']")
check "bench most wanted, bunny at 1 substep ($wanted)" [ "$wanted" -gt 4 ]
check "bench nan" [ "$(echo "$bench" | json_get "['nan']")" = False ]

# --simd: every width gives the same state (where the CPU has it; a width it lacks is a clear error,
# exit 2), and one that is none is refused.
simd_hash() { "$weft" bench --scene hang --grid 20 --frames 20 --simd "$1" 2>"$tmp/simd.err"; }
scalar_hash=$(simd_hash 0 | json_get "['state_hash']")
for width in 4 8 16; do
  out=$(simd_hash "$width"); status=$?
  if [ "$status" = 0 ]; then
    check "simd $width width" [ "$(echo "$out" | json_get "['simd_width']")" = "$width" ]
    check "simd $width same bits" [ "$(echo "$out" | json_get "['state_hash']")" = "$scalar_hash" ]
  else
    check "simd $width refused clearly" bash -c '[ "$0" = 2 ] && grep -q "lanes need" "$1"' "$status" "$tmp/simd.err"
  fi
done
check "simd 12 refused" bash -c '! "$0" bench --grid 8 --frames 1 --simd 12 2>/dev/null' "$weft"

# Self-collision: on by default in fold, off elsewhere, and the flag overrides either way.
sc() { "$weft" bench --grid 12 --frames 2 "$@" | json_get "['self_collision']"; }
check "fold self-collision default" [ "$(sc --scene fold)" = True ]
check "hang self-collision default" [ "$(sc --scene hang)" = False ]
check "self-collision on" [ "$(sc --scene hang --self-collision 1)" = True ]
check "self-collision off" [ "$(sc --scene fold --self-collision 0)" = False ]
# Its thickness: the grid spacing by default (the fold's 1 m cloth at 12²: 1/11 m), --thickness sets it.
thick() { "$weft" bench --scene fold --grid 12 --frames 2 "$@" | json_get "['thickness']"; }
check "thickness default" python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1]) - 1 / 11) < 1e-6 else 1)" "$(thick)"
check "thickness set" [ "$(thick --thickness 0.05)" = 0.05 ]
check "thickness refused" bash -c '! "$0" bench --scene fold --grid 12 --frames 2 --thickness 1 2>/dev/null' "$weft"
# --damping overrides the scene's damping: another path, the scene's value gives the scene's bits.
hash() { "$weft" bench --scene hang --grid 12 --frames 30 "$@" | json_get "['state_hash']"; }
check "damping changes the path" [ "$(hash --damping 0)" != "$(hash)" ]
check "the scene's damping is the scene" [ "$(hash --damping 1)" = "$(hash)" ]
"$weft" run --scene fold --grid 10 --frames 2 --self-collision 1 --export "$tmp/fold" > /dev/null
check "run fold" [ -s "$tmp/fold/cloth_0002.obj" ]

"$weft" run --scene sphere --grid 12 --frames 6 --every 3 --export "$tmp/out" > "$tmp/run.json"
check "run exit" [ $? = 0 ]
check "run frame 3" [ -s "$tmp/out/cloth_0003.obj" ]
check "run frame 6" [ -s "$tmp/out/cloth_0006.obj" ]
check "run no frame 4" [ ! -e "$tmp/out/cloth_0004.obj" ]
check "run collider" [ -s "$tmp/out/collider.obj" ]
# Past frame 9999 the names widen, all of them, so they sort as the frames do.
"$weft" run --scene hang --grid 4 --frames 10000 --every 5000 --export "$tmp/long" > /dev/null
check "run long names" [ "$(ls "$tmp/long" | tr '\n' ' ')" = "cloth_05000.obj cloth_10000.obj collider.obj " ]
check "cloth vertices" [ "$(grep -c '^v ' "$tmp/out/cloth_0006.obj")" = 144 ]
check "cloth faces" [ "$(grep -c '^f ' "$tmp/out/cloth_0006.obj")" = $((2*11*11)) ]
check "collider sphere" grep -q '^o sphere0' "$tmp/out/collider.obj"

# The JSON names the export path as given: quotes, backslashes and control characters escaped, so
# the line parses and the path comes back verbatim (OBJ directory and .glb).
odd_name=$'say "hi"\\ tab\there'
json_export() { python3 -c "import json,sys; print(json.loads(sys.stdin.read())['export'], end='')"; }
check "odd directory name in JSON" [ "$("$weft" run --grid 4 --frames 1 --export "$tmp/$odd_name" | json_export)" = "$tmp/$odd_name" ]
check "odd directory written" [ -s "$tmp/$odd_name/cloth_0001.obj" ]
check "odd .glb name in JSON" [ "$("$weft" run --grid 4 --frames 1 --export "$tmp/$odd_name.glb" | json_export)" = "$tmp/$odd_name.glb" ]

# Help: `weft help`, `weft --help` and a command's own `--help` / `-h` print the usage on stdout, exit 0.
for args in "help" "--help" "run --help" "bench -h" "info --help"; do
  # shellcheck disable=SC2086
  check "$args prints the usage" bash -c '"$1" $2 2>/dev/null | grep -q "^usage: weft <command>"' _ "$weft" "$args"
done

bad() { # bad "name" args...: exit 2, "error:" on stderr, nothing on stdout
  local name="$1"; shift
  "$weft" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  local code=$?
  check "$name exit 2" [ $code = 2 ]
  check "$name error line" grep -q '^error: ' "$tmp/err.txt"
  check "$name no stdout" [ ! -s "$tmp/out.txt" ]
}
bad "no command"
bad "unknown command" frobnicate
bad "unknown flag" info --gird 8
bad "zero grid" info --grid 0x5
bad "huge grid" info --grid 100000x100000
bad "bad grid text" info --grid 8xfoo
bad "unknown scene" bench --scene nope --grid 8 --frames 2
bad "negative frames" bench --scene hang --grid 8 --frames -5
bad "non-numeric substeps" bench --scene hang --grid 8 --substeps many
bad "missing value" bench --scene
bad "self-collision 2" bench --scene fold --grid 8 --frames 2 --self-collision 2
bad "self-collision word" run --scene fold --grid 8 --frames 2 --self-collision yes --export "$tmp/x"
bad "damping word" bench --scene hang --grid 8 --frames 2 --damping lots
bad "negative damping" bench --scene hang --grid 8 --frames 2 --damping -1
bad "damping beyond range" run --scene hang --grid 8 --frames 2 --damping 1e400 --export "$tmp/x"
bad "run without export" run --scene hang --grid 8 --frames 2
bad "export onto a file" run --scene hang --grid 8 --frames 2 --export "$tmp/run.json"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
