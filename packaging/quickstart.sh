#!/usr/bin/env bash
# Quick start: install what is missing, build, and start the main job.
# With a display and a built gigacheck-lab: the GUI. Otherwise a headless demo run that prints the
# seed's report and writes the run record demo-run.json (open it later with `gigacheck show`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${GIGACHECK_BUILD_DIR:-$root/build-release}"

"$here/setup-debian.sh" --programs  # not the tests' clang, Xvfb and NumPy (packaging/test.sh)
# The CUDA module only where it can run: for this machine's GPU alone, and not at all without a GPU
# (nvcc present or not). packaging/build.sh and CI build it for every supported architecture.
gpus="$(nvidia-smi -L 2>/dev/null || true)"  # read whole: grep -q on a pipe under pipefail can fail
if grep -q '^GPU' <<<"$gpus"; then
  cuda=(-DCMAKE_CUDA_ARCHITECTURES=native)
else
  echo "quickstart: no NVIDIA GPU found: building without the CUDA module (packaging/build.sh builds it)"
  cuda=(-DGIGACHECK_WITH_CUDA=OFF)
fi
# The programs only; packaging/test.sh builds the tests. GIGACHECK_QUICK_BUILD: unity builds and a
# precompiled Qt header (CMakeLists.txt), about 5 min -> 3 min 15 s on 2 cores; should a newer source
# not compile inside a unity build, the ordinary build follows.
programs="gigacheck gigacheck-lab gigacheck_cuda"
if ! GIGACHECK_TARGETS="$programs" GIGACHECK_BUILD_DIR="$build" "$here/build.sh" "${cuda[@]}" -DGIGACHECK_QUICK_BUILD=ON; then
  echo "quickstart: the quick build failed; building each file alone"
  GIGACHECK_TARGETS="$programs" GIGACHECK_BUILD_DIR="$build" "$here/build.sh" "${cuda[@]}" -DGIGACHECK_QUICK_BUILD=OFF
fi

gui="$build/app/gui/gigacheck-lab"
if [ -x "$gui" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec "$gui"
fi

echo "quickstart: no display or no GUI build; running the headless demo"
cd "$root"
set +e
"$build/app/cli/gigacheck" run --shape 2048x1024x1536 --errors 2 --collinear row --mem 8MiB \
  --strategy s2 --backend auto --json demo-run.json
status=$?
set -e
echo "quickstart: exit status $status (0 = verified correct); run record: $root/demo-run.json"
exit $status
