#!/bin/bash
# usage: rtt-ab.sh OUTFILE  -- starts base + wt servers, runs bench/rtt_ab.py, stops them
set -u
OUT=$1
for side in base wt; do
  d=/tmp/rtt-home-$side; rm -rf $d; mkdir -p $d; chmod 700 $d
done
(cd /work/base && ARTUDITU_HOME=/tmp/rtt-home-base ARTU_NO_BUILD=1 exec ./artu server --foreground >/tmp/rtt-home-base.log 2>&1) &
PB=$!
(cd /work/wt-rtt && ARTUDITU_HOME=/tmp/rtt-home-wt ARTU_NO_BUILD=1 exec ./artu server --foreground >/tmp/rtt-home-wt.log 2>&1) &
PW=$!
for i in $(seq 60); do [ -S /tmp/rtt-home-base/artuditu.sock ] && [ -S /tmp/rtt-home-wt/artuditu.sock ] && break; sleep 1; done
ls -la /tmp/rtt-home-base/artuditu.sock /tmp/rtt-home-wt/artuditu.sock
sleep 2
python3 /tmp/rtt-paced.py /tmp/rtt-home-base/artuditu.sock /tmp/rtt-home-wt/artuditu.sock | tee $OUT
kill $PB $PW; wait
