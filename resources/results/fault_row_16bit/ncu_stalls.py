#!/usr/bin/env python3
"""Why the check kernel's warps waited, clean against one fault: the same two exports as ncu_regions.py
(decide_ncu.sh), one launch (default 12, the product's check). Sums each stall reason's warp samples
over every instruction, then over the instructions only the fault's launch ran, and lists those
instructions' instruction-fetch stalls (stall_no_inst: code not yet in the SM's instruction cache)."""
import csv, io, lzma, sys
from collections import Counter

def load(path, launch):
    text = (lzma.open if path.endswith('.xz') else open)(path, 'rt').read()
    body = text.split('"Kernel Name",')[1 + launch].split('\n', 1)[1]
    rows = list(csv.reader(io.StringIO(body)))
    return rows[0], rows[1:]

clean, fault = sys.argv[1], sys.argv[2]
launch = int(sys.argv[3]) if len(sys.argv) > 3 else 12
hdr, dc = load(clean, launch)
_, df = load(fault, launch)
n = lambda r, k: int(r[k] or 0)
ie = hdr.index('Instructions Executed')
reasons = [i for i, h in enumerate(hdr) if h.startswith('stall_') and 'Not Issued' not in h]
for label, keep in (("every instruction", lambda a, b: True),
                    ("instructions only the fault's launch ran", lambda a, b: n(a, ie) == 0 and n(b, ie) > 0)):
    c, f = Counter(), Counter()
    for a, b in zip(dc, df):
        if keep(a, b):
            for i in reasons:
                c[hdr[i]] += n(a, i)
                f[hdr[i]] += n(b, i)
    print(f"{label}: samples clean {sum(c.values())}, one fault {sum(f.values())}")
    for k in sorted(f, key=lambda k: f[k] - c[k], reverse=True):
        if f[k] != c[k]:
            print(f"  {k:24s} {c[k]:5d} -> {f[k]:5d}  ({f[k] - c[k]:+d})")
k = hdr.index('stall_no_inst')
print("instruction-fetch stalls in code only the fault's launch ran (SASS row, samples, instruction):")
for i, (a, b) in enumerate(zip(dc, df)):
    if n(a, ie) == 0 and n(b, ie) > 0 and n(b, k) > 0:
        print(f"  {i:5d} {n(b, k):3d}  {b[1].strip()[:60]}")
