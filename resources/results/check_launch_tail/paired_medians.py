#!/usr/bin/env python3
"""Paired differences between builds in `bench abft-overhead` at 4096: for each round r, side's overhead
minus base's in the same round (the builds alternated process by process), per type and fault count;
median, mean and the share of rounds the side was lower. Usage: paired_medians.py BASE SIDE[,SIDE..]
ARCHIVE.tar.xz.. (bench_<side>_<round>.txt inside, as call.sh writes them)."""
import re,sys,tarfile,statistics as st
from collections import defaultdict
# per (type,faults,side,round) value; paired median of side - base over rounds
def load(arc):
    res={}
    with tarfile.open(arc) as t:
        for m in t.getmembers():
            if not re.match(r'bench_[a-z]+_[0-9]+\.txt$', m.name): continue
            _,side,r=m.name[:-4].split('_'); text=t.extractfile(m).read().decode()
            lines=text.splitlines()
            for l in lines:
                mm=re.match(r'^4096\s+(BF16|FP16), 16-bit operands prepared at entry, sums in epilogue.*?\)\s+(\d)\s+[\d.]+\s+[\d.]+\s+([-\d.]+)%',l)
                if mm: res[(mm.group(1),mm.group(2),side,r)]=float(mm.group(3))
            inT=False
            for l in lines:
                if l.startswith('N     errors  plain cuBLAS TF32 ms  entry ms'): inT=True; continue
                mm=re.match(r'^4096\s+(\d)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([-\d.]+)%',l) if inT else None
                if mm: res[('TF32',mm.group(1),side,r)]=float(mm.group(2))
    return res
base=sys.argv[1]; sides=sys.argv[2].split(','); arcs=sys.argv[3:]
for ty in ['BF16','FP16','TF32']:
  for f in '01':
    for s in sides:
      d=[]
      for a in arcs:
        res=load(a)
        for (t,ff,side,r),v in res.items():
          if t==ty and ff==f and side==s and (t,ff,base,r) in res: d.append(v-res[(t,ff,base,r)])
      if d: print(f"{ty} {f} fault {s}-{base}: n={len(d)} median {st.median(d):+.2f}  mean {st.mean(d):+.2f}  share<0 {sum(x<0 for x in d)/len(d):.2f}")
