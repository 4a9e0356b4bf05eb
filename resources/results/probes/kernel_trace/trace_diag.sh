#!/bin/bash
# Issue 9: which part of an online FQ = 1 run costs what, read off kernel traces (CUPTI): the same run with
# work left out by the temporary GIGACHECK_ONLINE_DIAG switch (nopasses, nochecks, readcheck), twice each.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace) || exit 1
mkdir -p "$OUT/traces"
run() {  # name, diag, args...
    local name=$1 diag=$2; shift 2
    GIGACHECK_ONLINE_DIAG=$diag KERNEL_TRACE_OUT=/tmp/trace_$name.csv CUDA_INJECTION64_PATH=$lib \
        $CLI run --backend cuda --reference none --quiet "$@" > /dev/null 2>&1
    echo "== $name: exit $? diag '$diag' ($*)" >> "$OUT/diag.txt"
    python3 "$here/summarize.py" /tmp/trace_$name.csv 0 | grep -E "SPAN|running at once|GEMM kernels" >> "$OUT/diag.txt"
    gzip -c /tmp/trace_$name.csv > "$OUT/traces/$name.csv.gz"
}
for n in 8192 16384; do
    s=${n}x${n}x${n}
    run plain_$n "" --shape $s --no-abft
    for rep in 1 2; do
        for d in full nochecks readcheck nochecks,nopasses; do
            run fq1_${n}_${d/,/_}_$rep $d --shape $s --scheme online --panel 1024 --check-every 1
        done
        [ $n = 16384 ] && break
    done
done
for fq in 2 4 8; do run fq${fq}_8192 full --shape 8192x8192x8192 --scheme online --panel 1024 --check-every $fq; done
run fq4_8192_nochecks nochecks --shape 8192x8192x8192 --scheme online --panel 1024 --check-every 4
cat "$OUT/diag.txt"
