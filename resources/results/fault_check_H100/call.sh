#!/usr/bin/env bash
# Device call (thirty-second session): step_sums_H100/trace.sh (build, the GPU tests in TESTS, the
# traces in TRACES, `bench online` at the sizes in ONLINE), then, with NCU_FAULT=1, where one
# corrected fault's time goes in the check kernel: Nsight Compute times every decideKernel launch of
# `bench abft-overhead` (NCU_TYPE, default BF16, at 4096; clean rows first, then the one-fault
# rows), then takes the source-level warp samples of the last clean and the last one-fault launch of
# the fused instantiation. Everything is packed into $OUT/all.tar.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
$here/step_sums_H100/trace.sh
CLI=/tmp/release-new/build/app/cli/gigacheck
if [ -n "${NCU_FAULT:-}" ]; then
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  export GIGACHECK_BENCH_TYPES=${NCU_TYPE:-BF16} GIGACHECK_BENCH_SIZES=4096
  # 1. every decideKernel launch: its name and duration, in launch order.
  timeout 150 $ncu --clock-control none --kernel-name regex:decideKernel --metrics gpu__time_duration.sum --csv \
    $CLI bench abft-overhead > $OUT/ncu_all.csv 2> $OUT/ncu_all.err
  echo "== ncu durations exit $? at ${SECONDS}s"
  # Launch indices (0-based, among decideKernel launches) of the fused instantiation's launches.
  python3 - "$OUT/ncu_all.csv" > $OUT/ncu_pick.txt <<'PY'
import csv, re, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; data = rows[1:]
iid = head.index("ID"); iname = head.index("Kernel Name"); ival = head.index("Metric Value")
launches = []
for r in data:
    launches.append((int(r[iid]), r[iname], float(r[ival].replace(",", ""))))
def fusedOf(name):
    m = re.search(r"decideKernel<\w+, (?:\(bool\))?(true|false|1|0)", name)  # ncu writes 1 / 0
    return m is None or m.group(1) in ("true", "1")
fused = [l for l in launches if fusedOf(l[1])]
# The bench runs every clean row, then every one-fault row, through the same launches.
clean = fused[:len(fused) // 2]; fault = fused[len(fused) // 2:]
import statistics as st
print("launches", len(launches), "fused", len(fused))
for name, ls in (("clean", clean), ("fault", fault)):
    if ls:
        print(name, "n", len(ls), "median ns", st.median(l[2] for l in ls), "last", ls[-1][0], ls[-1][1][:60])
print("PICK", clean[-1][0] if clean else -1, fault[-1][0] if fault else -1)
PY
  cat $OUT/ncu_pick.txt
  read -r _ cleanAt faultAt < <(grep PICK $OUT/ncu_pick.txt)
  for which in clean fault; do
    at=$([ $which = clean ] && echo $cleanAt || echo $faultAt)
    [ "$at" -ge 0 ] 2>/dev/null || continue
    timeout 150 $ncu --clock-control none --kernel-name regex:decideKernel --launch-skip $at --launch-count 1 \
      --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
      --import-source yes -f -o $OUT/decide_$which $CLI bench abft-overhead > $OUT/ncu_$which.txt 2>&1
    echo "== ncu source $which (launch $at) exit $? at ${SECONDS}s"
    $ncu -i $OUT/decide_$which.ncu-rep --page source --csv --print-source sass > $OUT/decide_${which}_sass.csv 2>&1
    $ncu -i $OUT/decide_$which.ncu-rep --page source --csv --print-source cuda > $OUT/decide_${which}_cuda.csv 2>&1
    $ncu -i $OUT/decide_$which.ncu-rep --page details > $OUT/decide_${which}_details.txt 2>&1
    grep -E "Duration|Elapsed Cycles|SM Active" $OUT/decide_${which}_details.txt | head -4
  done
fi
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
