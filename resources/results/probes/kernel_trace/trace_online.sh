#!/bin/bash
# Issue 9: kernel traces (CUPTI, kernel_trace.cpp) of plain and online runs at 8192^3 and 16384^3 on the
# device, each summarized by summarize.py; then `bench online` at 8192 (timing) with the SM clock and
# power logged every 100 ms beside it. Run after `device_run.sh build`; writes under $OUT.
set -u
OUT=${OUT:-/tmp/gigacheck-out}
here=$(cd "$(dirname "$0")" && pwd)
CLI=${GIGACHECK_CLI:-build/app/cli/gigacheck}
lib=$("$here/kernel_trace.sh" /tmp/kernel_trace) || exit 1
run() {  # name, args...
    local name=$1; shift
    KERNEL_TRACE_OUT=/tmp/trace_$name.csv CUDA_INJECTION64_PATH=$lib $CLI run --backend cuda --reference none --quiet "$@"
    echo "== $name: exit $? ($*)" | tee -a "$OUT/traces.txt"
    python3 "$here/summarize.py" /tmp/trace_$name.csv 70 >> "$OUT/traces.txt" 2>&1
}
for n in 8192 16384; do
    s=${n}x${n}x${n}
    run plain_$n --shape $s --no-abft
    run online_fq1_$n --shape $s --scheme online --panel 1024 --check-every 1 --inject-at 100,200@3
    run online_fq4_$n --shape $s --scheme online --panel 1024 --check-every 4 --inject-at 100,200@3
    run offline_$n --shape $s --scheme offline --panel 1024 --inject-at 100,200@3
done
gzip -c /tmp/trace_online_fq1_8192.csv > "$OUT/trace_online_fq1_8192.csv.gz"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > "$OUT/smi_bench_online.csv" 2>&1 &
smi=$!
GIGACHECK_BENCH_SIZES=8192 GIGACHECK_BENCH_VARIANTS=timing timeout 240 $CLI bench online > "$OUT/bench_online_8192.txt" 2>&1
echo "bench exit $?" >> "$OUT/bench_online_8192.txt"
kill $smi
