#!/usr/bin/env python3
"""What a fault adds to a timed product in a `bench abft-overhead` trace made with the host's API calls
(kernel_trace, KERNEL_TRACE_API=1). Timing windows as in launch_front_H100/front.py (a cudaEventRecord
after a cudaEventSynchronize up to the next synchronize); the products are grouped by the kernels before
their GEMM on its stream and by whether they ran with a fault: an injection kernel ran, or the window
began after the trace's first injection (the bench times 0 faults, then 1, each with streams of its
own; the prepared products take their fault in the kernel that finishes C's row sums, no injection
kernel). Where products beside the GEMM are GEMMs too, the longest is the product's own. For every kernel that ends after the
GEMM (by name, in order of start) this prints medians in us, relative to the GEMM's end: the host's
launch call returning, the kernel's start and its end; then the whole window from the timing event."""
import csv, sys, statistics as st
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r['s'], r['e'] = int(r['start_ns']), int(r['end_ns'])
host = sorted([r for r in rows if r['kind'] in 'RD'], key=lambda r: r['s'])
kern = sorted([r for r in rows if r['kind'] in 'KS'], key=lambda r: r['s'])
launch = {}
for h in host:
    if h['kind'] == 'R' or h['corr'] not in launch:
        launch.setdefault(h['corr'], h)
byCorr = {k['corr']: k for k in kern}

def short(n):
    n = n.replace('void ', '')
    if 'cutlass' in n and 'device_kernel' in n: return 'CUTLASS'
    if 'xmma' in n or 'sm90_' in n or 'cutlass3x' in n or 'gemm' in n.lower() and 'gigacheck' not in n: return 'cuBLAS'
    n = n.split('(anonymous namespace)::')[-1].split('(')[0].split('<')[0]
    return n.split('::')[-1][:28]

isGemm = lambda k: k['kind'] == 'K' and short(k['name']) in ('CUTLASS', 'cuBLAS')
rt = [h for h in host if h['kind'] == 'R']
starts, ends, prevSync = [], [], True
for h in rt:
    n = h['name']
    if n.startswith('cudaEventSynchronize'):
        if starts and len(ends) < len(starts): ends.append(h)
        prevSync = True
    elif n.startswith('cudaEventRecord') and prevSync:
        starts.append(h); prevSync = False
injections = [k['s'] for k in kern if 'injectKernel' in k['name']]
firstInjection = min(injections) if injections else None
groups = defaultdict(list)
for w, a in enumerate(starts):
    if w >= len(ends): break
    z = ends[w]
    calls = [h for h in host if a['e'] <= h['s'] and h['e'] <= z['s']]
    ks = [byCorr[h['corr']] for h in calls if h['corr'] in byCorr]
    ks = list({k['corr']: k for k in ks}.values())
    gemms = [k for k in ks if isGemm(k)]
    if not gemms: continue
    g = max(gemms, key=lambda k: k['e'] - k['s'])
    fault = any('injectKernel' in k['name'] for k in ks) or (firstInjection is not None and a['s'] > firstInjection)
    before = [k for k in ks if k['s'] < g['s'] and k['stream'] == g['stream']]
    key = ' + '.join(short(k['name']) for k in before) + f" + {short(g['name'])}[{g['grid']}]" + (' FAULT' if fault else ' clean')
    after = sorted([k for k in ks if k['e'] > g['e'] and k is not g], key=lambda k: k['s'])
    last = max((k['e'] for k in after), default=g['e'])
    d = {'gemm': (g['e'] - g['s']) / 1e3, 'gpu event -> gemm start': (g['s'] - a['e']) / 1e3,
         'host event -> gemm launched': (launch[g['corr']]['e'] - a['e']) / 1e3 if g['corr'] in launch else 0,
         'last end after gemm': (last - g['e']) / 1e3, 'whole': (last - a['e']) / 1e3}
    seen = defaultdict(int)
    for k in after:
        nm = short(k['name']) + f"@{k['stream']}"
        seen[nm] += 1
        if seen[nm] > 1: nm += f"#{seen[nm]}"
        hl = launch.get(k['corr'])
        if hl: d[nm + ' launched'] = (hl['e'] - g['e']) / 1e3
        d[nm + ' start'] = (k['s'] - g['e']) / 1e3
        d[nm + ' end'] = (k['e'] - g['e']) / 1e3
    groups[key].append(d)
for key, items in sorted(groups.items()):
    if len(items) < 3: continue
    print(f"{key}: {len(items)} timings")
    names = []
    for it in items:
        for k in it:
            if k not in names: names.append(k)
    for k in names:
        v = [it[k] for it in items if k in it]
        print(f"  {k:52s} {st.median(v):8.1f} us  ({len(v)})")
