#!/bin/bash
# prof.sh ROOT NAME PAYLOAD: the profile of ../20261203-keys-profile/prof.sh, run from the checkout
# ROOT (/work/base or a worktree), with the server's pid taken from its own process (not pgrep),
# so that other servers on the machine are never recorded: a fresh server, one unrecorded
# `TerminalBench throughput` pass, then JFR (1 ms sampling) around a second pass.
set -e
root=$1; name=$2; payload=$3
cd "$root"
export ARTUDITU_HOME=$(mktemp -d /tmp/prof.XXXX) ARTU_NO_BUILD=1
./artu server --foreground >/tmp/$name-server.txt 2>&1 &
pid=$!
for i in $(seq 100); do [ -S $ARTUDITU_HOME/artuditu.sock ] && break; sleep 0.2; done
work=$(mktemp -d /tmp/profw.XXXX)
java -XX:+UseSerialGC -cp bench/target/classes io.artuditu.bench.TerminalBench throughput $ARTUDITU_HOME/artuditu.sock $work $payload 1 > /tmp/$name-warm.txt 2>&1 || true
jcmd $pid JFR.start name=p settings=profile jdk.ExecutionSample#period=1ms jdk.NativeMethodSample#period=1ms filename=/tmp/$name.jfr >/dev/null
java -XX:+UseSerialGC -cp bench/target/classes io.artuditu.bench.TerminalBench throughput $ARTUDITU_HOME/artuditu.sock $work $payload 1 > /tmp/$name-run.txt 2>&1
jcmd $pid JFR.stop name=p >/dev/null
kill $pid; wait $pid || true
tail -3 /tmp/$name-run.txt
