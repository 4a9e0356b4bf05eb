#!/usr/bin/env bash
# Device call: build build-carry/new.tar.xz (CLI + the GPU tests named in TESTS), run those tests, then
# `bench abft-overhead` TF32 (REPS processes at SIZES), whose prepared rows time C's checksum column
# taken by the kernel and, in the same process, by the pass over A ("column by the pass"); then, as
# LIMIT allows, one traced run at 4096 (prepared_breakdown.py) and the BF16 / FP16 rows.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
K=$here/probes/kernel_trace
rm -f build-carry/old.tar.xz
# TESTS (names) builds and runs only those GPU tests; unset: every one, FIRST first.
GIGACHECK_COMMIT=${NEW_COMMIT:-?} FIRST="${TESTS:-${FIRST:-}}" DEADLINE=${BUILD_DEADLINE:-300} \
  OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
grep -v "not built" $OUT/release_log.txt
C=/tmp/release-new/build/app/cli/gigacheck
left() { echo $(( ${LIMIT:-540} - SECONDS )); }
for r in $(seq 1 ${REPS:-2}); do
  [ "$(left)" -gt 70 ] || break
  GIGACHECK_BENCH_TYPES=TF32 GIGACHECK_BENCH_SIZES=${SIZES:-4096,8192} timeout 90 $C bench abft-overhead > $OUT/tf32_$r.txt 2>&1
  echo "round $r exit $? at ${SECONDS}s"
  sed -n '/operands prepared at entry/,$p' $OUT/tf32_$r.txt | grep -E "^ *([0-9]+|N) |checksum column" | cut -c1-260
done
if [ "$(left)" -gt 60 ] && [ -n "${TRACE:-}" ]; then
  lib=$($K/kernel_trace.sh 2>/dev/null)
  GIGACHECK_BENCH_TYPES=TF32 GIGACHECK_BENCH_SIZES=4096 KERNEL_TRACE_OUT=$OUT/trace_4096.csv CUDA_INJECTION64_PATH=$lib \
    timeout 60 $C bench abft-overhead > /dev/null 2>&1
  python3 $K/prepared_breakdown.py $OUT/trace_4096.csv 2>&1 | tail -12
  xz -1 $OUT/trace_4096.csv
fi
if [ "$(left)" -gt 80 ] && [ -n "${SIXTEEN:-}" ]; then
  GIGACHECK_BENCH_TYPES=BF16,FP16 GIGACHECK_BENCH_SIZES=${SIXTEEN_SIZES:-4096,8192} timeout $(( $(left) - 15 )) $C bench abft-overhead \
    > $OUT/bench_16bit.txt 2>&1
  echo "bench 16-bit exit $? at ${SECONDS}s"
  grep -E "^[0-9]+ .*(MISSED|met)" $OUT/bench_16bit.txt | grep -E "prepared at entry, sums" | cut -c1-175
fi
