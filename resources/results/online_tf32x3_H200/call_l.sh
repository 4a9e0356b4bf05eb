#!/usr/bin/env bash
# Device call L (copied from ../panel_alignment_H200/): ../one_check_kernel_H200/call_k.sh (build from build-carry/new.tar.xz, GPU tests,
# traces, benches) with one addition -- the script named by EXTRA runs after the tests, with G (the
# CLI) and K (the kernel tracer's folder) set, its output in the log. Run from the repository root
# as call_k.sh is.
here=$(cd "$(dirname "$0")" && pwd)
sed 's|^G=/tmp/n/build/app/cli/gigacheck$|G=/tmp/n/build/app/cli/gigacheck\n[ -n "${EXTRA:-}" ] \&\& { G=$G K=$K bash $EXTRA >> $L 2>\&1; echo "extra exit $? at ${SECONDS}s" >> $L; }|' \
    "$here/../one_check_kernel_H200/call_k.sh" > /tmp/call_l.sh
exec bash /tmp/call_l.sh
