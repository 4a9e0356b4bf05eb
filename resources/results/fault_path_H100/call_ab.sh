#!/usr/bin/env bash
# Device call: NEW (build-carry/new.tar.xz) and OLD (old.tar.xz) built side by side, NEW's GPU tests
# of the correction, then `bench abft-overhead` TF32 at 4096 and BF16 / FP16 at 8192 with OLD's and
# NEW's CLI alternated (REPS rounds): what one corrected fault costs before and after.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
GIGACHECK_COMMIT=${NEW_COMMIT:-?} OLD_COMMIT=${OLD_COMMIT:-?} TESTS="${TESTS:-}" FIRST="${TESTS:-}" DEADLINE=${BUILD_DEADLINE:-300} \
  OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
grep -v "not built" $OUT/release_log.txt
for r in $(seq 1 ${REPS:-2}); do
  for side in old new; do
    C=/tmp/release-$side/build/app/cli/gigacheck
    GIGACHECK_BENCH_TYPES=TF32 GIGACHECK_BENCH_SIZES=4096 timeout 60 $C bench abft-overhead > $OUT/tf32_4096_${side}_$r.txt 2>&1
    GIGACHECK_BENCH_TYPES=BF16,FP16 GIGACHECK_BENCH_SIZES=8192 timeout 90 $C bench abft-overhead > $OUT/16bit_8192_${side}_$r.txt 2>&1
    echo "round $r $side done at ${SECONDS}s"
    grep -E "^4096 +[01] " $OUT/tf32_4096_${side}_$r.txt | tail -2 | cut -c1-130
    grep -E "prepared at entry, sums in epilogue" $OUT/16bit_8192_${side}_$r.txt | cut -c1-120
  done
done
