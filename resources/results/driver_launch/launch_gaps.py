#!/usr/bin/env python3
"""Where the host time before a product's GEMM goes, from a kernel trace with the API calls
(KERNEL_TRACE_API=1, probes/kernel_trace): for every fused CUTLASS GEMM and every plain cuBLAS GEMM
of a `bench abft-overhead` trace, the median duration of the API calls issued in the 12 us before
its launch (by name), its own launch call's duration, the time from its launch call's start to the
kernel's start on the GPU, and (CUTLASS) the GPU's idle time between the reset kernel's end and the
GEMM's start. Usage: launch_gaps.py TRACE.csv[.xz] ..."""
import csv, lzma, statistics, sys, bisect
from collections import defaultdict

def rows_of(path):
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt') as f:
        return list(csv.DictReader(f))

def med(xs):
    return statistics.median(xs) if xs else float('nan')

for path in sys.argv[1:]:
    rows = rows_of(path)
    kernels = [r for r in rows if r['kind'] == 'K']
    api = sorted((r for r in rows if r['kind'] in ('R', 'D')), key=lambda r: int(r['start_ns']))
    starts = [int(r['start_ns']) for r in api]
    by_corr = {r['corr']: r for r in api}
    kernel_of = {r['corr']: r for r in kernels}
    print(path)
    for label, pick in (('CUTLASS GEMM', lambda k: 'cutlass' in k['name']),
                        ('cuBLAS GEMM', lambda k: 'cutlass' not in k['name'] and
                         int(k['end_ns']) - int(k['start_ns']) > 100000)):
        gemms = [k for k in kernels if pick(k) and k['corr'] in by_corr]
        before = defaultdict(list)
        launch, to_start, idle = [], [], []
        launch_name = defaultdict(int)
        for g in gemms:
            call = by_corr[g['corr']]
            t = int(call['start_ns'])
            launch.append((int(call['end_ns']) - t) / 1e3)
            launch_name[call['name'].split('_v')[0]] += 1
            to_start.append((int(g['start_ns']) - t) / 1e3)
            i = bisect.bisect_left(starts, t)
            j = i - 1
            while j >= 0 and t - starts[j] < 12000:
                r = api[j]
                k = kernel_of.get(r['corr'])
                name = r['name'].split('_v')[0] + (' (' + k['name'][:24] + ')' if k else '')
                before[name].append((int(r['end_ns']) - int(r['start_ns'])) / 1e3)
                if k and 'resetKernel' in k['name']:
                    idle.append((int(g['start_ns']) - int(k['end_ns'])) / 1e3)
                j -= 1
        if not gemms:
            continue
        print('  %s: %d kernels; launched by %s' % (label, len(gemms), dict(launch_name)))
        print('    its launch call                          %6.1f us' % med(launch))
        print('    launch call start -> kernel start        %6.1f us' % med(to_start))
        if idle:
            print('    GPU idle, reset end -> GEMM start        %6.1f us (n=%d)' % (med(idle), len(idle)))
        for name, ds in sorted(before.items(), key=lambda x: -len(x[1]))[:8]:
            print('    before it: %-40s %6.1f us (n=%d)' % (name[:40], med(ds), len(ds)))
