#!/usr/bin/env bash
# Device call: where the check kernel's time goes with one fault and without. Nsight Compute's warp-state
# samples per SASS instruction of every decideKernel launch in `run --type bf16` at 4096 (warm-up checks,
# then the product's, launch 12 on an H100), clean and with a fault in C (binaries as call.sh's PREBUILT:
# build-carry/bin-new.tar.xz), then ncu_regions.py on the two exports.
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
rm -rf /tmp/bin-new && tar xJf build-carry/bin-new.tar.xz -C /tmp
export LD_LIBRARY_PATH=/tmp/bin-new:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $ncu"; $ncu --version | tail -1
for kind in clean fault; do
  extra=""; [ $kind = fault ] && extra="--inject-at 1000,2000:1000"
  timeout 120 $ncu --clock-control none --kernel-name regex:decideKernel --launch-count 16 \
    --section WarpStateStats --section SourceCounters --section LaunchStats --warp-sampling-interval 0 \
    -f -o $OUT/decide_$kind /tmp/bin-new/gigacheck run --type bf16 --shape ${SHAPE:-4096x4096x4096} \
    --reference none $extra > $OUT/run_$kind.txt 2>&1
  echo "== $kind exit $?"; grep -E "verdict|corrected|==PROF==|Error" $OUT/run_$kind.txt | head -5
  $ncu -i $OUT/decide_$kind.ncu-rep --page details --print-units base 2>&1 | grep -E "decideKernel|Duration|Elapsed Cycles" | head -8
  $ncu -i $OUT/decide_$kind.ncu-rep --page source --csv --print-source sass > $OUT/sass_$kind.csv 2> $OUT/sass_$kind.err
  echo "sass rows: $(wc -l < $OUT/sass_$kind.csv)"; head -c 600 $OUT/sass_$kind.err
  xz -9 $OUT/sass_$kind.csv && rm -f $OUT/decide_$kind.ncu-rep  # a call returns files of limited size
done
python3 resources/results/fault_row_16bit/ncu_regions.py $OUT/sass_clean.csv.xz $OUT/sass_fault.csv.xz ${LAUNCH:-12}
