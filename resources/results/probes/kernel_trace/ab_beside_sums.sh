#!/bin/bash
# Issue 9, eighteenth session: A/B of the check's sums beside the other block's tuned GEMM, lean (few-register
# blocks, the default) against wide (GIGACHECK_BESIDE_SUMS=wide, a temporary switch that exists only at
# commit "online: temporary switch" of 2026-11-29), `bench online` timing alternated twice in one machine session.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
CLI=build/app/cli/gigacheck
for round in 1 2; do
  for v in lean wide; do
    echo "=== $v round $round $(date -u +%T)" >> $OUT/ab_beside.txt
    GIGACHECK_BESIDE_SUMS=$v GIGACHECK_BENCH_VARIANTS=timing timeout 200 $CLI bench online > $OUT/ab_${v}_$round.txt 2>&1
    grep -E "^(online|offline|tmr) |^N =|TMR /" $OUT/ab_${v}_$round.txt >> $OUT/ab_beside.txt
  done
done
