#!/usr/bin/env bash
# Device call (twenty-eighth session): launch_front_H100/call.sh with its variables (NEW_COMMIT,
# TESTS, REPS, SIDES, TYPES, SIZES, TRACE, LIMIT), the 16-bit prepared rows' medians
# (side_products_H100/medians.py), and with NCU_DECIDE=1 Nsight Compute on the check kernel
# (decideKernel) of `bench abft-overhead` BF16 4096: NCU_COUNT launches after NCU_SKIP (the one-fault
# rows' launches follow all the clean rows' of a size).
# Everything is packed into $OUT/all.tar.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
LIMIT=${LIMIT:-560} REPS=${REPS:-0} $here/launch_front_H100/call.sh > $OUT/call.txt 2>&1
head -30 $OUT/call.txt
cp /tmp/release-tests/*.txt $OUT/ 2>/dev/null
python3 $here/side_products_H100/medians.py $OUT
if [ -n "${NCU_DECIDE:-}" ]; then
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  GIGACHECK_BENCH_TYPES=BF16 GIGACHECK_BENCH_SIZES=4096 timeout ${NCU_LIMIT:-200} $ncu --clock-control none \
    --kernel-name regex:decideKernel --launch-skip ${NCU_SKIP:-0} --launch-count ${NCU_COUNT:-80} \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section SourceCounters \
    /tmp/release-new/build/app/cli/gigacheck bench abft-overhead > $OUT/ncu_decide.txt 2>&1
  echo "== ncu decide exit $? at ${SECONDS}s"
  grep -E "Duration" $OUT/ncu_decide.txt | awk '{printf "%s ", $3} END {print ""}'
  grep -E "Warp Cycles Per Issued|Registers Per|Achieved Occupancy" $OUT/ncu_decide.txt | sort | uniq -c | sort -rn | head
fi
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
