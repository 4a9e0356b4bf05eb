#!/bin/bash
# Issue 9, FQ = 4 at 8192^3: why FQ = 4 costs more with no fault (+3.6 %) than with two (+0.9 %) and
# than FQ = 8 (+0.9 %) in `bench online` (30d5c35). Traced CLI runs, each summarized with every kernel
# of its window listed (summarize.py) and the waits after each stream predecessor (gaps.py).
# Run after `device_run.sh build`; writes $OUT/traces_fq4.txt.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace) || exit 1
run() {  # name, args...
    local name=$1; shift
    for rep in 1 2; do  # the second run of each is the one summarized: the first pays cold handles
        KERNEL_TRACE_OUT=/tmp/trace_$name.csv CUDA_INJECTION64_PATH=$lib $CLI run --backend cuda --reference none --quiet "$@" > /dev/null 2>&1
    done
    echo "== $name: exit $? ($*)" >> "$OUT/traces_fq4.txt"
    python3 "$here/summarize.py" /tmp/trace_$name.csv 120 | grep -v "^last" >> "$OUT/traces_fq4.txt" 2>&1
    python3 "$here/gaps.py" /tmp/trace_$name.csv >> "$OUT/traces_fq4.txt" 2>&1
}
s=8192x8192x8192
run plain --shape $s --no-abft
run fq4_0 --shape $s --scheme online --panel 1024 --check-every 4
run fq4_1 --shape $s --scheme online --panel 1024 --check-every 4 --inject-at 1170,1638@4
run fq4_2 --shape $s --scheme online --panel 1024 --check-every 4 --inject-at 1170,1638@0 --inject-at 3900,3686@4
run fq8_0 --shape $s --scheme online --panel 1024 --check-every 8
run fq1_1 --shape $s --scheme online --panel 1024 --check-every 1 --inject-at 1170,1638@4
grep -E "^== |SPAN|running at once" "$OUT/traces_fq4.txt"
