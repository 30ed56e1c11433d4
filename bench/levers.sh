#!/usr/bin/env bash
# bench/levers.sh: what the JVM options alone can do for Artuditu's start-up and tail latency.
#
#   bench/levers.sh [ROUNDS]        (default 10; run bench/run.sh once first, it builds)
#
# 1. Cold start to first pong of the bare server jar under several JVM options. The
#    variants are interleaved round by round, so a machine that gets busier half-way
#    through hurts them all alike; each figure is the median over ROUNDS.
# 2. Fresh-connection round trips against a server with the default young generation and
#    with a small one (-Xmn16m): the maximum is a young-GC pause.
# Everything started here is stopped on exit; only Unix sockets are used.
set -euo pipefail

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
ROUNDS=${1:-10}
JAR=$ROOT/distribution/target/artuditu.jar
CLASSES=$ROOT/bench/target/classes
API_JAR=$ROOT/distribution/target/artuditu/lib/io.artuditu.uhp.api.jar   # the UHP client ServerBench uses
BENCH=(java -XX:+UseSerialGC -cp "$CLASSES:$API_JAR" io.artuditu.bench.ServerBench)
SERVER_OPTS="-Xshare:auto -XX:+UseSerialGC -Xss512k"   # as ./artu gives them
TMP=$(mktemp -d /tmp/artu-levers.XXXXXX)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ ! -f "$JAR" ] || [ ! -d "$CLASSES" ] || [ ! -f "$API_JAR" ]; then
    echo "levers.sh: build first (bench/run.sh does)" >&2
    exit 2
fi
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END {
    if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# An application class-data archive of the server, written by one run that exits cleanly.
# shellcheck disable=SC2086
"${BENCH[@]}" coldstart 1 "$TMP/dump" -- java $SERVER_OPTS "-XX:ArchiveClassesAtExit=$TMP/server.jsa" \
    -jar "$JAR" >/dev/null 2>&1

names=("baseline" "C1 only" "AppCDS archive" "C1 only + AppCDS" "no bytecode verification"
    "keep framework storage")
opts=("" "-XX:TieredStopAtLevel=1" "-XX:SharedArchiveFile=$TMP/server.jsa"
    "-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=$TMP/server.jsa"
    "-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"
    "-Dlaunch.keep=true -Dlaunch.storage.dir=$TMP/storage")
declare -A wall cpu
for r in $(seq 1 "$ROUNDS"); do
    echo "== cold-start round $r of $ROUNDS" >&2
    for k in "${!names[@]}"; do
        # shellcheck disable=SC2086
        line=$("${BENCH[@]}" coldstart 1 "$TMP/cold" -- java $SERVER_OPTS ${opts[$k]} -jar "$JAR" 2>/dev/null)
        wall[$k]="${wall[$k]:-} $(field "$line" median_ms)"
        cpu[$k]="${cpu[$k]:-} $(field "$line" cpu_median_ms)"
    done
done
printf "\n| JVM options (on top of artu's) | cold start to first pong, median (ms) | server CPU, median (ms) |\n"
printf "|---|---:|---:|\n"
for k in "${!names[@]}"; do
    printf "| %s%s | %s | %s |\n" "${names[$k]}" "${opts[$k]:+ (\`${opts[$k]//$TMP/TMP}\`)}" \
        "$(echo "${wall[$k]}" | median)" "$(echo "${cpu[$k]}" | median)"
done

printf "\n| server young generation | pass | p50 (µs) | p99 (µs) | max (µs) |\n|---|---:|---:|---:|---:|\n"
for young in "" "-Xmn16m"; do
    export ARTUDITU_HOME=$TMP/home${young:+-small}
    mkdir -p "$ARTUDITU_HOME"
    ARTUDITU_SERVER_JAVA_OPTS="$young" "$ROOT/artu" server --foreground >"$ARTUDITU_HOME/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do "$ROOT/artu" ping >/dev/null 2>&1 && break; sleep 0.1; done
    for pass in 1 2; do
        line=$("${BENCH[@]}" roundtrip "$ARTUDITU_HOME/artuditu.sock" 2000 10000)
        printf "| %s | %d | %s | %s | %s |\n" "${young:-default}" "$pass" "$(field "$line" p50_us)" \
            "$(field "$line" p99_us)" "$(field "$line" max_us)"
    done
    "$ROOT/artu" server stop >/dev/null
    wait "$SERVER_PID" || true
    SERVER_PID=""
done
