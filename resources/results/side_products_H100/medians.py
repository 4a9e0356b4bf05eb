#!/usr/bin/env python3
"""Medians over processes of `bench abft-overhead`'s 16-bit prepared rows (the main row with how its checksums
were made in parentheses, and "the other way"), per precision, N, side (bench_new_* / bench_old_*) and fault
count: python3 medians.py FOLDER (the bench_*_R.txt files of one call)."""
import re, statistics as st, sys, glob
rows = {}
for f in sorted(glob.glob(sys.argv[1] + '/bench_new_*.txt') + glob.glob(sys.argv[1] + '/bench_old_*.txt')):
    side = re.search(r"bench_(new|old)_", f).group(1)
    for line in open(f):
        m = re.match(r"^(\d+)\s+(BF16|FP16|TF32), 16-bit operands prepared at entry, (sums in epilogue|the other way|checksum column by the pass)( \(([^)]*)\))?\s+(\d)\s+([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)%\s+(\S+)", line)
        if m:
            key = (m.group(2), int(m.group(1)), side, m.group(3) + (' [' + m.group(5) + ']' if m.group(5) else ''), m.group(6))
            rows.setdefault(key, []).append((float(m.group(9)), m.group(10)))
for k in sorted(rows):
    v = [x for x, _ in rows[k]]
    verdicts = set(vv for _, vv in rows[k])
    print("%-5s %5d %-4s %-70s f=%s n=%2d median %6.2f%%  min %6.2f max %6.2f %s" % (k[0], k[1], k[2], k[3], k[4], len(v), st.median(v), min(v), max(v), ','.join(sorted(verdicts))))
