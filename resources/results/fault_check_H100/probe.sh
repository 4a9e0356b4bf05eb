#!/usr/bin/env bash
# Device call (thirty-second session): probes/verdict_writes_probe.cu built and run (no other build).
set -u
source .carry-qt-cli/device-env.sh > /dev/null 2>&1
cd resources/results/probes && nvcc -O3 -std=c++17 -arch=sm_90a verdict_writes_probe.cu -o /tmp/vprobe > $OUT/probe_build.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 /tmp/vprobe | tee $OUT/verdict_writes_probe.txt
