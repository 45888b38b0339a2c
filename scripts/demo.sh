#!/usr/bin/env bash
# The main job: set up and build nd, then lower a real scatter/gather example
# to LLVM and JIT-run it with mlir-runner, printing the results. The generated
# code runs its parallel loops on LLVM's OpenMP runtime (libomp.so) and
# reports failed checks through nd's runner utilities (libnd_runner_utils.so).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${ND_BUILD_DIR:-$root/build}
llvm=/usr/lib/llvm-22
"$build/bin/nd-opt" "$root/examples/scatter_nd.mlir" --nd-to-llvm |
  "$llvm/bin/mlir-runner" -e main -entry-point-result=void \
    -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so,$llvm/lib/libomp.so,$build/lib/libnd_runner_utils.so"
