#!/usr/bin/env bash
# PROBE: bench abft-overhead TF32 at 8192 with the kernel's dot products on both sides / B^T only / A only / none
set -u
source .carry-qt/device-env.sh > /dev/null
L=$OUT/log.txt
sum=$(sha1sum build-carry/new.tar.xz | cut -c1-12)
if [ "$(cat /tmp/n/sum 2>/dev/null)" != "$sum" ]; then
  mkdir -p /tmp/n && rm -rf /tmp/n/src && tar xJf build-carry/new.tar.xz -C /tmp/n && echo $sum > /tmp/n/sum
  cmake -S /tmp/n/src -B /tmp/n/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
    -DGIGACHECK_CUTLASS_ARCHIVE=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz -DCMAKE_PREFIX_PATH="$QT6CARRY_CMAKE" > /tmp/n/conf.txt 2>&1 || tail -20 /tmp/n/conf.txt
fi
timeout 360 cmake --build /tmp/n/build -j16 --target gigacheck > /tmp/n/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
grep -m3 -A8 "error" /tmp/n/build.txt | tee -a $L
G=/tmp/n/build/app/cli/gigacheck
for sides in ${SIDES:-0 1 2 3}; do
  GIGACHECK_DOTS_PROBE=$sides GIGACHECK_BENCH_SIZES=${SIZES:-8192} GIGACHECK_BENCH_TYPES=TF32 timeout 100 $G bench abft-overhead --quick > $OUT/probe_sides_$sides.txt 2>&1
  echo "sides $sides exit $? at ${SECONDS}s" >> $L
  sed -n '/^N      errors  plain cuBLAS TF32 ms  entry/,/N = /p' $OUT/probe_sides_$sides.txt >> $L
done
cat $L
