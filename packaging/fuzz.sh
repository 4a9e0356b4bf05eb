#!/usr/bin/env bash
# Fuzzes the readers of files a user may be sent (the run record, the ceilings store) with clang's
# libFuzzer, starting from the seed corpus in tests/data/fuzz/<reader>/.
#
#   packaging/fuzz.sh                      # each fuzzer 1 000 000 runs
#   packaging/fuzz.sh --runs 20000         # what ctest's fuzz.readers runs
#   packaging/fuzz.sh --time 600           # each fuzzer for 10 minutes
#   packaging/fuzz.sh --seed 1             # libFuzzer's random seed (default: a new one each run)
#   packaging/fuzz.sh --build-dir DIR      # default build-fuzz/
#   CMAKE_BUILD_PARALLEL_LEVEL=1 packaging/fuzz.sh   # build with one job on a busy machine
#
# The main build may use g++: unless DIR already holds a configured build, this configures DIR as
# a separate clang build of only the engine and the fuzzers, with AddressSanitizer, UBSan and
# libFuzzer's coverage instrumentation. New inputs found go to a temporary directory, never into
# the seed corpus; a crashing input is kept as DIR/fuzz-<reader>-crash-*. Exit 77 (ctest: skipped)
# when clang or its libFuzzer runtime is missing: packaging/setup-debian.sh installs both.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
runs=1000000
seconds=""
seed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "fuzz: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
readers=(record ceilings campaign npy)

skip() { echo "fuzz: SKIPPED: $*"; exit 77; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  cxx="${GIGACHECK_FUZZ_CXX:-clang++}"
  command -v "$cxx" >/dev/null 2>&1 || skip "$cxx not found (packaging/setup-debian.sh installs clang)"
  probe=$(mktemp -d)
  trap 'rm -rf "$probe"' EXIT
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/p.cpp"
  "$cxx" -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" >/dev/null 2>&1 ||
    skip "$cxx cannot link -fsanitize=fuzzer (install libclang-rt-dev)"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
    -DGIGACHECK_WITH_CUDA=OFF -DGIGACHECK_WITH_GUI=OFF -DBUILD_TESTING=OFF -DGIGACHECK_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
fi
grep -q '^GIGACHECK_HAVE_LIBFUZZER:INTERNAL=1' "$build/CMakeCache.txt" ||
  skip "the build in $build has no fuzzers (its compiler lacks -fsanitize=fuzzer, or GIGACHECK_FUZZ=OFF)"
cmake --build "$build" --target "${readers[@]/#/fuzz_}"

limit=(-runs="$runs")
[ -n "$seconds" ] && limit=(-max_total_time="$seconds")
# ctest passes a fixed seed: CI replays the same inputs, so a red run is reproducible and a
# new finding comes from a campaign (a new seed each run), not from a merge that did not touch it.
[ -n "$seed" ] && limit+=(-seed="$seed")
status=0
for reader in "${readers[@]}"; do
  found=$(mktemp -d)
  echo "fuzz: $reader: ${limit[*]} from tests/data/fuzz/$reader/"
  # -timeout: one input taking more than 10 s is a hang; -rss_limit_mb: a reader must stay small.
  rc=0
  "$build/tests/fuzz/fuzz_$reader" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-$reader-" "$found" "$root/tests/data/fuzz/$reader" >"$found.log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    # The sanitizer's or libFuzzer's report, without the progress lines.
    grep -v '^#[0-9]' "$found.log" | tail -n 80
    echo "fuzz: $reader: FAILED with status $rc (the input is in $build/fuzz-$reader-*)"
    status=1
  else
    grep -E '^(INFO: (Seed|Loaded|-max_len)|Done |stat::(number_of_executed_units|new_units_added|peak_rss_mb))' "$found.log"
    echo "fuzz: $reader: passed"
  fi
  rm -f "$found.log"
  rm -rf "$found"
done
exit $status
