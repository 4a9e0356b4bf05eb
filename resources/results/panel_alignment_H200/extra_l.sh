#!/usr/bin/env bash
# (1) the one-kernel check at odd shapes through the CLI, large and small faults, full reference;
# (2) CUPTI traces of online TF32 runs at 16384 (per kernel name: count, total, median).
set -u
echo "== fault checks (verdict, exit)"
one() { local out; out=$(timeout 60 $G run --backend cuda --reference full --quiet "$@" 2>&1 | tail -1); echo "exit $? | $out | $*"; }
for s in 1000x1204x1996 4100x4100x4100 8200x3004x5000; do
  for f in "--inject-at 7,11:1e6" "--inject-at 999,1203:0.5" "--inject-at 3,5 --fault bitflip:30" "--inject-at 3,5 --fault bitflip:21" "--inject-at 10,10 --target checksum-row" "--inject-at 10,10 --target checksum-col" "--errors 0"; do
    one --shape $s --gemm cutlass-tf32 $f
  done
done
for t in bf16 f16; do for s in 1000x1208x2000 4104x4104x4104; do
  for f in "--inject-at 7,11:1e6" "--inject-at 3,5 --fault bitflip:28" "--inject-at 10,10 --target checksum-col" "--errors 0"; do
    one --shape $s --type $t $f
  done
done; done
lib=$($K/kernel_trace.sh /tmp/kernel_trace) || exit 1
summ() { python3 - "$1" <<'PY'
import csv, sys, statistics
from collections import defaultdict
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['kind']=='K']
d=defaultdict(list)
for r in rows: d[r['name'][:90]].append((int(r['end_ns'])-int(r['start_ns']))/1e3)
for n,v in sorted(d.items(), key=lambda x:-sum(x[1]))[:14]:
    print(f"{len(v):5d} x  total {sum(v)/1e3:9.3f} ms  median {statistics.median(v):9.1f} us  {n}")
PY
}
for g in cutlass-tf32 cublas-tf32; do
  KERNEL_TRACE_OUT=/tmp/tr_$g.csv CUDA_INJECTION64_PATH=$lib timeout 120 $G run --backend cuda --reference none --quiet --shape 16384x16384x16384 --scheme online --panel 1024 --check-every 1 --gemm $g
  echo "== online 16384 fq=1 $g: exit $?"; summ /tmp/tr_$g.csv
done
KERNEL_TRACE_OUT=/tmp/tr_plain.csv CUDA_INJECTION64_PATH=$lib timeout 120 $G run --backend cuda --reference none --quiet --shape 16384x16384x16384 --no-abft --gemm cublas-tf32 --strategy none
echo "== plain 16384 cublas-tf32: exit $?"; summ /tmp/tr_plain.csv
