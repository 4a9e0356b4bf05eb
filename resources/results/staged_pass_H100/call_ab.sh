#!/usr/bin/env bash
# Device call: NEW (build-carry/new.tar.xz) and OLD (old.tar.xz) built side by side, NEW's GPU tests of
# the prepared products, then `bench abft-overhead` TF32 at 4096 and 8192 with OLD's and NEW's CLI
# alternated (REPS rounds), then one traced run of each at 4096 read by prepared_breakdown.py: where
# the prepared product's pass ends against the GEMM with the pass staged through shared memory or not.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
K=$here/probes/kernel_trace
GIGACHECK_COMMIT=${NEW_COMMIT:-?} OLD_COMMIT=${OLD_COMMIT:-?} TESTS="${TESTS:-}" FIRST="${TESTS:-}" DEADLINE=${BUILD_DEADLINE:-300} \
  OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
grep -v "not built" $OUT/release_log.txt
for r in $(seq 1 ${REPS:-2}); do
  for side in old new; do
    C=/tmp/release-$side/build/app/cli/gigacheck
    GIGACHECK_BENCH_TYPES=TF32 GIGACHECK_BENCH_SIZES=${SIZES:-4096,8192} timeout 90 $C bench abft-overhead > $OUT/tf32_${side}_$r.txt 2>&1
    echo "round $r $side done at ${SECONDS}s"
    grep -E "^(4096|8192) +[01] .*(MISSED|met)" $OUT/tf32_${side}_$r.txt | tail -4 | cut -c1-150
    grep -E "prepared: A and B\^T read" $OUT/tf32_${side}_$r.txt
  done
done
lib=$($K/kernel_trace.sh 2>/dev/null)
for side in old new; do
  C=/tmp/release-$side/build/app/cli/gigacheck
  GIGACHECK_BENCH_TYPES=TF32 GIGACHECK_BENCH_SIZES=4096 KERNEL_TRACE_OUT=/tmp/tr_$side.csv CUDA_INJECTION64_PATH=$lib \
    timeout 60 $C bench abft-overhead > /dev/null 2>&1
  echo "traced $side:"; python3 $K/prepared_breakdown.py /tmp/tr_$side.csv 2>&1 | tail -9
done
# Then, as time allows (LIMIT s for the whole call), NEW's bench of every tensor-core precision.
C=/tmp/release-new/build/app/cli/gigacheck
left() { echo $(( ${LIMIT:-540} - SECONDS )); }
if [ "$(left)" -gt 60 ]; then
  GIGACHECK_BENCH_TYPES=TF32,BF16,FP16 GIGACHECK_BENCH_SIZES=4096,8192 timeout $(( $(left) - 20 )) $C bench abft-overhead \
    > $OUT/bench_new_4096_8192.txt 2>&1
  echo "bench 4096,8192 exit $? at ${SECONDS}s"
  grep -E "^(4096|8192) .*(MISSED|met)" $OUT/bench_new_4096_8192.txt | grep -E "prepared at entry, sums|^[0-9]+ +[01] " | cut -c1-175
fi
if [ "$(left)" -gt 80 ]; then
  GIGACHECK_BENCH_TYPES=TF32,BF16,FP16 GIGACHECK_BENCH_SIZES=16384 timeout $(( $(left) - 10 )) $C bench abft-overhead \
    > $OUT/bench_new_16384.txt 2>&1
  echo "bench 16384 exit $? at ${SECONDS}s"
  grep -E "^16384 .*(MISSED|met)" $OUT/bench_new_16384.txt | grep -E "prepared at entry, sums|^[0-9]+ +[01] " | cut -c1-175
fi
