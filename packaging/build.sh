#!/usr/bin/env bash
# Configures and builds gigacheck (Release, Ninja) into build-release/ at the repository root.
# CUDA is on when nvcc is found (CMake turns it off by itself otherwise); the GUI when Qt Widgets is.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"

# CUTLASS (the fused-ABFT kernels, cmake/Cutlass.cmake) from the packed release beside the
# repository when there is one (the build machines and CI have it there).
cutlass=()
archive="$root/../shared/third_party/cutlass-4.7.0.tar.xz"
if [ -f "$archive" ]; then cutlass=(-DGIGACHECK_CUTLASS_ARCHIVE="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"); fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIGACHECK_WITH_CUDA=ON "${cutlass[@]}" "$@"
# GIGACHECK_TARGETS="a b": only those targets (the quick start builds the programs, not the tests).
if [ -n "${GIGACHECK_TARGETS:-}" ]; then
  targets=()
  # Read the list once: piping it into `grep -q` under pipefail failed at random (grep exits at the
  # first match, the writer gets SIGPIPE) and silently dropped targets.
  known="$(cmake --build "$build" --target help)"
  for t in $GIGACHECK_TARGETS; do
    # A target this configuration lacks (no GUI, no nvcc) is skipped, not an error.
    if grep -q "^$t:" <<<"$known"; then targets+=(--target "$t"); fi
  done
  echo "build: targets ${targets[*]}"
  cmake --build "$build" -j"$(nproc)" "${targets[@]}"
else
  cmake --build "$build" -j"$(nproc)"
fi
