#!/usr/bin/env bash
# Installs what nd needs from Debian's packages (only what is missing),
# configures build/ with clang, lld and Ninja, and builds everything.
#
#   bash scripts/setup.sh            # build into ./build
#   ND_BUILD_DIR=/tmp/b bash scripts/setup.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ND_BUILD_DIR:-$root/build}
jobs=${ND_JOBS:-2}

packages=(
  cmake ninja-build clang lld
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-numpy
  python3-torch python3-onnx
)
# Node.js may come from elsewhere than Debian, with npm inside: only ask
# Debian for it when there is no npm at all.
if ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime, which bench/bench.py compares nd with (its tiny mode runs in
# check-nd), comes from npm.
bash "$root/bench/install-onnxruntime.sh"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DLLVM_USE_LINKER=lld
fi
ninja -C "$build" -j "$jobs"
