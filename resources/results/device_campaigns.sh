#!/usr/bin/env bash
# On the GPU machine: build the CLI (GUI off, CUDA arch 90), then fault-injection campaigns of every
# family on the device -- blocked f32 / f64 / TF32 (--target any and the default target), online
# check every 1 and 4 steps, Strassen L1 / L2 / L3 (--target any), each >= 1000 runs -- and clean
# campaigns (--fault none) of the same kinds, >= 10 000 runs in all; then Strassen L1-L3 bit flips
# (--target any), blocked BF16 (--target any), blocked f32 faults of a row of 32, a 4 x 4 tile and
# two bits of a word, online TF32, offline and TMR (--target any). Every campaign is cut into
# shards (--shard K/N, the same seeds as the whole) run JOBS at a time from one queue, then joined
# with `gigacheck campaign merge`. $OUT gets four files (the device machine returns at most 8):
# campaigns_summary.txt (one line per campaign: runs, SDC, DUE, false alarms with 95 % Wilson
# intervals, ms per run), campaigns_reports.txt (every merged campaign's report), campaigns_json.tar.xz
# (every merged campaign as NAME.json, for `gigacheck show` and the lab) and campaigns_log.txt; the
# shards and per-campaign files stay in $WORK.
#
# Usage: OUT=dir resources/results/device_campaigns.sh [build|run|all]     (default all)
# Knobs (environment):
#   CAMPAIGN_SCALE  runs of every campaign times this (default 1; 0.01 for a quick end-to-end try)
#   JOBS            shard processes at once (default 8: the GPU is shared, the host has 16 cores)
#   SHARDS          shards per campaign (default JOBS)
#   BACKEND         cuda (default) or cpu (the same script on a laptop: BACKEND=cpu SKIP_BUILD=1)
#   BUDGET_S        no shard starts after this many seconds of campaigns (default 420); a campaign
#                   with a shard left out is reported as incomplete, not merged
#   CLI, SKIP_BUILD the gigacheck to use and whether to build it (default: build-campaigns/)
#   CMAKE_EXTRA     extra arguments of the cmake configure line, word-split (default empty), e.g.
#                   CMAKE_EXTRA="-DGIGACHECK_CUTLASS_ARCHIVE=/abs/cutlass-4.7.0.tar.xz"
#   WORK            scratch folder (default /tmp/gigacheck-campaigns-work)
#   ONLY            an extended regular expression: only the campaigns whose name matches it
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-campaigns}
WORK=${WORK:-/tmp/gigacheck-campaigns-work}
SCALE=${CAMPAIGN_SCALE:-1}
JOBS=${JOBS:-8}
SHARDS=${SHARDS:-$JOBS}
BACKEND=${BACKEND:-cuda}
BUDGET_S=${BUDGET_S:-420}
build=build-campaigns
cli=${CLI:-$build/app/cli/gigacheck}
what=${1:-all}
mkdir -p "$OUT"
log="$OUT/campaigns_log.txt"
step() { echo "=== $* ($(date -u +%H:%M:%S))" | tee -a "$log"; }

if [ "$what" != run ] && [ -z "${SKIP_BUILD:-}" ]; then
  step build
  nvidia-smi --query-gpu=name,driver_version --format=csv >> "$log" 2>&1
  echo "commit ${GIGACHECK_COMMIT:-$(git log -1 --format=%h 2>/dev/null)}" >> "$log"
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF ${CMAKE_EXTRA:-} > "$WORK-configure.txt" 2>&1 \
    || { tail -30 "$WORK-configure.txt" | tee -a "$log"; exit 1; }
  cmake --build $build -j16 --target gigacheck > "$WORK-build.txt" 2>&1 || { tail -40 "$WORK-build.txt" | tee -a "$log"; exit 1; }
  [ "$what" = build ] && exit 0
fi
[ -x "$cli" ] || { echo "no gigacheck at $cli (build first, or CLI=...)" | tee -a "$log"; exit 1; }

# Each process runs its runs one after another on one backend; OpenBLAS (the FP64 reference of
# every run, on the host) gets the host's cores divided between the processes.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$(( $(nproc) / JOBS > 0 ? $(nproc) / JOBS : 1 ))}
scaled() { awk -v n="$1" -v s="$SCALE" 'BEGIN { r = int(n * s + 0.999); print (r < 1 ? 1 : r) }'; }

# NAME BASE_RUNS ARGS...: sized by the CPU timings in resources/results/README.md (a run of these
# shapes takes 5-40 ms on the CPU backend; the device runs them faster, the host reference stays).
blocked="--family blocked --shape 301x257x199 --strategy s1,s2,s4"
online="--family online --scheme online --shape 257x193x131 --panel 32"
strassen="--family strassen --shape 387x321x449"
campaigns=(
  "blocked_f32_any      1000 $blocked --type f32 --target any"
  "blocked_f32_result   1000 $blocked --type f32"
  "blocked_f64_any      1000 $blocked --type f64 --target any"
  "blocked_f64_result   1000 $blocked --type f64"
  "blocked_tf32_any     1000 $blocked --type tf32 --target any"
  "blocked_tf32_result  1000 $blocked --type tf32"
  "online_fq1_any       1000 $online --check-every 1 --target any"
  "online_fq4_any       1000 $online --check-every 4 --target any"
  "strassen_L1_any      1000 $strassen --levels 1"
  "strassen_L2_any      1000 $strassen --levels 2"
  "strassen_L3_any      1000 $strassen --levels 3"
  "clean_blocked_f32    1100 $blocked --type f32 --fault none"
  "clean_blocked_f64    1100 $blocked --type f64 --fault none"
  "clean_blocked_tf32   1100 $blocked --type tf32 --fault none"
  "clean_online_fq1     1100 $online --check-every 1 --fault none"
  "clean_online_fq4     1100 $online --check-every 4 --fault none"
  "clean_strassen_L1    1100 $strassen --levels 1 --fault none"
  "clean_strassen_L2    1100 $strassen --levels 2 --fault none"
  "clean_strassen_L3    1100 $strassen --levels 3 --fault none"
  "clean_strassen_f64   1100 $strassen --type f64 --levels 1,2,3 --fault none"
  "clean_strassen_tf32  1100 $strassen --type tf32 --levels 1,2,3 --fault none"
  # Added after the clean ones so that every earlier campaign keeps its seed (its place in the list).
  "strassen_L1_flip     1000 $strassen --levels 1 --fault bitflip:any --target any"
  "strassen_L2_flip     1000 $strassen --levels 2 --fault bitflip:any --target any"
  "strassen_L3_flip     1000 $strassen --levels 3 --fault bitflip:any --target any"
  "blocked_bf16_any     1000 $blocked --type bf16 --target any"
  "blocked_f32_row32    1000 $blocked --type f32 --extent row:32"
  "blocked_f32_tile4    1000 $blocked --type f32 --extent tile:4"
  "blocked_f32_twobits  1000 $blocked --type f32 --fault bitflip2"
  # TF32 online on the GPU takes no faults in A or B (their host-checked path's threshold is FP32 /
  # FP64's): --target any is refused there, so this campaign strikes C (its place keeps its seed).
  "online_tf32_result   1000 $online --check-every 1 --type tf32 --target result"
  "offline_any          1000 --family online --scheme offline --shape 257x193x131 --panel 32 --target any"
  "tmr_any              1000 --family online --scheme tmr --shape 257x193x131 --target any"
  # Two bits of one word in the online and Strassen families (their CUDA injection of bit2).
  "online_fq1_twobits   1000 $online --check-every 1 --fault bitflip2 --target any"
  "tmr_twobits          1000 --family online --scheme tmr --shape 257x193x131 --fault bitflip2"
  "strassen_L2_twobits  1000 $strassen --levels 2 --fault bitflip2 --target any"
  "online_tf32_checksum 1000 $online --check-every 1 --type tf32 --target checksum"
)

# Campaign c of the whole list (from 1) has seed c, also when ONLY runs some of them.
declare -A seed_of
c=0
for line in "${campaigns[@]}"; do c=$((c + 1)); seed_of[${line%% *}]=$c; done

if [ -n "${ONLY:-}" ]; then
  kept=()
  for line in "${campaigns[@]}"; do [[ ${line%% *} =~ $ONLY ]] && kept+=("$line"); done
  campaigns=("${kept[@]}")
fi

step "campaigns on $BACKEND: scale $SCALE, $JOBS processes, $SHARDS shards each, budget ${BUDGET_S} s"
shards="$WORK/shards"
rm -rf "$WORK"
mkdir -p "$shards" "$WORK/merged"
start=$(date +%s)
queue="$shards/queue.txt"
: > "$queue"
# Shard k of every campaign before shard k + 1 of any: a campaign's shards finish close together.
# Campaign c (from 1) has seed c: each its own inputs.
for ((k = 1; k <= SHARDS; ++k)); do
  for line in "${campaigns[@]}"; do
    set -- $line
    name=$1; runs=$(scaled "$2"); shift 2
    c=${seed_of[$name]}
    n=$(( runs < SHARDS ? runs : SHARDS ))
    [ "$k" -le "$n" ] && echo "$name $k $n $runs --seed $c $*" >> "$queue"
  done
done

run_shard() {
  set -- $1
  local name=$1 k=$2 n=$3 runs=$4; shift 4
  if [ $(( $(date +%s) - start )) -ge "$BUDGET_S" ]; then
    echo "skipped: over the budget" > "$shards/$name-$k.txt"
    return 0
  fi
  "$cli" campaign --runs "$runs" --backend "$BACKEND" "$@" --shard "$k/$n" \
    --json "$shards/$name-$k.json" > "$shards/$name-$k.txt" 2>&1
  echo "exit $?" >> "$shards/$name-$k.txt"
}
export -f run_shard
export cli BACKEND shards start BUDGET_S
xargs -P "$JOBS" -I{} bash -c 'run_shard "$@"' _ {} < "$queue"
elapsed=$(( $(date +%s) - start ))
step "shards done in ${elapsed} s"

# One line per campaign from its merged report: runs, SDC, DUE, false alarms (count, % and the
# 95 % Wilson interval as the report prints them).
summary="$OUT/campaigns_summary.txt"
{
  echo "# gigacheck campaign on $BACKEND, scale $SCALE, $JOBS processes x $SHARDS shards, ${elapsed} s of campaigns"
  echo "# commit ${GIGACHECK_COMMIT:-$(git log -1 --format=%h 2>/dev/null)}"
} > "$summary"
reports="$OUT/campaigns_reports.txt"
: > "$reports"
total=0; clean=0; sdc_all=0; alarms_all=0; c=0
for line in "${campaigns[@]}"; do
  set -- $line
  name=$1
  c=${seed_of[$name]}
  files=("$shards/$name"-*.json)
  if grep -l "skipped\|^exit [^0]" "$shards/$name"-*.txt > /dev/null 2>&1 || [ ! -e "${files[0]}" ]; then
    echo "$name: INCOMPLETE (a shard was skipped or failed: $shards/$name-*.txt)" | tee -a "$summary"
    continue
  fi
  merged="$WORK/merged/$name"
  "$cli" campaign merge "${files[@]}" --json "$merged.json" > "$merged.txt" 2>&1 \
    || { echo "$name: MERGE FAILED ($(tail -1 "$merged.txt"))" | tee -a "$summary"; continue; }
  { echo "##### $name: gigacheck campaign --runs $(scaled "$2") --backend $BACKEND --seed $c ${*:3}"; cat "$merged.txt"; echo; } >> "$reports"
  awk -v name="$name" '
    /^Outcomes/ { on = 1 }
    on && /^  silent data corruption/ { sdc = $(NF-5) " (" $(NF-4) " %, CI " $(NF-2) " " $(NF-1) " %)"; nsdc = $(NF-5) }
    on && /^  detected uncorrectable/ { due = $(NF-5) " (" $(NF-4) " %, CI " $(NF-2) " " $(NF-1) " %)" }
    on && /^  false alarm/ { fa = $(NF-5) " (" $(NF-4) " %, CI " $(NF-2) " " $(NF-1) " %)"; nfa = $(NF-5) }
    /^Verdict:/ { runs = $(NF-1) }
    END { printf "%-20s runs %6s  SDC %s  DUE %s  false alarms %s", name, runs, sdc, due, fa }
  ' "$merged.txt" | tee -a "$summary"
  # Mean seconds of one run (each in its process, beside JOBS - 1 others) and the largest error
  # over the reference's tolerance among the runs the reference passed.
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); r = d["runs"]
ok = [x["max_error_over_tolerance"] for x in r if x.get("reference_passed") and isinstance(x.get("max_error_over_tolerance"), (int, float))]
print("  %.1f ms/run, worst passed error/tolerance %.3g" % (1000 * sum(x["seconds"] for x in r) / max(1, len(r)), max(ok, default=0)))' \
    "$merged.json" 2>/dev/null | tee -a "$summary" || echo | tee -a "$summary"
  runs=$(awk '/^Verdict:/ { print $(NF-1) }' "$merged.txt")
  total=$((total + runs))
  case $name in clean_*) clean=$((clean + runs)) ;; esac
  sdc_all=$((sdc_all + $(awk '/^  silent data corruption/ { print $(NF-5) }' "$merged.txt")))
  alarms_all=$((alarms_all + $(awk '/^  false alarm/ { print $(NF-5) }' "$merged.txt")))
done
echo "all campaigns: $total runs ($clean clean), SDC $sdc_all, false alarms $alarms_all, ${elapsed} s" | tee -a "$summary"
cat "$summary" >> "$log"
tar -C "$WORK/merged" -cf - $(cd "$WORK/merged" && ls *.json 2>/dev/null) | xz -T0 -6 > "$OUT/campaigns_json.tar.xz"
step done
