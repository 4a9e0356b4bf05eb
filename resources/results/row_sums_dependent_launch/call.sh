#!/usr/bin/env bash
# Device call: C's row sums after the 16-bit GEMM, against main's engine (side main):
#   gdc    the pass that adds the row sums' partials as a programmatic dependent of the GEMM
#          (CUTLASS's grid dependency control in the 16-bit kernels, addRowSumPartials launched with
#          the attribute);
#   fold   gdc + the check adding the partials itself beside the side products (no pass between
#          the GEMM and the check; the fault taken with them);
#   nojoin gdc + no_join_probe.patch, a probe only: with GIGACHECK_PROBE_NO_JOIN set (here, for every
#          side; only nojoin reads it) the check is not ordered after the checksum products beside the
#          kernel, so its clean rows show how long the check waits for them.
# build-carry/bin-all.tar.xz holds bin-main, bin-gdc, bin-nojoin and bin-fold (with the GPU test
# programs), built on the build machine for sm_90. Runs check_launch_tail/call.sh: fold's GPU tests,
# campaigns, a trace per side, alternated benches.
here=resources/results
TEST_SIDE=${TEST_SIDE:-fold} TRACE_SIDES=${TRACE_SIDES:-"fold main"} SIDES=${SIDES:-"fold gdc main nojoin"} \
  GIGACHECK_PROBE_NO_JOIN=1 TYPES=${TYPES:-BF16,FP16,TF32} exec bash $here/check_launch_tail/call.sh
