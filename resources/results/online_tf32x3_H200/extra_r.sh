#!/usr/bin/env bash
# tf32x3 campaigns on the GPU: one bit flip per run (any bit), blocked (every strategy, --target any)
# and online (fq 1, b = 128, --target result and checksum), and clean online runs.
set -u
timeout 60 $G campaign --family blocked --type tf32x3 --runs 300 --shape 1000x1001x1003 --strategy all --target result --backend cuda --seed 7 2>&1 | sed -n 2,11p
timeout 60 $G campaign --family online --type tf32x3 --runs 300 --shape 1000x1001x1003 --panel 128 --backend cuda --seed 7 2>&1 | sed -n 2,11p
timeout 60 $G campaign --family online --type tf32x3 --runs 200 --shape 1024x1024x1024 --panel 128 --target checksum --backend cuda --seed 8 2>&1 | sed -n 2,11p
timeout 60 $G campaign --family online --type tf32x3 --runs 200 --shape 1000x1001x1003 --panel 128 --fault none --backend cuda --seed 9 2>&1 | sed -n 2,11p
