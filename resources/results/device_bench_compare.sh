#!/usr/bin/env bash
# On the GPU machine: the benches' headline figures of two builds in one session, interleaved so
# that clocks and temperature hit both alike: OLD and NEW are gigacheck binaries (built beforehand).
# abft-overhead at 16384 (FP32, TF32), out-of-core 32768 under 4 GiB (auto), online at 16384,
# Strassen at 16384 (f32, winograd), transpose. Each bench run has its own timeout (STEP_S, default
# 45 s) and the whole stops before DEADLINE seconds (default 500). Everything goes to $OUT/compare.txt.
# ONLY="ooc online" runs just those benches (names as in the list below).
# Usage: OLD=path NEW=path OUT=dir resources/results/device_bench_compare.sh
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-compare}
mkdir -p "$OUT"
log="$OUT/compare.txt"
deadline=${DEADLINE:-500}
step_s=${STEP_S:-45}
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$log" 2>&1
benches=(
  "abft GIGACHECK_BENCH_SIZES=16384 GIGACHECK_BENCH_TYPES=FP32,TF32 -- abft-overhead"
  "ooc GIGACHECK_BENCH_SIZES=32768 GIGACHECK_BENCH_CAPS=4GiB GIGACHECK_BENCH_STRATEGIES=auto -- out-of-core"
  "online GIGACHECK_BENCH_SIZES=16384 GIGACHECK_BENCH_VARIANTS=latency -- online"
  "strassen GIGACHECK_BENCH_SIZES=16384 GIGACHECK_BENCH_TYPES=f32 GIGACHECK_BENCH_VARIANTS=winograd -- strassen"
  "transpose -- transpose --quick"
)
for line in "${benches[@]}"; do
  name=${line%% *}
  rest=${line#* }
  envs=${rest%%--*}
  args=${rest#*-- }
  if [ -n "${ONLY:-}" ] && ! grep -qw "$name" <<<"$ONLY"; then continue; fi
  for side in OLD NEW; do
    [ $(( deadline - SECONDS )) -gt 20 ] || { echo "### $name $side: not run (time)" >> "$log"; continue; }
    cli=${!side}
    echo "### $name $side: env $envs bench $args ($(date -u +%T))" >> "$log"
    env $envs timeout $step_s "$cli" bench $args >> "$log" 2>&1
    echo "### exit $?" >> "$log"
  done
done
