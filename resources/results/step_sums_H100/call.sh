#!/usr/bin/env bash
# Device call (twenty-ninth and thirtieth sessions): build build-carry/new.tar.xz (CLI + the GPU tests in TESTS), run
# them (GIGACHECK_STEP_SUMS_SIZES: the sizes tst_cuda_step_sums times against cuBLAS TF32), then, where
# ONLINE="N ..." is set, `bench online` TF32 at those N (VARIANTS, default tf32). Everything under $OUT.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
GIGACHECK_COMMIT=${NEW_COMMIT:-?} FIRST="${TESTS:-}" DEADLINE=${BUILD_DEADLINE:-400} \
  OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
grep -v "not built" $OUT/release_log.txt
cp /tmp/release-tests/*.txt $OUT/ 2>/dev/null
for t in ${TESTS:-}; do
  grep -E "^(PASS|FAIL|SKIP|QINFO|QWARN|Totals)|Loc:" $OUT/$t.txt | cut -c1-260 | head -60
done
NEW=/tmp/release-new/build/app/cli/gigacheck
for n in $([ -z "${ONLINE_BOTH:-}" ] && echo ${ONLINE:-}); do
  [ $(( ${LIMIT:-560} - SECONDS )) -gt 60 ] || break
  GIGACHECK_BENCH_VARIANTS=${VARIANTS:-tf32} GIGACHECK_BENCH_SIZES=$n timeout $(( ${LIMIT:-560} - SECONDS - 10 )) \
    $NEW bench online > $OUT/bench_online_$n.txt 2>&1
  echo "== bench online $n exit $? at ${SECONDS}s"
  grep -iE "tf32|step" $OUT/bench_online_$n.txt | cut -c1-220 | head -30
done
# ONLINE_BOTH=1: each bench online again with a product per step (GIGACHECK_NO_STEP_SUMS=1), alternated.
if [ -n "${ONLINE_BOTH:-}" ]; then
  for r in 1 2; do
    for n in ${ONLINE:-}; do
      for off in 0 1; do
        [ $(( ${LIMIT:-560} - SECONDS )) -gt 50 ] || break 3
        GIGACHECK_NO_STEP_SUMS=$off GIGACHECK_BENCH_VARIANTS=${VARIANTS:-tf32} GIGACHECK_BENCH_SIZES=$n \
          timeout $(( ${LIMIT:-560} - SECONDS - 10 )) $NEW bench online > $OUT/bench_online_${n}_off${off}_r$r.txt 2>&1
        echo "== bench online $n no-step-sums=$off round $r exit $? at ${SECONDS}s"
        grep -iE "cutlass-tf32|cublas-tf32" $OUT/bench_online_${n}_off${off}_r$r.txt | cut -c1-220 | head -8
      done
    done
  done
fi
