#!/bin/bash
# Issue 11 item 2: the gallery kernels' counts measured by Nsight Compute on the device machine
# (DRAM bytes, global load / store instructions, threads, FP32 multiplies), beside the counts
# the engine derives from the access patterns. Writes $OUT/ncu_gallery_H200.txt.
# Usage (repository root, Qt carried as in ../shared/device/README.md): resources/results/profile_gallery.sh
set -u
export OUT=${OUT:-/tmp/out}
source .carry-qt/device-env.sh > /dev/null
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" -DGIGACHECK_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/cfg.txt 2>&1
timeout 400 cmake --build build -j16 --target gigacheck gigacheck_cuda > /tmp/b.txt 2>&1 || { grep error /tmp/b.txt | head; exit 1; }
CLI=build/app/cli/gigacheck
export GIGACHECK_NO_WARMUP=1
M=dram__bytes_read.sum,dram__bytes_write.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,launch__grid_size,launch__block_size,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,gpu__time_duration.sum
mkdir -p /tmp/ncu
run() { name=$1; shift; timeout 200 ncu --clock-control none --metrics $M --csv "$@" > "/tmp/ncu/$name.csv" 2> "/tmp/ncu/$name.err"; echo "$name: exit $?"; }
run "transpose 16384x8192 inplace (warm-up call: forward, pipelined; timed call: back, two kernels)" $CLI transpose --shape 16384x8192 --variant inplace --backend cuda --reps 1
run "transpose 16384x16384 inplace" $CLI transpose --shape 16384x16384 --variant inplace --backend cuda --reps 1
run "transpose 16384x16384 padded" $CLI transpose --shape 16384x16384 --variant padded --backend cuda --reps 1
run "transpose 16384x16384 naive" $CLI transpose --shape 16384x16384 --variant naive --backend cuda --reps 1
for v in naive4p naivep tiled8 tiled16 tiled32 reduce-blas; do run "reduced 4096 $v" $CLI reduced --n 4096 --variant $v --backend cuda --reps 1; done
ncu --version | tail -1 > $OUT/ncu_gallery_H200.txt
python3 - >> $OUT/ncu_gallery_H200.txt <<'PY'
import csv, glob, os, re
print("Nsight Compute, --clock-control none, GIGACHECK_NO_WARMUP=1; one row per kernel launch (the CLI's warm-up call and timed call);")
print("DRAM MB read / written, warp-level global load / store instructions, threads, thread-level FMUL + FFMA")
for f in sorted(glob.glob('/tmp/ncu/*.csv')):
    rows = {}
    text = open(f).read().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        print("==", os.path.basename(f)[:-4], ": no kernels profiled"); continue
    for r in csv.DictReader(text[start:]):
        k = (r["ID"], r["Kernel Name"])
        rows.setdefault(k, {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", "") or 0)
    print("==", os.path.basename(f)[:-4])
    for (i, name), m in sorted(rows.items(), key=lambda x: int(x[0][0])):
        short = re.sub(r"\(.*", "", name).replace("void ", "")[-70:]
        thr = m.get("launch__grid_size", 0) * m.get("launch__block_size", 0)
        print(f"  {short:70s} dram R {m.get('dram__bytes_read.sum',0)/1e6:9.1f} MB W {m.get('dram__bytes_write.sum',0)/1e6:9.1f} MB  ld {m.get('smsp__sass_inst_executed_op_global_ld.sum',0):12.0f} st {m.get('smsp__sass_inst_executed_op_global_st.sum',0):12.0f}  threads {thr:10.0f}  fmul+ffma {m.get('smsp__sass_thread_inst_executed_op_fmul_pred_on.sum',0)+m.get('smsp__sass_thread_inst_executed_op_ffma_pred_on.sum',0):14.0f}  {m.get('gpu__time_duration.sum',0)/1e3:9.1f} us")
PY
cat $OUT/ncu_gallery_H200.txt
