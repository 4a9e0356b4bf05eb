#!/bin/sh
# Clean and faulted TF32 Strassen runs of large odd shapes on the CPU backend (TF32 emulated):
# every level 1-4, variant and distribution. Prints one line per run (largest clean C-check
# residual / threshold, largest cell error / the reference's tolerance, what C's checks see,
# the alarms); with FAULT set (e.g. FAULT=c:1:3), each run also injects it and
# says whether C ended right.
#   GIGACHECK=build-release/app/cli/gigacheck SHAPES="1537x999x1301 1025x1031x1029" \
#     sh resources/results/strassen_tf32_sweep.sh > sweep.txt
# The small-shape sweep of every type is tst_strassen_verdict randomCleanSweep
# (GIGACHECK_CLEAN_RUNS=N, GIGACHECK_CLEAN_TYPE=tf32).
set -eu
G=${GIGACHECK:-build-release/app/cli/gigacheck}
SHAPES=${SHAPES:-"1537x999x1301 1025x1031x1029 700x1500x900 1200x1200x1200"}
LEVELS=${LEVELS:-"1 2 3 4"}
VARIANTS=${VARIANTS:-"msmes winograd workspace accumulate"}
DISTS=${DISTS:-"uniform normal wide"}
SEEDS=${SEEDS:-"1"}
FAULT=${FAULT:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for shape in $SHAPES; do for L in $LEVELS; do for v in $VARIANTS; do for d in $DISTS; do for seed in $SEEDS; do
    inject=""
    [ -n "$FAULT" ] && inject="--inject-at $FAULT"
    rm -f "$tmp/r.json"
    # shellcheck disable=SC2086
    "$G" strassen --shape "$shape" --levels "$L" --variant "$v" --type tf32 --dist "$d" --seed "$seed" \
        --backend cpu --reference full $inject --json "$tmp/r.json" --quiet > /dev/null || true
    if [ ! -s "$tmp/r.json" ]; then echo "$shape L$L $v $d seed $seed: the run wrote no record"; continue; fi
    python3 - "$tmp/r.json" "$shape L$L $v $d seed $seed" "$FAULT" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["strassen"]
alarms = [c for c in s["checks"] if c["verdict"] != "clean"]
line = "%s: C ratio %.4g, ref ratio %.4g, C sees %.4g (%.3g x max|C|), error %.3g, %s" % (
    sys.argv[2], s["c_worst_clean_ratio"], s["reference_worst_ratio"], s["c_detection_floor"],
    s["c_detection_floor"] / max(s["c_max_abs"], 1e-300), s["max_error_c"], s["verdict"])
line += ", checks: " + (", ".join(c["where"] + " " + c["verdict"] for c in alarms) or "all clean")
print(line, flush=True)
EOF
done; done; done; done; done
