#!/usr/bin/env bash
# device call H: build NEW (gigacheck + $TESTS), GPU tests, bench abft-overhead BF16/FP16 ($TYPES),
# bench online ($VARIANTS), then bench abft-overhead TF32 if time is left (ABFT=1)
set -u
source .carry-qt/device-env.sh > /dev/null
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L
echo "commit ${COMMIT:-?}" >> $L
sum=$(sha1sum build-carry/new.tar.xz | cut -c1-12)
if [ "$(cat /tmp/n/sum 2>/dev/null)" != "$sum" ]; then
  mkdir -p /tmp/n && rm -rf /tmp/n/src && tar xJf build-carry/new.tar.xz -C /tmp/n && echo $sum > /tmp/n/sum
  cmake -S /tmp/n/src -B /tmp/n/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
    -DGIGACHECK_CUTLASS_ARCHIVE=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz -DCMAKE_PREFIX_PATH="$QT6CARRY_CMAKE" > /tmp/n/conf.txt 2>&1 || tail -20 /tmp/n/conf.txt
fi
K=/tmp/n/src/resources/results/probes/kernel_trace
[ -n "${TRACE:-}" ] && { $K/kernel_trace.sh /tmp/kernel_trace > /dev/null 2>>$L & }
timeout 360 cmake --build /tmp/n/build -j16 --target gigacheck $TESTS > /tmp/n/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
grep -m3 -A8 "error" /tmp/n/build.txt | tee -a $L
for t in $TESTS; do
  timeout 120 /tmp/n/build/tests/$t > $OUT/$t.txt 2>&1; echo "$t exit $? at ${SECONDS}s: $(grep Totals $OUT/$t.txt)" | tee -a $L; grep -B1 -A4 "^FAIL" $OUT/$t.txt | head -40 >> $L
done
G=/tmp/n/build/app/cli/gigacheck
wait
if [ -n "${TRACE:-}" ]; then
  KERNEL_TRACE_OUT=/tmp/trace_bench.csv CUDA_INJECTION64_PATH=/tmp/kernel_trace/libkernel_trace.so GIGACHECK_BENCH_SIZES=$TRACE GIGACHECK_BENCH_TYPES=${TRACE_TYPES:-BF16} timeout 120 $G bench abft-overhead --quick > $OUT/trace_bench.txt 2>&1
  echo "trace exit $? at ${SECONDS}s" >> $L
  python3 - /tmp/trace_bench.csv > $OUT/trace_kernels.txt <<'PY'
import csv, sys, collections
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['kind'] != 'C']
agg = collections.defaultdict(lambda: [0, 0, '', []])
for r in rows:
    a = agg[r['name'][:120]]; d = int(r['end_ns']) - int(r['start_ns']); a[0] += 1; a[1] += d; a[3].append(d); a[2] = f"{r['grid']} x {r['block']} regs {r['regs_or_copykind']}"
for n, (c, t, g, ds) in sorted(agg.items(), key=lambda x: -x[1][1])[:34]:
    ds.sort()
    print(f"{t/1e6:9.3f} ms  x{c:4d}  avg {t/c/1e3:9.1f} us  min {ds[0]/1e3:8.1f}  median {ds[len(ds)//2]/1e3:8.1f}  {g}  {n}")
PY
fi
left=$(( ${DEADLINE:-585} - SECONDS ))
[ $left -gt 30 ] && [ -n "${TYPES:-}" ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_TYPES=$TYPES timeout $left $G bench abft-overhead > $OUT/bench_abft_16.txt 2>&1; echo "abft $TYPES exit $? at ${SECONDS}s" >> $L; }
left=$(( ${DEADLINE:-585} - SECONDS ))
[ $left -gt 40 ] && [ -n "${VARIANTS:-}" ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_VARIANTS=$VARIANTS timeout $left $G bench online > $OUT/bench_online.txt 2>&1; echo "bench online $VARIANTS exit $? at ${SECONDS}s" >> $L; }
left=$(( ${DEADLINE:-585} - SECONDS ))
[ $left -gt 40 ] && [ -n "${ABFT:-}" ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_TYPES=TF32 timeout $left $G bench abft-overhead > $OUT/bench_abft_tf32.txt 2>&1; echo "abft tf32 exit $? at ${SECONDS}s" >> $L; }
cat $L
