#!/usr/bin/env bash
# Device call for driver_launch.patch: the fused CUTLASS kernels and the reset before them launched
# through the driver. Binaries: build-carry/bin-all.tar.xz with bin-main (main's engine and its GPU
# test programs) and bin-drv2 (the patch's engine, main's test programs and tst_cuda_driver_launch),
# built on the build machine for sm_90 (see resources/results/README.md, forty-first session, for
# the commands). Runs the patch's GPU tests that launch CUTLASS kernels or the reset (SKIP_TESTS
# leaves out the others), campaigns while CAMPAIGNS_UNTIL_S allows, one traced BF16 bench of the
# patch (launch_gaps.py reads its trace: the GEMM's launch call and the GPU's idle time before it),
# then `bench abft-overhead` at 4096 for BF16, FP16 and TF32, main and the patch alternated.
# Paired medians: python3 resources/results/check_launch_tail/paired_medians.py main drv2 ARCHIVES
here=resources/results
others="tst_cuda_b_transposed tst_cuda_backend tst_cuda_check_sums tst_cuda_checker_faults tst_cuda_devices
tst_cuda_gallery tst_cuda_gemm_workspace tst_cuda_kernels tst_cuda_measure_progress tst_cuda_multi_device_gemm
tst_cuda_multi_gpu_strassen tst_cuda_operand_checks tst_cuda_panel_increments tst_cuda_screened_checks tst_cuda_strassen
tst_cuda_warmup"
TEST_SIDE=drv2 SKIP_TESTS="${SKIP_TESTS-$(echo $others)}" SIDES="main drv2" TRACE=${TRACE-BF16} TRACE_SIDES=drv2 \
  SIZE=${SIZE:-4096} TYPES=${TYPES:-BF16,FP16,TF32} REPS=${REPS:-100} TESTS_UNTIL_S=${TESTS_UNTIL_S:-200} \
  CAMPAIGNS_UNTIL_S=${CAMPAIGNS_UNTIL_S:-260} exec bash $here/check_launch_tail/call.sh
