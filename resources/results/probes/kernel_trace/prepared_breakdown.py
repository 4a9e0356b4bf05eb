#!/usr/bin/env python3
"""Where a prepared product's time goes (bench abft-overhead trace): for each reset kernel followed on
its stream by the GEMM, the check kernel and the recompute kernel, with the pass over A and B^T on
another stream: reset -> GEMM gap, the GEMM, how long before the GEMM's end the pass started and
after it the pass ended, GEMM end -> check start, the check, the recompute and the whole. Medians in
us, per GEMM grid (the kernel's CTAs: fewer than the SMs when it leaves some to the pass)."""
import csv, sys, statistics as st
from collections import defaultdict
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['kind'] in 'KS']
for r in rows: r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
rows.sort(key=lambda r: r['s'])
byStream = defaultdict(list)
for r in rows: byStream[r['stream']].append(r)
out = defaultdict(list)
for L in byStream.values():
    for i, r in enumerate(L):
        if 'resetKernel' not in r['name'] or i + 3 >= len(L): continue
        g = L[i + 1]
        nxt = L[i + 2:i + 6]
        dec = [x for x in nxt if 'decide' in x['name']]
        rec = [x for x in nxt if 'recomputeChecksums' in x['name']]
        pas = [x for x in rows if 'RowDots' in x['name'] and x['stream'] != g['stream'] and g['s'] < x['s'] < g['e'] + 200000]
        if not (dec and rec and pas): continue
        p, d = pas[0], dec[0]
        us = lambda ns: ns / 1e3
        out[g['grid']].append(dict(reset_to_gemm=us(g['s'] - r['e']), gemm=us(g['e'] - g['s']),
            pass_start_before_gemm_end=us(g['e'] - p['s']), pass_end_after_gemm=us(p['e'] - g['e']),
            gemm_end_to_check=us(d['s'] - g['e']), check=us(d['e'] - d['s']), recompute=us(rec[0]['e'] - d['e']),
            whole=us(rec[0]['e'] - r['s'])))
if not out: sys.exit("no prepared products in the trace")
for grid, items in sorted(out.items()):
    print(f"GEMM grid {grid}: {len(items)} products")
    for k in items[0]:
        print(f"  {k:28s} {st.median(x[k] for x in items):8.1f} us")
