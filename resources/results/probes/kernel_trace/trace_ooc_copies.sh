#!/bin/bash
# Issue 13 (the planner's s1 / s4 under 256 MiB predicted 13 % short, their H2D busy 20-36 % above the
# model): traced out-of-core runs at 16384^3 under 256 MiB, each copy's rate alone and beside a GEMM
# (copies.py) to set against the cost model's rate table (`devices --measure`). After `device_run.sh build`.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace) || exit 1
for s in s1 s2 s4; do
    KERNEL_TRACE_OUT=/tmp/trace_ooc_$s.csv CUDA_INJECTION64_PATH=$lib $CLI run --backend cuda --reference none \
        --shape 16384x16384x16384 --strategy $s --mem 256MiB --json /tmp/ooc_$s.json > /tmp/ooc_$s.txt 2>&1
    echo "== $s: exit $?" >> "$OUT/trace_ooc_copies.txt"
    grep -E "Plan|splits|blocks of|H2D|predicted|Average" /tmp/ooc_$s.txt | head -12 >> "$OUT/trace_ooc_copies.txt"
    python3 "$here/copies.py" /tmp/trace_ooc_$s.csv >> "$OUT/trace_ooc_copies.txt" 2>&1
done
cat "$OUT/trace_ooc_copies.txt"
