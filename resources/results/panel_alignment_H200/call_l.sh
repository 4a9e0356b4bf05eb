#!/usr/bin/env bash
# device call K: build NEW (gigacheck + $TESTS), GPU tests, CUPTI traces (kernels and host calls) of
# bench abft-overhead $TRACE_TYPES --quick at $TRACE_SIZES with the host's time between the reset and
# the GEMM (host_gaps.py), bench abft-overhead ($TYPES), bench online ($ONLINE variants), then
# device_fused_blocks.sh ($BLOCKS); the
# extras packed into one file
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
$K/kernel_trace.sh /tmp/kernel_trace > /dev/null 2>>$L &
timeout 360 cmake --build /tmp/n/build -j16 --target gigacheck ${TESTS:-} > /tmp/n/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
grep -m3 -A8 "error" /tmp/n/build.txt | tee -a $L
wait
mkdir -p $OUT/more
for t in ${TESTS:-}; do
  timeout 120 /tmp/n/build/tests/$t > $OUT/more/$t.txt 2>&1; echo "$t exit $? at ${SECONDS}s: $(grep Totals $OUT/more/$t.txt)" | tee -a $L; grep -B1 -A4 "^FAIL" $OUT/more/$t.txt | head -40 >> $L
done
G=/tmp/n/build/app/cli/gigacheck
[ -n "${EXTRA:-}" ] && { G=$G K=$K bash $EXTRA >> $L 2>&1; echo "extra exit $? at ${SECONDS}s" >> $L; }
for n in ${TRACE_SIZES:-}; do
  KERNEL_TRACE_API=1 KERNEL_TRACE_OUT=/tmp/trace_$n.csv CUDA_INJECTION64_PATH=/tmp/kernel_trace/libkernel_trace.so GIGACHECK_BENCH_SIZES=$n GIGACHECK_BENCH_TYPES=${TRACE_TYPES:-TF32} timeout 120 $G bench abft-overhead --quick > $OUT/more/trace_bench_$n.txt 2>&1
  echo "trace $n exit $? at ${SECONDS}s" >> $L
  python3 $K/gaps.py /tmp/trace_$n.csv > $OUT/more/trace_gaps_$n.txt 2>&1
  python3 $K/host_gaps.py /tmp/trace_$n.csv resetKernel cutlass > $OUT/more/host_gaps_$n.txt 2>&1
  cat $OUT/more/host_gaps_$n.txt >> $L
  python3 $K/prepared_breakdown.py /tmp/trace_$n.csv >> $L 2>&1
  cp /tmp/trace_$n.csv $OUT/more/
done
left=$(( ${DEADLINE:-570} - SECONDS ))
[ $left -gt 30 ] && [ -n "${TYPES:-}" ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_TYPES=$TYPES timeout $left $G bench abft-overhead > $OUT/bench_abft.txt 2>&1; echo "abft $TYPES exit $? at ${SECONDS}s" >> $L; }
left=$(( ${DEADLINE:-570} - SECONDS ))
[ $left -gt 30 ] && [ -n "${ONLINE:-}" ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_VARIANTS=$ONLINE timeout $left $G bench online > $OUT/bench_online.txt 2>&1; echo "online $ONLINE exit $? at ${SECONDS}s" >> $L; }
left=$(( ${DEADLINE:-570} - SECONDS ))
if [ $left -gt 60 ] && [ -n "${BLOCKS:-}" ]; then
  (cd /tmp/n/src && GIGACHECK_COMMIT=${COMMIT:-?} OUT=$OUT/more/fused_blocks CLI=$G REPS=${REPS:-2} SIZES="$BLOCKS" timeout $left bash resources/results/device_fused_blocks.sh > /dev/null 2>&1)
  echo "fused blocks exit $? at ${SECONDS}s" >> $L
  cp $OUT/more/fused_blocks/fused_blocks_table.txt $OUT/ 2>/dev/null
fi
tar cJf $OUT/more.tar.xz -C $OUT more && rm -rf $OUT/more
cat $L
