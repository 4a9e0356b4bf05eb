#!/usr/bin/env python3
"""The fused kernels against cuBLAS of the same precision in `bench abft-overhead` files (bench_new_* /
bench_old_*): the 16-bit kernel alone (its own table) and the TF32 kernel writing C's sums (the prepared
table's "kernel + sums" column against plain cuBLAS TF32), medians per type, N and side."""
import re, sys, statistics as st
from collections import defaultdict
r = defaultdict(list)
for f in sys.argv[1:]:
    side = re.search(r"bench_(new|old)_", f).group(1)
    for line in open(f):
        m = re.match(r"^(\d+)\s+(BF16|FP16)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)%", line)
        if m: r[(m.group(2), m.group(1), side)].append(float(m.group(5)))
    # TF32 kernel + sums vs plain: columns of the prepared table
    inT = False
    for line in open(f):
        if line.startswith('N ') and 'entry ms (once)' in line and 'kernel + sums' in line: inT = True; continue
        p = line.split()
        if inT and len(p) > 7 and p[0].isdigit() and p[1] == '0': r[('TF32 kernel+sums', p[0], side)].append(100*float(p[2])/float(p[4]))
        if inT and not line.strip(): inT = False
for k in sorted(r):
    v = r[k]; print(k, len(v), "median %.1f%% of cuBLAS (min %.1f max %.1f)" % (st.median(v), min(v), max(v)))
