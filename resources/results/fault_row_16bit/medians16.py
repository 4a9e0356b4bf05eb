#!/usr/bin/env python3
"""Medians over processes of the prepared products' overheads at N (4096) in `bench abft-overhead`
outputs named bench_<side>_<round>.txt (inside the .tar.xz archives or folders given): TF32 operands
prepared at entry, and BF16 / FP16 16-bit operands prepared at entry with C's sums in the epilogue;
0 / 1 fault, per side (new / old). MEDIANS_SIZES (e.g. 4096,8192,16384) picks other sizes than 4096."""
import os, re, sys, tarfile, statistics as st
from collections import defaultdict
from pathlib import Path

sizes = os.environ.get('MEDIANS_SIZES', '4096').split(',')
texts = []
for arg in sys.argv[1:]:
    p = Path(arg)
    if p.suffix == '.xz':
        with tarfile.open(p) as t:
            texts += [(m.name, t.extractfile(m).read().decode()) for m in t.getmembers() if m.name.startswith('bench_')]
    else:
        texts += [(f.name, f.read_text()) for f in sorted(p.glob('bench_*_*.txt'))]
res = defaultdict(list)
for (name, text), n in [(t, n) for t in texts for n in sizes]:
    side = name.split('_')[1] + ('' if len(sizes) == 1 else f' {n}')
    lines = text.splitlines()
    for l in lines:
        m = re.match(rf'^{n}\s+(BF16|FP16), 16-bit operands prepared at entry, sums in epilogue.*?\)\s+(\d)\s+[\d.]+\s+[\d.]+\s+([-\d.]+)%', l)
        if m:
            res[(m.group(1), m.group(2), side)].append(float(m.group(3)))
    inTable = False
    for l in lines:
        if l.startswith('N     errors  plain cuBLAS TF32 ms  entry ms'):
            inTable = True
            continue
        m = re.match(rf'^{n}\s+(\d)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([-\d.]+)%', l) if inTable else None
        if m:
            res[('TF32 prepared', m.group(1), side)].append(float(m.group(2)))
for k in sorted(res):
    v = res[k]
    print(f"{k[0]:14s} {k[1]} fault(s) {k[2]:4s} {len(v):3d} processes: median {st.median(v):+6.2f} %  "
          f"range {min(v):+6.2f} .. {max(v):+6.2f} %")
