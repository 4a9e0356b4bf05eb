#!/usr/bin/env bash
# Device call M: call_k.sh with every GPU test (TESTS) and the benches named by TYPES / ONLINE.
T=$(ls tests/gpu/tst_cuda_*.cpp | xargs -n1 basename | sed 's/\.cpp$//' | tr '\n' ' ')
export TESTS="${TESTS-$T}"
exec bash resources/results/one_check_kernel_H200/call_k.sh
