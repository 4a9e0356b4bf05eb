#!/usr/bin/env bash
# Configures and builds gigacheck (Release, Ninja) into build-release/ at the repository root.
# CUDA is on when nvcc is found (CMake turns it off by itself otherwise); the GUI when Qt Widgets is.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIGACHECK_WITH_CUDA=ON "$@"
cmake --build "$build" -j"$(nproc)"
