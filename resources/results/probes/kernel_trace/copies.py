#!/usr/bin/env python3
"""Per host-to-device copy of one traced out-of-core run: bytes, duration, rate, and what ran beside
it (a GEMM kernel, another kernel, a device-to-host copy); then the copies grouped by size with their
median rate alone and beside a GEMM (issue 13: the planner's copy times against the run's)."""
import csv, sys, statistics
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows: r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
isgemm = lambda r: r['kind'] == 'K' and any(k in r['name'].lower() for k in ('gemm', 'xmma', 'cutlass'))
kernels = [r for r in rows if r['kind'] == 'K']
gemms = [r for r in kernels if isgemm(r)]
d2h = [r for r in rows if r['kind'] == 'C' and r['regs_or_copykind'] == '2']
h2d = [r for r in rows if r['kind'] == 'C' and r['regs_or_copykind'] == '1' and int(r['name'].split()[1]) >= (1 << 20)]
def overlap(r, others):
    return sum(max(0, min(r['e'], o['e']) - max(r['s'], o['s'])) for o in others) / max(1, r['e'] - r['s'])
groups = defaultdict(lambda: defaultdict(list))
total = defaultdict(float)
for r in h2d:
    b = int(r['name'].split()[1]); d = r['e'] - r['s']
    g, k, x = overlap(r, gemms), overlap(r, [k for k in kernels if not isgemm(k)]), overlap(r, d2h)
    where = 'beside a GEMM' if g > 0.5 else 'beside a D2H copy' if x > 0.5 else 'alone'
    groups[b][where].append(b / d)
    total[where] += d / 1e6
for b, ws in sorted(groups.items()):
    print(f"H2D copies of {b/2**20:8.2f} MiB: " + "; ".join(f"{w}: {len(v)} x median {statistics.median(v):5.1f} GB/s" for w, v in ws.items()))
print("H2D busy ms: " + ", ".join(f"{w} {t:.1f}" for w, t in total.items()))
