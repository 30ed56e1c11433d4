#!/bin/bash
set -u
R=/work/wt-rtt/bench/results/20261206-rtt
for side in base wt; do d=/tmp/rtt-home-$side; rm -rf $d; mkdir -p $d; chmod 700 $d; done
(cd /work/base && ARTUDITU_HOME=/tmp/rtt-home-base ARTU_NO_BUILD=1 exec ./artu server --foreground >/tmp/rtt-home-base.log 2>&1) &
PB=$!
(cd /work/wt-rtt && ARTUDITU_HOME=/tmp/rtt-home-wt ARTU_NO_BUILD=1 exec ./artu server --foreground >/tmp/rtt-home-wt.log 2>&1) &
PW=$!
for i in $(seq 60); do [ -S /tmp/rtt-home-base/artuditu.sock ] && [ -S /tmp/rtt-home-wt/artuditu.sock ] && break; sleep 1; done
sleep 2
for p in /tmp/rtt-home-base /tmp/rtt-home-wt; do python3 /work/wt-rtt/bench/rtt.py warm --sock $p/artuditu.sock --samples 15000 --warmup 0 --out /tmp/rtt-scratch >/dev/null; done
jcmd $PB JFR.start name=rtt settings=/tmp/rtt-1ms.jfc filename=/tmp/rtt-before.jfr >/dev/null
jcmd $PW JFR.start name=rtt settings=/tmp/rtt-1ms.jfc filename=/tmp/rtt-after.jfr >/dev/null
WARM=0 BLK=120 PIDS=$PB,$PW python3 /work/wt-rtt/bench/rtt_ab.py /tmp/rtt-home-base/artuditu.sock /tmp/rtt-home-wt/artuditu.sock | tee $R/ab-during-jfr.txt
jcmd $PB JFR.stop name=rtt >/dev/null; jcmd $PW JFR.stop name=rtt >/dev/null
kill $PB $PW; wait
python3 /work/wt-rtt/bench/jfr_top.py /tmp/rtt-before.jfr --top 40 > $R/top-frames-before.txt
python3 /work/wt-rtt/bench/jfr_top.py /tmp/rtt-after.jfr --top 40 > $R/top-frames-after.txt
ls -la /tmp/rtt-before.jfr /tmp/rtt-after.jfr
