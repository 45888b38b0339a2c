#!/usr/bin/env bash
# Installs ONNX Runtime's CPU build, the npm package onnxruntime-node, into
# bench/.ort (git-ignored) for bench/bench.py, unless that version is there.
# scripts/setup.sh runs it (and installs Node.js and npm first).
#
# onnxruntime-node's install script downloads GPU binaries, so it is skipped
# (--ignore-scripts): the Linux x64 CPU library ships inside the package.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=1.30.0
dir=${ND_BENCH_ORT_DIR:-$here/.ort}

installed="$dir/node_modules/onnxruntime-node/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  exit 0
fi
echo "bench: installing onnxruntime-node@$version into $dir"
mkdir -p "$dir"
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund \
  --loglevel=error "onnxruntime-node@$version"
