#!/bin/bash
# Issue 9, eighteenth session: 16384^3 online FQ = 1 with the panel GEMMs tuned (cuBLASLt algorithm 55)
# against cuBLAS's pick (GIGACHECK_NO_GEMM_TUNING=1) and offline: which GEMM kernel runs, its threads x
# registers and shared memory, and whether the lean check sums still start beside it (gaps.py).
# Run after `device_run.sh build`; writes $OUT/traces_tuned.txt.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace) || exit 1
N=${TRACE_N:-16384}
run() {  # name, env, args...
    local name=$1 env=$2; shift 2
    for rep in 1 2; do  # the second run of each is the one summarized: the first pays cold handles
        env $env KERNEL_TRACE_OUT=/tmp/trace_$name.csv CUDA_INJECTION64_PATH=$lib $CLI run --backend cuda --reference none --quiet "$@" > /dev/null 2>&1
    done
    echo "== $name: exit $? ($env $*)" >> "$OUT/traces_tuned.txt"
    python3 "$here/summarize.py" /tmp/trace_$name.csv 40 | grep -v "^last" >> "$OUT/traces_tuned.txt" 2>&1
    python3 "$here/gaps.py" /tmp/trace_$name.csv >> "$OUT/traces_tuned.txt" 2>&1
    python3 - /tmp/trace_$name.csv >> "$OUT/traces_tuned.txt" <<'PY'
import csv, sys, collections
seen = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r['kind'] == 'K' and any(k in r['name'].lower() for k in ('gemm', 'xmma', 'cutlass')):
        seen[(r['name'][:140], r['block'], r['regs_or_copykind'], r.get('smem', '?'))] += 1
for (n, b, regs, smem), c in seen.most_common():
    print(f"GEMM kernel x{c}: {b} threads x {regs} regs, {smem} B smem: {n}")
PY
}
s=${N}x${N}x${N}
run plain "X=1" --shape $s --no-abft
run fq1_tuned "X=1" --shape $s --scheme online --panel 1024 --check-every 1 --inject-at 100,200@3
run fq1_pick "GIGACHECK_NO_GEMM_TUNING=1" --shape $s --scheme online --panel 1024 --check-every 1 --inject-at 100,200@3
run fq4_tuned "X=1" --shape $s --scheme online --panel 1024 --check-every 4 --inject-at 100,200@3
grep -E "^== |SPAN|running at once|GEMM kernel|lean|fused" "$OUT/traces_tuned.txt"
