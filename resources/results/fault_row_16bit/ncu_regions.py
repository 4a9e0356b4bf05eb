#!/usr/bin/env python3
"""Where a corrected fault's time goes in the check kernel: two `ncu --page source --csv --print-source
sass` exports of the same `gigacheck run` (decide_ncu.sh), clean and with one fault; the launch given
(default 12: the product's check, decideKernel<float, 1, 0> on the run's stream) compared instruction by
instruction. Prints the warp-state samples of the instructions only the fault's launch executed, in
contiguous regions, and the instructions whose samples grew most; then why the warps waited: each
stall reason's samples over every instruction and over those only the fault's launch ran, and those
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
hc, dc = load(clean, launch)
_, df = load(fault, launch)
si, ie = hc.index('Warp Stall Sampling (All Samples)'), hc.index('Instructions Executed')
n = lambda r, k: int(r[k] or 0)
print(f"samples: clean {sum(n(r, si) for r in dc)}, one fault {sum(n(r, si) for r in df)}; instructions executed: "
      f"{sum(n(r, ie) for r in dc)} / {sum(n(r, ie) for r in df)}")
only = [i for i, (a, b) in enumerate(zip(dc, df)) if n(a, ie) == 0 and n(b, ie) > 0]
regions = []
for i in only:
    if regions and i - regions[-1][-1] <= 3:
        regions[-1].append(i)
    else:
        regions.append([i])
print("regions only the fault's launch ran (SASS rows, samples, the hottest instruction):")
for r in regions:
    rows = range(r[0], r[-1] + 1)
    s = sum(n(df[i], si) for i in rows)
    if s > 3:
        hot = max(rows, key=lambda i: n(df[i], si))
        print(f"  {r[0]:5d}-{r[-1]:5d} {s:4d}  {df[hot][1].strip()[:70]} ({n(df[hot], si)})")
print("largest growth (row, clean -> fault samples, executions, instruction):")
for d, i in sorted(((n(b, si) - n(a, si), i) for i, (a, b) in enumerate(zip(dc, df))), reverse=True)[:12]:
    print(f"  {i:5d} {n(dc[i], si):4d} -> {n(df[i], si):4d}  x{n(df[i], ie):<5d} {df[i][1].strip()[:70]}")

reasons = [i for i, h in enumerate(hc) if h.startswith('stall_') and 'Not Issued' not in h]
for label, keep in (("every instruction", lambda a, b: True),
                    ("instructions only the fault's launch ran", lambda a, b: n(a, ie) == 0 and n(b, ie) > 0)):
    c, f = Counter(), Counter()
    for a, b in zip(dc, df):
        if keep(a, b):
            for i in reasons:
                c[hc[i]] += n(a, i)
                f[hc[i]] += n(b, i)
    print(f"stall reasons, {label}: samples clean {sum(c.values())}, one fault {sum(f.values())}")
    for k in sorted(f, key=lambda k: f[k] - c[k], reverse=True):
        if f[k] != c[k]:
            print(f"  {k:24s} {c[k]:5d} -> {f[k]:5d}  ({f[k] - c[k]:+d})")
k = hc.index('stall_no_inst')
print("instruction-fetch stalls in code only the fault's launch ran (SASS row, samples, instruction):")
for i, (a, b) in enumerate(zip(dc, df)):
    if n(a, ie) == 0 and n(b, ie) > 0 and n(b, k) > 0:
        print(f"  {i:5d} {n(b, k):3d}  {b[1].strip()[:60]}")
