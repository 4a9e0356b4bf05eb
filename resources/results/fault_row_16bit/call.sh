#!/usr/bin/env bash
# Device call: where a fault's time goes in the 16-bit prepared products at 4096. PREBUILT=1: the
# binaries of build-carry/bin-SIDE.tar.xz (new, old and any other side: the CLI, its two libraries and
# GPU tests, built on the build machine for sm_90) run from /tmp, and the GPU tests named in TESTS run
# first for each of TEST_SIDES (new), each within what LIMIT leaves after KEEP_S seconds kept for the rest; else build-carry/new.tar.xz (and
# old.tar.xz) are built here (device_release_check.sh) unless SKIP_BUILD=1. Then for each of TRACE
# (default "BF16 FP16") and TRACE_SIDES (new) one `bench abft-overhead` at SIZE (4096) traced with the
# host's API calls (fault_front.py), then REPS rounds of the bench (TYPES), SIDES alternated.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
K=$here/probes/kernel_trace
if [ -n "${PREBUILT:-}" ]; then
  # Binaries built on the build machine for sm_90 (build-carry/bin-new.tar.xz, bin-old.tar.xz: the CLI,
  # its two libraries, GPU tests), run from /tmp with the CUDA libraries beside them.
  for tarball in build-carry/bin-*.tar.xz; do
    side=$(basename $tarball .tar.xz); rm -rf /tmp/$side && tar xJf $tarball -C /tmp
  done
  export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  NEW=/tmp/bin-new/gigacheck OLD=/tmp/bin-old/gigacheck
  for tside in ${TEST_SIDES:-new}; do
    for t in ${TESTS:-}; do
      [ -x /tmp/bin-$tside/$t ] || continue
      budget=$(( ${LIMIT:-560} - ${KEEP_S:-300} - SECONDS )); [ $budget -gt 120 ] && budget=120
      [ $budget -gt 10 ] || { echo "$t ($tside) not run: time kept for the benches"; continue; }
      start=$SECONDS
      LD_LIBRARY_PATH=/tmp/bin-$tside:$LD_LIBRARY_PATH timeout $budget /tmp/bin-$tside/$t > $OUT/${t}_$tside.txt 2>&1
      echo "$t ($tside) exit $? ($(( SECONDS - start )) s): $(grep -E "^Totals" $OUT/${t}_$tside.txt)"; grep -E "^FAIL|SKIP" -A3 $OUT/${t}_$tside.txt | head -12
    done
  done
  for side in ${SIDES:-new old}; do [ -x /tmp/bin-$side/gigacheck ] && LD_LIBRARY_PATH=/tmp/bin-$side:$LD_LIBRARY_PATH /tmp/bin-$side/gigacheck devices 2>&1 | head -3; done
elif [ -z "${SKIP_BUILD:-}" ]; then
  GIGACHECK_COMMIT=${NEW_COMMIT:-?} OLD_COMMIT=${OLD_COMMIT:-?} TESTS="${TESTS:-}" FIRST="${TESTS:-}" \
    DEADLINE=${BUILD_DEADLINE:-330} OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
  grep -v "not built" $OUT/release_log.txt
fi
[ -n "${PREBUILT:-}" ] || { NEW=/tmp/release-new/build/app/cli/gigacheck OLD=/tmp/release-old/build/app/cli/gigacheck; }
libs() { echo "$(dirname "$1"):${LD_LIBRARY_PATH:-}"; }
# The CLI of a side: new / old as built above, any other side's from its prebuilt binaries.
cliOf() { case $1 in new) echo $NEW ;; old) echo $OLD ;; *) echo /tmp/bin-$1/gigacheck ;; esac; }
left() { echo $(( ${LIMIT:-560} - SECONDS )); }
lib=$($K/kernel_trace.sh 2>/dev/null)
for t in ${TRACE-BF16 FP16}; do
  for side in ${TRACE_SIDES:-new}; do
    cli=$(cliOf $side)
    [ -x "$cli" ] && [ "$(left)" -gt 60 ] || continue
    KERNEL_TRACE_API=1 GIGACHECK_BENCH_TYPES=$t GIGACHECK_BENCH_SIZES=${SIZE:-4096} KERNEL_TRACE_OUT=$OUT/trace_${t}_$side.csv \
      CUDA_INJECTION64_PATH=$lib LD_LIBRARY_PATH=$(libs $cli) timeout 120 $cli bench abft-overhead > $OUT/bench_traced_${t}_$side.txt 2>&1
    echo "== trace $t $side exit $? at ${SECONDS}s"
    grep -E "^ *[0-9]+ +$t .*prepared" $OUT/bench_traced_${t}_$side.txt | cut -c1-150
    python3 $here/fault_row_16bit/fault_front.py $OUT/trace_${t}_$side.csv > $OUT/front_${t}_$side.txt 2>&1
    grep -E "timings|decideKernel@[0-9]+ (start|end)|inject.*(start|end)|addRowSum.*(start|end)|last end|^  gemm " $OUT/front_${t}_$side.txt | head -80
    xz -1 $OUT/trace_${t}_$side.csv
  done
done
for r in $(seq 1 ${REPS:-0}); do
  for side in ${SIDES:-new old}; do
    cli=$(cliOf $side)
    [ -x "$cli" ] || continue
    [ "$(left)" -gt ${BENCH_MIN_S:-50} ] || break 2
    GIGACHECK_BENCH_TYPES=${TYPES:-BF16,FP16} GIGACHECK_BENCH_SIZES=${SIZE:-4096} LD_LIBRARY_PATH=$(libs $cli) timeout 100 $cli bench abft-overhead \
      > $OUT/bench_${side}_$r.txt 2>&1
    echo "== bench $side round $r exit $? at ${SECONDS}s"
    grep -E "^ *[0-9]+ +(BF16|FP16|TF32) .*prepared at entry, sums" $OUT/bench_${side}_$r.txt | cut -c1-150
  done
done
