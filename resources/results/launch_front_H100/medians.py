#!/usr/bin/env python3
"""Medians of `bench abft-overhead`'s prepared rows over processes (the files given, and
call16_stdout.txt-style excerpts): TF32 "operands prepared at entry" (overhead column) and BF16 / FP16
"16-bit operands prepared at entry, sums in epilogue", per side (bench_new_* / bench_old_* / bench_one_*), N and
fault count."""
import re, statistics as st, sys
rows = {}
def add(key, v): rows.setdefault(key, []).append(v)
for f in sys.argv[1:]:
    m = re.search(r"bench_(new|old|one)_", f)
    side = m.group(1) if m else 'new'
    lines = open(f).read().splitlines()
    inTable = False
    for line in lines:
        if line.startswith('== bench'):
            side = line.split()[2]
            inTable = True  # excerpt: prepared TF32 rows only
            continue
        if line.startswith('N ') and 'entry ms (once)' in line and 'kernel + sums' in line:
            inTable = True
            continue
        p = line.split()
        if inTable and len(p) > 7 and p[0].isdigit() and p[1] in '01' and p[6].endswith('%'):
            add(('TF32', side, int(p[0]), p[1]), float(p[6].rstrip('%')))
            continue
        if inTable and not line.strip():
            inTable = False
        m = re.match(r"^(\d+)\s+(BF16|FP16), 16-bit operands prepared at entry, sums in epilogue(?: \([^)]*\))?\s+(\d)\s+[\d.]+\s+[\d.]+\s+(-?[\d.]+)%", line)
        if m:
            add((m.group(2), side, int(m.group(1)), m.group(3)), float(m.group(4)))
print(f"{'type':5} {'side':4} {'N':>6} {'faults':>6} {'procs':>5} {'median':>8} {'min':>7} {'max':>7}")
for k in sorted(rows):
    v = rows[k]
    print(f"{k[0]:5} {k[1]:4} {k[2]:6} {k[3]:>6} {len(v):5} {st.median(v):7.2f}% {min(v):6.2f}% {max(v):6.2f}%")
