#!/usr/bin/env bash
# nd's GPU check, on a machine with an NVIDIA GPU, python3, numpy and torch
# (no MLIR or LLVM): run from the folder scripts/gpu-prepare.sh filled on a
# build machine,
#
#   bash gpu-check.sh [--quick]
#
# in at most 5 minutes (ND_GPU_CHECK_SECONDS, default 285, bounds the whole
# run; each step has a share of it):
#   1. every test case (op x reduction x oob x element type x static/dynamic
#      shapes, larger cases, run-time errors, a donated buffer) on the GPU,
#      each run twice, against nd's CPU results bit for bit; an error case
#      must give the CPU's message (asynchronously, then in synchronous mode)
#      and the next call must work;
#   2. the benchmark workloads (a..j) beside PyTorch with and without
#      deterministic algorithms, with the copy bandwidth and the cost of a
#      launch measured there, nd's results checked against nd's CPU code and
#      for repeatability;
#   3. where the benchmark's time goes (gpu_check.py profile: the host's
#      queueing of a call, the GPU's span, each kernel's time by torch's
#      profiler), into profile.txt and the record;
#   4. a library of nd-compile --target=cuda through its host and device
#      forms (gpu_compiled.py).
# A folder prepared with ND_GPU_BENCH_ONLY=1 has no test cases: step 1 says
# so and the others run (a quicker loop while tuning kernels).
# A fault in a case or a workload (a dead CUDA context) is recorded and the
# step goes on in a fresh process from the next one; a step out of time
# stops cleanly. The run always ends with its summary, and writes the record
# of the run (date, GPU, driver, every case's verdict, every workload's time
# beside its floor and torch's) to gpu-results.md in this folder, for
# docs/gpu-results.md. Exit status 0 when everything passed.
set -u
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"
QUICK="${1:-}"
START=$(date +%s)
BUDGET="${ND_GPU_CHECK_SECONDS:-285}"
# The end of each step, in seconds after the start (scaled to the budget).
CHECK_END=$(( BUDGET * 35 / 100 ))
BENCH_END=$(( BUDGET * 70 / 100 ))
PROFILE_END=$(( BUDGET * 86 / 100 ))
COMPILED_END=$(( BUDGET * 94 / 100 ))

echo "== nd GPU check ($(date -u +%FT%TZ)) in $DIR"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"$PYTHON" -c "import numpy, sys; print('python', sys.version.split()[0], \
'numpy', numpy.__version__)"
rm -f "$DIR/check-cuda.json" "$DIR/bench.json" "$DIR/compiled.txt" \
      "$DIR/gpu-results.md" "$DIR/profile.txt"

# Runs step $1 (a gpu_check.py subcommand and its arguments follow $2, the
# step's end in seconds after the start) until it finishes, going on in a
# fresh process after a fault (status 3), at most 8 times; prints and
# returns its last status (124: out of time).
run_step() {
  local name="$1" end="$2"
  shift 2
  local status=124 tries=0 resume=""
  while [ "$tries" -lt 8 ]; do
    local left=$(( START + end - $(date +%s) ))
    if [ "$left" -le 2 ]; then
      echo "$name: out of time"
      status=124
      break
    fi
    timeout -k 5 "$left" "$PYTHON" "$DIR/gpu_check.py" "$@" $resume \
      --deadline "$(( START + end - 3 ))"
    status=$?
    tries=$(( tries + 1 ))
    [ "$status" = 3 ] || break
    echo "$name: going on in a fresh process"
    resume=--resume
  done
  [ "$status" = 4 ] && status=124
  return "$status"
}

echo "== 1. test cases against the CPU results"
if [ -e "$DIR/cases.json" ]; then
  run_step "the test cases" "$CHECK_END" check "$DIR" --target cuda
  cases=$?
else
  echo "not prepared (ND_GPU_BENCH_ONLY=1 gpu-prepare.sh)"
  cases=5
fi

echo "== 2. benchmark"
run_step "the benchmark" "$BENCH_END" bench "$DIR" $QUICK
bench=$?

echo "== 3. where the time goes"
left=$(( START + PROFILE_END - $(date +%s) ))
if [ "$left" -gt 5 ]; then
  timeout -k 5 "$left" "$PYTHON" "$DIR/gpu_check.py" profile "$DIR" \
    --deadline "$(( START + PROFILE_END - 3 ))"
  profile=$?
else
  echo "the profile: out of time"
  profile=124
fi

echo "== 4. a library of nd-compile --target=cuda"
left=$(( START + COMPILED_END - $(date +%s) ))
[ "$left" -lt 5 ] && left=5
timeout -k 5 "$left" "$PYTHON" "$DIR/gpu_compiled.py" "$DIR" \
  > "$DIR/compiled.txt" 2>&1
compiled=$?
cat "$DIR/compiled.txt"
[ "$compiled" = 124 ] && echo "the compiled library ran out of time"

verdict() {
  case "$1" in
    0) echo passed ;;
    2) echo "not run (no usable GPU)" ;;
    4|124) echo "out of time" ;;
    5) echo "not prepared" ;;
    *) echo "FAILED ($1)" ;;
  esac
}
steps="test cases $(verdict "$cases"), benchmark $(verdict "$bench"),\
 profile $(verdict "$profile"), compiled library $(verdict "$compiled")"
timeout -k 5 20 "$PYTHON" "$DIR/gpu_check.py" report "$DIR" --steps "$steps" ||
  echo "the record of the run could not be written"
echo "== summary ($(( $(date +%s) - START )) s): $steps"
# A bench-only folder passes without its cases; the profile is information.
{ [ "$cases" = 0 ] || [ "$cases" = 5 ]; } && [ "$bench" = 0 ] &&
  [ "$compiled" = 0 ]
