#!/usr/bin/env bash
# On the GPU machine (Qt carried in .carry-qt/: ../shared/device/README.md): build the CLI and the
# 16-bit GPU tests (GUI off, sm_90, no CUTLASS needed), then --type bf16 / f16 on the device: fault
# cases of `gigacheck run`, `bench abft-overhead` for BF16 / FP16 at 4096 and 8192 (protected vs
# plain cuBLAS of the same precision, in one process), tst_cuda_16bit and tst_cuda_measure_progress.
# Every step has its own timeout and the whole stays under DEADLINE seconds (default 290); all
# output lands in $OUT (log: bf16_log.txt).
# Usage: OUT=dir [BUILD=dir] [DEADLINE=s] resources/results/device_bf16.sh
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-bf16}
mkdir -p "$OUT"
log="$OUT/bf16_log.txt"
build=${BUILD:-build-bf16}
deadline=${DEADLINE:-290}
step() { echo "=== $* ($(date -u +%H:%M:%S), ${SECONDS}s)" | tee -a "$log"; }
left() { echo $(( deadline - SECONDS )); }  # seconds left in the budget
[ -f .carry-qt/device-env.sh ] && source .carry-qt/device-env.sh

step "configure and build ($build)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> "$log" 2>&1
git log -1 --format='commit %h' >> "$log" 2>&1 || echo "commit ${GIGACHECK_COMMIT:-unknown}" >> "$log"
timeout 60 cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF > "$OUT/configure.txt" 2>&1 ||
  { tail -30 "$OUT/configure.txt" | tee -a "$log"; exit 1; }
timeout $(( $(left) - 70 )) cmake --build $build -j16 --target gigacheck tst_cuda_16bit tst_cuda_measure_progress \
  > "$OUT/build.txt" 2>&1 || { grep -B2 -A20 -E "error|FAILED" "$OUT/build.txt" | head -60 | tee -a "$log"; tail -3 "$OUT/build.txt" | tee -a "$log"; exit 1; }
cli=$build/app/cli/gigacheck
timeout 20 $cli devices 2>&1 | tail -4 >> "$log"

step "gigacheck run --type bf16|f16 --backend cuda: fault cases"
for type in bf16 f16; do
  for args in "--shape 1000x777x513 --errors 1" "--shape 4096x4096x4096 --errors 1" \
              "--shape 3001x1531x1409 --strategy s3 --mem 40MB --errors 2" "--shape 2000x1500x1800 --fault bitflip:30 --errors 3" \
              "--shape 2048x2048x2048 --no-abft" "--shape 1024x1024x1024 --scheme blocked --strategy s4 --mem 16MB --errors 1 --dist wide"; do
    [ "$(left)" -gt 60 ] || { echo "-- $type $args: not run (time)" >> "$log"; continue; }
    echo "-- run --backend cuda --type $type $args" | tee -a "$OUT/run_${type}.txt" >> "$log"
    timeout 30 $cli run --backend cuda --type $type $args > /tmp/run_16bit.txt 2>&1; echo "   exit $?" >> "$log"
    cat /tmp/run_16bit.txt >> "$OUT/run_${type}.txt"
    grep -E "Verdict|Reference check|injected|error:" /tmp/run_16bit.txt >> "$log"
  done
done
echo "-- f16 operand beyond 65504 (expect exit 2)" >> "$log"
npy() {  # npy FILE ROWS COLS [BIG_ROW BIG_COL]: float32 ones (one cell 7e4), NumPy format 1.0, stdlib only
  python3 - "$@" <<'PY'
import struct, sys
path, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
big = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else None
head = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
head += " " * (63 - (10 + len(head)) % 64) + "\n"
vals = [7e4 if big == (i, j) else 1.0 for i in range(rows) for j in range(cols)]
open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() + struct.pack("<%df" % len(vals), *vals))
PY
}
npy "$OUT/big.npy" 64 32 3 5 2>>"$log" && npy "$OUT/b.npy" 32 16 2>>"$log" &&
  { timeout 20 $cli run --backend cuda --type f16 --load-a "$OUT/big.npy" --load-b "$OUT/b.npy" >> "$log" 2>&1; echo "   exit $?" >> "$log"; }

step "bench abft-overhead BF16, FP16 at 4096, 8192 (21 repetitions, 0 and 1 fault)"
GIGACHECK_BENCH_TYPES=BF16,FP16 GIGACHECK_BENCH_SIZES=4096,8192 timeout $(( $(left) - 45 > 20 ? $(left) - 45 : 20 )) \
  $cli bench abft-overhead --json "$OUT/bench_abft_16bit.json" > "$OUT/bench_abft_16bit.txt" 2>&1
echo "exit $?" >> "$log"
sed -n '/ABFT overhead/,/ABFT stages alone/p' "$OUT/bench_abft_16bit.txt" | tee -a "$log"

step "GPU tests"
for t in tst_cuda_16bit tst_cuda_measure_progress; do
  [ "$(left)" -gt 10 ] || { echo "$t not run: out of time" | tee -a "$log"; continue; }
  timeout $(left) $build/tests/$t > "$OUT/$t.txt" 2>&1; echo "$t exit $?" | tee -a "$log"
  grep -E "Totals|FAIL|SKIP|QINFO" "$OUT/$t.txt" | head -20 >> "$log"
done
timeout 10 $cli devices 2>&1 | grep -i "ceilings" >> "$log"
step done
