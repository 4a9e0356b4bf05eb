#!/usr/bin/env bash
# On the GPU machine: what a release needs measured on the device, from two source snapshots
# carried in build-carry/ (new.tar.xz, old.tar.xz: `git archive --prefix=src/ COMMIT CMakeLists.txt
# CMakePresets.json cmake engine app tests ui packaging | xz -1`), Qt in .carry-qt/, CUTLASS in
# .carry-cutlass/ (../shared/device/README.md, ../shared/third_party/README.md).
# Steps (run in the order given; the build folders stay in /tmp between calls on a warm machine):
#   build      NEW: the CLI and every GPU test; OLD: the CLI (both with CUTLASS, sm_90a)
#   tests      every GPU test of NEW (FIRST="tst_a tst_b" first) -> release_log.txt, tests.tar.xz
#   kmajor     bench kernels (TF32 part) and abft-overhead TF32 of NEW -> bench_kernels.txt, bench_abft_tf32.txt
#   campaigns  device_campaigns.sh with NEW's CLI        -> the four campaigns_* files
#   compare    device_bench_compare.sh OLD vs NEW        -> compare.txt (ONLY="ooc online", STEP_S)
# Usage: OUT=dir DEADLINE=s GIGACHECK_COMMIT=new-hash OLD_COMMIT=old-hash resources/results/device_release_check.sh STEP...
set -uo pipefail
OUT=${OUT:-/tmp/gigacheck-release}
mkdir -p "$OUT"
root=$PWD
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log="$OUT/release_log.txt"
deadline=${DEADLINE:-560}
step() { echo "=== $* ($(date -u +%H:%M:%S), ${SECONDS}s)" | tee -a "$log"; }
left() { echo $(( deadline - SECONDS )); }
[ -f .carry-qt/device-env.sh ] && source .carry-qt/device-env.sh > /dev/null
new=/tmp/release-new old=/tmp/release-old
cli_new=$new/build/app/cli/gigacheck cli_old=$old/build/app/cli/gigacheck

configure() {  # $1 folder holding src/
  cmake -S "$1/src" -B "$1/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="${QT6CARRY_CMAKE:-}" \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
    -DGIGACHECK_CUTLASS_ARCHIVE="$root/.carry-cutlass/cutlass-4.7.0.tar.xz" > "$1/configure.txt" 2>&1
}

for what in "$@"; do
case $what in
build)
  step "build: new ${GIGACHECK_COMMIT:-?}, old ${OLD_COMMIT:-?}"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$log"
  for side in new old; do
    rm -rf "/tmp/release-$side" && mkdir -p "/tmp/release-$side" && tar xJf "build-carry/$side.tar.xz" -C "/tmp/release-$side"
  done
  configure $new || { tail -20 $new/configure.txt | tee -a "$log"; exit 1; }
  # TESTS="tst_a tst_b" builds only those GPU tests (TESTS="" none: a bench-only call).
  tests=${TESTS-$(ls $new/src/tests/gpu/tst_*.cpp | xargs -n1 basename | sed 's/\.cpp$//' | tr '\n' ' ')}
  (timeout $(( $(left) - 10 )) cmake --build $new/build -j16 --target gigacheck $tests > $new/build.txt 2>&1;
   echo "new build exit $?" >> "$log") &
  if [ -f build-carry/old.tar.xz ]; then
    (configure $old && timeout $(( $(left) - 10 )) cmake --build $old/build -j8 --target gigacheck > $old/build.txt 2>&1;
     echo "old build exit $?" >> "$log") &
  fi
  wait
  grep -h -B2 -A12 -E "error:|FAILED" $new/build.txt $old/build.txt 2>/dev/null | head -40 | tee -a "$log"
  step "built"
  ;;
tests)
  step "GPU tests"
  mkdir -p /tmp/release-tests
  # FIRST (names) run before the rest, so that a short deadline cuts the others.
  all=$(ls $new/src/tests/gpu/tst_*.cpp | xargs -n1 basename | sed 's/\.cpp$//')
  for t in ${FIRST:-} $(echo "$all" | grep -vxF -f <(printf '%s\n' ${FIRST:-none})); do
    [ -x $new/build/tests/$t ] || { echo "$t not built" | tee -a "$log"; continue; }
    [ "$(left)" -gt 15 ] || { echo "$t not run: out of time" | tee -a "$log"; continue; }
    budget=$(( $(left) - 10 < 240 ? $(left) - 10 : 240 ))
    start=$SECONDS
    timeout $budget $new/build/tests/$t > /tmp/release-tests/$t.txt 2>&1; echo "$t exit $? ($(( SECONDS - start )) s)" | tee -a "$log"
    grep -E "Totals|^FAIL|SKIP" /tmp/release-tests/$t.txt | head -8 >> "$log"
  done
  tar -C /tmp/release-tests -cJf "$OUT/tests.tar.xz" .
  ;;
kmajor)
  step "bench kernels (TF32 part) and abft-overhead TF32, fused K-major rows"
  GIGACHECK_BENCH_VARIANTS=none timeout $(( $(left) / 2 )) $cli_new bench kernels > "$OUT/bench_kernels.txt" 2>&1
  echo "exit $?" >> "$log"
  sed -n '/TF32 on the tensor cores/,$p' "$OUT/bench_kernels.txt" | tee -a "$log"
  GIGACHECK_BENCH_TYPES=TF32 timeout $(( $(left) - 10 )) $cli_new bench abft-overhead > "$OUT/bench_abft_tf32.txt" 2>&1
  echo "exit $?" >> "$log"
  sed -n '/TF32 fused/,$p' "$OUT/bench_abft_tf32.txt" | tee -a "$log"
  ;;
campaigns)
  step "campaigns of every family (NEW)"
  budget=$(( $(left) - 50 ))
  SKIP_BUILD=1 CLI=$cli_new BUDGET_S=$budget OUT="$OUT" timeout $(( budget + 40 )) "$here/device_campaigns.sh" run >> "$log" 2>&1
  cat "$OUT/campaigns_summary.txt" >> "$log" 2>/dev/null
  ;;
compare)
  step "benches OLD vs NEW, interleaved"
  OLD=$cli_old NEW=$cli_new OUT="$OUT" DEADLINE=$(( $(left) - 5 )) STEP_S=${STEP_S:-45} "$here/device_bench_compare.sh"
  ;;
esac
done
step done
