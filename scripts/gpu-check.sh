#!/usr/bin/env bash
# nd's GPU check, on a machine with an NVIDIA GPU, python3, numpy and torch
# (no MLIR or LLVM): run from the folder scripts/gpu-prepare.sh filled on a
# build machine,
#
#   bash gpu-check.sh [--quick]
#
# in at most 5 minutes:
#   1. every test case (op x reduction x oob x element type x static/dynamic
#      shapes, larger cases, run-time errors, a donated buffer) on the GPU,
#      each run twice, against nd's CPU results bit for bit; an error case
#      must give the CPU's message and the next call must work;
#   2. the benchmark workloads (a..j) beside PyTorch with and without
#      deterministic algorithms, with the copy bandwidth measured there,
#      nd's results checked against nd's CPU code and for repeatability;
#   3. a library of nd-compile --target=cuda through its host and device
#      forms (gpu_compiled.py).
# Exit status 0 when everything passed.
set -u
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"
QUICK="${1:-}"

echo "== nd GPU check ($(date -u +%FT%TZ)) in $DIR"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"$PYTHON" -c "import numpy, sys; print('python', sys.version.split()[0], \
'numpy', numpy.__version__)"

echo "== 1. test cases against the CPU results"
timeout 120 "$PYTHON" "$DIR/gpu_check.py" check "$DIR" --target cuda
cases=$?
[ "$cases" = 124 ] && echo "the test cases ran out of their 120 s"

echo "== 2. benchmark"
timeout 170 "$PYTHON" "$DIR/gpu_check.py" bench "$DIR" $QUICK
bench=$?
[ "$bench" = 124 ] && echo "the benchmark ran out of its 170 s"

echo "== 3. a library of nd-compile --target=cuda"
timeout 30 "$PYTHON" "$DIR/gpu_compiled.py" "$DIR"
compiled=$?

verdict() { if [ "$1" = 0 ]; then echo passed; else echo "FAILED ($1)"; fi; }
echo "== summary: test cases $(verdict "$cases"), benchmark $(verdict "$bench")," \
     "compiled library $(verdict "$compiled")"
[ "$cases" = 0 ] && [ "$bench" = 0 ] && [ "$compiled" = 0 ]
