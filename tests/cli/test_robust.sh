#!/usr/bin/env bash
# CLI contract for hostile destinations and inputs (issue 12): a collider that is not a regular
# file (FIFO, device, directory) is refused at once; `run` checks every argument before creating
# anything and the export directory before simulating (exit 2); a lost stdout (/dev/full, closed)
# is a failure with a message, never exit 0.
set -euo pipefail
weft="$1"
tmp=$(mktemp -d)
immutable=""
cleanup() {
  [ -n "$immutable" ] && chattr -i "$immutable" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect CODE PATTERN name command...: exit CODE within 20 s, stderr matches PATTERN, stdout empty.
expect() {
  local want=$1 pattern=$2 name=$3 code
  shift 3
  set +e
  timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  set -e
  [ "$code" -eq "$want" ] || fail "$name: exit $code, expected $want ($(head -c 300 "$tmp/err"))"
  grep -q -- "$pattern" "$tmp/err" || fail "$name: stderr '$(head -c 300 "$tmp/err")' lacks '$pattern'"
  [ ! -s "$tmp/out" ] || fail "$name: printed '$(head -c 100 "$tmp/out")'"
}

# 4. Colliders that are not regular files: no blocking on a FIFO without a writer, no reading
# /dev/zero up to the size limit.
mkfifo "$tmp/fifo.obj"
expect 2 "fifo.obj: not a regular file" "FIFO collider" "$weft" bench --scene bunny --grid 8 --frames 1 --collider "$tmp/fifo.obj"
for device in /dev/zero /dev/urandom; do
  expect 2 "$device: not a regular file" "$device collider" "$weft" bench --scene bunny --grid 8 --frames 1 --collider "$device"
done
expect 2 "not a regular file" "directory collider" "$weft" bench --scene bunny --grid 8 --frames 1 --collider "$tmp"

# 5. An existing export directory that cannot be written, even by root: immutable where chattr
# works, else /proc/self (a directory in which nobody can create a file). Refused with exit 2
# before simulating: the 200 000 frames below would take minutes.
target=/proc/self
mkdir "$tmp/locked"
if chattr +i "$tmp/locked" 2>/dev/null; then
  immutable="$tmp/locked"
  target="$tmp/locked"
fi
expect 2 "cannot write in directory '$target'" "unwritable export" \
  "$weft" run --scene hang --grid 64 --frames 200000 --export "$target"
if [ -n "$immutable" ]; then
  chattr -i "$immutable"
  immutable=""
  [ -z "$(ls -A "$tmp/locked")" ] || fail "unwritable export left files: $(ls -A "$tmp/locked")"
fi
# Under a regular file (ENOTDIR), and a file given as the directory.
touch "$tmp/file"
expect 2 "'$tmp/file/out': a part of its path is a file" "export under a file" \
  "$weft" run --scene hang --grid 8 --frames 2 --export "$tmp/file/out"
expect 2 "is not a directory" "export is a file" "$weft" run --scene hang --grid 8 --frames 2 --export "$tmp/file"
expect 2 "'$tmp/file/' is not a directory" "export is a file, with a slash" \
  "$weft" run --scene hang --grid 8 --frames 2 --export "$tmp/file/"
# A sequence the disk cannot hold (512² × a million frames: 30 TB at the least) is refused before
# the first frame, and the directory it would have made is not left behind.
expect 2 "the frames need at least .* GB are free there" "sequence beyond the disk" \
  "$weft" run --scene hang --grid 512 --frames 1000000 --export "$tmp/huge"
[ ! -e "$tmp/huge" ] || fail "a refused sequence left its directory"
# Arguments: a number beyond 64 bits is out of range (not "not an integer"), numbers are decimal,
# and --name=value says how to write it.
expect 2 "frames must be in 1..1000000 (got '99999999999999999999')" "frames beyond 64 bits" \
  "$weft" bench --frames 99999999999999999999
expect 2 "grid is too large: at most 4096 per side" "grid beyond 64 bits" "$weft" info --grid 99999999999999999999x4
expect 2 "damping must be a number (got '0x10')" "hexadecimal damping" "$weft" bench --damping 0x10
expect 2 "two arguments: --scene hang" "--scene=hang" "$weft" bench --scene=hang
# Bad arguments leave no export directory behind.
expect 2 "unknown scene 'bogus'" "bogus scene" "$weft" run --scene bogus --grid 8 --frames 2 --export "$tmp/e1"
[ ! -e "$tmp/e1" ] || fail "--scene bogus created the export directory"
expect 2 "grid" "bad grid" "$weft" run --scene hang --grid 0 --frames 2 --export "$tmp/e2"
[ ! -e "$tmp/e2" ] || fail "--grid 0 created the export directory"
expect 2 "none.obj" "missing collider" "$weft" run --scene hang --grid 8 --frames 2 --export "$tmp/e3" --collider "$tmp/none.obj"
[ ! -e "$tmp/e3" ] || fail "a missing collider created the export directory"
# A good run still works and leaves no probe file.
"$weft" run --scene hang --grid 8 --frames 2 --export "$tmp/good" >/dev/null 2>&1 || fail "good run"
[ "$(ls -A "$tmp/good" | sort | tr '\n' ' ')" = "cloth_0001.obj cloth_0002.obj collider.obj " ] ||
  fail "good run files: $(ls -A "$tmp/good")"

# 6. Lost output: stdout on /dev/full or closed exits non-zero with a message.
for command in "info --grid 8" "bench --grid 8 --frames 2" "run --grid 8 --frames 2 --export $tmp/full" "help"; do
  set +e
  # shellcheck disable=SC2086
  "$weft" $command >/dev/full 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -ne 0 ] && grep -q "error: cannot write to stdout" "$tmp/err" ||
    fail "$command >/dev/full: exit $code, $(cat "$tmp/err")"
  set +e
  # shellcheck disable=SC2086
  "$weft" $command >&- 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -ne 0 ] && grep -q "error: stdout is closed" "$tmp/err" || fail "$command >&-: exit $code, $(cat "$tmp/err")"
done
# 7. Interrupted exports (SIGTERM; Ctrl-C's SIGINT is caught the same way where the shell does not
# ignore it): a .glb streamed to disk is removed (unfinished, it is no glTF), an OBJ sequence keeps its
# whole frames; the process still dies of the signal (exit 128 + 15).
interrupted() { # interrupted DEST: starts a long run into DEST, SIGTERMs it once DEST exists
  local dest=$1 pid code
  WEFT_PROGRESS=1 "$weft" run --scene sphere --grid 32 --frames 1000000 --every 10000 --export "$dest" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 100); do [ -e "$dest" ] && break; sleep 0.05; done
  sleep 0.3
  kill -TERM "$pid"
  set +e
  wait "$pid"; code=$?
  set -e
  [ "$code" -eq 143 ] || fail "interrupted run into $dest: exit $code, $(cat "$tmp/err")"
  grep -q "^error: interrupted" "$tmp/err" || fail "interrupted run into $dest: stderr '$(cat "$tmp/err")'"
  [ ! -s "$tmp/out" ] || fail "interrupted run into $dest printed '$(cat "$tmp/out")'"
  grep -q "run \[" "$tmp/err" || fail "interrupted run into $dest drew no progress bar"
  ! grep -q "(1000000/1000000 frames)" "$tmp/err" || fail "interrupted run into $dest: the bar says it finished"
}
interrupted "$tmp/stopped.glb"
[ ! -e "$tmp/stopped.glb" ] || fail "an interrupted .glb export left $(stat -c %s "$tmp/stopped.glb") bytes behind"
interrupted "$tmp/stopped"
[ ! -e "$tmp/stopped/collider.obj" ] || fail "an interrupted OBJ export wrote collider.obj"

echo "test_robust: ok"
