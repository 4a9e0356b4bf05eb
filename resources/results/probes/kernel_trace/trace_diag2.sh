#!/bin/bash
# Issue 9, second round: the check's read split into its memsets and its sums (lean and wide), 8192^3 FQ = 1.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace 2>/dev/null) || exit 1
for v in "lean full" "wide full" "lean readcheck" "lean readcheck,nomemsets" "lean readcheck,nosums" "lean nochecks" "lean nochecks,nopasses" "lean full"; do
    set -- $v
    GIGACHECK_SUMS=$1 GIGACHECK_ONLINE_DIAG=$2 KERNEL_TRACE_OUT=/tmp/t.csv CUDA_INJECTION64_PATH=$lib \
        $CLI run --backend cuda --reference none --quiet --shape 8192x8192x8192 --scheme online --panel 1024 --check-every 1 > /dev/null 2>&1
    echo "$1 $2: $(python3 "$here/summarize.py" /tmp/t.csv 0 | grep SPAN)"
done
