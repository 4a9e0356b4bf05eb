#!/usr/bin/env python3
"""The intervals of one traced run during which no GEMM kernel ran (from the run's first GEMM after its
inputs are in to the last kernel's end), each with the kernels that ran in it, and their sum: the time a GEMM-bound run
loses outright (issue 9)."""
import csv, sys
every = list(csv.DictReader(open(sys.argv[1])))
for r in every: r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
# The run's window as summarize.py takes it: after the last big host-to-device copy.
big = [r for r in every if r['kind'] == 'C' and r['regs_or_copykind'] == '1' and int(r['name'].split()[1]) >= 32 << 20]
start = max(r['e'] for r in big) if big else 0
rows = [r for r in every if r['kind'] in 'KS' and r['s'] >= start]
isgemm = lambda r: r['kind'] == 'K' and any(k in r['name'].lower() for k in ('gemm', 'xmma', 'cutlass'))
gemms = sorted((r for r in rows if isgemm(r)), key=lambda r: r['s'])
t0, t1 = gemms[0]['s'], max(r['e'] for r in rows)
gaps, cover = [], t0
for g in gemms:
    if g['s'] > cover: gaps.append((cover, g['s']))
    cover = max(cover, g['e'])
if t1 > cover: gaps.append((cover, t1))
total = 0
for a, b in gaps:
    total += b - a
    inside = sorted({r['name'][:40] + f" (st {r['stream']})" for r in rows if r['s'] < b and r['e'] > a})
    print(f"{(a - t0) / 1e3:9.1f} us  no GEMM for {(b - a) / 1e3:7.1f} us: " + "; ".join(inside)[:400])
print(f"no GEMM in all: {total / 1e3:.1f} us of {(t1 - t0) / 1e3:.1f} us")
