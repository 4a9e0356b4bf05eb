#!/usr/bin/env bash
# Grabs the GUI's main views offscreen into resources/screenshots/ (the README's images).
# Usage: packaging/screenshots.sh [OUT_DIR] [gigacheck-lab options]
#   default: the issue's walk-through, 4096^2 FP32, three faults, s1 then s2 under 64 MiB
#   on a GPU machine: packaging/screenshots.sh out --backend cuda --shape 16384x16384x16384 --cap 2GiB
#   from a record:    packaging/screenshots.sh out --record run.json
#   strategy auto on your own matrices, main views only:
#                     packaging/screenshots.sh out --strategy auto --load-a A.npy --load-b B.npy --quick --size 1366x768
# Needs a build with the GUI (packaging/build.sh, or GIGACHECK_BUILD_DIR pointing at one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"
out="${1:-$root/resources/screenshots}"
shift || true
lab="$build/app/gui/gigacheck-lab"
if [[ ! -x "$lab" ]]; then
  echo "screenshots: $lab not found; build first (packaging/build.sh)" >&2
  exit 2
fi
if [[ $# -eq 0 ]]; then
  set -- --backend auto --shape 4096x4096x4096 --cap 64MiB --strategy s2 --compare s1
fi
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "$lab" --screenshots "$out" "$@"
