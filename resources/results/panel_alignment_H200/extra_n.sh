#!/usr/bin/env bash
# Online TF32 campaigns on the GPU (cuBLAS TF32 panels, now on 128-byte rows): bit flips in C, and
# clean runs, odd and even shapes.
set -u
for s in 1024x1024x1024 1000x1001x1003; do
  timeout 150 $G campaign --family online --type tf32 --runs 300 --shape $s --panel 128 --backend cuda --seed 7 2>&1 | tail -6
  echo "campaign $s exit $?"
done
