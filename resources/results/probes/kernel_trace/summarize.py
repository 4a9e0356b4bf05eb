#!/usr/bin/env python3
"""Summarizes a kernel_trace CSV of one gigacheck run: the run's window (after the last big host-to-device
copy, before the last big device-to-host copy: each column block stores its own), per stream what ran, how many GEMMs ran at once
over the window, and the first and last kernels of the window in order."""
import csv, sys
from collections import defaultdict

BIG = 32 << 20
rows = list(csv.DictReader(open(sys.argv[1])))
detail = int(sys.argv[2]) if len(sys.argv) > 2 else 60
for r in rows:
    r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
rows.sort(key=lambda r: r['s'])
def nbytes(r): return int(r['name'].split()[1]) if r['kind'] == 'C' else 0
h2d = [r for r in rows if r['kind'] == 'C' and r['regs_or_copykind'] == '1' and nbytes(r) >= BIG]
if not h2d: sys.exit('no big host-to-device copy')
t0 = max(r['e'] for r in h2d)
d2h = [r for r in rows if r['kind'] == 'C' and r['regs_or_copykind'] == '2' and nbytes(r) >= BIG and r['s'] >= t0]
t1 = max(r['s'] for r in d2h) if d2h else max(r['e'] for r in rows)
win = [r for r in rows if r['kind'] != 'C' and r['s'] >= t0 and r['e'] <= t1]
first, last = min(r['s'] for r in win), max(r['e'] for r in win)
print(f"window: {len(win)} kernels/memsets, first start to last end {(last-first)/1e6:.3f} ms")
isgemm = lambda r: r['kind'] == 'K' and any(k in r['name'].lower() for k in ('gemm', 'xmma', 'cutlass'))
per = defaultdict(lambda: defaultdict(lambda: [0, 0]))
for r in win:
    per[r['stream']][r['name'][:60]][0] += 1
    per[r['stream']][r['name'][:60]][1] += r['e'] - r['s']
for st, names in sorted(per.items()):
    tot = sum(v[1] for v in names.values())
    print(f"stream {st}: busy {tot/1e6:.3f} ms")
    for n, (c, t) in sorted(names.items(), key=lambda x: -x[1][1]):
        print(f"   {c:5d} x {t/1e6/c*1e3:8.1f} us = {t/1e6:8.3f} ms  {n}")
# GEMMs running at once, and all kernels running at once
for label, sel in (("GEMMs", isgemm), ("any kernel", lambda r: True)):
    ev = []
    for r in win:
        if sel(r): ev += [(r['s'], 1), (r['e'], -1)]
    ev.sort()
    acc, cur, prev = defaultdict(int), 0, first
    for t, d in ev:
        acc[cur] += t - prev; prev = t; cur += d
    acc[cur] += last - prev
    print(f"{label} running at once: " + ", ".join(f"{k}: {v/1e6:.3f} ms" for k, v in sorted(acc.items())))
gemms = [r for r in win if isgemm(r)]
print(f"GEMM kernels: {len(gemms)}, summed {sum(r['e']-r['s'] for r in gemms)/1e6:.3f} ms")
if gemms:
    g0 = min(r['s'] for r in gemms)
    print(f"SPAN first GEMM start to last kernel end: {(last-g0)/1e6:.3f} ms; to last GEMM end: {(max(r['e'] for r in gemms)-g0)/1e6:.3f} ms")
def show(rs):
    for r in rs:
        print(f"  {(r['s']-first)/1e3:10.1f} {(r['e']-r['s'])/1e3:9.1f} us  st {r['stream']:>3} g {r['grid']:>6} {r['name'][:70]}")
print(f"first {detail} (start us after the window's first, duration):"); show(win[:detail])
print(f"last {detail}:"); show(win[-detail:])
