#!/usr/bin/env python3
"""The GEMM kernels' durations in a kernel trace of `bench abft-overhead` (one type), split at the first
injected fault: the bench's clean call, then its one-fault call (each interleaves its plain and
protected repetitions). Plain cuBLAS (nvjet 256x128) and the CUTLASS kernels by grid and stream."""
import lzma,csv,sys,statistics as st
from collections import defaultdict
path=sys.argv[1]
rows=[]
with lzma.open(path,'rt') as f:
    for r in csv.DictReader(f):
        if r['kind']!='K': continue
        rows.append((int(r['start_ns']),int(r['end_ns']),r['name'],r['stream'],r['grid']))
rows.sort()
# streams of the two calls: the side-products GEMM streams
firstInject=min(x[0] for x in rows if 'injectKernel' in x[2])
d=defaultdict(list)
for s,e,n,stv,g in rows:
    half='fault call' if s>firstInject else 'clean call'
    if 'nvjet' in n and '256x128' in n: k='plain cuBLAS (nvjet 256x128)'
    elif 'GemmUniversal' in n: k='CUTLASS g'+g+' s'+stv
    else: continue
    d[(half,k)].append((e-s)/1e3)
for k,v in sorted(d.items()): print(k,len(v),'median %.1f us'%st.median(v), 'min %.1f'%min(v))
