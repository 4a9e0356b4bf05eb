#!/usr/bin/env bash
# Device call: every GPU test program and four campaigns of a prebuilt side (build-carry/bin-all.tar.xz,
# folder bin-SIDE: the CLI, its two libraries, the tst_cuda_* programs, built on the build machine for
# sm_90), each test within what LIMIT leaves; the outcome tables of the campaigns.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
side=${SIDE:-final}
rm -rf /tmp/bin-$side && tar xJf build-carry/bin-all.tar.xz -C /tmp
export LD_LIBRARY_PATH=/tmp/bin-$side:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in /tmp/bin-$side/tst_cuda_*; do
  name=$(basename $t)
  budget=$(( ${LIMIT:-400} - ${KEEP_S:-60} - SECONDS )); [ $budget -gt 100 ] && budget=100
  [ $budget -gt 5 ] || { echo "$name not run: no time left"; continue; }
  start=$SECONDS
  timeout $budget $t > $OUT/$name.txt 2>&1
  echo "$name exit $? ($(( SECONDS - start )) s): $(grep -E '^Totals' $OUT/$name.txt)"; grep -E '^FAIL' -A3 $OUT/$name.txt | head -8
done
cli=/tmp/bin-$side/gigacheck
for args in "--type f32" "--type tf32 --gemm cutlass-tf32" "--type bf16" "--type f16"; do
  [ $(( ${LIMIT:-400} - SECONDS )) -gt 15 ] || break
  timeout 60 $cli campaign --backend cuda $args --shape 512x512x512 --runs 300 --target result > $OUT/campaign_${args//[ -]/_}.txt 2>&1
  echo "== campaign $args exit $?"; grep -iE "^ *(masked|corrected|detected|silent|false|SDC|DUE)" $OUT/campaign_${args//[ -]/_}.txt | head -8
done
