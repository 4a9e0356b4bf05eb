set -u
source .carry-qt/device-env.sh
GIGACHECK_COMMIT=$1 resources/results/device_run.sh build > /dev/null || exit 1
CLI=build/app/cli/gigacheck
timeout 120 $CLI devices --measure > /dev/null 2>&1
for v in lean wide lean wide; do
  echo "##### sums $v"
  GIGACHECK_SUMS=$v GIGACHECK_BENCH_VARIANTS=timing timeout 250 $CLI bench online > $OUT/bench_$v.txt 2>&1
  grep -E "^N =|^online   (1|4) .*  2   |^offline  end  [01] |^online   1    1       2|median run" $OUT/bench_$v.txt | cut -c1-110
done
