#!/usr/bin/env python3
"""Every kernel of each timing window of a `bench abft-overhead` kernel trace (kernel_trace with
KERNEL_TRACE_API=1), grouped by the windows' sequence of kernels (name@stream): the medians of each
kernel's start and end in us from the window's start event. Windows are found as front.py finds them."""
import csv, os, sys, statistics as st
from collections import defaultdict
front = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'launch_front_H100', 'front.py')
exec(open(front).read().split("groups = defaultdict(list)")[0])
sig=defaultdict(list)
for w, a in enumerate(starts):
    if w >= len(ends): break
    z = ends[w]
    calls = [h for h in rt if a['e'] <= h['s'] and h['e'] <= z['s']]
    ks = sorted([byCorr[h['corr']] for h in calls if h['corr'] in byCorr], key=lambda k:k['s'])
    if not any(isGemm(k) for k in ks): continue
    t0=a['e']
    streams={}
    key='|'.join(short(k['name'])+'@'+str(streams.setdefault(k['stream'],len(streams))) for k in ks)
    sig[key].append([((k['s']-t0)/1e3,(k['e']-t0)/1e3) for k in ks]+[((z['s']-t0)/1e3,(z['e']-t0)/1e3)])
for key,v in sorted(sig.items(), key=lambda kv:-len(kv[1])):
    if len(v)<3: continue
    print(len(v), 'windows')
    names=key.split('|')+['host sync']
    for i,n in enumerate(names):
        print(f"   {n:36s} start {st.median([x[i][0] for x in v]):7.1f} end {st.median([x[i][1] for x in v]):7.1f}")
