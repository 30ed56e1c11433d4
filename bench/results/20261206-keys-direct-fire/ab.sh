#!/bin/bash
# /tmp/ab.sh SCEN PAIRS OUTPREFIX : interleaved before (/work/base) / after (/work/main) runs of one scenario
scen=$1; pairs=$2; pre=$3
for i in $(seq 1 $pairs); do
  if [ $((i % 2)) = 1 ]; then order="after before"; else order="before after"; fi
  for side in $order; do
    if [ $side = before ]; then dir=/work/base; else dir=${AFTER_DIR:-/work/main}; fi
    (cd $dir && bench/run --no-build --only $scen --runs 1 --out $pre-$side-$i --docs $pre-$side-$i.md > $pre-$side-$i.log 2>&1)
    echo "$side $i: $(grep -E '^[a-z_0-9]+ +artuditu' $pre-$side-$i.log | tr -s ' ' | tr '\n' ';')"
  done
done
