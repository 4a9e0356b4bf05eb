#!/usr/bin/env bash
# tf32x3 with the two small terms as one product of twice the depth: bench kernels' tf32x3 rows
# (plain tf32x3 against cuBLAS SGEMM, errors against FP64) and one online bit-flip sweep again.
set -u
GIGACHECK_BENCH_TYPES=tf32x3 timeout 200 $G bench kernels 2>&1 | grep -v "^$" | tail -30
for bit in 18 19 20 24 30; do
  timeout 60 $G run --shape 1000x1203x761 --scheme online --gemm tf32x3 --panel 256 --backend cuda \
    --inject-at 100,200@2 --fault bitflip:$bit --reference full > /tmp/o.txt 2>&1
  echo "bit $bit exit $? | $(grep -m1 'check after step 2' /tmp/o.txt | sed 's/^ *//') | $(grep -m1 'reference:' /tmp/o.txt | sed 's/^ *//')"
done
