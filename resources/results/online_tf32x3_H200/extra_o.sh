#!/usr/bin/env bash
# Online ABFT with --gemm tf32x3 on the GPU through the CLI, every run with the full reference: one
# bit flip in C after step 2 at every bit 0..31 (odd shape), clean runs at odd shapes, and the
# configurations the device path refuses (one line each).
set -u
for bit in $(seq 0 31); do
  timeout 60 $G run --shape 1000x1203x761 --scheme online --gemm tf32x3 --panel 256 --backend cuda \
    --inject-at 100,200@2 --fault bitflip:$bit --reference full > /tmp/o.txt 2>&1
  echo "bit $bit exit $? | $(grep -m1 'check after step 2' /tmp/o.txt | sed 's/^ *//') | $(grep -m1 'reference:' /tmp/o.txt | sed 's/^ *//')"
done
for s in 1000x1203x761 2048x2048x2048 3001x1500x2999 4096x4096x4096; do
  timeout 60 $G run --shape $s --scheme online --gemm tf32x3 --panel 512 --backend cuda --reference full > /tmp/o.txt 2>&1
  echo "clean $s exit $? | $(grep -m1 'checks:' /tmp/o.txt | sed 's/^ *//') | $(grep -m1 'reference:' /tmp/o.txt | sed 's/^ *//')"
done
timeout 60 $G run --shape 1024x1024x1024 --scheme offline --gemm tf32x3 --panel 256 --backend cuda --inject-at 5,6@1 --reference full > /tmp/o.txt 2>&1
echo "offline exit $?"; grep -E "check after|recompute|panel GEMM|verdict" /tmp/o.txt
for extra in "--checksums 2" "--target a --inject-at 3,4@1" "--column-blocks 2"; do
  timeout 60 $G run --shape 1024x1024x8192 --scheme online --gemm tf32x3 --panel 256 --backend cuda $extra > /tmp/o.txt 2>&1
  echo "refused? ($extra) exit $?: $(head -c 300 /tmp/o.txt)"
done
timeout 60 $G run --shape 2048x2048x2048 --scheme online --gemm tf32x3 --panel 512 --backend cuda --inject-at 7,8@1 --json /tmp/o.json > /tmp/o.txt 2>&1
echo "record exit $?"; grep -E "panel GEMM|verdict" /tmp/o.txt
