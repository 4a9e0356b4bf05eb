#!/bin/bash
# Build, GPU tests, compute-sanitizer and benchmarks on the device machine, in one call.
# Usage (from the repository root, Qt carried as in ../shared/device/README.md):
#   GIGACHECK_COMMIT=<sha> resources/results/device_run.sh build tests sanitizer kernels abft ooc paper
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
