#!/bin/bash
# Build, GPU tests, compute-sanitizer and benchmarks on the device machine, in one call.
# Usage (from the repository root, Qt carried as in ../shared/device/README.md):
#   GIGACHECK_COMMIT=<sha> resources/results/device_run.sh build tests sanitizer kernels abft ooc paper
#   (online: the online ABFT family's GPU test, sanitizer, 8192^3 runs and `bench online`; after build)
#   resources/results/device_run.sh gallery   (the kernel gallery, issue 11: its own build, tests, benches)
# Writes at most 8 files under $OUT: log.txt and one table (+ JSON) per benchmark suite.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
mkdir -p "$OUT"
LOG="$OUT/log.txt"
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}  # GIGACHECK_CLI: a CLI built elsewhere (packaging/device-lab.sh)
export GIGACHECK_COMMIT=${GIGACHECK_COMMIT:-unknown}
stamp() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$LOG"; }

for phase in "$@"; do
  case $phase in
  build)
    stamp build
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv >> "$LOG" 2>&1
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 &&
      cmake --build build -j16 --target gigacheck tst_cuda_kernels tst_cuda_backend tst_cuda_warmup tst_cuda_tf32 >> "$OUT/build.txt" 2>&1
    rc=$?
    tail -5 "$OUT/build.txt" >> "$LOG"
    if [ $rc -ne 0 ]; then grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; fi
    rm -f "$OUT/build.txt"
    ;;
  tests)
    stamp ctest -L gpu
    ctest --test-dir build -L gpu --output-on-failure --timeout 400 >> "$LOG" 2>&1
    for t in tst_cuda_kernels tst_cuda_backend; do build/tests/$t -silent 2>&1 | grep -E "^(Totals|FAIL|SKIP)" | sed "s/^/$t: /" >> "$LOG"; done
    # The measurements these two print (qInfo): warm-up ratios and TF32 threshold headroom.
    for t in tst_cuda_warmup tst_cuda_tf32; do build/tests/$t 2>&1 | grep -E "QINFO|^(Totals|FAIL|SKIP)" | sed "s/^/$t: /" >> "$LOG"; done
    tail -40 "$LOG"
    ;;
  coldstart)
    stamp first run without the warm-up, for comparison: GIGACHECK_NO_WARMUP=1
    GIGACHECK_NO_WARMUP=1 build/tests/tst_cuda_warmup 2>&1 | grep -E "QINFO|^(Totals|FAIL)" | sed "s/^/cold: /" >> "$LOG"
    tail -12 "$LOG"
    ;;
  firstrun)
    stamp the GUI case: 4096^3 FP32 under 64 MiB, s1 then s2, each the first run of a fresh CLI process
    for w in cold warm; do
      for s in s1 s2; do
        env $([ $w = cold ] && echo GIGACHECK_NO_WARMUP=1) $CLI run --shape 4096x4096x4096 --backend cuda \
          --strategy $s --mem 64MiB --reference none 2>&1 | grep -E "Average program|queues busy" | tr -s ' ' |
          paste -sd ' ' | sed "s/^/$w $s: /" >> "$LOG"
      done
    done
    tail -4 "$LOG"
    ;;
  sanitizer)
    stamp compute-sanitizer memcheck, one small run per strategy
    for s in none s1 s2 s3 s4; do
      mem=200KB; [ $s = none ] && mem=4MB
      compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x200x250 --backend cuda \
        --strategy $s --mem $mem --errors 1 --gemm optimized --quiet >> "$LOG" 2>&1
      echo "strategy $s: sanitizer exit $?" | tee -a "$LOG"
    done
    ;;
  devices)
    stamp gigacheck devices --measure
    $CLI devices --measure >> "$LOG" 2>&1
    echo "devices exit $?" | tee -a "$LOG"
    ;;
  labbuild)
    stamp build the whole lab, GUI included, and run every test
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 && cmake --build build -j16 >> "$OUT/build.txt" 2>&1
    rc=$?
    tail -3 "$OUT/build.txt" >> "$LOG"
    if [ $rc -ne 0 ]; then grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; fi
    rm -f "$OUT/build.txt"
    ctest --test-dir build --output-on-failure --timeout 400 -j6 >> "$LOG" 2>&1
    echo "ctest exit $?" | tee -a "$LOG"; grep -E "tests passed|Failed|Skipped|\*\*\*" "$LOG" | tail -12
    ;;
  campaigns)
    # Issue 15: 1000 single bit flips per precision on the GPU, every strategy in turn, any bit.
    for t in tf32 f32 f64; do
      stamp campaign $t: 1000 single bit flips
      /usr/bin/time -f "campaign $t wall %e s" $CLI campaign --runs 1000 --type $t --backend cuda --strategy all \
        --seed 1 --json "$OUT/campaign_$t.json" > "$OUT/campaign_$t.txt" 2>> "$LOG"
      echo "campaign $t exit $?" | tee -a "$LOG"; head -30 "$OUT/campaign_$t.txt"
    done
    ;;
  clean)
    # Issue 15 item 3: clean products, no injection: every alarm is a false alarm.
    for spec in "tf32 4000 256x256x256 uniform" "tf32 2000 257x129x31 wide" "f32 2000 1x300x77 normal" \
                "f64 1000 300x1x250 wide" "tf32 1000 96x1000x64 normal"; do
      set -- $spec
      stamp clean campaign $1 $2 runs $3 $4
      /usr/bin/time -f "clean $1 $3 wall %e s" $CLI campaign --runs $2 --fault none --type $1 --backend cuda \
        --strategy all --shape $3 --dist $4 --seed 7 > /tmp/clean.txt 2>> "$LOG"
      echo "clean $1 $3 exit $?" | tee -a "$LOG"; head -16 /tmp/clean.txt | tee -a "$OUT/campaign_clean.txt"
    done
    ;;
  tf32)
    # Issue 15, TF32 (branch tf32): the operands are rounded to TF32 in the checksum passes and the
    # checksums taken over them. Needs the build phase first (or any CUDA build in build/).
    stamp tf32: gpu tests
    cmake --build build -j16 --target gigacheck tst_cuda_tf32 tst_cuda_single_fault tst_cuda_backend tst_cuda_kernels \
      > /tmp/tf32_build.txt 2>&1 || { grep -E "error|Error" /tmp/tf32_build.txt | head -40; exit 1; }
    # tst_cuda_tf32 prints which rounding cuBLAS applies to unrounded inputs ("hypothesis: ...").
    for t in tst_cuda_tf32 tst_cuda_single_fault tst_cuda_backend tst_cuda_kernels; do
      build/tests/$t 2>&1 | grep -E "hypothesis|TF32 inputs|^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/$t: /" >> "$OUT/tf32_tests.txt"
    done
    cat "$OUT/tf32_tests.txt" | tee -a "$LOG" | grep -E "hypothesis|Totals|FAIL"
    stamp tf32: 1000 single bit flips, any bit, every strategy
    /usr/bin/time -f "campaign tf32 wall %e s" $CLI campaign --runs 1000 --type tf32 --backend cuda --strategy all \
      --fault bitflip:any --seed 1 --json "$OUT/campaign_tf32.json" --csv "$OUT/campaign_tf32.csv" \
      > "$OUT/campaign_tf32.txt" 2>> "$LOG"
    echo "campaign tf32 exit $?" | tee -a "$LOG"; head -30 "$OUT/campaign_tf32.txt"
    stamp tf32: 10 000 clean products
    for spec in "4000 256x256x256 uniform" "2000 257x129x31 wide" "2000 1x300x77 normal" "1000 300x1x250 wide" \
                "1000 96x1000x64 normal"; do
      set -- $spec
      /usr/bin/time -f "clean tf32 $2 wall %e s" $CLI campaign --runs $1 --fault none --type tf32 --backend cuda \
        --strategy all --shape $2 --dist $3 --seed 7 > /tmp/clean.txt 2>> "$LOG"
      echo "clean tf32 $2 $3 exit $?" | tee -a "$LOG"; head -16 /tmp/clean.txt >> "$OUT/campaign_clean_tf32.txt"
    done
    grep -E "run\(s\)|false alarm|SDC" "$OUT/campaign_clean_tf32.txt"
    stamp tf32: bench abft-overhead
    $CLI bench abft-overhead --json "$OUT/bench_abft_tf32.json" > "$OUT/bench_abft_tf32.txt" 2>> "$LOG"
    echo "bench abft-overhead exit $?" | tee -a "$LOG"; tail -40 "$OUT/bench_abft_tf32.txt"
    ;;
  strassen)
    # The strassen family (issue 10): its GPU test, a few CLI runs, bench strassen in two halves
    # (each under a device command's 10 minutes). Needs the build phase's targets plus these two.
    stamp strassen
    cmake --build build -j16 --target gigacheck tst_cuda_strassen >> "$LOG" 2>&1 | tail -2
    build/tests/tst_cuda_strassen 2>&1 | grep -E "QINFO|^(Totals|FAIL|SKIP)" | sed "s/^/tst_cuda_strassen: /" >> "$LOG"
    for v in msmes winograd workspace accumulate; do
      $CLI strassen --shape 4096x4096x4096 --levels 2 --variant $v --backend cuda --type f32 2>&1 |
        grep -E "^(time|memory|recovery|error of C|verdict)" | sed "s/^/$v f32 L2: /" >> "$LOG"
    done
    for v in msmes winograd; do
      $CLI strassen --shape 8192x8192x8192 --levels 2 --variant $v --backend cuda --leaf kernel 2>&1 |
        grep -E "^(time|verdict)" | sed "s/^/$v kernel L2: /" >> "$LOG"
    done
    $CLI strassen --shape 3000x2999x3001 --levels 3 --variant accumulate --type f64 --backend cuda \
      --inject-at product:7 --inject-at a:1 --json "$OUT/strassen_fault.json" >> "$LOG" 2>&1; echo "exit $?" >> "$LOG"
    $CLI strassen --shape 4096x4096x4096 --levels 2 --variant msmes --backend cuda --exact-restore 2>&1 |
      grep -E "^(time|recovery|verdict)" | sed "s/^/exact-restore: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI strassen --shape 300x200x250 --levels 2 \
      --variant workspace --backend cuda --inject-at c:2 --quiet >> "$LOG" 2>&1; echo "sanitizer exit $?" >> "$LOG"
    GIGACHECK_BENCH_SIZES=1024,2048,4096,8192,16384 $CLI bench strassen --json "$OUT/bench_strassen.json" \
      > "$OUT/bench_strassen.txt" 2>&1
    GIGACHECK_BENCH_SIZES=32768 $CLI bench strassen --json "$OUT/bench_strassen_32k.json" > "$OUT/bench_strassen_32k.txt" 2>&1
    tail -60 "$LOG"
    ;;
  online)
    # Issue 9 (online ABFT, seed 002): its GPU tests, a few CLI runs, then `bench online`.
    stamp online: build tst_cuda_online
    cmake --build build -j16 --target gigacheck tst_cuda_online > "$OUT/build_online.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_online.txt" | head -40; exit 1; }
    rm -f "$OUT/build_online.txt"
    build/tests/tst_cuda_online 2>&1 | grep -E "^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/tst_cuda_online: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 64 --inject-at 5,7@1 --quiet >> "$LOG" 2>&1
    echo "online sanitizer exit $?" | tee -a "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme tmr --inject-at 5,7@1 --quiet >> "$LOG" 2>&1
    echo "tmr sanitizer exit $?" | tee -a "$LOG"
    for args in "--scheme online --panel 1024 --check-every 1 --inject-at 100,200@3" \
                "--scheme online --panel 1024 --check-every 4 --inject-at 100,200@3" \
                "--scheme offline --panel 1024 --inject-at 100,200@1 --inject-at 3000,4000@5" \
                "--scheme tmr --inject-at 100,200@1" "--scheme tmr --inject-at 100,200@0 --inject-at 100,200@2"; do
      stamp run 8192^3 $args
      $CLI run --shape 8192x8192x8192 --backend cuda --reference sample $args > /tmp/online_run.txt 2>&1
      echo "exit $?" >> /tmp/online_run.txt; grep -vE "^    C\(" /tmp/online_run.txt | tail -12 >> "$LOG"
    done
    stamp bench online
    $CLI bench online --json "$OUT/bench_online.json" > "$OUT/bench_online.txt" 2>> "$LOG"
    echo "bench online exit $?" | tee -a "$LOG"
    tail -60 "$OUT/bench_online.txt"
    ;;
  gallery)
    # Issue 11, the kernel gallery: build, its GPU test, compute-sanitizer on small runs, the four
    # targets one by one, then both bench suites (tables + JSON under $OUT).
    stamp gallery build
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 &&
      cmake --build build -j16 --target gigacheck tst_cuda_gallery tst_transpose tst_reduced_matmul tst_cli_gallery >> "$OUT/build.txt" 2>&1
    rc=$?
    tail -3 "$OUT/build.txt" >> "$LOG"
    if [ $rc -ne 0 ]; then grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; fi
    rm -f "$OUT/build.txt"
    stamp gallery tests
    ctest --test-dir build -R "tst_cuda_gallery|tst_transpose|tst_reduced_matmul|tst_cli_gallery" --output-on-failure --timeout 400 >> "$LOG" 2>&1
    echo "gallery ctest exit $?" | tee -a "$LOG"
    stamp gallery compute-sanitizer
    for v in naive coalesced inplace padded library; do
      compute-sanitizer --tool memcheck --error-exitcode 9 $CLI transpose --shape 257x257 --variant $v --backend cuda --reps 1 > /dev/null 2>> "$LOG"
      echo "sanitizer transpose $v 257x257: exit $?" | tee -a "$LOG"
    done
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI transpose --shape 300x125 --variant inplace --backend cuda --reps 1 > /dev/null 2>> "$LOG"
    echo "sanitizer transpose inplace 300x125: exit $?" | tee -a "$LOG"
    for v in naive4p naivep tiled8 tiled16 tiled32 reduce-blas; do
      compute-sanitizer --tool memcheck --error-exitcode 9 $CLI reduced --n 130 --variant $v --backend cuda --reps 1 > /dev/null 2>> "$LOG"
      echo "sanitizer reduced $v 130: exit $?" | tee -a "$LOG"
    done
    stamp gallery targets
    for args in "--shape 16384x16384 --variant padded" "--shape 16384x16384 --variant library" \
                "--shape 16384x16384 --variant inplace" "--shape 16384x8192 --variant inplace" \
                "--shape 16384x16384 --variant coalesced"; do
      $CLI transpose $args --backend cuda --reps 10 2>&1 | grep -E "^transpose|time|bandwidth|of a device|of the datasheet|verdict" >> "$LOG"
    done
    $CLI reduced --n 16384 --variant reduce-blas --backend cuda --reps 5 2>&1 | grep -E "^reduced|time|rate|library|verdict" >> "$LOG"
    $CLI reduced --n 16384 --variant tiled32 --backend cuda --reps 3 2>&1 | grep -E "^reduced|time|rate|library|verdict" >> "$LOG"
    tail -36 "$LOG"
    for suite in transpose reduced; do
      stamp bench $suite
      $CLI bench $suite --json "$OUT/bench_$suite.json" > "$OUT/bench_$suite.txt" 2>> "$LOG"
      echo "bench $suite exit $?" | tee -a "$LOG"
      tail -45 "$OUT/bench_$suite.txt"
    done
    ;;
  kernels | abft | ooc | paper)
    suite=$phase; [ $phase = abft ] && suite=abft-overhead; [ $phase = ooc ] && suite=out-of-core
    stamp bench $suite
    json=(); [ $phase != paper ] && json=(--json "$OUT/bench_$phase.json")
    $CLI bench $suite "${json[@]}" > "$OUT/bench_$phase.txt" 2>> "$LOG"
    echo "bench $suite exit $?" | tee -a "$LOG"
    tail -40 "$OUT/bench_$phase.txt"
    ;;
  esac
done
stamp done
