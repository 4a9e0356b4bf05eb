#!/usr/bin/env bash
# Device call: the check launched as a programmatic dependent (side pdl); on top of it, the check
# rebuilding faulty checksums itself so that nothing is launched after a clean check (side tail);
# on top of that, the check's rehearsal while the kernel before it runs (side warm); against main.
# Every GPU test program of TEST_SIDE (build-carry/bin-all.tar.xz, folder bin-TEST_SIDE, built on the
# build machine for sm_90; the packed test programs are in bin-warm; tst_cuda_strassen_verdict is
# left out, it alone takes ~140 s; SKIP_TESTS names more), each until TESTS_UNTIL_S; campaigns into
# the checksums and into C until CAMPAIGNS_UNTIL_S; then fault_row_16bit/call.sh's trace (TRACE,
# TRACE_SIDES) and alternated benches of SIDES within LIMIT.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
here=resources/results
rm -rf /tmp/bin-* && tar xJf build-carry/bin-all.tar.xz -C /tmp
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
side=${TEST_SIDE:-warm}
export LD_LIBRARY_PATH=/tmp/bin-$side:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for t in /tmp/bin-$side/tst_cuda_*; do
  name=$(basename $t)
  case " ${SKIP_TESTS:-} " in *" $name "*) continue ;; esac
  budget=$(( ${TESTS_UNTIL_S:-200} - SECONDS )); [ $budget -gt 60 ] && budget=60
  [ $budget -gt 5 ] || { echo "$name not run: no time left"; continue; }
  start=$SECONDS
  timeout $budget $t > $OUT/$name.txt 2>&1
  echo "$name exit $? ($(( SECONDS - start )) s): $(grep -E '^Totals' $OUT/$name.txt)"; grep -E '^FAIL' -A3 $OUT/$name.txt | head -8
done
cli=/tmp/bin-$side/gigacheck
for target in checksum result; do
  for args in "--type bf16" "--type f32" "--family online --type tf32" "--type f16" "--type tf32"; do
    [ $(( ${CAMPAIGNS_UNTIL_S:-290} - SECONDS )) -gt 10 ] || break 2
    f=$OUT/campaign_${target}_${args//[ -]/_}.txt
    timeout 40 $cli campaign --backend cuda $args --shape 512x512x512 --runs ${RUNS:-200} --target $target > $f 2>&1
    echo "== campaign $target $args exit $? at ${SECONDS}s"; grep -iE "^ *(masked|corrected|detected|silent|false|SDC|DUE)" $f | head -8
  done
done
unset LD_LIBRARY_PATH
LIMIT=$(( ${LIMIT:-570} - SECONDS )) PREBUILT=1 TESTS= bash $here/fault_row_16bit/call.sh
