#!/usr/bin/env bash
# Device call (thirtieth session; NO_SCREEN_TOO from the thirty-first): the online cutlass-tf32 run at N (default 16384), FQ = 1, b = 1024,
# with and without one fault, and a plain cuBLAS TF32 run, each traced (the second of two runs
# summarized; kernel_trace/README.md) with the modules loaded at start (CUDA_MODULE_LOADING=EAGER: a
# kernel's first launch then waits for no module load, as in the bench's later repetitions). TESTS
# (names) are built and run first. Reuses a build already in /tmp/release-new when NO_BUILD=1. The
# traces and test outputs come back in out.tar.xz.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
kt=$here/probes/kernel_trace
if [ -z "${NO_BUILD:-}" ]; then
  GIGACHECK_COMMIT=${NEW_COMMIT:-?} FIRST="${TESTS:-}" DEADLINE=${BUILD_DEADLINE:-400} \
    OUT=$OUT $here/device_release_check.sh build ${TESTS:+tests} > /dev/null 2>&1
  grep -v "not built" $OUT/release_log.txt
  cp /tmp/release-tests/*.txt $OUT/ 2>/dev/null
  for t in ${TESTS:-}; do grep -E "^(FAIL|SKIP|Totals)|Loc:" $OUT/$t.txt | cut -c1-260 | head -40; done
fi
CLI=/tmp/release-new/build/app/cli/gigacheck
lib=$($kt/kernel_trace.sh /tmp/kernel_trace 2>/dev/null) || { echo "no tracer"; exit 1; }
N=${TRACE_N:-16384}
s=${N}x${N}x${N}
run() {  # name, args...
  local name=$1; shift
  for rep in 1 2; do
    CUDA_MODULE_LOADING=EAGER KERNEL_TRACE_OUT=$OUT/trace_$name.csv CUDA_INJECTION64_PATH=$lib $CLI run --backend cuda --reference none --quiet "$@" > $OUT/run_$name.txt 2>&1
  done
  echo "== $name: exit $? ($*)"
  python3 $kt/summarize.py $OUT/trace_$name.csv ${DETAIL:-70} > $OUT/summary_$name.txt 2>&1
  head -${HEAD:-40} $OUT/summary_$name.txt | cut -c1-200
  xz -f $OUT/trace_$name.csv
}
# TRACES="step0 ..." traces those only (default: all three).
wanted() { [ -z "${TRACES:-}" ] || [[ " $TRACES " == *" $1 "* ]]; }
wanted plain && run plain --shape $s --gemm cublas-tf32 --no-abft
wanted step0 && run step0 --shape $s --gemm cutlass-tf32 --scheme online --panel 1024 --check-every 1
wanted step1 && run step1 --shape $s --gemm cutlass-tf32 --scheme online --panel 1024 --check-every 1 --inject-at 100,200@3
# NO_SCREEN_TOO=1: each bench also with GIGACHECK_NO_SCREEN=1 (every step-sums check in full),
# the two alternated in the same machine.
for n in ${ONLINE:-}; do
  for mode in screen ${NO_SCREEN_TOO:+noscreen}; do
    [ $mode = noscreen ] && export GIGACHECK_NO_SCREEN=1 || unset GIGACHECK_NO_SCREEN
    suffix=$([ $mode = noscreen ] && echo _noscreen)
    GIGACHECK_BENCH_VARIANTS=tf32 GIGACHECK_BENCH_SIZES=$n timeout 150 $CLI bench online > $OUT/bench_online_$n$suffix.txt 2>&1
    echo "== bench online $n $mode exit $? at ${SECONDS}s"
    grep -E "^cu" $OUT/bench_online_$n$suffix.txt | cut -c1-140 | head -8
  done
  unset GIGACHECK_NO_SCREEN
done
cd $OUT && tar cJf out.tar.xz --remove-files $(ls | grep -vE "^(release_log.txt|bench_online_.*|summary_.*|out.tar.xz)$") 2>/dev/null
