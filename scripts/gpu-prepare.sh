#!/usr/bin/env bash
# Prepares nd's GPU check on a build machine (MLIR, LLVM and the CUDA toolkit
# installed; no GPU needed) into one folder that scripts/gpu-check.sh runs on
# a GPU machine (python3, numpy, torch; no MLIR or LLVM):
#
#   scripts/gpu-prepare.sh [OUT]        (default: build/gpu-check)
#
# ND_BUILD_DIR names nd's build (default: build), CUDA_HOME the toolkit;
# ND_GPU_QUICK=1 draws half the random cases; ND_GPU_FUZZ=N draws N random
# cases of every kind of shapes (empty ones too) instead of the usual cases,
# ND_GPU_SEED their seed; ND_GPU_HOST_ONLY=1 builds and checks only what runs
# here (the CPU and host libraries: check-nd's differential tests of the GPU
# lowering); ND_GPU_SAMPLE=N keeps N of the random and larger cases and
# ND_GPU_NO_BENCH=1 leaves the benchmark out, for dry runs of gpu-check.sh on
# a stand-in driver (check-nd's gpu-check-dry-run.test); ND_GPU_BENCH_ONLY=1
# leaves the test cases out (no case library, a quicker loop while tuning
# kernels: gpu-check.sh then runs the benchmark, the profile and the
# compiled library).
#
# OUT then holds:
#   libcases_cuda.so    the test cases compiled by nd-to-gpu (sm_90 and sm_80
#                       cubins and PTX), libcases_host.so the same with the
#                       kernels run on the host CPU, libcases_cpu.so the same
#                       module compiled by nd's CPU pipeline;
#   libbench_cuda.so, libbench_cpu.so
#                       the benchmark workloads (GPU, and CPU for the
#                       reference results);
#   libkv_cuda.so       a library of nd-compile --target=cuda (a KV-cache
#                       update and a gather), which gpu_compiled.py calls;
#   libnd_cuda_runtime.so, libomp.so.5
#                       the run-time libraries (RPATH $ORIGIN);
#   cases.json, *.npy   the cases' inputs and the CPU library's results;
#   gpu-check.sh, gpu_check.py, bench_gpu.py, gpu_compiled.py, nd_c_api.py
#                       what runs there.
# It then dry-runs everything that needs no GPU: the cases with the kernels
# run on the host (bit for bit against the CPU results), and the GPU
# library's load without a driver (an error status, not a crash).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ND_BUILD_DIR:-$ROOT/build}"
OUT="${1:-$BUILD/gpu-check}"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
LLVM_LIB="${LLVM_LIB:-/usr/lib/llvm-22/lib}"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
PYTHON="${PYTHON:-/usr/bin/python3}"
ND_OPT="$BUILD/bin/nd-opt"

HOST_ONLY="${ND_GPU_HOST_ONLY:-}"
TOOLS=("$ND_OPT" "$LLVM_BIN/mlir-translate" "$LLVM_BIN/opt" "$LLVM_BIN/llc"
       "$BUILD/lib/libnd_cuda_runtime.so")
[ -z "$HOST_ONLY" ] && TOOLS+=("$CUDA/bin/ptxas" "$CUDA/bin/fatbinary")
for tool in "${TOOLS[@]}"; do
  if [ ! -e "$tool" ]; then
    echo "gpu-prepare: missing $tool (build nd with 'ninja -C $BUILD' and" \
         "install the CUDA toolkit in $CUDA)" >&2
    exit 1
  fi
done

mkdir -p "$OUT"
rm -f "$OUT"/*.npy "$OUT"/*.so "$OUT"/cases.*

# Compiles MLIR file $1 with nd-opt pipeline $2 into shared library $3;
# $4... are extra link arguments.
compile() {
  local input="$1" pipeline="$2" output="$3"
  shift 3
  local work="$OUT/.work"
  mkdir -p "$work"
  "$ND_OPT" "$input" --pass-pipeline="builtin.module($pipeline)" \
    -o "$work/lowered.mlir"
  "$LLVM_BIN/mlir-translate" --mlir-to-llvmir "$work/lowered.mlir" \
    -o "$work/module.ll"
  "$LLVM_BIN/opt" -O3 "$work/module.ll" -o "$work/module.bc"
  "$LLVM_BIN/llc" -O3 -relocation-model=pic -filetype=obj \
    -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 "$work/module.bc" \
    -o "$work/module.o"
  cc -shared -o "$output" "$work/module.o" -L"$OUT" "$@" \
    -Wl,-rpath,'$ORIGIN' -Wl,--no-as-needed
  rm -rf "$work"
}

cp "$BUILD/lib/libnd_cuda_runtime.so" "$OUT/"
cp "$LLVM_LIB/libomp.so" "$OUT/libomp.so.5"
cp "$ROOT/scripts/gpu-check.sh" "$ROOT/scripts/gpu_check.py" \
   "$ROOT/scripts/bench_gpu.py" "$ROOT/scripts/gpu_compiled.py" \
   "$ROOT/scripts/nd_c_api.py" "$OUT/"
chmod +x "$OUT/gpu-check.sh"

BENCH_ONLY="${ND_GPU_BENCH_ONLY:-}"
if [ -n "$BENCH_ONLY" ] && { [ -n "$HOST_ONLY" ] || [ -n "${ND_GPU_NO_BENCH:-}" ]; }; then
  echo "gpu-prepare: ND_GPU_BENCH_ONLY leaves out the cases that" \
       "ND_GPU_HOST_ONLY and ND_GPU_NO_BENCH keep" >&2
  exit 1
fi
# The host libraries run here only: bf16 conversions from the support file,
# strided copies from MLIR's C runner utilities.
HOST_LIBS=("$ROOT/scripts/gpu_host_support.c" -L"$LLVM_LIB"
           -lmlir_c_runner_utils -Wl,-rpath,"$LLVM_LIB")

# The test cases, compiled for the CPU, the host schedule and (unless
# ND_GPU_HOST_ONLY) the GPU.
prepare_cases() {
  echo "== the test cases"
  "$PYTHON" "$ROOT/scripts/gpu_cases.py" "$OUT" ${ND_GPU_QUICK:+--quick} \
    ${ND_GPU_SAMPLE:+--sample "$ND_GPU_SAMPLE"} \
    ${ND_GPU_FUZZ:+--fuzz "$ND_GPU_FUZZ"} ${ND_GPU_SEED:+--seed "$ND_GPU_SEED"}
  local start
  start=$(date +%s)
  compile "$OUT/cases.mlir" "nd-to-llvm{parallel=false runtime-allocator=false}" \
    "$OUT/libcases_cpu.so" "${HOST_LIBS[@]}"
  compile "$OUT/cases.mlir" "nd-to-gpu{run-on-host=true}" \
    "$OUT/libcases_host.so" "${HOST_LIBS[@]}"
  [ -n "$HOST_ONLY" ] ||
    compile "$OUT/cases.mlir" "nd-to-gpu{toolkit=$CUDA}" \
      "$OUT/libcases_cuda.so" -lnd_cuda_runtime
  echo "compiled the cases in $(( $(date +%s) - start )) s"
}

# The cases' expected results, and what runs here of their check.
dry_run_cases() {
  echo "== expected results (CPU library)"
  "$PYTHON" "$OUT/gpu_check.py" expect "$OUT"

  echo "== dry run: the kernels on the host CPU"
  "$PYTHON" "$OUT/gpu_check.py" check "$OUT" --target host

  echo "== dry run: the GPU library here (no driver: an error status)"
  local status
  set +e
  "$PYTHON" "$OUT/gpu_check.py" check "$OUT" --target cuda
  status=$?
  set -e
  if [ "$status" != 2 ] && [ "$status" != 0 ]; then
    echo "gpu-prepare: the GPU check failed to start here (status $status)" >&2
    exit 1
  fi
}

# (Not in a list: `set -e` holds inside the functions only so.)
if [ -z "$BENCH_ONLY" ]; then prepare_cases; fi
if [ -n "$HOST_ONLY" ]; then
  "$PYTHON" "$OUT/gpu_check.py" expect "$OUT"
  "$PYTHON" "$OUT/gpu_check.py" check "$OUT" --target host
  exit
fi

if [ -z "${ND_GPU_NO_BENCH:-}" ]; then
  echo "== the benchmark workloads"
  "$PYTHON" "$ROOT/scripts/bench_gpu.py" --write-mlir "$OUT/bench.mlir"
  # Runs on the GPU machine too: only libc and the carried libomp.
  compile "$OUT/bench.mlir" "nd-to-llvm{runtime-allocator=false}" \
    "$OUT/libbench_cpu.so" "$ROOT/scripts/gpu_host_support.c" -l:libomp.so.5
  compile "$OUT/bench.mlir" "nd-to-gpu{toolkit=$CUDA}" \
    "$OUT/libbench_cuda.so" -lnd_cuda_runtime
fi

echo "== a library of nd-compile --target=cuda"
"$BUILD/bin/nd-compile" "$ROOT/test/nd-compile/Inputs/kv_update.mlir" \
  --target=cuda --donate 0 --cuda-toolkit "$CUDA" --entry kv \
  -o "$OUT/libkv_cuda.so"

if [ -z "$BENCH_ONLY" ]; then dry_run_cases; fi
set +e
"$PYTHON" "$OUT/gpu_compiled.py" "$OUT"
status=$?
set -e
if [ "$status" != 2 ] && [ "$status" != 0 ]; then
  echo "gpu-prepare: the compiled library's check failed to start here" \
       "(status $status)" >&2
  exit 1
fi
if [ -z "${ND_GPU_NO_BENCH:-}" ]; then
  set +e
  "$PYTHON" "$OUT/gpu_check.py" bench "$OUT" --quick
  status=$?
  set -e
  if [ "$status" != 2 ] && [ "$status" != 0 ]; then
    echo "gpu-prepare: the GPU benchmark failed to start here" \
         "(status $status)" >&2
    exit 1
  fi
fi
rm -f "$OUT"/check-*.json "$OUT/bench.json"
echo "prepared $OUT ($(du -sh "$OUT" | cut -f1)); on the GPU machine:" \
     "bash $OUT/gpu-check.sh"
