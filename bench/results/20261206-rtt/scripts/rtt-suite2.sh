#!/bin/bash
run() { (cd $1 && bench/run --no-build --only rtt,flood,snapshot --runs 1 --out /tmp/rtt-suite2-$2 --docs /tmp/rtt-suite2-$2.md) > /tmp/rtt-suite2-$2.log 2>&1; }
run /work/base before-1
run /work/wt-rtt after-1
run /work/base before-2
run /work/wt-rtt after-2
run /work/base before-3
run /work/wt-rtt after-3
echo done
