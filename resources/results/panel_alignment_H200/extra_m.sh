#!/usr/bin/env bash
# The CUTLASS tuners' timings (GIGACHECK_CUTLASS_TUNING_LOG): 16-bit at 4096 / 8192 / 16384 (the
# prepared products' shapes), and the online panels (16384 x 1024 x 16384, accumulating) BF16 / TF32.
set -u
export GIGACHECK_CUTLASS_TUNING_LOG=1
for n in 4096 8192 16384; do
  GIGACHECK_BENCH_SIZES=$n GIGACHECK_BENCH_TYPES=BF16,FP16 timeout 120 $G bench abft-overhead --quick 2>&1 | grep "cutlass tuning"
done
for t in "--type bf16" "--gemm cutlass-tf32"; do
  timeout 120 $G run --backend cuda --reference none --quiet --shape 16384x16384x16384 --scheme online --panel 1024 --check-every 1 $t 2>&1 | grep -E "cutlass tuning|verified"
done
