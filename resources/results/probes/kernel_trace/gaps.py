#!/usr/bin/env python3
"""Per kernel name: how long after its stream predecessor ended it started (median, us): a kernel that
waits for an SM to free starts late; one that fits beside the running GEMM CTAs starts at once."""
import csv, sys, statistics
from collections import defaultdict
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['kind'] in 'KS']
for r in rows: r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
rows.sort(key=lambda r: r['s'])
last, gaps, durs, shape = {}, defaultdict(list), defaultdict(list), {}
for r in rows:
    n = r['name'][:48]
    if r['stream'] in last: gaps[n].append((r['s'] - last[r['stream']]) / 1e3)
    durs[n].append((r['e'] - r['s']) / 1e3)
    shape.setdefault(n, f"{r['block']}x{r['regs_or_copykind']} regs, {r.get('smem', '?')} B smem" if r['kind'] == 'K' else '')
    last[r['stream']] = r['e']
for n in sorted(gaps, key=lambda n: -len(gaps[n])):
    if len(gaps[n]) >= 8:
        print(f"{len(gaps[n]):4d}  gap median {statistics.median(gaps[n]):8.1f} us  duration median {statistics.median(durs[n]):8.1f} us  {shape[n]:>26}  {n}")
