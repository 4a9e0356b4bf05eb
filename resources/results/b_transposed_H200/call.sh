#!/usr/bin/env bash
# Device call (thirty-third session): fault_check_H100/probe.sh (the verdict-writes probe), then
# launch_front_H100/call.sh (new and old built, the GPU tests in TESTS, REPS rounds of `bench
# abft-overhead` at TYPES / SIZES, old and new alternated, until LIMIT), then step_sums_H100/trace.sh
# on the new build (TRACES, `bench online` at ONLINE), then, while OLD_ONLINE_BY (seconds into the
# call) is not past, the old build's `bench online` at ONLINE too. Everything is packed into $OUT/all.tar.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
$here/fault_check_H100/probe.sh
$here/launch_front_H100/call.sh
NO_BUILD=1 $here/step_sums_H100/trace.sh
OLD=/tmp/release-old/build/app/cli/gigacheck
for n in ${ONLINE:-}; do
  [ -x $OLD ] && [ $SECONDS -lt ${OLD_ONLINE_BY:-480} ] || break
  GIGACHECK_BENCH_VARIANTS=tf32 GIGACHECK_BENCH_SIZES=$n timeout 100 $OLD bench online > $OUT/bench_online_old_$n.txt 2>&1
  echo "== old bench online $n exit $? at ${SECONDS}s"
  grep -E "^cu" $OUT/bench_online_old_$n.txt | cut -c1-140 | head -8
done
cd $OUT && tar cf all.tar --remove-files $(ls | grep -v '^all.tar$')
