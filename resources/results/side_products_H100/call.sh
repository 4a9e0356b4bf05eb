#!/usr/bin/env bash
# Device call (twenty-seventh session): with PROBES=1 the three probes of the pass over B and of the
# idle SMs (probes/column_dots_probe.cu, idle_sm_pass_probe.cu, side_products_probe.cu), then
# launch_front_H100/call.sh with its variables (NEW_COMMIT, TESTS, REPS, SIDES, TYPES, SIZES, TRACE,
# LIMIT), then the BF16 prepared rows' medians (medians.py). Everything is packed into $OUT/all.tar.
# Used as: NEW_COMMIT=... TESTS="tst_cuda_16bit_passes tst_cuda_fused_prepared tst_cuda_16bit" REPS=10
#   SIDES=new TYPES=BF16 SIZES=4096,8192 resources/results/side_products_H100/call.sh
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
if [ -n "${PROBES:-}" ]; then
  for p in column_dots_probe idle_sm_pass_probe side_products_probe; do
    nvcc -O3 -std=c++17 -arch=sm_90a $here/probes/$p.cu -lcublasLt -lcublas -o /tmp/$p > $OUT/${p}_build.txt 2>&1 &&
      timeout 200 /tmp/$p > $OUT/${p}_output.txt 2>&1
    echo "== $p exit $? at ${SECONDS}s"
  done
fi
LIMIT=${LIMIT:-560} REPS=${REPS:-0} $here/launch_front_H100/call.sh > $OUT/call.txt 2>&1
head -20 $OUT/call.txt
cp /tmp/release-tests/*.txt $OUT/ 2>/dev/null
python3 $here/side_products_H100/medians.py $OUT
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
