#!/usr/bin/env bash
# Installs what nd needs from Debian's packages (only what is missing),
# configures a build directory with Ninja and the chosen compiler, and builds
# everything.
#
#   bash scripts/setup.sh                                # clang + lld, ./build
#   ND_COMPILER=gcc ND_BUILD_DIR=build-gcc bash scripts/setup.sh
#
# ND_COMPILER: clang (default: clang 14 with lld) or gcc (gcc 12 with the
# system linker). ND_BUILD_DIR: the build directory (default ./build); one
# directory per compiler. ND_JOBS: parallel jobs (default 2).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ND_BUILD_DIR:-$root/build}
jobs=${ND_JOBS:-2}
compiler=${ND_COMPILER:-clang}

case "$compiler" in
  clang)
    compiler_packages=(clang lld)
    cc=clang cxx=clang++
    linker_flags=(-DLLVM_USE_LINKER=lld)
    ;;
  gcc)
    compiler_packages=(gcc g++)
    cc=gcc cxx=g++
    linker_flags=()
    ;;
  *)
    echo "setup: ND_COMPILER must be clang or gcc, not '$compiler'" >&2
    exit 1
    ;;
esac

packages=(
  cmake ninja-build "${compiler_packages[@]}"
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libomp-22-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-numpy
  mpich libmpich-dev libpugixml-dev
  python3-torch python3-onnx python3-pytest
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

# A build directory keeps the compiler it was configured with: refuse to mix.
if [ -f "$build/CMakeCache.txt" ]; then
  configured=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  want=$(command -v "$cxx")
  if [ "$(readlink -f "$configured")" != "$(readlink -f "$want")" ]; then
    echo "setup: $build was configured with $configured, not $want" \
         "(ND_COMPILER=$compiler); choose another ND_BUILD_DIR" >&2
    exit 1
  fi
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" "${linker_flags[@]}"
fi
ninja -C "$build" -j "$jobs"
