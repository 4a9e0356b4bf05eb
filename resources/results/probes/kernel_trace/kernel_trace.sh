#!/bin/bash
# Builds libkernel_trace.so against the CUPTI it finds (the toolkit's extras, else the Python
# package's), with the newest activity record structs that CUPTI declares. Prints the library path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/kernel_trace}
mkdir -p "$out"
hdr=$(find /usr/local/cuda/extras/CUPTI/include /usr/local/cuda/include /opt /usr/local/lib /usr/lib \
      -name cupti_activity.h 2>/dev/null | head -1)
[ -n "$hdr" ] || { echo "kernel_trace: no cupti_activity.h found" >&2; exit 1; }
inc=$(dirname "$hdr")
lib=$(find "$(dirname "$inc")" /usr/local/cuda/extras/CUPTI /usr/local/cuda/lib64 /usr/local/cuda/targets \
      -name 'libcupti.so*' 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "kernel_trace: no libcupti.so found" >&2; exit 1; }
newest() { grep -ho "$1[0-9]*\b" "$inc"/cupti_activity*.h | sort -V | tail -1; }
K=$(newest 'CUpti_ActivityKernel'); S=$(newest 'CUpti_ActivityMemset'); C=$(newest 'CUpti_ActivityMemcpy')
echo "kernel_trace: $hdr, $lib, $K $S $C" >&2
g++ -O2 -shared -fPIC -DKERNEL_T=$K -DMEMSET_T=$S -DMEMCPY_T=$C -I"$inc" -I/usr/local/cuda/include \
    "$here/kernel_trace.cpp" "$lib" -Wl,-rpath,"$(dirname "$lib")" -o "$out/libkernel_trace.so"
echo "$out/libkernel_trace.so"
