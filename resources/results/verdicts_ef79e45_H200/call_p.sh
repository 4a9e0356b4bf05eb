#!/usr/bin/env bash
# Device call P (call Q: the same, with the operand sweep and without the Strassen test): the honest-verdict cases of the online / offline / TMR schemes on the CUDA backend
# (counts of exit codes per case and reference), then the GPU tests they touch.
set -u
source .carry-qt/device-env.sh > /dev/null
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L
echo "commit ${COMMIT:-?}" >> $L
mkdir -p /tmp/p && rm -rf /tmp/p/src && tar xJf build-carry/new.tar.xz -C /tmp/p
cmake -S /tmp/p/src -B /tmp/p/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGIGACHECK_WITH_GUI=OFF -DGIGACHECK_FUZZ=OFF \
  -DGIGACHECK_CUTLASS_ARCHIVE=$PWD/.carry-cutlass/cutlass-4.7.0.tar.xz -DCMAKE_PREFIX_PATH="$QT6CARRY_CMAKE" > /tmp/p/conf.txt 2>&1 || tail -20 /tmp/p/conf.txt
timeout 300 cmake --build /tmp/p/build -j16 --target gigacheck tst_cuda_online tst_cuda_strassen_verdict tst_cuda_operand_checks > /tmp/p/build.txt 2>&1; echo "build exit $? at ${SECONDS}s" | tee -a $L
G=/tmp/p/build/app/cli/gigacheck
# count CASE EXPECTED: runs "$G ..." from stdin lines, tallies exit codes, names the runs that differ.
tally() {
  local name=$1 expect=$2 n=0 ok=0 codes=""
  while read -r args; do
    n=$((n+1)); $G $args --backend cuda > /tmp/p/o.txt 2>&1; rc=$?
    codes="$codes $rc"
    if [ "$rc" = "$expect" ]; then ok=$((ok+1)); else echo "  differs (exit $rc): $args" >> $L; fi
  done
  echo "$name: $ok of $n exit $expect (codes:$(echo $codes | tr ' ' '\n' | sort | uniq -c | tr '\n' ' '))" | tee -a $L
}
for ref in none sample full; do
  for s in online offline; do for t in a b; do for p in "1,128@0" "200,64@1" "17,3@2"; do
    [ $t = b ] && p=$(echo $p | sed 's/^1,128/100,20/; s/^200,64/120,5/; s/^17,3/3,30/')
    echo "run --shape 257x129x31 --type f64 --scheme $s --panel 8 --target $t --inject-at $p --fault bitflip:62 --reference $ref"
  done; done; done | tally "f64 bit 62 in A/B after step 0, online+offline, --reference $ref" 0
done
for ref in none sample full; do
  for s in online offline; do for t in a b; do for bit in 0 1 2 3 4 5; do
    echo "run --shape 96x80x72 --type f64 --scheme $s --target $t --inject-at 1,3 --fault bitflip:$bit --reference $ref"
  done; done; done | tally "f64 bits 0-5 in A/B before the checksums, online+offline, --reference $ref" 0
done
for ref in none full; do
  for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
    echo "run --shape 1024x1024x1024 --scheme tmr --inject-at $((i*37)),$((i*53+1)):5@0 --inject-at $((i*37)),$((i*53+1)):5@1 --reference $ref"
  done | tally "TMR, the same fault in two replicas, 1024^3, --reference $ref" 0
done
for ref in none sample; do
  for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
    echo "run --shape 1024x1024x1024 --scheme tmr --inject-at $((i*37)),$((i*53+1)):5@0 --inject-at $((i*37)),$((i*53+1)):7@1 --reference $ref"
  done | tally "TMR, no majority (two replicas struck differently), 1024^3, --reference $ref" 3
done
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
  echo "run --shape 1024x1024x1024 --scheme tmr --inject-at $((i*37)),$((i*53+1)):5@0 --inject-at $((i*37)),$((i*53+1)):7@1 --reference full"
done | tally "TMR, no majority, 1024^3, --reference full" 0
for ref in none auto; do
  echo "strassen --shape 1537x999x1301 --levels 4 --type tf32 --inject-at c:1:3 --reference $ref" | tally "strassen TF32 L4 c:1:3, --reference $ref" $([ $ref = none ] && echo 3 || echo 0)
done
if [ "${SWEEP:-0}" = 1 ]; then
  for s in online offline; do for t in a b; do for bit in 52 53 58 60 61 62 63; do for st in 0 1 5 9; do for p in "200,64" "1,128" "17,3" "100,0"; do
    [ $t = b ] && p=$(echo $p | sed 's/^200,64/100,20/; s/^1,128/120,5/; s/^17,3/3,30/; s/^100,0/128,0/')
    echo "run --shape 257x129x31 --type f64 --scheme $s --panel 8 --target $t --inject-at $p@$st --fault bitflip:$bit --reference full"
  done; done; done; done; done | tally "f64 exponent flips (bits 52-63) in A/B at steps 0-9, online+offline, --reference full" 0
fi
echo "verdict cases done at ${SECONDS}s" | tee -a $L
for t in ${TESTS:-tst_cuda_online tst_cuda_operand_checks tst_cuda_strassen_verdict}; do
  timeout 240 /tmp/p/build/tests/$t > $OUT/$t.txt 2>&1; echo "$t exit $? at ${SECONDS}s: $(grep Totals $OUT/$t.txt)" | tee -a $L
done
cat $L
