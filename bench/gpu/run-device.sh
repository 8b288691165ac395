#!/usr/bin/env bash
# Runs on the device machine from the repository root (see pack.sh): unpacks node, Dawn and the
# Vulkan loader, then the benchmark with backend=vulkan. Arguments go to bench.mjs.
set -euo pipefail
# WEFT_LOCAL_CHECK=1 skips the system-wide unpack (trying the bundle on a development machine).
if [ -z "${WEFT_LOCAL_CHECK:-}" ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# The NVIDIA driver's Vulkan ICD lives under /usr/local/nvidia on these machines.
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
work=/tmp/weft-gpu
mkdir -p "$work/webgpu/dist/linux-x64"
xz -dc .gpu/node.xz > "$work/node" && chmod +x "$work/node"
cp .gpu/webgpu/index.js .gpu/webgpu/package.json "$work/webgpu/"
xz -dc .gpu/webgpu/dawn.node.xz > "$work/webgpu/dist/linux-x64/dawn.node"
cp .gpu/bench.mjs .gpu/weft.wasm "$work/"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
WEFT_WEBGPU=$work/webgpu/index.js "$work/node" --max-old-space-size=16000 "$work/bench.mjs" \
  --backend vulkan --wasm "$work/weft.wasm" "$@"
