#!/usr/bin/env bash
# Device call for the figures the targets are stated on (an H200): main's GPU tests and
# campaigns (build-carry/bin-all.tar.xz, folder bin-main with its GPU test programs, built on the
# build machine for sm_90), then `bench abft-overhead` at 4096, 8192 and 16384 for BF16, FP16 and TF32,
# main alone, as many processes as LIMIT leaves. Medians per size:
#   MEDIANS_SIZES=4096,8192,16384 python3 resources/results/fault_row_16bit/medians16.py FOLDER
here=resources/results
TEST_SIDE=main SIDES=main TRACE= SIZE=${SIZE:-4096,8192,16384} TYPES=${TYPES:-BF16,FP16,TF32} \
  REPS=${REPS:-100} exec bash $here/check_launch_tail/call.sh
