#!/usr/bin/env bash
# bench/run.sh: Artuditu's performance measurements, side by side with tmux.
#
#   bench/run.sh [-n RUNS] [--no-build] [--no-jmh] [--events | --events-only] [--terminal | --terminal-only]
#   bench/run.sh --summarize RESULT_DIR...
#
# Runs the whole suite RUNS times (default 2) and prints a markdown table: one column per
# run, then the median of the runs and the target. --summarize prints that table again for
# the runs kept in earlier result directories, all together (the median of all of them). Everything it starts (servers, tmux
# servers, harness children) is stopped on exit. Only Unix sockets are used.
# Raw output (hyperfine JSON/CSV, JMH CSV, server logs, the class-load log) is kept in
# bench/target/results/<time>/.
#
# Knobs (environment): CALLS=10000 WARMUP=2000 (round trip), HF_RUNS=20 (hyperfine),
# COLD_RUNS=10 (cold starts per run).
# --events adds the event-bus section to each run (--events-only runs just that; about a
# minute per run): fan-out to EV_SUBS=8 subscribers at EV_RATE=10000 events/s for
# EV_SECONDS=10 from EV_PUBS=4 publisher threads (one fresh connection per publish), the
# same at the highest rate the publishers reach, the same with one subscriber that never
# reads (at EV_SLOW_RATE=4000/s), and events.wait wake-up (EV_WAIT_WARMUP=200 + EV_WAIT=1000).
# --terminal adds the terminal-host section (--terminal-only runs just that; about three
# minutes per run), Artuditu side by side with tmux, every pane 200x50, measured by
# io.artuditu.bench.TerminalBench on a fresh server per run:
#   throughput  cat of one TERM_MIB=64 MiB payload (printable lines, some SGR colour; made once
#               per invocation, same file for all) in a pane: bare PTY (script), tmux, Artuditu,
#               then tmux and Artuditu with a client attached; TERM_REPS=3 interleaved, median
#   flood       ping round trip p99 idle and while `yes` floods a pane (TERM_PINGS=2000 paced
#               over TERM_FLOOD_S=10 s each); tmux: a control-mode client's command round trip
#   keys        key to its echo at an attached client, pane running cat (TERM_KEYS_WARMUP=100 +
#               TERM_KEYS=500, TERM_KEY_GAP_MS=25 apart)
#   run         pane.run wait:true of `true` in bash (TERM_RUN_WARMUP=5 + TERM_RUNS=50); tmux:
#               send-keys and wait for the printed status
#   memory      server RSS per idle `sh` pane, TERM_PANES=100 panes, TERM_SETTLE_S=3
# It ends with a side-by-side table (Artuditu, tmux, ratio, target) of the medians of the runs.
set -euo pipefail

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
RUNS=2 BUILD=1 JMH=1 EVENTS=0 TERMINAL=0 SUMMARIZE=()
while [ $# -gt 0 ]; do
    case "$1" in
        -n) RUNS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-jmh) JMH=0; shift ;;
        --events) EVENTS=1; shift ;;
        --events-only) EVENTS=2; shift ;;
        --terminal) TERMINAL=1; shift ;;
        --terminal-only) TERMINAL=2; shift ;;
        --summarize) shift; SUMMARIZE=("$@"); [ $# -gt 0 ] && break ;&
        *) echo "usage: bench/run.sh [-n RUNS] [--no-build] [--no-jmh] [--events | --events-only]" \
               "[--terminal | --terminal-only] | --summarize RESULT_DIR..." >&2; exit 2 ;;
    esac
done
# The side-by-side runs need tmux and hyperfine (Debian packages); install them when missing.
need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
    else
        echo "bench/run.sh: needs ${need[*]} (apt-get install ${need[*]})" >&2
        exit 1
    fi
fi
CALLS=${CALLS:-10000} WARMUP=${WARMUP:-2000} HF_RUNS=${HF_RUNS:-20} COLD_RUNS=${COLD_RUNS:-10}
EV_SUBS=${EV_SUBS:-8} EV_RATE=${EV_RATE:-10000} EV_SECONDS=${EV_SECONDS:-10} EV_PUBS=${EV_PUBS:-4}
EV_SLOW_RATE=${EV_SLOW_RATE:-4000} EV_WAIT_WARMUP=${EV_WAIT_WARMUP:-200} EV_WAIT=${EV_WAIT:-1000}
TERM_MIB=${TERM_MIB:-64} TERM_REPS=${TERM_REPS:-3} TERM_PINGS=${TERM_PINGS:-2000} TERM_FLOOD_S=${TERM_FLOOD_S:-10}
TERM_KEYS_WARMUP=${TERM_KEYS_WARMUP:-100} TERM_KEYS=${TERM_KEYS:-500} TERM_KEY_GAP_MS=${TERM_KEY_GAP_MS:-25}
TERM_RUN_WARMUP=${TERM_RUN_WARMUP:-5} TERM_RUNS=${TERM_RUNS:-50} TERM_PANES=${TERM_PANES:-100}
TERM_SETTLE_S=${TERM_SETTLE_S:-3}

ARTU=$ROOT/artu
JAR=$ROOT/distribution/target/artuditu.jar
CLASSES=$ROOT/bench/target/classes
BENCH=(java -XX:+UseSerialGC -cp "$CLASSES" io.artuditu.bench.ServerBench)
EVBENCH=(java -XX:+UseSerialGC -cp "$CLASSES" io.artuditu.bench.EventBench)
TBENCH=(java -XX:+UseSerialGC -cp "$CLASSES" io.artuditu.bench.TerminalBench)
ECHO_JAR=$ROOT/modules-sdk/io.artuditu.example.echo/target/io.artuditu.example.echo-0.1.0-SNAPSHOT.jar
# The JVM options artu gives the server and the CLI (keep in step with ./artu).
SERVER_OPTS="-Xshare:auto -XX:+UseSerialGC -Xss512k"
CLI_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss512k -Xshare:auto"

# median VALUE...: the median of the values (nothing for none).
median() {
    printf '%s\n' "$@" | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END {
        if (NR == 0) exit; if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# table KV_FILE...: the markdown table, one column per run, the median of the runs, the target
# (a plain target is a most, ">=X" a least).
table() {
    local kvs=("$@") i key unit target label v vals med met shown
    printf "| measurement | unit |"; for i in "${!kvs[@]}"; do printf " run %d |" $((i + 1)); done
    printf " median | target | met |\n|---|---|"; for _ in "${kvs[@]}"; do printf -- "---:|"; done
    printf -- "---:|---|---|\n"
    while IFS='|' read -r key unit target label; do
        grep -q "^$key " "${kvs[0]}" || continue
        printf "| %s | %s |" "$label" "$unit"
        vals=""
        for i in "${kvs[@]}"; do
            v=$(sed -n "s/^$key //p" "$i"); printf " %s |" "$v"; vals="$vals $v"
        done
        # shellcheck disable=SC2086
        med=$(median $vals)
        met="" shown=""
        if [ -n "$target" ] && [ -n "$med" ]; then
            case $target in
                '>='*) shown="≥ ${target#>=}"
                       met=$(awk -v m="$med" -v t="${target#>=}" 'BEGIN { print (m >= t) ? "yes" : "no" }') ;;
                *) shown="≤ $target"; met=$(awk -v m="$med" -v t="$target" 'BEGIN { print (m <= t) ? "yes" : "no" }') ;;
            esac
        fi
        printf " %s | %s | %s |\n" "$med" "$shown" "$met"
    done <<'EOF'
load|||1-minute load average when the run began (2 cores)
jmh_ping|µs||JMH: dispatch one ping line in-process (avg)
jmh_malformed|µs||JMH: dispatch one malformed line in-process (avg)
rtt_p50|µs|100|fresh-connection ping round trip, p50
rtt_p90|µs||fresh-connection ping round trip, p90
rtt_p99|µs|1000|fresh-connection ping round trip, p99
rtt_max|µs||fresh-connection ping round trip, max
rtt2_p50|µs||same, second pass on the same server, p50
rtt2_p99|µs||same, second pass on the same server, p99
rtt2_max|µs||same, second pass on the same server, max
floor_p50|µs||floor: JDK-only server of the same shape, p50
floor_p99|µs||floor: JDK-only server of the same shape, p99
floor_max|µs||floor: JDK-only server of the same shape, max
tmux_version|ms||tmux display-message -p '#{version}' (whole process, median)
artu_ping|ms|60|./artu ping (whole process, median)
tmux_x|ms||tmux display-message -p x (whole process, median)
ping_ratio|×||artu ping / tmux display-message
artu_ping_cpu|ms||./artu ping, CPU user+sys (mean)
tmux_x_cpu|ms||tmux display-message -p x, CPU user+sys (mean)
tmux_V|ms||tmux -V (process floor, no server contact)
jvm_hello|ms||java Hello (JVM floor, default flags)
jvm_hello_cli|ms||java Hello (JVM floor, the CLI's flags)
cold_artu|ms|300|cold start to first pong: ./artu server --foreground (median)
cold_jar|ms||cold start to first pong: java -jar artuditu.jar (median)
cold_listening|ms||cold start to the log's "listening on" (median)
cold_cpu|ms||cold start: server CPU user+sys until first pong (median)
cold_tmux|ms||cold start: tmux new-session -d until has-session (median)
cold_ratio|×||Artuditu cold start / tmux cold start
cold_stop|ms||server.stop sent to process exit (median)
ev_rate|events/s||fan-out: publish rate achieved (target EV_RATE, 8 subscribers)
ev_published|events||fan-out: events published
ev_delivered|events||fan-out: delivered to the slowest subscriber
ev_lost|events|0|fan-out: events lost, all subscribers
ev_resync|subscribers|0|fan-out: subscribers that got events.resync_required
ev_p50|µs||fan-out: publish-to-delivery, p50
ev_p99|µs||fan-out: publish-to-delivery, p99
ev_pub_p50|µs||fan-out: publish request round trip, p50
evmax_rate|events/s||fan-out, publishers unthrottled: rate achieved
evmax_lost|events|0|fan-out, publishers unthrottled: events lost
evmax_p50|µs||fan-out, publishers unthrottled: publish-to-delivery, p50
evmax_p99|µs||fan-out, publishers unthrottled: publish-to-delivery, p99
evslow_cut|subscribers||slow-subscriber run: subscribers cut (uhp.stats; expect 1)
evslow_lost|events|0|slow-subscriber run: events lost by the other subscribers
evslow_p99|µs||slow-subscriber run: publish-to-delivery, p99
wait_p50|µs||events.wait: publish sent to the waiter's reply, p50
wait_p99|µs||events.wait: publish sent to the waiter's reply, p99
wait_pub_p50|µs||events.wait: the publish request's own round trip, p50
term_tp_bare|MB/s||terminal: cat of the payload through a bare PTY (script, no emulator)
term_tp_tmux|MB/s||terminal: cat of the payload in a tmux pane, no client
term_tp_artu|MB/s||terminal: cat of the payload in an Artuditu pane, no client
term_tp_ratio|×|>=1.5|terminal: Artuditu / tmux, no client
term_tpa_tmux|MB/s||terminal: the same in tmux, a terminal client attached
term_tpa_artu|MB/s||terminal: the same in Artuditu, an attach.pane client attached
term_tpa_ratio|×||terminal: Artuditu / tmux, a client attached
term_tpa_frames|frames||terminal: frames the attach.pane client received during the cat
term_ping_idle_p50|µs||terminal: ping p50, idle (paced fresh connections)
term_ping_idle_p99|µs||terminal: ping p99, idle
term_ping_flood_p50|µs||terminal: ping p50 while yes floods a pane
term_ping_flood_p99|µs||terminal: ping p99 while yes floods a pane
term_flood_artu_mbps|MB/s||terminal: yes output Artuditu consumed during the flood
term_tcmd_idle_p99|µs||terminal: tmux control-mode command round trip p99, idle
term_tcmd_flood_p99|µs||terminal: tmux control-mode command round trip p99, yes flooding a pane
term_flood_tmux_mbps|MB/s||terminal: yes output tmux consumed during the flood
term_key_artu_p50|µs||terminal: key to echoed cell at an attach.pane client, p50
term_key_artu_p99|µs||terminal: key to echoed cell at an attach.pane client, p99
term_key_tmux_p50|µs||terminal: send-keys to %output at a tmux control-mode client, p50
term_key_tmux_p99|µs||terminal: send-keys to %output at a tmux control-mode client, p99
term_run_artu_p50|ms||terminal: pane.run wait:true of true (bash), p50
term_run_tmux_p50|ms||terminal: tmux send-keys of true until its status is printed (bash), p50
term_mem_artu|KiB||terminal: Artuditu server RSS per idle sh pane
term_heap_artu|KiB||terminal: Artuditu heap in use per idle sh pane (after a full GC)
term_mem_tmux|KiB||terminal: tmux server RSS per idle sh window
EOF
}

# side_by_side KV_FILE...: the terminal-host figures, Artuditu beside tmux, medians of the runs;
# nothing when no run has them. The ratio is of the medians.
side_by_side() {
    local kvs=("$@") label unit akey tkey target a t r met
    grep -q '^term_tp_tmux ' "${kvs[@]}" || return 0
    # med KEY: the median over the runs, or – when no run has it.
    # shellcheck disable=SC2046
    med() { local m; m=$(median $(sed -n "s/^$1 //p" "${kvs[@]}")); echo "${m:-–}"; }
    quot() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^-?[0-9.]+$/ && b ~ /^-?[0-9.]+$/ && b > 0) printf "%.1f", a / b; else printf "–" }'; }
    printf "\n### Terminal host, side by side (median of %d runs, every pane 200x50)\n\n" ${#kvs[@]}
    printf "| figure | unit | Artuditu | tmux | Artuditu / tmux | target | met |\n|---|---|---:|---:|---:|---|---|\n"
    while IFS='|' read -r label unit akey tkey target; do
        a=$(med "$akey") t=$(med "$tkey") met=""
        r=$(awk -v a="$a" -v t="$t" 'BEGIN { if (a ~ /^-?[0-9.]+$/ && t ~ /^-?[0-9.]+$/ && t > 0) printf "%.2f", a / t; else printf "–" }')
        [ -n "$target" ] && [ "$r" != – ] && met=$(awk -v r="$r" -v x="$target" 'BEGIN { print (r >= x) ? "yes" : "no" }')
        printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$label" "$unit" "$a" "$t" "$r" "${target:+≥ $target × tmux}" "$met"
    done <<'EOF'
pane output throughput (cat of the payload), no client|MB/s|term_tp_artu|term_tp_tmux|1.5
the same, one client attached (attach.pane; a tmux terminal client)|MB/s|term_tpa_artu|term_tpa_tmux|
request p99, idle (fresh-connection ping; tmux control-mode command)|µs|term_ping_idle_p99|term_tcmd_idle_p99|
request p99 while yes floods a pane (the same requests)|µs|term_ping_flood_p99|term_tcmd_flood_p99|
keystroke to its echo at an attached client, p50 (pane runs cat)|µs|term_key_artu_p50|term_key_tmux_p50|
server memory per idle sh pane (RSS delta / panes)|KiB|term_mem_artu|term_mem_tmux|
run `true` in bash and wait for its status, p50 (pane.run; send-keys + printed status)|ms|term_run_artu_p50|term_run_tmux_p50|
EOF
    printf "\nFor scale: a bare PTY (script, no emulator) moves the payload at %s MB/s." "$(med term_tp_bare)"
    printf " Flood p99 / idle p99: Artuditu %s×, tmux %s×." \
        "$(quot "$(med term_ping_flood_p99)" "$(med term_ping_idle_p99)")" \
        "$(quot "$(med term_tcmd_flood_p99)" "$(med term_tcmd_idle_p99)")"
    printf " yes output consumed during the flood: Artuditu %s MB/s, tmux %s MB/s." \
        "$(med term_flood_artu_mbps)" "$(med term_flood_tmux_mbps)"
    printf " Artuditu heap in use per idle pane after a full GC: %s KiB.\n" "$(med term_heap_artu)"
}

if [ ${#SUMMARIZE[@]} -gt 0 ]; then
    kvs=()
    for d in "${SUMMARIZE[@]}"; do kvs+=("$d"/run*.kv); done
    table "${kvs[@]}"
    side_by_side "${kvs[@]}"
    exit 0
fi

OUT=$ROOT/bench/target/results/$(date +%Y%m%d-%H%M%S)
TMP=$(mktemp -d /tmp/artu-bench.XXXXXX)   # short: socket paths must stay under 108 bytes
mkdir -p "$OUT"
SERVER_PID="" FLOOR_PID="" CHILD=""

cleanup() {
    if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
        kill "$CHILD" 2>/dev/null || true   # the harness's shutdown hook ends its server too
        wait "$CHILD" 2>/dev/null || true
    fi
    for pid in "$SERVER_PID" "$FLOOR_PID"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    for s in "$TMP"/tmux*.sock "$TMP"/cold*/tmux*/tmux.sock "$TMP"/term*/tmux-*.sock; do
        if [ -S "$s" ]; then tmux -S "$s" kill-server 2>/dev/null || true; fi
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "== $*" >&2; }
# step OUT ERR COMMAND...: run COMMAND with its output in files. It runs in the background
# and is waited for, because bash delays a trap until a foreground child has exited.
step() {
    local out=$1 err=$2
    shift 2
    "$@" >"$out" 2>>"$err" &
    CHILD=$!
    wait "$CHILD"
    CHILD=""
}
# kv FILE KEY VALUE: record one figure of one run.
kv() { echo "$2 $3" >>"$1"; }
# kvt FILE KEY VALUE: the same, but a figure that was not measured (empty) is left out.
kvt() { if [ -n "$3" ]; then echo "$2 $3" >>"$1"; fi; }
# tstep OUT ERR COMMAND...: like step, but a failure is reported and the section goes on
# (that step's figures are then missing from the table).
tstep() {
    local out=$1 err=$2 rc=0
    shift 2
    "$@" >"$out" 2>>"$err" &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=""
    if [ "$rc" != 0 ]; then log "FAILED (exit $rc): ${*:5:2}, see $err"; fi
    return 0
}
# field LINE KEY: the value of KEY=value in a harness output line.
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# hf CSV NAME: hyperfine's median for the named command, in ms.
hf() { awk -F, -v n="$2" '$1 == n { printf "%.2f", $4 * 1000 }' "$1"; }
# hf_cpu CSV NAME: its mean user+system CPU time, in ms (a busy machine inflates it less).
hf_cpu() { awk -F, -v n="$2" '$1 == n { printf "%.2f", ($5 + $6) * 1000 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

if [ "$BUILD" = 1 ]; then
    log "building (mvn package -pl distribution,bench,modules-sdk/io.artuditu.example.echo -am)"
    PL=distribution,bench,modules-sdk/io.artuditu.example.echo
    (cd "$ROOT" && { mvn -B -q -o -DskipTests package -pl $PL -am \
        || mvn -B -q -DskipTests package -pl $PL -am; }) >&2
fi
if [ ! -f "$JAR" ] || [ ! -d "$CLASSES" ]; then
    echo "run.sh: build first (or drop --no-build)" >&2
    exit 2
fi
# What runs is what was built above: ./artu must not rebuild in the middle of a run because
# a source changed meanwhile (that would measure a build, or a half-built tree).
export ARTU_NO_BUILD=1

# events I: the event-bus section of run I, on a fresh server with the example module.
events() {
    local i=$1 f=$OUT/run$1.kv home=$TMP/evhome$1 err=$OUT/stderr$1.txt line sock
    sock=$home/artuditu.sock
    export ARTUDITU_HOME=$home
    log "run $i: event bus (fan-out, unthrottled, slow subscriber, events.wait)"
    mkdir -p "$home"
    "$ARTU" server --foreground >"$OUT/evserver$i.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 300); do
        "$ARTU" ping >/dev/null 2>&1 && break
        kill -0 "$SERVER_PID" || { echo "run.sh: the server died, see $OUT/evserver$i.log" >&2; exit 1; }
        sleep 0.1
    done
    step "$OUT/evinstall$i.txt" "$err" "${EVBENCH[@]}" install "$sock" "$ECHO_JAR"
    step "$OUT/fanout$i.txt" "$err" "${EVBENCH[@]}" fanout "$sock" "$EV_RATE" "$EV_SECONDS" "$EV_SUBS" "$EV_PUBS"
    line=$(tail -n 1 "$OUT/fanout$i.txt")
    kv "$f" ev_rate "$(field "$line" achieved_rate)"
    kv "$f" ev_published "$(field "$line" published)"
    kv "$f" ev_delivered "$(field "$line" delivered_min)"
    kv "$f" ev_lost "$(field "$line" lost)"
    kv "$f" ev_resync "$(field "$line" resync)"
    kv "$f" ev_p50 "$(field "$line" p50_us)"
    kv "$f" ev_p99 "$(field "$line" p99_us)"
    kv "$f" ev_pub_p50 "$(field "$line" publish_p50_us)"
    step "$OUT/fanoutmax$i.txt" "$err" "${EVBENCH[@]}" fanout "$sock" 0 "$EV_SECONDS" "$EV_SUBS" "$EV_PUBS"
    line=$(tail -n 1 "$OUT/fanoutmax$i.txt")
    kv "$f" evmax_rate "$(field "$line" achieved_rate)"
    kv "$f" evmax_lost "$(field "$line" lost)"
    kv "$f" evmax_p50 "$(field "$line" p50_us)"
    kv "$f" evmax_p99 "$(field "$line" p99_us)"
    step "$OUT/fanoutslow$i.txt" "$err" "${EVBENCH[@]}" fanout "$sock" "$EV_SLOW_RATE" "$EV_SECONDS" "$EV_SUBS" \
        "$EV_PUBS" slow
    line=$(tail -n 1 "$OUT/fanoutslow$i.txt")
    kv "$f" evslow_cut "$(field "$line" cut)"
    kv "$f" evslow_lost "$(field "$line" lost)"
    kv "$f" evslow_p99 "$(field "$line" p99_us)"
    step "$OUT/wait$i.txt" "$err" "${EVBENCH[@]}" wait "$sock" "$EV_WAIT_WARMUP" "$EV_WAIT"
    line=$(tail -n 1 "$OUT/wait$i.txt")
    kv "$f" wait_p50 "$(field "$line" p50_us)"
    kv "$f" wait_p99 "$(field "$line" p99_us)"
    kv "$f" wait_pub_p50 "$(field "$line" publish_p50_us)"
    "$ARTU" server stop >/dev/null
    wait "$SERVER_PID" || true
    SERVER_PID=""
}

# terminal I: the terminal-host section of run I, Artuditu and tmux side by side, on a fresh
# server. Memory comes first, while the server has done nothing else.
terminal() {
    local i=$1 f=$OUT/run$1.kv home=$TMP/thome$1 work=$TMP/term$1 err=$OUT/stderr$1.txt line sock
    sock=$home/artuditu.sock
    export ARTUDITU_HOME=$home
    log "run $i: terminal host (memory, throughput, keystrokes, pane.run, flood; Artuditu and tmux)"
    mkdir -p "$home" "$work"
    "$ARTU" server --foreground >"$OUT/tserver$i.log" 2>&1 &
    SERVER_PID=$!   # artu execs the JVM: this is the server's own pid
    for _ in $(seq 1 300); do
        "$ARTU" ping >/dev/null 2>&1 && break
        kill -0 "$SERVER_PID" || { echo "run.sh: the server died, see $OUT/tserver$i.log" >&2; exit 1; }
        sleep 0.1
    done

    tstep "$OUT/term-memory$i.txt" "$err" "${TBENCH[@]}" memory "$sock" "$SERVER_PID" "$work" "$TERM_PANES" \
        "$TERM_SETTLE_S"
    line=$(tail -n 1 "$OUT/term-memory$i.txt")
    kvt "$f" term_mem_artu "$(field "$line" artu_kib_per_pane)"
    kvt "$f" term_heap_artu "$(field "$line" artu_heap_kib_per_pane)"
    kvt "$f" term_mem_tmux "$(field "$line" tmux_kib_per_pane)"

    tstep "$OUT/term-throughput$i.txt" "$err" "${TBENCH[@]}" throughput "$sock" "$work" "$PAYLOAD" "$TERM_REPS"
    line=$(tail -n 1 "$OUT/term-throughput$i.txt")
    kvt "$f" term_tp_bare "$(field "$line" bare_mbps)"
    kvt "$f" term_tp_tmux "$(field "$line" tmux_mbps)"
    kvt "$f" term_tp_artu "$(field "$line" artu_mbps)"
    kvt "$f" term_tp_ratio "$(field "$line" ratio)"
    kvt "$f" term_tpa_tmux "$(field "$line" tmux_att_mbps)"
    kvt "$f" term_tpa_artu "$(field "$line" artu_att_mbps)"
    kvt "$f" term_tpa_ratio "$(field "$line" att_ratio)"
    kvt "$f" term_tpa_frames "$(field "$line" artu_att_frames)"

    tstep "$OUT/term-keys$i.txt" "$err" "${TBENCH[@]}" keys "$sock" "$work" "$TERM_KEYS_WARMUP" "$TERM_KEYS" \
        "$TERM_KEY_GAP_MS"
    line=$(tail -n 1 "$OUT/term-keys$i.txt")
    kvt "$f" term_key_artu_p50 "$(field "$line" artu_p50_us)"
    kvt "$f" term_key_artu_p99 "$(field "$line" artu_p99_us)"
    kvt "$f" term_key_tmux_p50 "$(field "$line" tmux_p50_us)"
    kvt "$f" term_key_tmux_p99 "$(field "$line" tmux_p99_us)"

    tstep "$OUT/term-run$i.txt" "$err" "${TBENCH[@]}" run "$sock" "$work" "$TERM_RUN_WARMUP" "$TERM_RUNS"
    line=$(tail -n 1 "$OUT/term-run$i.txt")
    kvt "$f" term_run_artu_p50 "$(field "$line" artu_p50_ms)"
    kvt "$f" term_run_tmux_p50 "$(field "$line" tmux_p50_ms)"

    tstep "$OUT/term-flood$i.txt" "$err" "${TBENCH[@]}" flood "$sock" "$work" "$TERM_PINGS" "$TERM_FLOOD_S"
    line=$(tail -n 1 "$OUT/term-flood$i.txt")
    kvt "$f" term_ping_idle_p50 "$(field "$line" artu_idle_p50_us)"
    kvt "$f" term_ping_idle_p99 "$(field "$line" artu_idle_p99_us)"
    kvt "$f" term_ping_flood_p50 "$(field "$line" artu_flood_p50_us)"
    kvt "$f" term_ping_flood_p99 "$(field "$line" artu_flood_p99_us)"
    kvt "$f" term_flood_artu_mbps "$(field "$line" artu_flood_mbps)"
    kvt "$f" term_tcmd_idle_p99 "$(field "$line" tmux_idle_p99_us)"
    kvt "$f" term_tcmd_flood_p99 "$(field "$line" tmux_flood_p99_us)"
    kvt "$f" term_flood_tmux_mbps "$(field "$line" tmux_flood_mbps)"

    if grep -q 'artu_skipped=' "$OUT"/term-*"$i".txt 2>/dev/null; then
        log "run $i: Artuditu's side was skipped where the server lacks a method (see $err)"
    fi
    "$ARTU" server stop >/dev/null
    wait "$SERVER_PID" || true
    SERVER_PID=""
}

# Each suite run: JMH, the warm server (round trip, whole-process commands vs tmux), cold starts.
suite() {
    local i=$1 f=$OUT/run$1.kv home=$TMP/home$1 tsock=$TMP/tmux$1.sock csv=$OUT/hyperfine$1.csv
    local err=$OUT/stderr$1.txt line
    export ARTUDITU_HOME=$home
    : >"$f"
    kv "$f" load "$(cut -d' ' -f1 /proc/loadavg)"

    if [ "$JMH" = 1 ]; then
        log "run $i: JMH dispatcher benchmark"
        step "$OUT/jmh$i.txt" "$err" java -jar "$ROOT/bench/target/benchmarks.jar" DispatchBenchmark \
            -rf csv -rff "$OUT/jmh$i.csv"
        kv "$f" jmh_ping "$(awk -F, '/\.ping"/ { printf "%.2f", $5 / 1000 }' "$OUT/jmh$i.csv")"
        kv "$f" jmh_malformed "$(awk -F, '/\.malformed"/ { printf "%.2f", $5 / 1000 }' "$OUT/jmh$i.csv")"
    fi

    log "run $i: starting the server"
    mkdir -p "$home"
    "$ARTU" server --foreground >"$OUT/server$i.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 300); do
        "$ARTU" ping >/dev/null 2>&1 && break
        kill -0 "$SERVER_PID" || { echo "run.sh: the server died, see $OUT/server$i.log" >&2; exit 1; }
        sleep 0.1
    done
    "$ARTU" ping >/dev/null   # the CLI's class-data archive exists from here on

    log "run $i: fresh-connection round trip ($WARMUP warm-up + $CALLS calls, twice)"
    # The second pass meets a server whose JIT has settled; the first is the one the targets judge.
    for pass in 1 2; do
        step "$OUT/roundtrip$i-$pass.txt" "$err" "${BENCH[@]}" roundtrip "$home/artuditu.sock" "$WARMUP" "$CALLS"
        line=$(tail -n 1 "$OUT/roundtrip$i-$pass.txt")
        for p in p50 p90 p99 max; do kv "$f" "rtt${pass#1}_$p" "$(field "$line" "${p}_us")"; done
    done

    log "run $i: whole-process commands (hyperfine, $HF_RUNS runs each)"
    tmux -S "$tsock" -f /dev/null new-session -d
    step "$OUT/hyperfine$i.txt" "$err" hyperfine -N -w 3 -r "$HF_RUNS" --style basic \
        --export-json "$OUT/hyperfine$i.json" --export-csv "$csv" \
        -n artu_ping "$ARTU ping" \
        -n tmux_version "tmux -S $tsock display-message -p '#{version}'" \
        -n tmux_x "tmux -S $tsock display-message -p x" \
        -n tmux_V "tmux -V" \
        -n jvm_hello "java -cp $CLASSES io.artuditu.bench.Hello" \
        -n jvm_hello_cli "java $CLI_OPTS -cp $CLASSES io.artuditu.bench.Hello"
    for n in artu_ping tmux_version tmux_x tmux_V jvm_hello jvm_hello_cli; do kv "$f" "$n" "$(hf "$csv" $n)"; done
    kv "$f" artu_ping_cpu "$(hf_cpu "$csv" artu_ping)"
    kv "$f" tmux_x_cpu "$(hf_cpu "$csv" tmux_x)"
    kv "$f" ping_ratio "$(ratio "$(hf "$csv" artu_ping)" "$(hf "$csv" tmux_x)")"
    tmux -S "$tsock" kill-server
    "$ARTU" server stop >/dev/null
    wait "$SERVER_PID" || true
    SERVER_PID=""

    log "run $i: the same round trip against a JDK-only server of the same shape (the floor)"
    # shellcheck disable=SC2086
    java $SERVER_OPTS -cp "$CLASSES" io.artuditu.bench.FloorServer "$TMP/floor$i.sock" 120 >>"$err" 2>&1 &
    FLOOR_PID=$!
    for _ in $(seq 1 100); do [ -S "$TMP/floor$i.sock" ] && break; sleep 0.05; done
    step "$OUT/floor$i.txt" "$err" "${BENCH[@]}" roundtrip "$TMP/floor$i.sock" "$WARMUP" "$CALLS"
    line=$(tail -n 1 "$OUT/floor$i.txt")
    for p in p50 p99 max; do kv "$f" "floor_$p" "$(field "$line" "${p}_us")"; done
    kill "$FLOOR_PID"
    wait "$FLOOR_PID" || true
    FLOOR_PID=""

    log "run $i: cold start, $COLD_RUNS x (artu launcher, bare jar, tmux)"
    step "$OUT/cold-artu$i.txt" "$OUT/coldstart$i.txt" "${BENCH[@]}" coldstart "$COLD_RUNS" "$TMP/cold$i" -- \
        "$ARTU" server --foreground
    line=$(tail -n 1 "$OUT/cold-artu$i.txt")
    kv "$f" cold_artu "$(field "$line" median_ms)"
    kv "$f" cold_listening "$(field "$line" listening_median_ms)"
    kv "$f" cold_cpu "$(field "$line" cpu_median_ms)"
    kv "$f" cold_stop "$(field "$line" stop_median_ms)"
    # shellcheck disable=SC2086
    step "$OUT/cold-jar$i.txt" "$OUT/coldstart$i.txt" "${BENCH[@]}" coldstart "$COLD_RUNS" "$TMP/coldjar$i" -- \
        java $SERVER_OPTS -jar "$JAR"
    kv "$f" cold_jar "$(field "$(tail -n 1 "$OUT/cold-jar$i.txt")" median_ms)"
    step "$OUT/cold-tmux$i.txt" "$OUT/coldstart$i.txt" "${BENCH[@]}" tmux-coldstart "$COLD_RUNS" "$TMP/coldtmux$i"
    kv "$f" cold_tmux "$(field "$(tail -n 1 "$OUT/cold-tmux$i.txt")" median_ms)"
    kv "$f" cold_ratio "$(ratio "$(sed -n 's/^cold_artu //p' "$f")" "$(sed -n 's/^cold_tmux //p' "$f")")"
}

# Cold starts of the bare jar with every class load logged (JVM uptime stamps), to see
# where the time goes between JVM start and the first answered ping. Median of 3.
profile() {
    local line
    log "startup profile (3 x -Xlog:class+load)"
    rm -f "$OUT"/classload-*.log
    # shellcheck disable=SC2086
    step "$OUT/profile.txt" "$OUT/profile.txt" "${BENCH[@]}" coldstart 3 "$TMP/prof" -- \
        java $SERVER_OPTS "-Xlog:class+load:file=$OUT/classload-%p.log:uptime" -jar "$JAR"
    line=$(grep '^coldstart runs' "$OUT/profile.txt")
    awk -v ready="$(field "$line" median_ms)" -v listening="$(field "$line" listening_median_ms)" '
        function ms(l) { return substr(l, 2, index(l, "s]") - 2) * 1000 }
        function mark(name, pattern) { if (!((f, name) in at) && $0 ~ pattern) at[f, name] = ms($0) }
        function median(name,   k, j, t, v) {
            for (k = 1; k <= f; k++) v[k] = at[k, name]
            for (k = 2; k <= f; k++) for (j = k; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return v[int((f + 1) / 2)]
        }
        FNR == 1 { f++; n = cds = jrt = fw = bundles = 0 }
        {
            mark("main", "aQute[.]launcher[.]pre[.]EmbeddedLauncher ")
            mark("launcher", "aQute[.]launcher[.]Launcher ")
            mark("felix", "org[.]apache[.]felix[.]framework[.]Felix ")
            mark("bundle", "source: jar:jar/")
            mark("dispatcher", "io[.]artuditu[.]dispatcher[.]internal[.]WhiteboardDispatcher ")
            mark("server", "io[.]artuditu[.]server[.]internal[.]ServerComponent ")
            n++
            if ($0 ~ /source: shared objects file/) cds++
            else if ($0 ~ /source: jrt:/) jrt++
            else if ($0 ~ /source: file:.*resource/) fw++
            else if ($0 ~ /source: jar:jar\//) bundles++
        }
        END {
            printf "\n### Cold start breakdown (bare jar, -Xlog:class+load, median of %d)\n\n", f
            printf "| phase | from (ms) | to (ms) | took (ms) |\n|---|---:|---:|---:|\n"
            split("start main launcher felix bundle dispatcher server", names, " ")
            split("JVM boot to main();" \
                  "bnd launcher: unpack its runpath jars (Felix, launcher) to temp files;" \
                  "bnd launcher: set up, load Felix;" \
                  "Felix: init (system bundle exports), install 12 bundles into fresh storage, resolve;" \
                  "ConfigAdmin and SCR start, SCR reads component XML;" \
                  "dispatcher activation (Jackson ObjectMapper set-up)", what, ";")
            for (k = 1; k < 7; k++) {
                a = median(names[k]); b = median(names[k + 1])
                printf "| %s | %d | %d | %d |\n", what[k], a, b, b - a
            }
            a = median("server")
            printf "| server and discovery activation: bind (junixsocket), contract, remaining bundle starts," \
                   " launcher.ready, log \"listening on\" | %d | %d | %d |\n", a, listening, listening - a
            printf "| first connection: first ping answered (cold code path) | %d | %d | %d |\n",
                listening, ready, ready - listening
            printf "\nClasses loaded (last run): %d in all; %d from the JDK CDS archive, %d from the JDK image" \
                   " (not archived), %d from the launcher/framework jars, %d from bundles, %d generated" \
                   " (lambdas, proxies, reflection).\n", n, cds, jrt, fw, bundles, n - cds - jrt - fw - bundles
            printf "Times are JVM uptime; the last two rows use the harness clock (spawn-relative). Logging adds a little.\n"
        }' "$OUT"/classload-*.log
}

# An -only flag skips the main suite (and the start-up profile).
ONLY=0
if [ "$EVENTS" = 2 ] || [ "$TERMINAL" = 2 ]; then ONLY=1; fi
PAYLOAD=$OUT/payload.txt
if [ "$TERMINAL" != 0 ]; then
    # One payload for every run and both sides (fixed seed); removed at the end unless TERM_KEEP_PAYLOAD=1.
    log "terminal payload: $TERM_MIB MiB"
    step "$OUT/payload-info.txt" "$OUT/stderr-payload.txt" "${TBENCH[@]}" payload "$PAYLOAD" "$TERM_MIB"
    sha256sum "$PAYLOAD" >>"$OUT/payload-info.txt"
fi
for i in $(seq 1 "$RUNS"); do
    if [ "$ONLY" = 1 ]; then
        : >"$OUT/run$i.kv"
        kv "$OUT/run$i.kv" load "$(cut -d' ' -f1 /proc/loadavg)"
    else
        suite "$i"
    fi
    if [ "$EVENTS" != 0 ]; then events "$i"; fi
    if [ "$TERMINAL" != 0 ]; then terminal "$i"; fi
done
if [ "$ONLY" = 1 ]; then : >"$OUT/profile.md"; else profile >"$OUT/profile.md"; fi
if [ "${TERM_KEEP_PAYLOAD:-0}" != 1 ]; then rm -f "$PAYLOAD"; fi

{
    table "$OUT"/run*.kv
    side_by_side "$OUT"/run*.kv
    cat "$OUT/profile.md"
    printf "\nMachine: %s cores; %s; %s. Raw output: %s\n" "$(nproc)" \
        "$(java -version 2>&1 | sed -n 2p)" "$(tmux -V)" "${OUT#"$ROOT"/}"
} | tee "$OUT/table.md"
