#!/usr/bin/env bash
# On the GPU machine (Qt carried in .carry-qt/: ../shared/device/README.md): the end-to-end operand
# checks on the device. Build the CLI and every GPU test (GUI off, sm_90), run the GPU tests, then
# the blocked campaigns with --target any (f32 / f64 / TF32) and their clean twins, and the
# operand-check cost: `bench abft-overhead` (its stage table times the operand sums alone beside the
# plain GEMM of the same process) and `gigacheck run` with and without the checks.
# $OUT gets at most 7 files (the device machine returns 8): operand_checks_log.txt, the four
# campaign files of device_campaigns.sh, bench_abft.txt and details.tar.xz (test outputs, build log,
# the bench's JSON).
# Usage: OUT=dir [BUILD=dir] [DEADLINE=s] resources/results/device_operand_checks.sh [build|tests|campaigns|cost]...
#        (default: all four, in that order; every step stops before DEADLINE, default 570 s)
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-operand-checks}
scratch=${SCRATCH:-/tmp/gigacheck-operand-checks-scratch}
mkdir -p "$OUT" "$scratch"
log="$OUT/operand_checks_log.txt"
build=${BUILD:-build-oc}
deadline=${DEADLINE:-570}
step() { echo "=== $* ($(date -u +%H:%M:%S), ${SECONDS}s)" | tee -a "$log"; }
left() { echo $(( deadline - SECONDS )); }
[ -f .carry-qt/device-env.sh ] && source .carry-qt/device-env.sh
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build tests campaigns cost)
cli=$build/app/cli/gigacheck
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

for what in "${steps[@]}"; do
case $what in
build)
  step "configure and build ($build)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> "$log" 2>&1
  git log -1 --format='commit %h' >> "$log" 2>&1 || echo "commit ${GIGACHECK_COMMIT:-unknown}" >> "$log"
  timeout 90 cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF > "$scratch/configure.txt" 2>&1 ||
    { tail -30 "$scratch/configure.txt" | tee -a "$log"; exit 1; }
  targets="gigacheck $(ls tests/gpu/tst_*.cpp | xargs -n1 basename | sed 's/\.cpp$//' | tr '\n' ' ')"
  timeout $(( $(left) - 20 )) cmake --build $build -j16 --target $targets > "$scratch/build.txt" 2>&1 ||
    { grep -B2 -A20 -E "error|FAILED" "$scratch/build.txt" | head -60 | tee -a "$log"; tail -3 "$scratch/build.txt" | tee -a "$log"; exit 1; }
  ;;
tests)
  step "GPU tests"
  for t in tst_cuda_operand_checks $(ls tests/gpu/tst_*.cpp | xargs -n1 basename | sed 's/\.cpp$//' | grep -v operand_checks); do
    [ "$(left)" -gt 15 ] || { echo "$t not run: out of time" | tee -a "$log"; continue; }
    budget=$(( $(left) - 10 < 240 ? $(left) - 10 : 240 ))
    timeout $budget $build/tests/$t > "$scratch/$t.txt" 2>&1; echo "$t exit $?" | tee -a "$log"
    grep -E "Totals|^FAIL|SKIP" "$scratch/$t.txt" | head -8 >> "$log"
  done
  ;;
campaigns)
  step "blocked campaigns, --target any and clean, on the device"
  budget=$(( $(left) - 60 ))
  [ $budget -gt 30 ] || { echo "campaigns not run: out of time" | tee -a "$log"; continue; }
  ONLY='^(blocked_(f32|f64|tf32)_any|clean_blocked_(f32|f64|tf32))$' SKIP_BUILD=1 CLI=$cli BUDGET_S=$budget OUT="$OUT" \
    timeout $(( budget + 50 )) "$here/device_campaigns.sh" run >> "$log" 2>&1
  cat "$OUT/campaigns_summary.txt" >> "$log" 2>/dev/null
  ;;
cost)
  step "cost: bench abft-overhead FP32 / TF32 / FP64 at 8192 and 16384"
  GIGACHECK_BENCH_TYPES=FP32,TF32,FP64 GIGACHECK_BENCH_SIZES=8192,16384 timeout $(( $(left) - 60 > 20 ? $(left) - 60 : 20 )) \
    $cli bench abft-overhead --json "$scratch/bench_abft.json" > "$OUT/bench_abft.txt" 2>&1
  echo "exit $?" >> "$log"
  sed -n '/ABFT overhead/,$p' "$OUT/bench_abft.txt" | head -60 >> "$log"
  step "cost: gigacheck run 8192^3 on the device with and without the operand checks"
  for type in f32 tf32; do
    for env in "" "GIGACHECK_NO_OPERAND_CHECKS=1" "" "GIGACHECK_NO_OPERAND_CHECKS=1"; do
      [ "$(left)" -gt 25 ] || break
      echo "-- ${env:-with checks} run --type $type" >> "$log"
      env $env timeout 25 $cli run --backend cuda --shape 8192x8192x8192 --type $type --reference none --errors 1 \
        > /tmp/oc_run.txt 2>&1; echo "   exit $?" >> "$log"
      grep -iE "time|operand|verdict" /tmp/oc_run.txt | head -12 >> "$log"
    done
  done
  ;;
esac
done
tar -C "$scratch" -cJf "$OUT/details.tar.xz" . 2>/dev/null
step done
