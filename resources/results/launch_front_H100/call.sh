#!/usr/bin/env bash
# Device call: build build-carry/new.tar.xz (CLI + the GPU tests named in TESTS; "" none) and, where
# build-carry/old.tar.xz exists, the old CLI beside it; run the tests; then, as LIMIT allows:
#   REPS rounds of `bench abft-overhead` (TYPES at SIZES), old and new alternated in each round;
#   TRACE (types): one run of the new CLI at 4096 traced with the host's API calls (KERNEL_TRACE_API=1,
#     front.py: the host's time from the timing event to each GEMM's launch, and what runs after it);
#   NCU=1: Nsight Compute on the new CLI's check kernels (decideKernel, recomputeChecksumsKernel) and the
#     16-bit passes at 4096, for NCU_TYPES (default TF32), each skipping NCU_SKIP (40) launches.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
K=$here/probes/kernel_trace
if [ -z "${SKIP_BUILD:-}" ]; then
  GIGACHECK_COMMIT=${NEW_COMMIT:-?} OLD_COMMIT=${OLD_COMMIT:-?} FIRST="${TESTS:-${FIRST:-}}" DEADLINE=${BUILD_DEADLINE:-330} \
    OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
  grep -v "not built" $OUT/release_log.txt
fi
NEW=/tmp/release-new/build/app/cli/gigacheck OLD=/tmp/release-old/build/app/cli/gigacheck
# ON_H200="VAR=value ...": settings taken instead where the machine has an H200 (its medians are wanted).
if [ -n "${ON_H200:-}" ] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  for kv in $ON_H200; do export "$kv"; done
  echo "H200: $ON_H200"
fi
left() { echo $(( ${LIMIT:-560} - SECONDS )); }
rows() { grep -E "^ *[0-9]+ .*(met|MISSED)" "$1" | cut -c1-250; }
for r in $(seq 1 ${REPS:-1}); do
  for side in ${SIDES:-new old}; do  # "one": the new CLI with GIGACHECK_CHECK_ONE_BLOCK=1 (A/B branch only)
    cli=$NEW; [ $side = old ] && cli=$OLD
    [ -x "$cli" ] || continue
    [ "$(left)" -gt 70 ] || break 2
    env $([ $side = one ] && echo GIGACHECK_CHECK_ONE_BLOCK=1) GIGACHECK_BENCH_TYPES=${TYPES:-TF32} GIGACHECK_BENCH_SIZES=${SIZES:-4096} timeout 150 $cli bench abft-overhead \
      > $OUT/bench_${side}_$r.txt 2>&1
    echo "== bench $side round $r exit $? at ${SECONDS}s"
    sed -n '/operands prepared at entry/,$p' $OUT/bench_${side}_$r.txt | grep -E "^ *[0-9]+ " | cut -c1-130
    grep -E "^ *[0-9]+ +(BF16|FP16) .*prepared" $OUT/bench_${side}_$r.txt | cut -c1-200
  done
done
if [ -n "${MORE_SIZES:-}" ] && [ "$(left)" -gt 110 ]; then
  GIGACHECK_BENCH_TYPES=${TYPES:-TF32} GIGACHECK_BENCH_SIZES=$MORE_SIZES timeout $(( $(left) - 20 )) $NEW bench abft-overhead \
    > $OUT/bench_new_sizes.txt 2>&1
  echo "== bench new at $MORE_SIZES exit $? at ${SECONDS}s"
  sed -n '/operands prepared at entry/,$p' $OUT/bench_new_sizes.txt | grep -E "^ *[0-9]+ " | cut -c1-130
fi
if [ -n "${TRACE:-}" ]; then
  lib=$($K/kernel_trace.sh 2>/dev/null)
  for t in ${TRACE}; do
    [ "$(left)" -gt 60 ] || break
    KERNEL_TRACE_API=1 GIGACHECK_BENCH_TYPES=$t GIGACHECK_BENCH_SIZES=4096 KERNEL_TRACE_OUT=$OUT/trace_$t.csv \
      CUDA_INJECTION64_PATH=$lib timeout 100 $NEW bench abft-overhead > $OUT/bench_traced_$t.txt 2>&1
    echo "== trace $t exit $? at ${SECONDS}s"
    python3 $here/launch_front_H100/front.py $OUT/trace_$t.csv 2>&1 | head -60
    xz -1 $OUT/trace_$t.csv
  done
fi
if [ -n "${NCU:-}" ]; then
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  for t in ${NCU_TYPES:-TF32}; do
    [ "$(left)" -gt 60 ] || break
    GIGACHECK_BENCH_TYPES=$t GIGACHECK_BENCH_SIZES=4096 timeout $(( $(left) - 10 )) $ncu --clock-control none \
      --kernel-name regex:"decideKernel|recomputeChecksums|resetKernel|addRowSumPartials|columnDots16|rowDots16" \
      --launch-skip ${NCU_SKIP:-40} --launch-count 12 \
      --section SpeedOfLight --section LaunchStats --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis \
      $NEW bench abft-overhead > $OUT/ncu_$t.txt 2>&1
    echo "== ncu $t exit $? at ${SECONDS}s"
    grep -E "decideKernel|recompute|resetKernel|addRowSum|Dots16|Duration|Elapsed Cycles|Stall|Warp Cycles Per|Block Size|Grid Size|Registers|Achieved Occupancy|Memory Throughput|DRAM Throughput" $OUT/ncu_$t.txt | head -120
  done
fi
