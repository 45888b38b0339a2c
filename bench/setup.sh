#!/usr/bin/env bash
# Installs what bench/bench.py compares nd with, where it is missing:
# numpy, PyTorch and ONNX's Python package from Debian, Node.js and npm, and
# ONNX Runtime's CPU build from the npm package onnxruntime-node into
# bench/.ort (git-ignored).
#
# onnxruntime-node's install script downloads GPU binaries, so it is skipped
# (--ignore-scripts): the Linux x64 CPU library ships inside the package.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ort_version=1.30.0
ort_dir=${ND_BENCH_ORT_DIR:-$here/.ort}

packages=(python3-numpy python3-torch python3-onnx)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js may come from elsewhere than Debian (with npm inside): only ask
# Debian for it when there is no npm at all.
if ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if ((${#missing[@]})); then
  echo "bench/setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

installed="$ort_dir/node_modules/onnxruntime-node/package.json"
if [ ! -f "$installed" ] || ! grep -q "\"version\": \"$ort_version\"" "$installed"; then
  echo "bench/setup: installing onnxruntime-node@$ort_version into $ort_dir"
  mkdir -p "$ort_dir"
  npm install --prefix "$ort_dir" --ignore-scripts --no-audit --no-fund \
    --loglevel=error "onnxruntime-node@$ort_version"
fi
