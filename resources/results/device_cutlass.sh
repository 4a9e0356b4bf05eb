#!/usr/bin/env bash
# On the GPU machine (Qt carried in .carry-qt/, CUTLASS in .carry-cutlass/: ../shared/device/README.md
# and ../shared/third_party/README.md): build with the CUTLASS kernels (every tile shape), then
# check and time --gemm cutlass-tf32 against cuBLAS TF32 in one process.
# Here, before the device call: mkdir -p .carry-cutlass && cp ../shared/third_party/cutlass-4.7.0.tar.xz* .carry-cutlass/
# and carry [".carry-qt", ".carry-cutlass"].
# Usage: OUT=dir GIGACHECK_COMMIT=hash [SWEEP=OFF] [TYPES=TF32] [DEADLINE=s] resources/results/device_cutlass.sh [all|bench|tests]
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-cutlass}
mkdir -p "$OUT"
log="$OUT/cutlass_log.txt"
build=build-cutlass
what=${1:-all}
step() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$log"; }

archive=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz
[ -f "$archive" ] || archive=$(cd .. && pwd)/shared/third_party/cutlass-4.7.0.tar.xz
[ -f .carry-qt/device-env.sh ] && source .carry-qt/device-env.sh

step "build (CUTLASS from $archive, every tile shape)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> "$log" 2>&1
echo "commit ${GIGACHECK_COMMIT:-unknown}" >> "$log"
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
  -DGIGACHECK_CUTLASS_ARCHIVE="$archive" -DGIGACHECK_CUTLASS_TILE_SWEEP=${SWEEP:-ON} > "$OUT/build.txt" 2>&1 ||
  { tail -30 "$OUT/build.txt" | tee -a "$log"; exit 1; }
timeout 420 cmake --build $build -j16 --target gigacheck ${TESTS:-tst_cuda_single_fault tst_cuda_tf32 tst_cuda_backend tst_cuda_kernels} \
  >> "$OUT/build.txt" 2>&1 || { grep -B2 -A20 "error" "$OUT/build.txt" | head -60 | tee -a "$log"; exit 1; }
awk '/cutlass_tf32_/ {n = split($4, p, "/"); print "CUTLASS translation unit " p[n] ": " ($2 - $1) / 1000 " s"}' $build/.ninja_log | tee -a "$log"
cli=$build/app/cli/gigacheck
for obj in $(find $build -name 'cutlass_tf32_*_tiles.cu.o'); do
  cuobjdump -res-usage "$obj" 2>&1 | grep -E "Function|REG" | head -8 >> "$log"
  echo "HGMMA instructions in $(basename "$obj"): $(cuobjdump -sass "$obj" | grep -c HGMMA)" | tee -a "$log"
done
$cli devices | tail -1 | tee -a "$log"

if [ "$what" != tests ]; then
  step "smoke: protected cutlass-tf32 runs (odd shapes, one fault, out of core)"
  for args in "--shape 1000x777x513 --errors 1" "--shape 4096x4096x4096 --errors 1" \
              "--shape 3001x1531x1409 --strategy s3 --mem 40MB --errors 2" "--shape 2048x2048x2048 --no-abft"; do
    echo "-- run --backend cuda --gemm cutlass-tf32 $args" >> "$log"
    timeout 60 $cli run --backend cuda --gemm cutlass-tf32 $args 2>&1 | grep -E "Verdict|Reference|error|Error|faults" >> "$log"
  done
  step "bench kernels (FP32: cuBLAS alone; TF32: cuBLAS and every CUTLASS tile shape)"
  GIGACHECK_BENCH_VARIANTS=none timeout 150 $cli bench kernels --json "$OUT/bench_kernels.json" > "$OUT/bench_kernels.txt" 2>&1
  echo "exit $?" >> "$log"
  sed -n '/TF32 on the tensor cores/,$p' "$OUT/bench_kernels.txt" | tee -a "$log"
  step "bench abft-overhead (FP32 and TF32, the fused product beside)"
  GIGACHECK_BENCH_TYPES=${TYPES:-FP32,TF32} timeout 200 $cli bench abft-overhead --json "$OUT/bench_abft.json" > "$OUT/bench_abft.txt" 2>&1
  echo "exit $?" >> "$log"
  grep -E "^ *N |TF32" "$OUT/bench_abft.txt" | head -20 >> "$log"
  sed -n '/TF32 fused/,$p' "$OUT/bench_abft.txt" | tee -a "$log"
fi

if [ "$what" != bench ]; then
  step "GPU tests (cutlass-tf32 rows included)"
  for t in ${TESTS:-tst_cuda_single_fault tst_cuda_tf32 tst_cuda_kernels tst_cuda_backend}; do
    [ $SECONDS -lt ${DEADLINE:-520} ] || { echo "$t not run: out of time" | tee -a "$log"; continue; }
    timeout $(( ${DEADLINE:-520} + 20 - SECONDS ))  $build/tests/$t > /tmp/$t.txt 2>&1; echo "$t exit $?" | tee -a "$log"
    cat /tmp/$t.txt >> "$OUT/tests.txt"
    grep -E "Totals|FAIL|SKIP|cutlass" /tmp/$t.txt | head -12 >> "$log"
  done
fi
step done
