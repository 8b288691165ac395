#!/usr/bin/env bash
# Builds what the H200 benchmark run needs into DEST/.gpu and DEST/.gl (DEST defaults to the lead's
# checkout, /work/main, which the device tool copies; both folders are git-ignored there):
#   .gpu/node.xz            this machine's node (system libraries only), xz-compressed
#   .gpu/webgpu/            the npm package `webgpu`: index.js, package.json, dawn.node (linux-x64, xz)
#   .gpu/bench.mjs          bench/gpu/bench.ts bundled into one file (solver, WGSL, core loader)
#   .gpu/weft.wasm          the C core (WEFT_WASM, default build-wasm/weft.wasm)
#   .gpu/run.sh             bench/gpu/run-device.sh: unpacks the above and runs the benchmark
#   .gl/*.deb               the Vulkan loader and glvnd (the NVIDIA ICD, libGLX_nvidia, needs
#                           libGLdispatch): Debian packages, unpacked into / on the device
# usage: bench/gpu/pack.sh [DEST]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(cd "${1:-/work/main}" && pwd)
wasm=${WEFT_WASM:-$root/build-wasm/weft.wasm}
webgpu=$root/web/node_modules/webgpu
[ -f "$wasm" ] || { echo "pack: no $wasm (make wasm, or set WEFT_WASM)" >&2; exit 2; }
[ -f "$webgpu/dist/linux-x64/dawn.node" ] || { echo "pack: npm package webgpu missing in web/node_modules" >&2; exit 2; }

out=$dest/.gpu
rm -rf "$out" && mkdir -p "$out/webgpu"
(cd "$root" && node tests/gpu/build.mjs "$out" bench/gpu/bench.ts)
cp "$wasm" "$out/weft.wasm"
cp "$webgpu/index.js" "$webgpu/package.json" "$out/webgpu/"
xz -T2 -6 -c "$webgpu/dist/linux-x64/dawn.node" > "$out/webgpu/dawn.node.xz"
[ -f "$out/node.xz" ] || xz -T2 -6 -c "$(command -v node)" > "$out/node.xz"
cp "$root/bench/gpu/run-device.sh" "$out/run.sh"

gl=$dest/.gl
if ! ls "$gl"/libvulkan1_*.deb >/dev/null 2>&1; then
  mkdir -p "$gl" /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update -qq
  (cd "$gl" && apt-get $o download libvulkan1 libglvnd0 libegl1 libopengl0 libgl1 libglx0 libgles2)
fi
du -sh "$out" "$gl" >&2
