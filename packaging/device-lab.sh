#!/usr/bin/env bash
# On a GPU machine with Qt carried (see ../shared/device/README.md): build the whole lab (GUI
# included), run every test (GPU tests for real), store the measured roofs, then take the GUI's
# screenshots against the real GPU. Writes at most 8 files under $OUT.
# CUTLASS (--gemm cutlass-tf32) is built when the device call carries .carry-cutlass/ (here, first:
# mkdir -p .carry-cutlass && cp ../shared/third_party/cutlass-4.7.0.tar.xz* .carry-cutlass/; the
# build finds it there, cmake/Cutlass.cmake).
# Usage: OUT=dir packaging/device-lab.sh
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-lab-out}
mkdir -p "$OUT"
log="$OUT/log.txt"
build=build-lab
step() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$log"; }

step build
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >> "$log" 2>&1
if ! { cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
        -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.txt 2>&1 && cmake --build $build -j16 >> /tmp/build.txt 2>&1; }; then
  tail -40 /tmp/build.txt | tee -a "$log"; exit 1
fi
cli=$build/app/cli/gigacheck
lab=$build/app/gui/gigacheck-lab

step "ctest (every test, GPU ones for real)"
ctest --test-dir $build --output-on-failure --timeout 400 -j4 >> "$log" 2>&1
echo "ctest exit $?" | tee -a "$log"; grep -E "tests passed|Failed|Skipped" "$log" | tail -6

step "compute-sanitizer memcheck, one small run per strategy"
for s in none s1 s2 s3 s4; do
  mem=200KB; [ $s = none ] && mem=4MB
  compute-sanitizer --tool memcheck --error-exitcode 9 $cli run --shape 300x200x250 --backend cuda \
    --strategy $s --mem $mem --errors 1 --quiet >> "$log" 2>&1
  echo "strategy $s: sanitizer exit $?" | tee -a "$log"
done

step "devices --measure (the roofline's ceilings)"
$cli devices --measure 2>&1 | tee -a "$log" | tail -4

step "the issue's walk-through on the GPU: 4096^2 FP32, three faults, s2 under 64 MiB"
$cli run --shape 4096x4096x4096 --backend cuda --strategy s2 --mem 64MiB --inject-at 200,400 \
  --inject-at 200,1400 --inject-at 3000,3600 --json "$OUT/gpu-4096-s2.json" > /tmp/run.txt 2>&1
echo "run exit $?" | tee -a "$log"; cat /tmp/run.txt >> "$log"
rm -rf /tmp/shots /tmp/shots16k
$lab --screenshots /tmp/shots --backend cuda --shape 4096x4096x4096 --cap 64MiB --strategy s2 --compare s1 >> "$log" 2>&1
for f in timeline roofline animation-correct; do cp /tmp/shots/$f.png "$OUT/gpu-$f.png"; done

step "16384^3 FP32 under 2 GiB: s1 against s4"
$lab --screenshots /tmp/shots16k --backend cuda --shape 16384x16384x16384 --cap 2GiB --strategy s4 --compare s1 >> "$log" 2>&1
cp /tmp/shots16k/timeline.png "$OUT/gpu-16k-timeline.png"
cp /tmp/shots16k/roofline.png "$OUT/gpu-16k-roofline.png"
step done
