#!/bin/bash
# prof.sh NAME HARNESS-ARGS...: a fresh server with JFR (1 ms sampling) while TerminalBench runs one subcommand
set -e
cd /work/main
name=$1; shift
export ARTUDITU_HOME=$(mktemp -d /tmp/prof.XXXX) ARTU_NO_BUILD=1
./artu server start >/dev/null
pid=$(pgrep -f artuditu.jar -n)
work=$(mktemp -d /tmp/profw.XXXX)
sub=$1; shift
# warm-up pass without recording
java -XX:+UseSerialGC -cp bench/target/classes io.artuditu.bench.TerminalBench $sub $ARTUDITU_HOME/artuditu.sock $work "$@" > /tmp/$name-warm.txt 2>&1 || true
jcmd $pid JFR.start name=p settings=profile jdk.ExecutionSample#period=1ms jdk.NativeMethodSample#period=1ms filename=/tmp/$name.jfr >/dev/null
java -XX:+UseSerialGC -cp bench/target/classes io.artuditu.bench.TerminalBench $sub $ARTUDITU_HOME/artuditu.sock $work "$@" > /tmp/$name-run.txt 2>&1
jcmd $pid JFR.stop name=p >/dev/null
./artu server stop >/dev/null
tail -1 /tmp/$name-run.txt
