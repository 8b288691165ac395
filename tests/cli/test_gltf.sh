#!/usr/bin/env bash
# `weft run --export FILE.glb` (docs/architecture.md, contracts): one binary glTF, the same JSON
# keys as the OBJ export plus samples and bytes, --every sampling, --cloth 0; bad destinations
# and sizes are exit 2 with "error: ..." and leave no file behind.
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

out=$("$weft" run --scene sphere --grid 12 --frames 7 --every 3 --export "$tmp/s.glb")
check "glb exit" [ $? = 0 ]
check "glb magic" [ "$(head -c 4 "$tmp/s.glb")" = glTF ]
check "glb samples" [ "$(echo "$out" | json_get "['samples']")" = 3 ] # frames 3, 6 and the last, 7
check "glb bytes" [ "$(echo "$out" | json_get "['bytes']")" = "$(stat -c %s "$tmp/s.glb")" ]
check "glb files" [ "$(echo "$out" | json_get "['files']")" = 1 ]
check "glb nan" [ "$(echo "$out" | json_get "['nan']")" = False ]
# Three morph targets, one weights track and one translation track (the sphere).
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack('<I',b[12:16])[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
check "glb targets" [ "$(glb_json "$tmp/s.glb" "len(d['meshes'][0]['primitives'][0]['targets'])")" = 3 ]
check "glb channels" [ "$(glb_json "$tmp/s.glb" "[c['target']['path'] for c in d['animations'][0]['channels']]")" = "['weights', 'translation']" ]
"$weft" run --scene bunny --grid 10 --frames 2 --cloth 0 --export "$tmp/b.GLB" > /dev/null
check "colliders only" [ "$(glb_json "$tmp/b.GLB" "[n['name'] for n in d['nodes']]")" = "['ground', 'collider']" ]

bad() { # bad "name" "message" args...: exit 2, the message on stderr, nothing on stdout
  local name="$1" message="$2"; shift 2
  "$weft" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  local code=$?
  check "$name exit 2" [ $code = 2 ]
  check "$name message" grep -q "^error: .*$message" "$tmp/err.txt"
  check "$name no stdout" [ ! -s "$tmp/out.txt" ]
}
bad ".gltf" "name it .glb" run --scene hang --grid 8 --frames 2 --export "$tmp/x.gltf"
bad "no folder" "cannot create" run --scene hang --grid 8 --frames 2 --export "$tmp/none/x.glb"
mkdir "$tmp/d.glb"
bad "a directory" "not a regular file" run --scene hang --grid 8 --frames 2 --export "$tmp/d.glb"
bad "too many samples" "at most 16384" run --scene hang --grid 8 --frames 20000 --export "$tmp/many.glb"
bad "past 4 GiB" "4 GiB" run --scene hang --grid 512 --frames 2000 --export "$tmp/huge.glb"
bad "cloth 0 in a directory" "for a .glb" run --scene hang --grid 8 --frames 2 --cloth 0 --export "$tmp/dir"
bad "cloth 2" "cloth" run --scene hang --grid 8 --frames 2 --cloth 2 --export "$tmp/c.glb"
bad "bad scene" "unknown scene" run --scene nope --grid 8 --frames 2 --export "$tmp/n.glb"
check "no file left" [ ! -e "$tmp/many.glb" ] && [ ! -e "$tmp/huge.glb" ] && [ ! -e "$tmp/n.glb" ] && [ ! -e "$tmp/c.glb" ]
check "no dir left" [ ! -e "$tmp/dir" ]
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
