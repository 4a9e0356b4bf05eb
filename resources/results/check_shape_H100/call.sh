#!/usr/bin/env bash
# Device call (twenty-sixth session): the check-shape probe (probes/check_launch_probe.cu), then
# launch_front_H100/call.sh (build, the GPU tests named in TESTS, benches as its variables say), then
# with NCU_SOURCE=1 Nsight Compute's source-level view of the check kernel (BF16 at 4096). Every
# output is packed into $OUT/all.tar at the end (a call returns few files).
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
if [ -n "${PROBE:-}" ]; then
  nvcc -O3 -std=c++17 -arch=sm_90a $here/probes/check_launch_probe.cu -o /tmp/check_probe > $OUT/probe_build.txt 2>&1 &&
    timeout 120 /tmp/check_probe > $OUT/probe.txt 2>&1
  echo "== probe exit $? at ${SECONDS}s"; cat $OUT/probe.txt
fi
LIMIT=${LIMIT:-560} REPS=${REPS:-0} $here/launch_front_H100/call.sh
NEW=/tmp/release-new/build/app/cli/gigacheck
if [ -n "${NCU_SOURCE:-}" ] && [ $(( ${LIMIT:-560} - SECONDS )) -gt 60 ]; then
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  GIGACHECK_BENCH_TYPES=${NCU_SOURCE_TYPE:-BF16} GIGACHECK_BENCH_SIZES=4096 timeout $(( ${LIMIT:-560} - SECONDS - 20 )) \
    $ncu --clock-control none --kernel-name regex:"${NCU_SOURCE_REGEX:-decideKernel}" --launch-skip 20 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --warp-sampling-interval 0 --import-source yes -f -o $OUT/decide $NEW bench abft-overhead > $OUT/ncu_run.txt 2>&1
  echo "== ncu source exit $? at ${SECONDS}s"; tail -5 $OUT/ncu_run.txt
  $ncu -i $OUT/decide.ncu-rep --page source --csv --print-source cuda > $OUT/decide_cuda.csv 2>&1
  $ncu -i $OUT/decide.ncu-rep --page source --csv --print-source sass > $OUT/decide_sass.csv 2>&1
  $ncu -i $OUT/decide.ncu-rep --page details > $OUT/decide_details.txt 2>&1
  head -c 600 $OUT/decide_cuda.csv; echo; grep -E "Duration|Stall|Warp Cycles" $OUT/decide_details.txt | head
fi
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
