#!/usr/bin/env bash
# Device call: build build-carry/new.tar.xz (CLI + every GPU test), run the GPU tests (FIRST first),
# then `bench abft-overhead` for TYPES at SIZES with the CUTLASS tuner's log (every configuration's
# time per shape, tuning.txt): the 16-bit prepared rows time C's checksum column by the kernel and
# by the pass in the same process; the log times the ping-pong configurations beside the others.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
rm -f build-carry/old.tar.xz
GIGACHECK_COMMIT=${NEW_COMMIT:-?} FIRST="${FIRST:-}" DEADLINE=${BUILD_DEADLINE:-330} \
  OUT=$OUT $here/device_release_check.sh build tests > /dev/null 2>&1
grep -v "not built" $OUT/release_log.txt
C=/tmp/release-new/build/app/cli/gigacheck
left() { echo $(( ${LIMIT:-560} - SECONDS )); }
if [ "$(left)" -gt 60 ] && [ -n "${TYPES:-BF16,FP16}" ]; then
  GIGACHECK_CUTLASS_TUNING_LOG=1 GIGACHECK_BENCH_TYPES=${TYPES:-BF16,FP16} GIGACHECK_BENCH_SIZES=${SIZES:-4096,8192} \
    timeout $(( $(left) - 10 )) $C bench abft-overhead > $OUT/bench.txt 2> $OUT/tuning.txt
  echo "bench exit $? at ${SECONDS}s"
  grep -E "^ *[0-9]+ .*(met|MISSED)|operands|column" $OUT/bench.txt | cut -c1-230 | head -60
  grep -iE "bf16|fp16|tf32" $OUT/tuning.txt | cut -c1-300 | head -40
fi
