#!/usr/bin/env python3
"""The front and tail of each timed product in a `bench abft-overhead` trace made with the host's API
calls (kernel_trace, KERNEL_TRACE_API=1). A timing starts at the host's cudaEventRecord after the
previous timing's cudaEventSynchronize; for every GEMM kernel (CUTLASS or cuBLAS) this prints, per
kind of product (the kernels launched between that event and the GEMM), medians in us of: the host's
time from the event to the GEMM's launch call returning, the GPU's from the event to the GEMM's start,
each host call in between, and what ran after the GEMM up to the timing's last kernel's end."""
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
    if 'xmma' in n or 'sm90_' in n or 'cutlass3x' in n or 'gemm' in n.lower() and 'gigacheck' not in n: return 'cuBLAS:' + n[:24]
    n = n.split('(anonymous namespace)::')[-1].split('(')[0].split('<')[0]
    return n.split('::')[-1][:28]

isGemm = lambda k: k['kind'] == 'K' and short(k['name']).startswith(('CUTLASS', 'cuBLAS'))
# timing windows: host cudaEventRecord following a cudaEventSynchronize (or the start)
rt = [h for h in host if h['kind'] == 'R']
starts, ends = [], []
prevSync = True
for i, h in enumerate(rt):
    n = h['name']
    if n.startswith('cudaEventSynchronize'):
        if starts and len(ends) < len(starts): ends.append(h)
        prevSync = True
    elif n.startswith('cudaEventRecord') and prevSync:
        starts.append(h); prevSync = False
groups = defaultdict(list)
for w, a in enumerate(starts):
    if w >= len(ends): break
    z = ends[w]
    calls = [h for h in rt if a['e'] <= h['s'] and h['e'] <= z['s']]
    ks = [byCorr[h['corr']] for h in calls if h['corr'] in byCorr]
    gemms = [k for k in ks if isGemm(k)]
    if len(gemms) != 1: continue
    g = gemms[0]
    gl = launch.get(g['corr'])
    before = [k for k in ks if k['s'] < g['s'] and k['stream'] == g['stream']]
    key = ' + '.join(short(k['name']) for k in before) + (' + ' if before else '') + f"{short(g['name'])}[{g['grid']}]"
    after = [k for k in ks if k['e'] > g['e']]
    last = max((k['e'] for k in after), default=g['e'])
    hostCalls = [h for h in calls if h['s'] <= gl['s']]
    d = dict(host_to_gemm_launched=(gl['e'] - a['e']) / 1e3, gpu_to_gemm_start=(g['s'] - a['e']) / 1e3,
             gemm=(g['e'] - g['s']) / 1e3, after_gemm=(last - g['e']) / 1e3, whole=(last - a['e']) / 1e3)
    for h in hostCalls:
        nm = 'host ' + h['name'].split('_v')[0]
        d[nm] = d.get(nm, 0) + (h['e'] - h['s']) / 1e3
    for k in before:
        d['gpu ' + short(k['name'])] = (k['e'] - k['s']) / 1e3
    for k in after:
        nm = 'after ' + short(k['name']) + ' ends'
        d[nm] = (k['e'] - g['e']) / 1e3
    groups[key].append(d)
for key, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
    if len(items) < 3: continue
    print(f"{key}: {len(items)} timings")
    names = []
    for it in items:
        for k in it:
            if k not in names: names.append(k)
    for k in names:
        v = [it[k] for it in items if k in it]
        print(f"  {k:44s} {st.median(v):8.1f} us  ({len(v)})")
