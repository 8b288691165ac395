#!/usr/bin/env bash
# CLI contract for mesh colliders: --collider FILE.obj (fitted under the cloth) works and is
# exported in DIR/collider.obj; a malformed OBJ exits 2 with "error: file:line: why"; the bunny
# scene runs and benches, with and without its mesh (--collider none); the sphere scene without its
# sphere (--spheres 0).
set -euo pipefail
weft="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A good user OBJ.
out=$("$weft" run --scene sphere --grid 16 --frames 20 --export "$tmp/good" --collider tests/data/tetrahedron.obj 2>/dev/null)
grep -q '"nan":false' <<<"$out" || fail "run with a user collider: $out"
grep -q '^o mesh$' "$tmp/good/collider.obj" || fail "collider.obj has no mesh object"
[ "$(sed -n '/^o mesh$/,$p' "$tmp/good/collider.obj" | grep -c '^f ')" -eq 4 ] || fail "collider.obj mesh is not the 4-face tetrahedron"

# A malformed OBJ: exit 2, the error names file and line.
set +e
"$weft" run --scene sphere --grid 16 --frames 5 --export "$tmp/bad" --collider tests/data/bad_index.obj >"$tmp/out" 2>"$tmp/err"
code=$?
set -e
[ "$code" -eq 2 ] || fail "bad OBJ exited $code, expected 2"
grep -q '^error: tests/data/bad_index.obj:6: vertex index 7 out of range' "$tmp/err" || fail "bad OBJ message: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "bad OBJ printed JSON"

# A missing file and a binary file: exit 2 as well.
set +e
"$weft" bench --scene bunny --grid 8 --frames 1 --collider "$tmp/none.obj" >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] && grep -q '^error: .*none.obj' "$tmp/err" || fail "missing OBJ: exit $code, $(cat "$tmp/err")"
head -c 2048 "$weft" >"$tmp/binary.obj"
set +e
"$weft" bench --scene bunny --grid 8 --frames 1 --collider "$tmp/binary.obj" >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] && grep -q '^error: .*binary.obj:1: binary data' "$tmp/err" || fail "binary OBJ: exit $code, $(cat "$tmp/err")"

# A file the reader takes but the collider refuses (a huge coordinate, only degenerate triangles):
# exit 2, and the error names the file, and for a vertex its line and its number as the file counts.
printf '# a comment\nv 0 0 0\n  v 1 0 0\nvt 0 0\nv 0 1e30 0\nf 1 2 3\n' >"$tmp/huge.obj"
printf 'v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n' >"$tmp/flat.obj"
for case in "huge.obj:5: vertex 3 has a non-finite or huge coordinate" "flat.obj: mesh collider: every triangle is degenerate"; do
  file="$tmp/${case%%:*}"
  set +e
  "$weft" bench --scene sphere --grid 8 --frames 1 --collider "$file" >"$tmp/out" 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] && grep -qxF "error: $tmp/$case" "$tmp/err" || fail "${case%%:*}: exit $code, $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "${case%%:*} printed JSON"
done

# The bunny scene: run exports the bunny; bench works with and without it.
out=$("$weft" run --scene bunny --grid 16 --frames 30 --export "$tmp/bunny" 2>/dev/null)
grep -q '"nan":false' <<<"$out" || fail "bunny run: $out"
[ "$(sed -n '/^o mesh$/,$p' "$tmp/bunny/collider.obj" | grep -c '^v ')" -eq 1839 ] || fail "bunny collider.obj"
for collider in "" "--collider none"; do
  # shellcheck disable=SC2086
  out=$("$weft" bench --scene bunny --grid 16 --frames 10 $collider 2>/dev/null)
  grep -q '"scene":"bunny"' <<<"$out" && grep -q '"nan":false' <<<"$out" || fail "bunny bench $collider: $out"
done
# The sphere scene without its sphere (--spheres 0): another cloth's path, and a bad value is refused.
with=$("$weft" bench --scene sphere --grid 16 --frames 30 2>/dev/null | grep -o '"state_hash":"[0-9a-f]*"')
without=$("$weft" bench --scene sphere --grid 16 --frames 30 --spheres 0 2>/dev/null | grep -o '"state_hash":"[0-9a-f]*"')
[ -n "$with" ] && [ -n "$without" ] && [ "$with" != "$without" ] || fail "--spheres 0 changed nothing ($with, $without)"
same=$("$weft" bench --scene sphere --grid 16 --frames 30 --spheres 1 2>/dev/null | grep -o '"state_hash":"[0-9a-f]*"')
[ "$same" = "$with" ] || fail "--spheres 1 is not the scene ($same, $with)"
set +e
"$weft" bench --scene sphere --grid 16 --frames 1 --spheres 2 >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] && grep -q 'spheres' "$tmp/err" || fail "--spheres 2: exit $code, $(cat "$tmp/err")"
# The bunny's ridge lifts (on by default; --ridge-lifts 0 off): at 96² and 10 substeps the ears come
# between particles as the cloth lands, and the lifts take the edges back over them (another path);
# bench says which; without a mesh collider the flag changes nothing; a bad value is refused.
bunny96() { "$weft" bench --scene bunny --grid 96 --substeps 10 --frames 30 "$@" 2>/dev/null; }
lifted=$(bunny96)
unlifted=$(bunny96 --ridge-lifts 0)
grep -q '"ridge_lifts":true' <<<"$lifted" && grep -q '"ridge_lifts":false' <<<"$unlifted" || fail "ridge_lifts in bench: $lifted / $unlifted"
[ "$(grep -o '"state_hash":"[0-9a-f]*"' <<<"$lifted")" != "$(grep -o '"state_hash":"[0-9a-f]*"' <<<"$unlifted")" ] ||
  fail "--ridge-lifts 0 changed nothing"
[ "$(bunny96 --ridge-lifts 1 | grep -o '"state_hash":"[0-9a-f]*"')" = "$(grep -o '"state_hash":"[0-9a-f]*"' <<<"$lifted")" ] ||
  fail "--ridge-lifts 1 is not the default"
grep -q '"ridge_lifts":false' <<<"$("$weft" bench --scene hang --grid 8 --frames 2 --ridge-lifts 0 2>/dev/null)" ||
  fail "--ridge-lifts 0 without a mesh collider"
set +e
"$weft" bench --scene bunny --grid 16 --frames 1 --ridge-lifts 2 >/dev/null 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] && grep -q 'ridge-lifts' "$tmp/err" || fail "--ridge-lifts 2: exit $code, $(cat "$tmp/err")"
echo "test_collider: ok"
