#!/usr/bin/env bash
# Builds the Debian packages of a build directory with cpack, unpacks the gigacheck package alone
# (never gigacheck-cuda) into a throwaway root with `dpkg -x`, and runs the installed programs from
# there as a machine without CUDA would: no LD_LIBRARY_PATH, no CUDA module.
#   packaging/test-package.sh                    # the build in build-release/ (packaging/build.sh)
#   packaging/test-package.sh --build-dir DIR    # another build
#   packaging/test-package.sh --keep             # keep the packages and the root (printed)
#   packaging/test-package.sh --install          # as root: also apt-get install the built .deb on
#                                                # this machine, run the installed programs, remove it
# Checks: the packages' Depends (no Qt 5, pulled in directly or through a dependency; OpenBLAS and
# Qt 6 present), every library of the installed programs resolves outside the build tree, then
# `gigacheck devices`, `gigacheck run --shape 64x64x64 --backend cpu` and `gigacheck-lab
# --screenshots` (offscreen) work; in a CUDA build also that `devices` names the missing module,
# and the loader's error when a module cannot be loaded (GIGACHECK_CUDA_MODULE at a broken file).
# ctest runs it as package.deb. Exit 77 (ctest: skipped) without cpack or dpkg-deb. A build
# without the GUI (GIGACHECK_WITH_GUI=OFF): the same checks of the CLI alone.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"
keep=0
install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --install) install=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "test-package: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)

skip() { echo "test-package: SKIPPED: $*"; exit 77; }
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
[ -f "$build/CPackConfig.cmake" ] || fail "$build has no CPackConfig.cmake (configure it first)"
gui=0  # a build without the GUI: the CLI alone is checked
[ -x "$build/app/gui/gigacheck-lab" ] && gui=1
cuda_build=0  # a CUDA build packages the module as gigacheck-cuda
grep -q 'CPACK_DEBIAN_CUDA_PACKAGE_NAME' "$build/CPackConfig.cmake" && cuda_build=1

work=$(mktemp -d "${TMPDIR:-/tmp}/gigacheck-package.XXXXXX")
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$work"' EXIT; fi
step() { echo "=== test-package: $*"; }

step "cpack -G DEB ($build)"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/debs" >"$work/cpack.log" 2>&1) ||
  { tail -30 "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/debs/gigacheck_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no gigacheck_*.deb: $(ls "$work/debs")"
ls -1 "$work"/debs/*.deb

step "the package's dependencies"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
echo "Suggests: $(dpkg-deb -f "$deb" Suggests)"
grep -q 'libopenblas0' <<<"$depends" || fail "no OpenBLAS runtime in Depends"
if [ "$gui" -eq 1 ]; then grep -q 'libqt6widgets6' <<<"$depends" || fail "no Qt 6 Widgets in Depends"; fi
grep -qi 'qt5' <<<"$depends" && fail "a Qt 5 package in Depends"
if command -v apt-cache >/dev/null 2>&1; then
  # Every package a clean install would pull (recursively, Depends and Pre-Depends only).
  names=$(sed 's/([^)]*)//g; s/|/,/g' <<<"$depends" | tr ',' '\n' | tr -d ' ' | grep -v '^$')
  pulled=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
             --no-replaces --no-enhances $names 2>/dev/null | grep -v '^ ' | sort -u || true)
  qt5=$(grep -i 'qt5' <<<"$pulled" || true)
  [ -z "$qt5" ] || fail "the dependencies pull Qt 5: $(echo $qt5)"
  if [ -z "$pulled" ]; then
    echo "apt-cache knows none of them (no package lists: apt-get update): the Qt 5 check is skipped"
  else
    echo "pulls $(wc -l <<<"$pulled") packages (recursively), none of Qt 5"
  fi
fi
if [ "$cuda_build" -eq 1 ]; then
  cudadeb=$(ls "$work"/debs/gigacheck-cuda_*.deb 2>/dev/null | head -1)
  [ -n "$cudadeb" ] || fail "a CUDA build made no gigacheck-cuda_*.deb"
  echo "gigacheck-cuda Depends: $(dpkg-deb -f "$cudadeb" Depends)"
  echo "gigacheck-cuda Recommends: $(dpkg-deb -f "$cudadeb" Recommends)"
  dpkg-deb -c "$cudadeb" | grep -q 'lib/gigacheck/libgigacheck_cuda.so' || fail "the module is not in gigacheck-cuda"
  dpkg-deb -c "$deb" | grep -q 'libgigacheck_cuda' && fail "the module is in the gigacheck package"
fi

step "dpkg -x into $work/root (gigacheck only)"
dpkg -x "$deb" "$work/root"
prefix=$(dirname "$(dirname "$(find "$work/root" -path '*/bin/gigacheck' -type f | head -1)")")
programs=("$prefix/bin/gigacheck")
[ "$gui" -eq 1 ] && programs+=("$prefix/bin/gigacheck-lab")
for exe in "${programs[@]}"; do [ -x "$exe" ] || fail "$exe missing in the package"; done
[ -f "$prefix/share/icons/hicolor/scalable/apps/gigacheck-lab.svg" ] || fail "no icon"
if [ "$gui" -eq 1 ]; then
  [ -f "$prefix/share/applications/gigacheck-lab.desktop" ] || fail "no desktop entry"
  grep -q '^Icon=gigacheck-lab$' "$prefix/share/applications/gigacheck-lab.desktop" || fail "the desktop entry names no icon"
fi

# As on a machine without CUDA: nothing from the environment, no module, a fresh home.
run_installed() {
  env -i PATH=/usr/bin:/bin HOME="$work/home" LD_LIBRARY_PATH= QT_QPA_PLATFORM=offscreen \
    OPENBLAS_NUM_THREADS=2 XDG_RUNTIME_DIR="$work/xdg" "$@"
}
mkdir -p "$work/home" "$work/xdg" && chmod 700 "$work/xdg"

step "libraries of the installed programs"
for exe in "${programs[@]}"; do
  libs=$(run_installed ldd "$exe")
  grep -q 'not found' <<<"$libs" && { echo "$libs"; fail "$exe: a library is not found"; }
  grep -q "$build" <<<"$libs" && { echo "$libs"; fail "$exe: loads a library from the build tree"; }
  grep -Eq 'libcudart|libcublas|libcuda\.' <<<"$libs" && { echo "$libs"; fail "$exe links a CUDA library"; }
done
echo "ok: every library resolves, none from the build tree, none of CUDA"

step "gigacheck devices"
run_installed "$prefix/bin/gigacheck" devices | tee "$work/devices.txt"
grep -q 'CPU' "$work/devices.txt" || fail "devices lists no CPU"
if [ "$cuda_build" -eq 1 ]; then
  grep -q 'the CUDA module libgigacheck_cuda.so is not installed' "$work/devices.txt" ||
    fail "devices does not say that the CUDA module is missing"
  printf 'not a library\n' >"$work/broken.so"
  run_installed env GIGACHECK_CUDA_MODULE="$work/broken.so" "$prefix/bin/gigacheck" devices >"$work/broken.txt"
  grep -q "could not be loaded: .*broken.so" "$work/broken.txt" || { cat "$work/broken.txt"; fail "no loader error for a broken module"; }
  echo "ok: a module that cannot load: $(grep -o 'could not be loaded.*' "$work/broken.txt")"
  set +e
  run_installed "$prefix/bin/gigacheck" run --shape 64x64x64 --backend cuda >"$work/cuda-run.txt" 2>&1
  status=$?
  set -e
  [ "$status" -ne 0 ] && grep -q 'CUDA module' "$work/cuda-run.txt" ||
    { cat "$work/cuda-run.txt"; fail "--backend cuda without the module: exit $status, no word of the module"; }
  echo "ok: --backend cuda refused: $(grep -m1 'CUDA module' "$work/cuda-run.txt")"
fi

step "gigacheck run --shape 64x64x64 --backend cpu"
run_installed "$prefix/bin/gigacheck" run --shape 64x64x64 --backend cpu --json "$work/run.json" | tail -5
[ -s "$work/run.json" ] || fail "no run record"

if [ "$gui" -eq 0 ]; then
  echo "test-package: passed (CLI only: $build has no gigacheck-lab)"
  exit 0
fi
step "gigacheck-lab --screenshots (offscreen)"
run_installed "$prefix/bin/gigacheck-lab" --screenshots "$work/shots" --backend cpu --shape 256x256x256 \
  --cap 256KiB --strategy s2 --compare s1 >"$work/lab.txt" 2>&1 || { tail -20 "$work/lab.txt"; fail "gigacheck-lab"; }
shots=$(ls "$work/shots"/*.png 2>/dev/null | wc -l)
[ "$shots" -ge 3 ] || { tail -20 "$work/lab.txt"; fail "gigacheck-lab wrote $shots screenshots"; }
echo "ok: $shots screenshots"

# Installed as a user would (README "Installing the package"): apt resolves the Depends from the
# distribution, the programs land in /usr/bin and run from there; removed again afterwards.
if [ "$install" -eq 1 ]; then
  [ "$(id -u)" -eq 0 ] || fail "--install needs root (apt-get install)"
  command -v apt-get >/dev/null 2>&1 || fail "--install needs apt-get"
  dpkg -s gigacheck >/dev/null 2>&1 && fail "a gigacheck package is installed already: remove it first"
  step "apt-get install $deb"
  apt-get install -y "$deb" >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "apt-get install"; }
  dpkg -s gigacheck | grep -q '^Status: install ok installed' || fail "gigacheck is not installed after apt-get"
  run_installed /usr/bin/gigacheck devices >"$work/installed-devices.txt" || fail "installed gigacheck devices"
  run_installed /usr/bin/gigacheck run --shape 64x64x64 --backend cpu --json "$work/installed.json" >/dev/null ||
    fail "installed gigacheck run"
  [ -s "$work/installed.json" ] || fail "the installed gigacheck wrote no record"
  if [ "$gui" -eq 1 ]; then
    run_installed /usr/bin/gigacheck-lab --screenshots "$work/installed-shots" --backend cpu --shape 128x128x128 \
      >"$work/installed-lab.txt" 2>&1 || { tail -20 "$work/installed-lab.txt"; fail "installed gigacheck-lab"; }
  fi
  echo "ok: installed with apt-get, devices / run$([ "$gui" -eq 1 ] && echo " / the lab's screenshots") from /usr/bin"
  if [ "$keep" -eq 0 ]; then
    apt-get remove -y gigacheck >>"$work/apt.log" 2>&1 || fail "apt-get remove gigacheck"
    echo "ok: removed again"
  fi
fi

[ "$keep" -eq 1 ] && echo "test-package: kept $work"
echo "test-package: passed"
