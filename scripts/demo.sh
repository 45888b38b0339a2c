#!/usr/bin/env bash
# The main job: set up and build nd, then run it on a real example.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${ND_BUILD_DIR:-$root/build}
"$build/bin/nd-opt" "$root/examples/scatter_nd.mlir"
