#!/usr/bin/env bash
# On the GPU machine: the blocked strategies with the fused CUTLASS kernel for their block products.
# Times `gigacheck run` (FP32 data, TF32 products: --gemm cublas-tf32 against --gemm cutlass-tf32,
# ABFT on, no reference) at N = 8192 and 16384, strategies s2 / s3 under a cap that cuts the
# matrices into blocks and none (the whole problem on the device, no cap: the in-core row), and
# prints one table from the runs' JSON records.
# Builds the CLI with the CUTLASS kernels first when $CLI is missing (as device_cutlass.sh does:
# Qt is not needed, CUTLASS carried in .carry-cutlass/ or found in ../shared/third_party/).
# Usage: OUT=dir [SIZES="8192 16384"] [STRATEGIES="none s2 s3"] [REPS=2] [MEM_8192=512MiB]
#        [MEM_16384=2GiB] [CLI=build-cutlass/app/cli/gigacheck] [BACKEND=cuda] resources/results/device_fused_blocks.sh
# (A dry run of the script here: CLI=build-release/app/cli/gigacheck BACKEND=cpu SIZES=256 MEM_256=200KB.)
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-fused-blocks}
mkdir -p "$OUT/records"
log="$OUT/fused_blocks_log.txt"
build=build-cutlass
CLI=${CLI:-$build/app/cli/gigacheck}
step() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$log"; }

if [ ! -x "$CLI" ]; then
  archive=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz
  [ -f "$archive" ] || archive=$(cd .. && pwd)/shared/third_party/cutlass-4.7.0.tar.xz
  step "build gigacheck (CUTLASS from $archive)"
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF \
    -DGIGACHECK_FUZZ=OFF -DGIGACHECK_CUTLASS_ARCHIVE="$archive" > "$OUT/build.txt" 2>&1 &&
    timeout 480 cmake --build $build -j${GIGACHECK_JOBS:-16} --target gigacheck >> "$OUT/build.txt" 2>&1 ||
    { grep -B2 -A20 "error" "$OUT/build.txt" | head -60 | tee -a "$log"; exit 1; }
  rm -f "$OUT/build.txt"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv >> "$log" 2>&1
echo "commit ${GIGACHECK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" | tee -a "$log"
"$CLI" devices 2>&1 | grep -i cutlass | tee -a "$log"

# The cap per size: A, B and C take 3 N^2 x 4 bytes (768 MiB at 8192, 3 GiB at 16384), so these
# caps make every strategy cut them into blocks.
cap_for() { local v="MEM_$1"; echo "${!v:-$([ "$1" -ge 16384 ] && echo 2GiB || echo 512MiB)}"; }

for n in ${SIZES:-8192 16384}; do
  mem=$(cap_for "$n")
  for strategy in ${STRATEGIES:-none s2 s3}; do
    for gemm in cublas-tf32 cutlass-tf32; do
      for rep in $(seq 1 "${REPS:-2}"); do
        record="$OUT/records/run_${n}_${strategy}_${gemm}_${rep}.json"
        step "run $n^3 --strategy $strategy $([ "$strategy" = none ] || echo "--mem $mem") --gemm $gemm (#$rep)"
        # none keeps the whole problem on the device: the in-core row, without the cap.
        cap=(--mem "$mem")
        [ "$strategy" = none ] && cap=()
        timeout 300 "$CLI" run --backend "${BACKEND:-cuda}" --shape ${n}x${n}x${n} --gemm "$gemm" --strategy "$strategy" \
          "${cap[@]}" --reference none --json "$record" 2>&1 | grep -E "Verdict|error|Error" | tee -a "$log"
      done
    done
  done
done

step "table"
python3 - "$OUT/records" <<'EOF' | tee -a "$log" "$OUT/fused_blocks_table.txt"
# One row per (N, strategy, GEMM): the median over the repetitions of the program's time
# (metrics.execute_seconds: first load to last store, host set-up left out), of the compute queue's
# busy time and of the block products' spans; the plan's blocks; whether the CUTLASS kernel takes
# every block (n and q of each block product in whole 16 bytes, cutlass_tf32_gemm.hpp
# cutlassTf32Fits; a block it cannot take runs cuBLAS TF32); cutlass / cublas of the program time.
import glob, json, os, statistics, sys
from collections import defaultdict

def steps(total, split, block):
    # The plan's steps along one dimension: `split` of at most `block`, the last one the rest.
    return [block] * (split - 1) + [total - block * (split - 1)]

runs = defaultdict(list)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "run_*.json"))):
    with open(path) as f:
        record = json.load(f)
    plan = record["blocked_gemm"]["plan"]
    config = record["blocked_gemm"]["config"]
    products = sum(s["end"] - s["start"] for s in record["spans"] if s["kind"] == "product")
    m = record["metrics"]
    key = (plan["shape"]["m"], plan["strategy"], config["gemm"])
    runs[key].append({
        "status": record["status"], "execute": m["execute_seconds"], "compute": m["queue_busy_seconds"]["compute"],
        "products": products, "gflops": m["gflops"],
        "blocks": f'{plan["split_m"]}x{plan["split_n"]}x{plan["split_q"]} of {plan["block_m"]}x{plan["block_n"]}x{plan["block_q"]}',
        "fused": all(x % 4 == 0 for x in steps(plan["shape"]["n"], plan["split_n"], plan["block_n"]) +
                     steps(plan["shape"]["q"], plan["split_q"], plan["block_q"])),
        "device": record["devices"][0]["name"]})

if not runs:
    print("no records")
    sys.exit(1)
print(f'device: {next(iter(runs.values()))[0]["device"]}')
head = f'{"N":>6} {"strategy":>8} {"gemm":>13} {"runs":>4} {"status":>6} {"blocks (m x n x q of ...)":>30} ' \
       f'{"CUTLASS takes all":>17} {"program ms":>10} {"compute ms":>10} {"products ms":>11} {"GFLOP/s":>8} {"vs cublas":>9}'
print(head)
median = lambda rs, k: statistics.median(r[k] for r in rs)
for key in sorted(runs):
    n, strategy, gemm = key
    rs = runs[key]
    base = runs.get((n, strategy, "cublas-tf32"))
    ratio = f'{median(rs, "execute") / median(base, "execute"):.3f}' if base and gemm != "cublas-tf32" else "-"
    status = "ok" if all(r["status"] == "ok" for r in rs) else "FAIL"
    fused = ("yes" if rs[0]["fused"] else "no") if gemm == "cutlass-tf32" else "-"
    print(f'{n:>6} {strategy:>8} {gemm:>13} {len(rs):>4} {status:>6} {rs[0]["blocks"]:>30} {fused:>17} '
          f'{median(rs, "execute") * 1e3:>10.2f} {median(rs, "compute") * 1e3:>10.2f} {median(rs, "products") * 1e3:>11.2f} '
          f'{median(rs, "gflops"):>8.0f} {ratio:>9}')
EOF
step done
