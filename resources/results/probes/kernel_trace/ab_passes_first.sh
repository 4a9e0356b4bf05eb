#!/bin/bash
# Issue 9: the online products' checksum passes launched after their GEMM (the default at 77dceee)
# against before it (GIGACHECK_PASSES_FIRST=1, a temporary switch that exists only at 77dceee and 8fd124d), `bench online` timing
# alternated twice in one machine session. Run after `device_run.sh build`; writes $OUT/ab_passes_first.txt.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
for rep in 1 2; do
  for v in gemm_first passes_first; do
    env $([ $v = passes_first ] && echo GIGACHECK_PASSES_FIRST=1) GIGACHECK_BENCH_VARIANTS=timing timeout 150 $CLI bench online > /tmp/ab.txt 2>&1
    echo "== $v run $rep (exit $?)" >> "$OUT/ab_passes_first.txt"
    grep -E "^N =|^online   (1|4)    1       2 |^offline  end  1       2       [0-9] |^TMR /" /tmp/ab.txt >> "$OUT/ab_passes_first.txt"
  done
done
