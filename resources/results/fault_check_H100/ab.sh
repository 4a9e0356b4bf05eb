#!/usr/bin/env bash
# Device call (thirty-second session): probe.sh, then launch_front_H100/call.sh (new and old built,
# the GPU tests in TESTS, REPS rounds of `bench abft-overhead` at TYPES / SIZES, old and new
# alternated). Everything is packed into $OUT/all.tar.
set -u
here=resources/results
$here/fault_check_H100/probe.sh
$here/launch_front_H100/call.sh
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
