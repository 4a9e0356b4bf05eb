#!/usr/bin/env bash
# On the GPU machine: every family's verb once on CUDA with a fault (the configured run of the
# family contract: options -> FamilyRun -> runCommand), each record run again with `gigacheck
# rerun` on CUDA and on the CPU, and the campaign refusal of --target any for TF32 online.
# Prints one line per command: its exit code, its closing / heading line. CLI=path to gigacheck;
# BACKEND=cpu tries the same commands on the CPU (the script's own check, without a GPU; the
# campaign lines are then taken, not refused).
# Usage: CLI=/tmp/release-new/build/app/cli/gigacheck OUT=dir resources/results/device_every_verb.sh
set -uo pipefail
G=${CLI:?CLI=path to gigacheck}
OUT=${OUT:-/tmp/every-verb}
BACKEND=${BACKEND:-cuda}
mkdir -p "$OUT"
n=0
one() {  # NAME ARGS...: the verb on $BACKEND, then its record run again there and on the CPU
  local name=$1; shift
  n=$((n + 1))
  timeout 300 "$G" "$@" --backend "$BACKEND" --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  echo "$name: exit $? -- $(grep -m1 -iE 'verified|verdict|correct' "$OUT/$name.txt")"
  timeout 300 "$G" rerun "$OUT/$name.json" > "$OUT/$name-rerun.txt" 2>&1
  echo "  rerun where it ran: exit $? -- $(head -1 "$OUT/$name-rerun.txt")"
  timeout 300 "$G" rerun "$OUT/$name.json" --backend cpu > "$OUT/$name-rerun-cpu.txt" 2>&1
  echo "  rerun on cpu:  exit $? -- $(tail -1 "$OUT/$name-rerun-cpu.txt")"
}
[ "$BACKEND" = cuda ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
one blocked run --shape 2048x2048x2048 --strategy s2 --mem 64MiB --inject-at 100,200 --seed 3
one online run --scheme online --shape 2048x1024x2048 --panel 256 --inject-at 5,6@2 --seed 4
one tmr run --scheme tmr --shape 1024x512x1024 --inject-at 1,1@1
one strassen strassen --shape 2048x2048x2048 --levels 2 --inject-at c:1 --seed 7
one strassen_tf32 strassen --shape 2048x2048x2048 --levels 2 --type tf32 --inject-at product:3
one reduced reduced --n 2048 --variant tiled16
one transpose transpose --shape 4096x4096 --variant inplace
echo "== campaign --family online --type tf32 --target any on $BACKEND (CUDA: refused before its first run):"
for seed in 1 29 35; do
  timeout 60 "$G" campaign --family online --scheme online --shape 257x193x131 --panel 32 --check-every 1 \
    --type tf32 --backend "$BACKEND" --target any --runs 20 --seed $seed > "$OUT/any_$seed.txt" 2>&1
  echo "  seed $seed: exit $? -- $(head -c 160 "$OUT/any_$seed.txt")"
done
