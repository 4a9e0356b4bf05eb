#!/usr/bin/env bash
# Device call N: tst_cuda_strassen_verdict with room for its clean sweep, then bench online (TF32, tf32x3) at 16384.
set -u
source .carry-qt/device-env.sh > /dev/null
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L
echo "commit ${COMMIT:-?}" >> $L
mkdir -p /tmp/n && rm -rf /tmp/n/src && tar xJf build-carry/new.tar.xz -C /tmp/n
cmake -S /tmp/n/src -B /tmp/n/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
  -DGIGACHECK_CUTLASS_ARCHIVE=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz -DCMAKE_PREFIX_PATH="$QT6CARRY_CMAKE" > /tmp/n/conf.txt 2>&1 || tail -20 /tmp/n/conf.txt
timeout 300 cmake --build /tmp/n/build -j16 --target gigacheck tst_cuda_strassen_verdict > /tmp/n/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
timeout 240 /tmp/n/build/tests/tst_cuda_strassen_verdict > $OUT/tst_cuda_strassen_verdict.txt 2>&1; echo "tst_cuda_strassen_verdict exit $? at ${SECONDS}s: $(grep Totals $OUT/tst_cuda_strassen_verdict.txt)" | tee -a $L
left=$(( 570 - SECONDS ))
[ $left -gt 40 ] && { GIGACHECK_COMMIT=${COMMIT:-?} GIGACHECK_BENCH_SIZES=16384 GIGACHECK_BENCH_VARIANTS=tf32,tf32x3 timeout $left /tmp/n/build/app/cli/gigacheck bench online > $OUT/bench_online.txt 2>&1; echo "online exit $? at ${SECONDS}s" >> $L; }
cat $L
