#!/bin/bash
# Issue 9: the sums' accumulators zeroed by one few-register kernel (zeroTwo) against the driver's two
# memsets (GIGACHECK_ZERO_MEMSETS=1, a temporary switch that exists only at 6a30930), in every check and
# every product's passes; `bench online` timing at 8192, alternated twice in one machine session.
# Run after `device_run.sh build`; writes $OUT/ab_zero_two.txt.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
for rep in 1 2; do
  for v in zero_kernel memsets; do
    env $([ $v = memsets ] && echo GIGACHECK_ZERO_MEMSETS=1) GIGACHECK_BENCH_SIZES=8192 GIGACHECK_BENCH_VARIANTS=timing \
      timeout 120 $CLI bench online > /tmp/ab.txt 2>&1
    echo "== $v run $rep (exit $?)" >> "$OUT/ab_zero_two.txt"
    grep -E "^online   (1|2|4)    (0|1)       2 |^offline  end  (0|1)       2       [0-9] |^TMR /" /tmp/ab.txt >> "$OUT/ab_zero_two.txt"
  done
done
cat "$OUT/ab_zero_two.txt"
