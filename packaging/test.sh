#!/usr/bin/env bash
# Install what is missing, build, and run every test. GPU tests skip themselves (visibly) when
# there is no CUDA device; GUI tests run offscreen.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"

"$here/setup-debian.sh"
GIGACHECK_BUILD_DIR="$build" "$here/build.sh"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
