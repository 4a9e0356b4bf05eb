#!/bin/bash
# Issue 9, third round: the lean sums' tile height, and the two-buffer probe's bare read in its place.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace 2>/dev/null) || exit 1
k=0
for v in "128 full" "1024 full" "128 readcheck,nomemsets" "1024 readcheck,nomemsets" "128 readcheck,nomemsets,proberead" "128 nochecks" "128 full" "1024 full"; do
    set -- $v; k=$((k+1))
    GIGACHECK_LEAN_ROWS=$1 GIGACHECK_ONLINE_DIAG=$2 KERNEL_TRACE_OUT=/tmp/t$k.csv CUDA_INJECTION64_PATH=$lib \
        $CLI run --backend cuda --reference none --quiet --shape 8192x8192x8192 --scheme online --panel 1024 --check-every 1 > /dev/null 2>&1
    echo "rows $1 $2: $(python3 "$here/summarize.py" /tmp/t$k.csv 0 | grep SPAN)"
    [ $k -le 2 ] && python3 "$here/gaps.py" /tmp/t$k.csv
done
