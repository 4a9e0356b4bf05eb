#!/usr/bin/env bash
# Device call: the check kernel's phases by clock64 stamps (decide_probe.patch) for each of PROBE_SIDES
# (prebuilt, unpacked in /tmp/bin-SIDE by call.sh): one `bench abft-overhead` at 4096 per type, its
# DECIDE_PROBE lines summarised as medians in cycles from the kernel's start, per path (clean /
# compact / fault).
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
for side in ${PROBE_SIDES:-pcompact palt}; do
  for t in ${PROBE_TYPES:-BF16}; do
    GIGACHECK_BENCH_TYPES=$t GIGACHECK_BENCH_SIZES=4096 LD_LIBRARY_PATH=/tmp/bin-$side:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} \
      timeout 100 /tmp/bin-$side/gigacheck bench abft-overhead > $OUT/probe_${t}_$side.txt 2>&1
    echo "== probe $side $t exit $?"
    grep DECIDE_PROBE $OUT/probe_${t}_$side.txt | python3 -c '
import sys, statistics as st
rows = {}
for line in sys.stdin:
    f = line.split()
    rows.setdefault(f[1], []).append([int(x) for x in f[2:]])
for path, rs in rows.items():
    cols = list(zip(*rs))
    print(path, len(rs), "medians:", [int(st.median(c)) for c in cols])
'
  done
done
