#!/usr/bin/env python3
"""Per product of a kernel trace (trace_*.csv.xz, kernel_trace.sh): the 16-bit prepared product with
its checksum products beside the kernel -- the GEMM, the two cuBLASLt side products (PB = c_A B,
AR = A r_B), the kernel adding their parts into the checksum cells, the row-sum pass and the check --
as medians of their starts and ends after the GEMM's end. A product is counted as faulted where its
check took over 10 us (8 clean, 12 with a fault at 4096)."""
import lzma,csv,sys,statistics as st
from collections import defaultdict
for path in sys.argv[1:]:
    rows=[]
    with lzma.open(path,'rt') as f:
        for r in csv.DictReader(f):
            if r['kind']!='K': continue
            n=r['name']
            if 'cutlass' in n and 'GemmUniversal' in n: k='gemm'
            elif 'nvjet' in n and '512x8_' in n: k='PB'
            elif 'nvjet' in n and '_32x512_' in n: k='AR'
            elif 'checksumsFromParts' in n: k='cells'
            elif 'addRowSumPartials' in n: k='rowsums'
            elif 'decideKernel' in n: k='check'
            elif 'resetKernel' in n: k='reset'
            else: k='other'
            rows.append((int(r['start_ns']),int(r['end_ns']),k,int(r['grid'])))
    rows.sort()
    res=defaultdict(lambda: defaultdict(list))
    for i,(s,e,k,g) in enumerate(rows):
        if k!='cells': continue
        # the GEMM it belongs to: the last gemm starting before it
        gs=[x for x in rows[max(0,i-12):i] if x[2]=='gemm']
        if not gs: continue
        G=gs[-1]; ge=G[1]
        after=[x for x in rows[i-12:i+8] if x[0]>=G[0]]
        chk=[x for x in after if x[2]=='check' and x[0]>ge]
        if not chk: continue
        C=chk[0]
        kind='fault' if (C[1]-C[0])>10000 else 'clean'
        d=res[kind]
        d['gemm us'].append((G[1]-G[0])/1e3)
        for name in ['PB','AR','cells','rowsums']:
            xs=[x for x in after if x[2]==name and x[0]<C[0]]
            if xs:
                x=xs[-1]; d[name+' start'].append((x[0]-ge)/1e3); d[name+' end'].append((x[1]-ge)/1e3)
        d['check start'].append((C[0]-ge)/1e3); d['check end'].append((C[1]-ge)/1e3)
    print(path)
    for kind,d in res.items():
        print(f"  {kind}: {len(d['check end'])} products (times after the GEMM's end, us; medians)")
        for key,v in d.items():
            print(f"    {key:14s} {st.median(v):8.1f}   (n={len(v)})")
