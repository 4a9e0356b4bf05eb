#!/usr/bin/env bash
# Installs the Debian 12 packages gigacheck needs to build and test, only those missing.
# --programs: only what building the programs needs (the quick start); the tests' extras (clang,
# Xvfb, NumPy, file) come with packaging/test.sh.
# Runs apt-get directly as root, through sudo otherwise (when sudo exists).
set -euo pipefail

# libqt6svg6-dev is a virtual name on Debian 12, provided by qt6-svg-dev: the real name is listed
# so that dpkg-query sees it installed and a second run installs nothing. clang and its
# compiler-rt (libFuzzer, sanitizers) build the readers' fuzzers (packaging/fuzz.sh). `file` and
# dpkg-dev (from build-essential) are what `cpack -G DEB` needs to find the package's dependencies
# (packaging/test-package.sh, ctest package.deb). libqcustomplot-dev pulls Qt 5's development
# packages too (Debian ships the Qt 5 and Qt 6 builds of QCustomPlot in one -dev package): needed to
# build, never by the built programs or the package.
# python3-numpy: tests/engine/tst_npy.cpp cross-checks .npy files NumPy writes and reads.
packages=(
  build-essential cmake ninja-build
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqcustomplot-dev
  libopenblas-dev nlohmann-json3-dev libgl-dev
)
if [ "${1:-}" != "--programs" ]; then
  packages+=(file xvfb xauth clang libclang-rt-dev python3-numpy)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run this script as root (or install sudo) to install them" >&2
  exit 2
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
