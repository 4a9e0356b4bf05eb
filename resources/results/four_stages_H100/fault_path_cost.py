#!/usr/bin/env python3
"""What one corrected fault costs a prepared product, per process: (protected - plain) of the one-fault
row minus (protected - plain) of the clean row, in microseconds; medians and quartiles per type, N and
side (bench_new_* / bench_old_* files of `bench abft-overhead`)."""
import re, sys, statistics as st
from collections import defaultdict
per = defaultdict(list)
for f in sys.argv[1:]:
    side = re.search(r"bench_(new|old)_", f).group(1)
    inT = False; d = {}
    for line in open(f):
        if line.startswith('N ') and 'entry ms (once)' in line and 'kernel + sums' in line:
            inT = True; continue
        p = line.split()
        if inT and len(p) > 7 and p[0].isdigit() and p[1] in '01' and p[6].endswith('%'):
            d[('TF32', p[0], p[1])] = float(p[5]) - float(p[2]); continue
        if inT and not line.strip(): inT = False
        m = re.match(r"^(\d+)\s+(BF16|FP16), 16-bit operands prepared at entry, sums in epilogue\s+(\d)\s+([\d.]+)\s+([\d.]+)", line)
        if m: d[(m.group(2), m.group(1), m.group(3))] = float(m.group(5)) - float(m.group(4))
    for (t, n, fl) in list(d):
        if fl == '1' and (t, n, '0') in d:
            per[(t, n, side)].append(1000 * (d[(t, n, '1')] - d[(t, n, '0')]))
for k in sorted(per):
    v = sorted(per[k]); q = len(v)
    print(k, q, "fault path median %.1f us  (quartiles %.1f .. %.1f)" % (st.median(v), v[q//4], v[3*q//4]))
