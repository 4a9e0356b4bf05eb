#!/bin/bash
# Build, GPU tests, compute-sanitizer and benchmarks on the device machine, in one call.
# Usage (from the repository root, Qt carried as in ../shared/device/README.md):
#   GIGACHECK_COMMIT=<sha> resources/results/device_run.sh build tests sanitizer kernels abft ooc paper
#   (online: the online ABFT family's GPU test, sanitizer, 8192^3 runs; online-bench: `bench online`; after build)
#   (trace: kernel traces of online runs, resources/results/probes/kernel_trace; after build)
#   (online-cuda: K >= 2 and --target a|b on the GPU, issue 9 items 2-3: test, sanitizer, 8192^3 runs; after build)
#   resources/results/device_run.sh gallery   (the kernel gallery, issue 11: its own build, tests, benches)
#   resources/results/device_run.sh build transpose-tune   (the tuned transpose kernels: gallery test, sanitizer, targets)
#   resources/results/device_run.sh build mgpu-strassen   (issue 14: Strassen over every visible GPU)
#   (GIGACHECK_JOBS: build jobs, 16 by default; 64 on the four-GPU machines)
#   resources/results/device_run.sh mgpu-gemm (blocked GEMM over all GPUs, issue 14.3: its build, test, record, bench)
#   resources/results/device_run.sh build planner   (issue 13: rate tables, bench link, predicted vs measured, --strategy auto)
#   resources/results/device_run.sh build staging   (issue 13: block loads packed on the host against direct 2D copies)
#   resources/results/device_run.sh build calibration   (issue 13: predictions calibrated on the run's own host matrices)
#   resources/results/device_run.sh build taper   (issue 13: the planner's tapered ends against its equal blocks)
#   resources/results/device_run.sh build package   (the CUDA module, issue 12 item 8; labbuild package: with the .deb)
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
      cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_kernels tst_cuda_backend tst_cuda_warmup tst_cuda_tf32 >> "$OUT/build.txt" 2>&1
    rc=$?
    tail -5 "$OUT/build.txt" >> "$LOG"
    if [ $rc -ne 0 ]; then grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; fi
    rm -f "$OUT/build.txt"
    ;;
  tests)
    # Every GPU test needs its executable (`build` makes only a few): build the rest first.
    stamp build every target
    timeout 400 cmake --build build -j${GIGACHECK_JOBS:-16} > "$OUT/build_all.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_all.txt" | head -40; exit 1; }
    rm -f "$OUT/build_all.txt"
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
      -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 && cmake --build build -j${GIGACHECK_JOBS:-16} >> "$OUT/build.txt" 2>&1
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
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_tf32 tst_cuda_single_fault tst_cuda_backend tst_cuda_kernels \
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
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_strassen >> "$LOG" 2>&1 | tail -2
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
  mgpu-strassen)
    # Issue 14 items 1, 2, 4: the Strassen decompositions on several GPUs. The GPU test (every visible
    # GPU count >= 2, and G = 2 on one GPU), the single-GPU strassen test again (its op table
    # changed), compute-sanitizer over two devices, CLI runs (one record for the GUI's timeline),
    # then bench multi-gpu-strassen (table + JSON, about 3 minutes on two H200s). After `build`.
    stamp mgpu-strassen
    nvidia-smi topo -m >> "$LOG" 2>&1
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_multi_gpu_strassen tst_cuda_strassen > "$OUT/build_mgs.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_mgs.txt" | head -40; exit 1; }
    rm -f "$OUT/build_mgs.txt"
    for t in tst_cuda_multi_gpu_strassen tst_cuda_strassen; do
      build/tests/$t 2>&1 | grep -E "QINFO|^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/$t: /" >> "$LOG"
    done
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI strassen --shape 300x200x250 --backend cuda \
      --devices 2 --decomposition winograd --quiet >> "$LOG" 2>&1; echo "sanitizer --devices 2 exit $?" >> "$LOG"
    $CLI strassen --shape 14336x14336x14336 --type f64 --backend cuda --devices 2 --decomposition winograd \
      --json "$OUT/strassen_2gpu_winograd.json" 2>&1 | grep -E "^(device|devices|time|error of C|verdict)" |
      sed "s/^/winograd G=2: /" >> "$LOG"
    # A span record over every visible GPU (open it in the lab: one lane per device and copy engine).
    gpus=$(nvidia-smi -L | wc -l)
    [ "$gpus" -gt 2 ] && $CLI strassen --shape 14336x14336x14336 --type f64 --backend cuda --devices $gpus \
      --decomposition winograd --json "$OUT/strassen_${gpus}gpu_winograd.json" 2>&1 | grep -E "^(time|verdict)" |
      sed "s/^/winograd G=$gpus: /" >> "$LOG"
    for args in "--devices 2 --decomposition 2d" "--devices 3 --decomposition winograd" "--devices 1 --decomposition winograd"; do
      $CLI strassen --shape 14336x14336x14336 --type f64 --backend cuda $args 2>&1 |
        grep -E "^(devices|time|verdict)" | sed "s/^/$args: /" >> "$LOG"
    done
    stamp bench multi-gpu-strassen
    # 7168 by default (the budget skips the rest on 4 GPUs); GIGACHECK_BENCH_SIZES=14336 for the
    # seed's size, with GIGACHECK_BENCH_TYPES / _VARIANTS to fit one call (about 200 s for all 12 rows).
    $CLI bench multi-gpu-strassen --json "$OUT/bench_mgpu_strassen.json" > "$OUT/bench_mgpu_strassen.txt" 2>> "$LOG"
    echo "bench multi-gpu-strassen exit $?" | tee -a "$LOG"
    tail -40 "$LOG"
    tail -50 "$OUT/bench_mgpu_strassen.txt"
    ;;
  online)
    # Issue 9 (online ABFT, seed 002): its GPU tests, a few CLI runs, then `bench online`.
    stamp online: build tst_cuda_online
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_online > "$OUT/build_online.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_online.txt" | head -40; exit 1; }
    rm -f "$OUT/build_online.txt"
    build/tests/tst_cuda_online 2>&1 | grep -E "^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/tst_cuda_online: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 64 --inject-at 5,7@1 --quiet >> "$LOG" 2>&1
    echo "online sanitizer exit $?" | tee -a "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme tmr --inject-at 5,7@1 --quiet >> "$LOG" 2>&1
    echo "tmr sanitizer exit $?" | tee -a "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 64 --column-blocks 2 --inject-at 5,7@1 --inject-at 9,150@1 --quiet >> "$LOG" 2>&1
    echo "online column blocks sanitizer exit $?" | tee -a "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 32 --check-every 3 --merge-steps on --column-blocks 2 --inject-at 5,7@4 --quiet >> "$LOG" 2>&1
    echo "online merged steps sanitizer exit $?" | tee -a "$LOG"
    for args in "--scheme online --panel 1024 --check-every 1 --inject-at 100,200@3" \
                "--scheme online --panel 1024 --check-every 1 --column-blocks 1 --inject-at 100,200@3" \
                "--scheme online --panel 1024 --check-every 4 --inject-at 100,200@3" \
                "--scheme online --panel 1024 --check-every 4 --merge-steps off --inject-at 100,200@3" \
                "--scheme online --panel 1024 --check-every 4 --inject-at 100,200@1" \
                "--scheme offline --panel 1024 --inject-at 100,200@1 --inject-at 3000,4000@5" \
                "--scheme tmr --inject-at 100,200@1" "--scheme tmr --inject-at 100,200@0 --inject-at 100,200@2"; do
      stamp run 8192^3 $args
      $CLI run --shape 8192x8192x8192 --backend cuda --reference sample $args > /tmp/online_run.txt 2>&1
      echo "exit $?" >> /tmp/online_run.txt; grep -vE "^    C\(" /tmp/online_run.txt | tail -12 >> "$LOG"
    done
    ;;
  trace)
    # Kernel timelines (CUPTI, probes/kernel_trace/): plain, online FQ = 1 / 4 and offline runs at 8192^3
    # and 16384^3, summarized; then `bench online` at 8192 with the SM clock and power beside it.
    stamp kernel traces
    resources/results/probes/kernel_trace/trace_online.sh >> "$LOG" 2>&1
    grep -E "^== |SPAN|running at once" "$OUT/traces.txt" | tail -40
    ;;
  online-bench)
    # The bench places the checks on the cost model with the stored device bandwidth: measure it first.
    stamp devices --measure
    timeout 180 $CLI devices --measure >> "$LOG" 2>&1
    stamp bench online
    $CLI bench online --json "$OUT/bench_online.json" > "$OUT/bench_online.txt" 2>> "$LOG"
    echo "bench online exit $?" | tee -a "$LOG"
    tail -60 "$OUT/bench_online.txt"
    ;;
  online-cuda)
    # Issue 9 items 2 and 3 on the GPU (branch online-cuda): --checksums K >= 2 and --target a|b on
    # the host-checked path. After `build`: its GPU test (the twins against the CPU backend),
    # compute-sanitizer on small K = 2 and --target a runs, then 8192^3 with K = 1, 2, 3 and a fault
    # in A. Every command under `timeout` (at most 50 + 60 + 2 x 30 + 5 x 14 = 240 s).
    stamp online-cuda: build gigacheck tst_cuda_online
    timeout 50 cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_online > "$OUT/build_online_cuda.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_online_cuda.txt" | head -40; exit 1; }
    rm -f "$OUT/build_online_cuda.txt"
    timeout 60 build/tests/tst_cuda_online > /tmp/tst_cuda_online.txt 2>&1
    echo "tst_cuda_online exit $?" | tee -a "$LOG"
    grep -E "^(Totals|FAIL|SKIP)|Loc:" /tmp/tst_cuda_online.txt | sed "s/^/tst_cuda_online: /" >> "$LOG"
    timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 64 --checksums 2 --inject-at 5,7@1 --inject-at 5,90@1 --quiet >> "$LOG" 2>&1
    echo "online --checksums 2 sanitizer exit $?" | tee -a "$LOG"
    timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x257x200 --backend cuda \
      --scheme online --panel 64 --target a --inject-at 5,100@0 --quiet >> "$LOG" 2>&1
    echo "online --target a sanitizer exit $?" | tee -a "$LOG"
    for args in "--checksums 1 --inject-at 100,200@3" \
                "--checksums 2 --inject-at 100,200@3 --inject-at 100,700@3" \
                "--checksums 3 --inject-at 100,200@3 --inject-at 100,700@3 --inject-at 100,5000@3" \
                "--target a --inject-at 100,2000@0" "--target a --inject-at 100,2000"; do
      stamp run 8192^3 online panel 1024 fq 1 $args
      timeout 14 $CLI run --shape 8192x8192x8192 --backend cuda --reference sample --scheme online --panel 1024 \
        --check-every 1 $args > /tmp/online_cuda_run.txt 2>&1
      echo "exit $?" >> /tmp/online_cuda_run.txt; grep -vE "^    C\(" /tmp/online_cuda_run.txt | tail -12 >> "$LOG"
    done
    tail -80 "$LOG"
    ;;
  online-lab)
    # Issue 9 item 6 (branch online-lab): the lab side of the online family with the CUDA backend
    # built in: its ui test (the CPU engine, offscreen), an online run on the device whose step
    # frames the lab replays on the CPU, and the screenshots (the online step slider and fq sweep).
    stamp online-lab: build gigacheck-lab tst_onlinelab
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build_lab.txt" 2>&1 &&
      cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck gigacheck-lab tst_onlinelab tst_cuda_online >> "$OUT/build_lab.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_lab.txt" | head -40; exit 1; }
    rm -f "$OUT/build_lab.txt"
    QT_QPA_PLATFORM=offscreen build/tests/tst_onlinelab 2>&1 | grep -E "^(Totals|FAIL|SKIP|PASS)|Loc:" | sed "s/^/tst_onlinelab: /" >> "$LOG"
    build/tests/tst_cuda_online 2>&1 | grep -E "^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/tst_cuda_online: /" >> "$LOG"
    # K = 2 and a fault in A on CUDA: the host-checked path (branch online-cuda; exit 0 expected).
    for args in "--scheme online --panel 256 --check-every 1 --checksums 2 --inject-at 100,200@3 --inject-at 100,700@3" \
                "--scheme online --panel 256 --check-every 1 --target a --inject-at 100,200@2"; do
      echo "--- run 2048^3 cuda $args" >> "$LOG"
      $CLI run --shape 2048x2048x2048 --backend cuda $args > /tmp/online_lab_run.txt 2>&1
      echo "exit $?" >> /tmp/online_lab_run.txt; grep -vE "^    C\(" /tmp/online_lab_run.txt | tail -8 >> "$LOG"
    done
    for size in 1366x768 1920x1080; do
      QT_QPA_PLATFORM=offscreen build/app/gui/gigacheck-lab --screenshots "$OUT/shots-$size" --size $size >> "$LOG" 2>&1
      echo "screenshots $size exit $?" | tee -a "$LOG"
      (cd "$OUT/shots-$size" && ls | grep -v online | xargs -r rm -f)
    done
    tail -30 "$LOG"
    ;;
  gallery)
    # Issue 11, the kernel gallery: build, its GPU test, compute-sanitizer on small runs, the four
    # targets one by one, then both bench suites (tables + JSON under $OUT).
    stamp gallery build
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 &&
      cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_gallery tst_transpose tst_reduced_matmul tst_cli_gallery >> "$OUT/build.txt" 2>&1
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
    for args in "--shape 16384x16384 --variant padded" "--shape 16384x8192 --variant padded" \
                "--shape 8192x16384 --variant padded" "--shape 16384x16384 --variant library" \
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
  transpose-tune)
    # The transpose kernels (issue 11 targets): padded 16-byte tiles, inplace square 64 x 64 tile
    # pairs, rectangular inplace by the ratio decomposition (sides 2:1, 4:1) or C2R (others).
    stamp transpose-tune build
    { [ -f build/build.ninja ] || timeout 300 cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90; } > "$OUT/build.txt" 2>&1 &&
      timeout 600 cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_gallery >> "$OUT/build.txt" 2>&1
    rc=$?
    tail -3 "$OUT/build.txt" >> "$LOG"
    if [ $rc -ne 0 ]; then grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; fi
    rm -f "$OUT/build.txt"
    stamp transpose-tune tst_cuda_gallery
    timeout 240 build/tests/tst_cuda_gallery 2>&1 | grep -E "^(Totals|FAIL|SKIP)|Loc:" | sed "s/^/tst_cuda_gallery: /" | tee -a "$LOG"
    stamp transpose-tune compute-sanitizer
    for args in "256x192 --variant padded" "260x196 --variant padded" "257x255 --variant padded" "256x256 --variant inplace" \
                "257x257 --variant inplace" "300x125 --variant inplace" "1x77 --variant inplace" \
                "65536x2 --variant inplace" "260x130 --variant inplace" "66x33 --variant inplace" \
                "33x132 --variant inplace" "4100x1025 --variant inplace" "640x320 --variant inplace" \
                "320x1280 --variant inplace" "2048x1024 --variant inplace" "1024x4096 --variant inplace"; do
      timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI transpose --shape $args --backend cuda --reps 1 \
        > /dev/null 2>> "$LOG"
      echo "sanitizer transpose $args: exit $?" | tee -a "$LOG"
    done
    stamp transpose-tune targets
    : > "$OUT/transpose_targets.txt"
    for args in "--shape 16384x16384 --variant padded" "--shape 16384x8192 --variant padded" \
                "--shape 8192x16384 --variant padded" "--shape 16384x16384 --variant library" \
                "--shape 16384x16384 --variant inplace" "--shape 16384x8192 --variant inplace" \
                "--shape 8192x16384 --variant inplace" "--shape 16384x4096 --variant inplace" \
                "--shape 4096x16384 --variant inplace" "--shape 12288x4096 --variant inplace"; do
      echo "== transpose $args" >> "$OUT/transpose_targets.txt"
      timeout 90 $CLI transpose $args --backend cuda --reps 10 2>&1 |
        grep -E "^transpose|time|^back|bandwidth|of a device|verdict|passes" >> "$OUT/transpose_targets.txt"
    done
    for args in "16384x8192" "8192x16384" "16384x4096" "4096x16384"; do  # the ratio decomposition as two kernels
      echo "== transpose --shape $args --variant inplace, GIGACHECK_TRANSPOSE_RATIO_PIPELINE=0" >> "$OUT/transpose_targets.txt"
      GIGACHECK_TRANSPOSE_RATIO_PIPELINE=0 timeout 90 $CLI transpose --shape $args --variant inplace --backend cuda --reps 10 2>&1 |
        grep -E "time|of a device|verdict" >> "$OUT/transpose_targets.txt"
    done
    for k in 1 3; do  # the column passes' strip width: 2^k columns instead of the widest that fits
      echo "== transpose --shape 12288x4096 --variant inplace, GIGACHECK_TRANSPOSE_STRIP_LOG2=$k" >> "$OUT/transpose_targets.txt"
      GIGACHECK_TRANSPOSE_STRIP_LOG2=$k timeout 90 $CLI transpose --shape 12288x4096 --variant inplace --backend cuda --reps 10 2>&1 |
        grep -E "time|of a device|verdict" >> "$OUT/transpose_targets.txt"
    done
    for args in "12288x4096" "10000x7000"; do  # the opt-in cluster path of the column passes (C2R shapes)
      echo "== transpose --shape $args --variant inplace, GIGACHECK_TRANSPOSE_CLUSTER=1" >> "$OUT/transpose_targets.txt"
      GIGACHECK_TRANSPOSE_CLUSTER=1 timeout 90 $CLI transpose --shape $args --variant inplace --backend cuda --reps 10 2>&1 |
        grep -E "time|of a device|verdict" >> "$OUT/transpose_targets.txt"
    done
    GIGACHECK_TRANSPOSE_CLUSTER=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI transpose --shape 300x125 \
      --variant inplace --backend cuda --reps 1 > /dev/null 2>> "$LOG"
    echo "sanitizer transpose 300x125 inplace, GIGACHECK_TRANSPOSE_CLUSTER=1: exit $?" | tee -a "$LOG"
    cat "$OUT/transpose_targets.txt" | tee -a "$LOG"
    ;;
  mgpu-gemm)
    # Issue 14 item 3: the blocked ABFT GEMM spread over G GPUs (all visible; one GPU: G = 2 emulated).
    stamp mgpu-gemm build
    nvidia-smi --query-gpu=index,name,memory.total --format=csv >> "$LOG" 2>&1
    nvidia-smi topo -m >> "$LOG" 2>&1
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
      -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.txt" 2>&1 &&
      cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_multi_device_gemm tst_cuda_backend >> "$OUT/build.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build.txt" | head -40; exit 1; }
    rm -f "$OUT/build.txt"
    stamp mgpu-gemm gpu test
    build/tests/tst_cuda_multi_device_gemm 2>&1 | grep -E "QINFO|d[0-9]:|^(Totals|FAIL|SKIP|PASS)" >> "$LOG"
    build/tests/tst_cuda_backend -silent 2>&1 | grep -E "^(Totals|FAIL|SKIP)" | sed "s/^/tst_cuda_backend: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 157x93x131 --backend cuda --devices 2 \
      --strategy s3 --mem 60000B --errors 1 --fault-scope every --quiet >> "$LOG" 2>&1
    echo "sanitizer run --devices 2: exit $?" | tee -a "$LOG"
    stamp mgpu-gemm run record
    $CLI run --shape 16384x16384x16384 --backend cuda --devices 2 --strategy s3 --mem 4GiB --errors 1 \
      --json "$OUT/run_devices2.json" > "$OUT/run_devices2.txt" 2>> "$LOG"
    echo "run --devices 2 exit $?" | tee -a "$LOG"
    tail -40 "$LOG"
    stamp bench multi-gpu-gemm
    $CLI bench multi-gpu-gemm --json "$OUT/bench_mgpu_gemm.json" > "$OUT/bench_mgpu_gemm.txt" 2>> "$LOG"
    echo "bench multi-gpu-gemm exit $?" | tee -a "$LOG"
    tail -50 "$OUT/bench_mgpu_gemm.txt"
    ;;
  planner)
    # Issue 13: the cost model's rate tables, predicted vs measured per strategy and cap, the link
    # under load, and one --strategy auto run whose record carries the predicted spans. After build.
    stamp devices --measure: roofs and the rate tables of the cost model
    $CLI devices --measure > "$OUT/planner_devices.txt" 2>&1
    echo "devices --measure exit $?" | tee -a "$LOG"
    tail -12 "$OUT/planner_devices.txt"
    stamp bench link
    $CLI bench link --json "$OUT/planner_link.json" > "$OUT/planner_link.txt" 2>> "$LOG"
    echo "bench link exit $?" | tee -a "$LOG"
    tail -30 "$OUT/planner_link.txt"
    stamp bench out-of-core with predictions
    $CLI bench out-of-core --json "$OUT/planner_ooc.json" > "$OUT/planner_ooc.txt" 2>> "$LOG"
    echo "bench out-of-core exit $?" | tee -a "$LOG"
    tail -30 "$OUT/planner_ooc.txt"
    stamp run --strategy auto: 32768^3 FP32 ABFT under 4 GiB
    $CLI run --shape 32768x32768x32768 --backend cuda --strategy auto --mem 4GiB --reference none \
      --json "$OUT/planner_auto_record.json" > "$OUT/planner_auto.txt" 2>&1
    echo "run --strategy auto exit $?" | tee -a "$LOG"
    grep -E "Planner|^Predicted|^  [a-z0-9-]+ \(|total: predicted|Verdict" "$OUT/planner_auto.txt" | cut -c1-1500 | tee -a "$LOG"
    ;;
  calibration)
    # Issue 13 item 2 (predicted within 10 %): the rate tables, then bench out-of-core (16384 unless
    # GIGACHECK_BENCH_SIZES says otherwise) with every prediction calibrated on the bench's own host
    # matrices (its "table only" column: the prediction without; the packed runs' pack and copy rates go
    # to log.txt, GIGACHECK_STAGING_STATS), and one CLI run's prediction. After build.
    stamp devices --measure
    $CLI devices --measure > "$OUT/calib_devices.txt" 2>&1
    echo "devices --measure exit $?" | tee -a "$LOG"
    nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current --format=csv >> "$LOG" 2>&1
    stamp bench out-of-core, calibrated predictions
    GIGACHECK_STAGING_STATS=1 GIGACHECK_BENCH_SIZES=${GIGACHECK_BENCH_SIZES:-16384} GIGACHECK_BENCH_XT_BLOCKS=${GIGACHECK_BENCH_XT_BLOCKS:-8192} \
      $CLI bench out-of-core --json "$OUT/calib_ooc.json" > "$OUT/calib_ooc.txt" 2>> "$LOG"
    echo "bench out-of-core exit $?" | tee -a "$LOG"
    sed -n '/^Predicted/,$p' "$OUT/calib_ooc.txt" | tee -a "$LOG"
    stamp run s1 16384^3 under 256 MiB: the calibrated prediction in a CLI run
    $CLI run --shape 16384x16384x16384 --backend cuda --strategy s1 --mem 256MiB --reference none > "$OUT/calib_run.txt" 2>&1
    echo "run exit $?" | tee -a "$LOG"
    grep -E "^Predicted|predicted" "$OUT/calib_run.txt" | cut -c1-600 | tee -a "$LOG"
    ;;
  taper)
    # Issue 13 item 1 (smaller first and last blocks): the GPU test of the blocked family, the rate
    # tables, then bench out-of-core, whose "auto" row runs the planner's choice and, when that has
    # tapered ends, "auto equal" its best equal blocks in the same process; a CLI run prints the plan
    # text. GIGACHECK_BENCH_SIZES / _CAPS / _STRATEGIES narrow the bench (32768, 4GiB and 1GiB, s3).
    stamp taper
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_backend > "$OUT/build_tp.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_tp.txt" | head -40; exit 1; }
    rm -f "$OUT/build_tp.txt"
    build/tests/tst_cuda_backend 2>&1 | grep -E "^(Totals|FAIL)|Loc:" | sed "s/^/tst_cuda_backend: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 1531x1207x1409 --backend cuda --strategy auto \
      --mem 6MB --errors 1 --quiet >> "$LOG" 2>&1; echo "sanitizer --strategy auto exit $?" >> "$LOG"
    $CLI devices --measure > "$OUT/taper_devices.txt" 2>&1
    echo "devices --measure exit $?" >> "$LOG"
    stamp bench out-of-core: auto against auto equal
    GIGACHECK_BENCH_SIZES=${GIGACHECK_BENCH_SIZES:-32768} GIGACHECK_BENCH_CAPS=${GIGACHECK_BENCH_CAPS:-4GiB,1GiB} \
      GIGACHECK_BENCH_STRATEGIES=${GIGACHECK_BENCH_STRATEGIES:-s3} \
      $CLI bench out-of-core --json "$OUT/taper_ooc.json" > "$OUT/taper_ooc.txt" 2>> "$LOG"
    echo "bench out-of-core exit $?" >> "$LOG"
    stamp run --strategy auto at 32768 under 4 GiB: the plan text
    $CLI run --shape 32768x32768x32768 --backend cuda --strategy auto --mem 4GiB --reference none --errors 1 \
      > "$OUT/taper_run.txt" 2>&1
    echo "run --strategy auto exit $?" >> "$LOG"
    grep -E "Planner|unequal blocks|Verdict|verdict|total: predicted" "$OUT/taper_run.txt" | cut -c1-2500 >> "$LOG"
    tail -45 "$OUT/taper_ooc.txt"
    ;;
  staging)
    # Issue 13 item 3: block loads packed on the host (--h2d-staging). After build: the GPU test
    # (packed loads give direct copies' C bit for bit), compute-sanitizer over a packed run, the rate
    # tables (the model prices packed loads as contiguous copies), then bench out-of-core, each
    # strategy packed (auto) and direct ("sN direct"). GIGACHECK_BENCH_SIZES / _CAPS narrow it.
    stamp staging
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck tst_cuda_backend > "$OUT/build_st.txt" 2>&1 ||
      { grep -E "error|Error" "$OUT/build_st.txt" | head -40; exit 1; }
    rm -f "$OUT/build_st.txt"
    build/tests/tst_cuda_backend 2>&1 | grep -E "^(Totals|FAIL)|Loc:|hostPacking" | sed "s/^/tst_cuda_backend: /" >> "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 1531x1207x1409 --backend cuda --strategy s2 \
      --mem 6MB --h2d-staging pack --errors 1 --quiet >> "$LOG" 2>&1; echo "sanitizer --h2d-staging pack exit $?" >> "$LOG"
    $CLI devices --measure > "$OUT/staging_devices.txt" 2>&1
    echo "devices --measure exit $?" >> "$LOG"
    stamp bench out-of-core, packed and direct
    GIGACHECK_BENCH_SIZES=${GIGACHECK_BENCH_SIZES:-32768} GIGACHECK_BENCH_CAPS=${GIGACHECK_BENCH_CAPS:-256MiB} \
      $CLI bench out-of-core --json "$OUT/staging_ooc.json" > "$OUT/staging_ooc.txt" 2>> "$LOG"
    echo "bench out-of-core exit $?" >> "$LOG"
    stamp run s1 and s2 at 32768 under 256 MiB, --h2d-staging auto: the plan text says what auto chose
    for s in s1 s2; do
      $CLI run --shape 32768x32768x32768 --backend cuda --strategy $s --mem 256MiB --reference none 2>&1 |
        grep -oE "Block loads: [^)]*\)|Verdict.*|verdict.*" | sed "s/^/$s auto: /" >> "$LOG"
    done
    tail -45 "$OUT/staging_ooc.txt"
    ;;
  package)
    # Issue 12 item 8 (after build or labbuild): the CUDA backend as the run-time module
    # build/engine/libgigacheck_cuda.so. The programs link no CUDA library; with the module they use
    # the GPU, without it (or with a broken one) they say why and run on the CPU.
    stamp package: the CUDA module
    cmake --build build -j${GIGACHECK_JOBS:-16} --target gigacheck gigacheck_cuda >> "$LOG" 2>&1 || { echo "module build failed" | tee -a "$LOG"; exit 1; }
    for f in build/app/cli/gigacheck build/engine/libgigacheck_engine.so build/engine/libgigacheck_cuda.so; do
      echo "$f links: $(ldd $f | grep -oE 'lib(cudart|cublas|cublasLt|cuda)\.so[^ ]*' | sort -u | tr '\n' ' ')" | tee -a "$LOG"
    done
    $CLI devices 2>&1 | tee -a "$LOG"
    $CLI run --shape 2048x2048x2048 --backend cuda --strategy s2 --mem 16MiB --errors 2 --quiet >> "$LOG" 2>&1
    echo "cuda run through the module: exit $? (0 expected)" | tee -a "$LOG"
    compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --shape 300x200x250 --backend cuda --strategy s2 \
      --mem 200KB --errors 1 --quiet >> "$LOG" 2>&1
    echo "sanitizer through the module: exit $? (0 expected)" | tee -a "$LOG"
    GIGACHECK_CUDA_MODULE=/nonexistent/libgigacheck_cuda.so $CLI devices 2>&1 | tee -a "$LOG"
    printf 'not a library\n' > /tmp/broken.so
    GIGACHECK_CUDA_MODULE=/tmp/broken.so $CLI devices 2>&1 | tee -a "$LOG"
    GIGACHECK_CUDA_MODULE=/tmp/broken.so $CLI run --shape 64x64x64 --backend cpu --quiet >> "$LOG" 2>&1
    echo "cpu run with a broken module: exit $? (0 expected)" | tee -a "$LOG"
    GIGACHECK_CUDA_MODULE=/tmp/broken.so $CLI run --shape 64x64x64 --backend cuda --quiet >> "$LOG" 2>&1
    echo "cuda run with a broken module: exit $? (refused, nonzero expected)" | tee -a "$LOG"
    ctest --test-dir build -L gpu --output-on-failure --timeout 400 >> "$LOG" 2>&1
    echo "ctest -L gpu exit $?" | tee -a "$LOG"; grep -E "tests passed|Failed|Skipped" "$LOG" | tail -4
    if [ -x build/app/gui/gigacheck-lab ] && command -v dpkg-deb > /dev/null; then
      packaging/test-package.sh --build-dir build >> "$LOG" 2>&1
      echo "test-package exit $?" | tee -a "$LOG"
      (cd build && cpack -G DEB -B /tmp/gigacheck-debs > /dev/null 2>&1) &&
        for d in /tmp/gigacheck-debs/*.deb; do echo "$d: $(dpkg-deb -f $d Package Depends Recommends Suggests | tr '\n' ' ')" | tee -a "$LOG"; done
    fi
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
