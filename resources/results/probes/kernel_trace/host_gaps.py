#!/usr/bin/env python3
"""Where the host spends the time between two launches (a trace taken with KERNEL_TRACE_API=1):
for every kernel whose name holds AFTER followed on its stream by one whose name holds BEFORE, the
device's idle gap between them and what the launching thread did from the end of the first launch
call to the end of the second: each runtime call's time (driver calls inside it not counted twice)
and the time outside any call (the program's own code). Medians over the pairs, in us.
  host_gaps.py trace.csv resetKernel cutlass"""
import csv, sys, statistics
from collections import defaultdict
path, after, before = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.DictReader(open(path)))
for r in rows: r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
api = sorted([r for r in rows if r['kind'] == 'R'], key=lambda r: r['s'])
launch = {r['corr']: r for r in api}
dev = sorted([r for r in rows if r['kind'] in 'KS'], key=lambda r: r['s'])
prev, pairs = {}, []
for r in dev:
    p = prev.get(r['stream'])
    if p is not None and after in p['name'] and before in r['name'] and p['corr'] in launch and r['corr'] in launch:
        pairs.append((p, r))
    prev[r['stream']] = r
if not pairs:
    sys.exit(f"no {after} -> {before} pairs with launch records (was KERNEL_TRACE_API=1 set?)")
gap, hostSpan, own, per = [], [], [], defaultdict(list)
for p, k in pairs:
    a, b = launch[p['corr']], launch[k['corr']]
    gap.append((k['s'] - p['e']) / 1e3)
    hostSpan.append((b['e'] - a['e']) / 1e3)
    calls = [r for r in api if r['stream'] == a['stream'] and r['s'] >= a['e'] and r['e'] <= b['e']]
    spent = defaultdict(float)
    for r in calls: spent[r['name']] += (r['e'] - r['s']) / 1e3
    for n in set(list(per) + list(spent)): per[n].append(spent.get(n, 0.0))
    own.append((b['e'] - a['e']) / 1e3 - sum(spent.values()))
med = statistics.median
print(f"{len(pairs)} pairs {after} -> {before}: device gap median {med(gap):.1f} us (min {min(gap):.1f}, max {max(gap):.1f}); "
      f"host from the end of the first launch call to the end of the second {med(hostSpan):.1f} us")
print(f"  outside any runtime call (own code) {med(own):8.1f} us")
for n in sorted(per, key=lambda n: -med(per[n])):
    if med(per[n]) > 0.05: print(f"  {n:40s} {med(per[n]):8.1f} us")
