#!/usr/bin/env bash
# Online tf32x3: the error against the FP64 reference (the report's max error / tolerance, same
# tolerance for every row of one shape) for b = 1024 (the big product whole over each panel's depth)
# and b = 512, beside FP32 (cuBLAS SGEMM panels) and cublas-tf32; then the execute time of each at
# 16384 (second run of each, one process per run).
set -u
for s in 4096x4096x4096 2048x8192x2048; do
  for v in "cublas 1024" "tf32x3 1024" "tf32x3 512" "cublas 512" "cublas-tf32 1024"; do
    set -- $v
    timeout 120 $G run --shape $s --scheme online --gemm $1 --panel $2 --backend cuda --reference full > /tmp/o.txt 2>&1
    echo "$s $1 b=$2 exit $? | $(grep -m1 'reference:' /tmp/o.txt | sed 's/^ *//')"
  done
done
for v in "cublas 1024" "tf32x3 1024" "tf32x3 512"; do
  set -- $v
  for r in 1 2; do
    timeout 120 $G run --shape 16384x16384x16384 --scheme online --gemm $1 --panel $2 --backend cuda --reference none > /tmp/o.txt 2>&1
  done
  echo "16384 $1 b=$2 exit $? | $(grep -m1 'execute time' /tmp/o.txt | sed 's/^ *//') | $(grep -m1 'checks:' /tmp/o.txt | sed 's/^ *//')"
done
