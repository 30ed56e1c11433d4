#!/usr/bin/env bash
# bench/cli-ping.sh: the whole-process time of a one-shot `artu ping`, side by side with a
# bare JVM hello-world (same JVM flags as the CLI) and tmux's `display -p`.
#
#   bench/cli-ping.sh [RESULT_DIR]      (default bench/results/<date>-cli)
#
# Builds nothing: run ./artu once first. Starts a throwaway server (its own ARTUDITU_HOME)
# and a throwaway tmux server (-L artu-bench-$$), installs artu into a temporary prefix
# (./artu install --prefix), and stops all of them on exit. hyperfine -N, HF_WARMUP=3
# warmup runs and HF_RUNS=20 runs per command; JSON and markdown in RESULT_DIR, plus
# medians.txt (median ms per command) and env.txt (machine, load).
set -euo pipefail

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
OUT=${1:-$ROOT/bench/results/$(date +%Y%m%d)-cli}
RUNS=${HF_RUNS:-20} WARMUP=${HF_WARMUP:-3}
for tool in hyperfine tmux java javac python3; do
    command -v "$tool" >/dev/null || { echo "bench/cli-ping.sh needs $tool" >&2; exit 2; }
done
[ -f "$ROOT/distribution/target/artuditu/lib/io.artuditu.cli.jar" ] || { echo "build first: ./artu --help" >&2; exit 2; }
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/artu-cli-bench.XXXXXX")
export ARTUDITU_HOME="$WORK/home"
unset ARTUDITU_SOCKET_PATH
TMUX_SOCK="artu-bench-$$"
cleanup() {
    ARTU_NO_BUILD=1 "$ROOT/artu" server stop >/dev/null 2>&1 || true
    tmux -L "$TMUX_SOCK" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

ARTU_NO_BUILD=1 "$ROOT/artu" server start >/dev/null
"$ROOT/artu" install --prefix "$WORK/prefix" >/dev/null
"$WORK/prefix/bin/artu" ping >/dev/null   # the class-data archive exists from here on
tmux -L "$TMUX_SOCK" -f /dev/null new -d

# The hello-world gets the CLI's own JVM flags (read from the launcher) and its own archive.
mkdir -p "$WORK/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("x"); } }\n' >"$WORK/hello/Hello.java"
javac -d "$WORK/hello" "$WORK/hello/Hello.java"
jar cf "$WORK/hello.jar" -C "$WORK/hello" Hello.class   # class-data archives take jars, not folders
FLAGS=$(sed -n 's/^CLI_OPTS="\(.*\)"$/\1/p' "$ROOT/artu" | head -n 1)
FLAGS="$FLAGS -Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider"
# shellcheck disable=SC2086
java $FLAGS -XX:ArchiveClassesAtExit="$WORK/hello.jsa" -cp "$WORK/hello.jar" Hello >/dev/null
HELLO="java $FLAGS -XX:SharedArchiveFile=$WORK/hello.jsa -cp $WORK/hello.jar Hello"

{
    echo "date: $(date -Is)"
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "nproc: $(nproc)"
    java -version 2>&1 | head -n 2
    tmux -V
    hyperfine --version
} >"$OUT/env.txt"

hyperfine -N -w "$WARMUP" -r "$RUNS" --export-json "$OUT/cli-ping.json" --export-markdown "$OUT/cli-ping.md" \
    -n 'installed artu ping' "$WORK/prefix/bin/artu ping" \
    -n './artu ping' "$ROOT/artu ping" \
    -n 'JVM hello world' "$HELLO" \
    -n 'tmux display -p x' "tmux -L $TMUX_SOCK display -p x"

python3 - "$OUT/cli-ping.json" >"$OUT/medians.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f'{r["command"]}\t{r["median"] * 1000:.1f} ms median\t(mean {r["mean"] * 1000:.1f}, min {r["min"] * 1000:.1f}, max {r["max"] * 1000:.1f})')
PY
cat "$OUT/medians.txt"
