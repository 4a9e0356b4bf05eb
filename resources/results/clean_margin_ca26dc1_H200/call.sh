#!/usr/bin/env bash
# Device call: build the CLI and the fused-kernel GPU tests from a `git archive` of COMMIT, run the
# tests, then clean campaigns (--fault none) of every family with checks at odd and large shapes on
# the CUDA backend: false alarms and the checks' margin (largest clean residual / threshold).
set -u
source .carry-qt/device-env.sh > /dev/null
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L
echo "commit ${COMMIT:-?}" >> $L
mkdir -p /tmp/p && rm -rf /tmp/p/src && tar xJf build-carry/new.tar.xz -C /tmp/p
cmake -S /tmp/p/src -B /tmp/p/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
  -DGIGACHECK_CUTLASS_ARCHIVE=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz -DCMAKE_PREFIX_PATH="$QT6CARRY_CMAKE" > /tmp/p/conf.txt 2>&1 || tail -20 /tmp/p/conf.txt
timeout 330 cmake --build /tmp/p/build -j16 --target gigacheck ${TESTS:-} > /tmp/p/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
tail -5 /tmp/p/build.txt | grep -i error >> $L
G=/tmp/p/build/app/cli/gigacheck
for t in ${TESTS:-}; do
  timeout 120 /tmp/p/build/tests/$t > $OUT/$t.txt 2>&1; echo "$t exit $? at ${SECONDS}s: $(grep Totals $OUT/$t.txt)" | tee -a $L
done
# camp NAME SECONDS ARGS...: one clean campaign; its outcome line, false alarms and margin.
camp() {
  local name=$1 limit=$2; shift 2
  timeout $limit $G campaign --backend cuda --fault none "$@" --json /tmp/p/$name.json > /tmp/p/$name.txt 2>/tmp/p/$name.err
  echo "$name (exit $?, at ${SECONDS}s): $*" >> $L
  grep -E "^Verdict|Largest clean|interrupted" /tmp/p/$name.txt /tmp/p/$name.err | sed 's/^/  /' >> $L
}
if [ "${CAMPAIGNS:-1}" = 2 ]; then  # call 2: what call 1 cut or could not run
camp online_tf32_mid 40 --runs 300 --shape 1024x1023x999 --scheme online --type tf32 --panel 128 --seed 21
camp blocked_tf32_odd 30 --runs 1500 --shape 257x129x31 --type tf32 --strategy all --dist normal --seed 22
camp strassen_f32_odd 40 --runs 400 --shape 515x257x301 --family strassen --levels 1,2 --seed 23
fi
if [ "${CAMPAIGNS:-1}" = 1 ]; then
camp blocked_f32_odd 60 --runs 3000 --shape 257x129x31 --strategy all --dist wide --seed 11
camp blocked_f64_odd 60 --runs 2000 --shape 300x1x250 --type f64 --strategy all --dist normal --seed 12
camp blocked_tf32_large 70 --runs 800 --shape 1023x777x1501 --type tf32 --strategy all --seed 13
camp blocked_bf16_large 50 --runs 400 --shape 1000x1001x999 --type bf16 --strategy none,s2 --seed 14
camp online_f32 60 --runs 600 --shape 1537x999x1301 --scheme online --panel 128 --seed 15
camp offline_f64 40 --runs 1500 --shape 257x129x31 --scheme offline --type f64 --panel 8 --dist wide --seed 16
camp online_tf32 50 --runs 300 --shape 2048x2048x2048 --scheme online --type tf32 --panel 256 --seed 17
camp tmr_f32 40 --runs 800 --shape 511x257x300 --scheme tmr --seed 18
camp strassen_f32 60 --runs 600 --shape 1000x1024x1200 --family strassen --levels 1,2,3 --seed 19
camp strassen_tf32 40 --runs 300 --shape 1537x999x1301 --family strassen --type tf32 --levels 1,2 --seed 20
fi
# BENCHES="suite:seconds ...": the benches, each with its own time limit, text and JSON kept.
for b in ${BENCHES:-}; do
  suite=${b%%:*}; limit=${b##*:}
  timeout $limit $G bench $suite --json /tmp/p/bench_$suite.json > /tmp/p/bench_$suite.txt 2>&1
  echo "bench $suite exit $? at ${SECONDS}s" | tee -a $L
done
cd /tmp/p && tar cJf $OUT/campaigns.tar.xz *.txt *.err bench_*.json 2>/dev/null; cd - > /dev/null
cat $L
