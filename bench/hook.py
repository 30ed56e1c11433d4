#!/usr/bin/env python3
"""bench/hook.py: the whole-process wall time of `artu hook claude Stop` (issue 14).

  bench/hook.py [--runs 50] [--warmup 3] [--out DIR]   (default DIR bench/results/<date>-hook)

Builds nothing: build first (`mvn -B -q -o -DskipTests package -pl distribution -am`).
Starts a throwaway server under a temporary ARTUDITU_HOME with ./artu (ARTU_NO_BUILD=1),
opens a workspace for a real pane id, then times RUNS runs (after WARMUP) of each case,
round robin (one run of each case in turn, so a machine's changing load weighs on all
alike), every hook run a fresh process fed a Claude Code Stop hook's JSON on stdin, exactly
as the command `artu hook install claude` writes runs it (./artu, the launcher):
 1. live:      ARTUDITU_PANE_ID and ARTUDITU_SOCKET_PATH of that pane (two requests:
               pane.report_session, pane.report_event);
 2. no-server: the same, the socket path naming nothing;
 3. no-pane:   ARTUDITU_PANE_ID unset (the launcher answers without starting a JVM);
 4. ping:      `./artu ping` against the same server, for comparison;
 5. jvm_hello:  a bare JVM printing "x" with the CLI's JVM flags (read from ./artu) and its
               own class-data archive: the floor any JVM client stands on (needs javac);
and, from this script over the socket, the round trip of each request the hook sends
(pane.report_session, pane.report_event; ping beside them), RUNS times each.
Every hook run must exit 0 with empty stdout; violations are counted. Times include
Python's own fork and exec (about 1 ms). Prints key=value lines and writes DIR/hook.json
(every sample, median/p90/min/max per case, machine, load, JVM). The server is stopped at
the end.
"""
import argparse, datetime, json, os, shutil, statistics, subprocess, sys, tempfile, time

from uhp import call

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")
PAYLOAD = (json.dumps({
    "session_id": "0b6c3f0e-1d2e-4c8a-9f10-5b7a2c4d6e8f",
    "transcript_path": "/home/u/.claude/projects/p/0b6c3f0e.jsonl",
    "cwd": "/home/u/src/p",
    "permission_mode": "default",
    "hook_event_name": "Stop",
    "stop_hook_active": False,
}) + "\n").encode()


def p90(xs):
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(round(0.9 * (len(ys) - 1))))]


def run_once(argv, env, stdin):
    t0 = time.perf_counter()
    r = subprocess.run(argv, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return (time.perf_counter() - t0) * 1000, r.returncode == 0 and not r.stdout


def time_cases(cases, runs, warmup):
    """Round robin, one run of each case in turn, so a load that comes and goes weighs on all alike."""
    samples = {name: [] for name in cases}
    bad = {name: 0 for name in cases}
    for k in range(warmup + runs):
        for name, (argv, env, stdin, check) in cases.items():
            dt, good = run_once(argv, env, stdin)
            if check and not good:
                bad[name] += 1
            if k >= warmup:
                samples[name].append(dt)
    return samples, bad


def hello_world(work):
    """The argv of a JVM hello world with the launcher's CLI_OPTS and an archive of its own, or None without javac."""
    if not shutil.which("javac"):
        return None
    src = os.path.join(work, "Hello.java")
    with open(src, "w") as f:
        f.write('public class Hello { public static void main(String[] a) { System.out.println("x"); } }\n')
    subprocess.run(["javac", "-d", work, src], check=True)
    jar = os.path.join(work, "hello.jar")
    subprocess.run(["jar", "cf", jar, "-C", work, "Hello.class"], check=True)
    opts = next(l for l in open(ARTU) if l.startswith('CLI_OPTS="')).split('"')[1].split()
    opts.append("-Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider")
    jsa = os.path.join(work, "hello.jsa")
    subprocess.run(["java", *opts, "-XX:ArchiveClassesAtExit=" + jsa, "-cp", jar, "Hello"], check=True, stdout=subprocess.DEVNULL)
    return ["java", *opts, "-XX:SharedArchiveFile=" + jsa, "-cp", jar, "Hello"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", datetime.date.today().strftime("%Y%m%d") + "-hook"))
    a = ap.parse_args()
    if not os.path.exists(os.path.join(ROOT, "distribution/target/artuditu/lib/io.artuditu.cli.jar")):
        raise SystemExit("build first: mvn -B -q -o -DskipTests package -pl distribution -am")
    home = tempfile.mkdtemp(prefix="artu-bench-hook-")
    base = {k: v for k, v in os.environ.items() if not k.startswith("ARTUDITU_")}
    base.update(ARTU_NO_BUILD="1", ARTUDITU_HOME=home)
    sock = os.path.join(home, "artuditu.sock")
    subprocess.run([ARTU, "server", "start"], env=base, check=True, stdout=subprocess.DEVNULL)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    res = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "machine": os.uname().nodename,
           "cpus": os.cpu_count(), "loadavg_before": os.getloadavg(), "java": java[:2], "runs": a.runs,
           "warmup": a.warmup, "command": "./artu hook claude Stop (stdin: a Claude Code Stop hook's JSON)"}
    try:
        opened = call(sock, "workspace.open", {"cwd": home, "name": "bench"})
        pane = opened.get("result", {}).get("pane", "1")
        live = dict(base, ARTUDITU_PANE_ID=pane, ARTUDITU_SOCKET_PATH=sock)
        probe = subprocess.run([ARTU, "hook", "claude", "Stop"], env=dict(live, ARTUDITU_HOOK_DEBUG="1"),
                               input=PAYLOAD, capture_output=True, text=False)
        res["live_replies"] = probe.stderr.decode(errors="replace").splitlines()
        cases = {
            "live": ([ARTU, "hook", "claude", "Stop"], live, PAYLOAD, True),
            "no_server": ([ARTU, "hook", "claude", "Stop"], dict(live, ARTUDITU_SOCKET_PATH=os.path.join(home, "none.sock")),
                          PAYLOAD, True),
            "no_pane": ([ARTU, "hook", "claude", "Stop"], dict(base, ARTUDITU_SOCKET_PATH=sock), PAYLOAD, True),
            "ping": ([ARTU, "ping"], base, b"", False),
        }
        hello = hello_world(home)
        if hello:
            cases["jvm_hello"] = (hello, base, b"", False)
        res["cases"] = {}
        samples, bad = time_cases(cases, a.runs, a.warmup)
        for name, xs in samples.items():
            c = {"median_ms": round(statistics.median(xs), 1), "p90_ms": round(p90(xs), 1), "min_ms": round(min(xs), 1),
                 "max_ms": round(max(xs), 1), "violations": bad[name], "samples_ms": [round(x, 2) for x in xs]}
            res["cases"][name] = c
            print(f"{name}: median={c['median_ms']} ms p90={c['p90_ms']} ms min={c['min_ms']} max={c['max_ms']}"
                  f" violations={c['violations']}", file=sys.stderr)
        res["requests"] = {}
        for method, params in (("ping", {}),
                               ("pane.report_session", {"pane": pane, "agent": "claude", "session_id": "bench-1", "cwd": home}),
                               ("pane.report_event", {"pane": pane, "agent": "claude", "event": "Stop", "session_id": "bench-1"})):
            xs = []
            for _ in range(a.runs):
                t0 = time.perf_counter()
                r = call(sock, method, params)
                xs.append((time.perf_counter() - t0) * 1000)
                if "result" not in r:
                    raise SystemExit(f"{method}: {r}")
            res["requests"][method] = {"median_ms": round(statistics.median(xs), 2), "p90_ms": round(p90(xs), 2),
                                       "max_ms": round(max(xs), 2)}
            print(f"request {method}: median={res['requests'][method]['median_ms']} ms", file=sys.stderr)
        res["loadavg_after"] = os.getloadavg()
    finally:
        subprocess.run([ARTU, "server", "stop"], env=base, stdout=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)
    for name, c in res["cases"].items():
        print(f"{name}_median_ms={c['median_ms']}")
        print(f"{name}_p90_ms={c['p90_ms']}")
        print(f"{name}_violations={c['violations']}")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "hook.json"), "w") as f:
        json.dump(res, f, indent=1)
    print("wrote " + os.path.join(a.out, "hook.json"))


if __name__ == "__main__":
    main()
