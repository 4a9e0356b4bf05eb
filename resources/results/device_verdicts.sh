#!/usr/bin/env bash
# On the GPU machine (Qt carried, ../shared/device/README.md): build the CLI and the GPU tests
# (GUI off), then the verdict checks: the strassen / online GPU tests, 10 000 clean Strassen runs,
# the issue cases of a C fault at L >= 2, TMR with two equal faults, an overflowing operand fault.
# Usage: OUT=dir resources/results/device_verdicts.sh [build|check|sweep]
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-verdicts}
mkdir -p "$OUT"
log="$OUT/verdicts_log.txt"
build=build-verdicts
step() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$log"; }
what=${1:-all}

if [ "$what" != check ] && [ "$what" != sweep ]; then
  step build
  nvidia-smi --query-gpu=name,driver_version --format=csv >> "$log" 2>&1
  git log -1 --format='commit %h' >> "$log" 2>&1 || true
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF > /tmp/cfg.txt 2>&1 || { tail -30 /tmp/cfg.txt | tee -a "$log"; exit 1; }
  cmake --build $build -j16 --target gigacheck tst_cuda_strassen tst_cuda_online tst_cuda_strassen_verdict \
    tst_cuda_single_fault > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt | tee -a "$log"; exit 1; }
  [ "$what" = build ] && exit 0
fi
cli=$build/app/cli/gigacheck

if [ "$what" = sweep ]; then
step "10 000 clean Strassen runs on the GPU (odd shapes to 400, one in 100 at 2048-4096, L0-4, every variant, f32 / f64 / tf32)"
QTEST_FUNCTION_TIMEOUT=590000 GIGACHECK_CLEAN_SECONDS=${CLEAN_SECONDS:-420} GIGACHECK_CLEAN_RUNS=10000 GIGACHECK_CLEAN_MAX_DIM=400 GIGACHECK_CLEAN_LARGE_EVERY=100 \
  timeout 560 $build/tests/tst_cuda_strassen_verdict cleanRunsRaiseNoAlarm > "$OUT/strassen_clean_10000.txt" 2>&1
echo "clean sweep exit $?" | tee -a "$log"; grep -E "clean runs|false alarm|Totals" "$OUT/strassen_clean_10000.txt" | tail -20 | tee -a "$log"
exit 0
fi

step "GPU tests: strassen, online, strassen verdict, single fault"
for t in tst_cuda_strassen_verdict tst_cuda_strassen tst_cuda_online tst_cuda_single_fault; do
  timeout 400 $build/tests/$t > /tmp/$t.txt 2>&1; echo "$t exit $?" | tee -a "$log"
  grep -E "Totals|FAIL|QINFO" /tmp/$t.txt | tail -20 >> "$log"
done


step "CLI cases on CUDA"
for args in "strassen --shape 2048x2048x2048 --levels 2 --inject-at c:0" \
            "strassen --shape 2048x2048x2048 --levels 2 --variant accumulate --check-leaves --inject-at c:3" \
            "strassen --shape 4096x4096x4096 --levels 2 --inject-at c:0 --reference full" \
            "strassen --shape 2048x2048x2048 --levels 3 --type tf32 --inject-at c:0 --reference full" \
            "strassen --shape 1024x1024x1024 --type f32 --inject-at product:3:1e30" \
            "run --shape 64x64x64 --no-abft --reference none --inject-at 3,3" \
            "run --shape 1024x1024x1024 --scheme tmr --inject-at 3,3:5@0 --inject-at 3,3:5@1 --reference none" \
            "run --shape 1024x1024x1024 --scheme tmr --inject-at 3,3:5@0 --inject-at 3,3:5@2 --reference full" \
            "run --shape 257x129x31 --type f64 --scheme online --panel 8 --target a --inject-at 1,128@0 --fault bitflip:62 --reference sample" \
            "run --shape 257x129x31 --type f64 --scheme online --panel 8 --target a --inject-at 1,128@0 --fault bitflip:62 --reference full"; do
  echo "--- gigacheck $args --backend cuda" >> "$log"
  $cli $args --backend cuda > /tmp/case.txt 2>&1; code=$?
  grep -E "verdict|Verdict|check |vote|error of C|C checks|reference|gigacheck:" /tmp/case.txt >> "$log"
  echo "exit $code" | tee -a "$log"
done

step "online / TMR adversarial counts on CUDA: f64 bit 62 in A or B after step 0, and TMR two equal faults"
bad=0; total=0
for t in a b; do for r in 1 17 100; do for step in 0 3; do
  total=$((total+1))
  $cli run --shape 257x129x31 --type f64 --backend cuda --scheme online --panel 8 --target $t \
    --inject-at $r,$((r % 31)):1@$step --fault bitflip:62 --reference full --quiet > /tmp/o.txt 2>&1 || bad=$((bad+1))
done; done; done
echo "online f64 bit-62 operand faults: $total runs, $bad not verified correct (reference full)" | tee -a "$log"
bad=0; total=0
for cell in 0,0 5,7 100,200 1000,3; do for pair in "0 1" "0 2" "1 2"; do
  set -- $pair; total=$((total+1))
  $cli run --shape 1024x1024x1024 --backend cuda --scheme tmr --inject-at $cell:7@$1 --inject-at $cell:7@$2 \
    --reference full --quiet > /tmp/t.txt 2>&1 || bad=$((bad+1))
done; done
echo "TMR two equal faults: $total runs, $bad not verified correct (reference full)" | tee -a "$log"
step done
