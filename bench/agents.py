#!/usr/bin/env python3
"""bench/agents.py: the agent detector's cost and latency (issue 14).

  bench/agents.py [--panes 50] [--rounds 10] [--flood-kib 400] [--reps 3] [--out DIR]

Starts a fresh server under a temporary ARTUDITU_HOME with ./artu (no build: run
`mvn -B -q -o -DskipTests package -pl distribution -am` first) and a user manifest for
bench/agents/benchagent, a scripted agent that shows a working line on "w", its prompt on
"i" and a flood of agent-like output on "flood N". With PANES panes running it:
 1. latency: for each pane in turn, "w" is written with pane.send_input; the agent draws its
    working line, and 200 ms later its prompt, stamping the wall clock before each. The
    figure is the time from that stamp to pane.agent_status_changed {pane, status} ("working",
    then "done") arriving on an events.subscribe stream opened before: the PTY, the
    emulator, the terminal's coalesced notification (16 ms window), the agents loop and the
    event bus — the whole path a client waits on. p50 / p99 / max over PANES x ROUNDS x 2.
 2. CPU per MB: every pane floods FLOOD_KIB KiB (lines streaming above a working line kept at
    the bottom, as an agent's); the server's CPU time (utime + stime of its process) from the
    first write until every pane is back at its prompt, plus 0.5 s for the detector to
    finish (the same completion signal for both runs). Run twice:
    with the panes recognised as agents (benchagent) and with the same program under a
    name no manifest knows (benchplain, a symlink): interleaved, the order rotated each rep,
    one warm-up of each first; medians of REPS. The detector's own cost is the CPU time of
    its thread, agents-loop (from /proc/<pid>/task), per MB; the whole-server difference
    between the two runs is reported too, but on this machine it is within run-to-run noise.
Prints key=value lines and writes DIR/agents.json. Everything started is stopped at the end.
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

from uhp import ok

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")
FAKES = os.path.join(ROOT, "bench", "agents")
MANIFEST = """name = "benchagent"
display_name = "bench agent"
fallback = "idle"

[process]
names = ["benchagent"]
scripts = ["benchagent"]

[launch]
command = ["benchagent"]

[[rules]]
id = "working"
region = "last_rows"
rows = 3
pattern = "esc to interrupt"
status = "working"
priority = 10
confidence = 0.9

[[rules]]
id = "prompt"
region = "last_rows"
rows = 2
pattern = "^> ready"
status = "idle"
priority = 5
confidence = 0.9
"""


class Events:
    """One events.subscribe stream; waits for a pane's status event."""

    def __init__(self, sock):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(sock)
        self.s.sendall((json.dumps({"id": "e", "method": "events.subscribe",
                                    "params": {"events": ["pane.agent_status_changed"]}}) + "\n").encode())
        self.f = self.s.makefile("rb")
        self.f.readline()  # the acknowledgment
        self.seen = {}
        self.cv = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.f:
            e = json.loads(line)
            d = e.get("data", {})
            with self.cv:
                self.seen[(d.get("pane"), d.get("status"))] = time.time()
                self.cv.notify_all()

    def clear(self, pane, status):
        with self.cv:
            self.seen.pop((pane, status), None)

    def wait(self, pane, status, timeout=20):
        end = time.perf_counter() + timeout
        with self.cv:
            while (pane, status) not in self.seen:
                left = end - time.perf_counter()
                if left <= 0:
                    raise SystemExit(f"no {status} event for pane {pane} in {timeout} s")
                self.cv.wait(left)
            return self.seen.pop((pane, status))


def server_pid(home):
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/environ", "rb") as f:
                    env = f.read().split(b"\0")
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if b"ARTUDITU_HOME=" + home.encode() in env and b"artuditu.jar" in cmd:
                return int(d)
    raise SystemExit("cannot find the server process")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid, name):
    """utime + stime of the server's threads called name (their comm), e.g. agents-loop."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                if f.read().strip() != name:
                    continue
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return total / os.sysconf("SC_CLK_TCK")


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def panes_running(sock, anchor, program, n):
    panes = []
    for i in range(n):
        r = ok(sock, "pane.split", {"pane": anchor if i % 2 == 0 or not panes else panes[-1], "right": True}) \
            if i < 4 else ok(sock, "tab.new", {})
        p = r["pane"]
        ok(sock, "pane.send_input", {"pane": p, "text": program + "\r"})
        panes.append(p)
    return panes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--panes", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--flood-kib", type=int, default=400)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", time.strftime("%Y%m%d") + "-agents"))
    a = ap.parse_args()
    home = tempfile.mkdtemp(prefix="artu-bench-agents-")
    os.makedirs(os.path.join(home, "agents", "user"))
    with open(os.path.join(home, "agents", "user", "benchagent.toml"), "w") as f:
        f.write(MANIFEST)
    work = tempfile.mkdtemp(prefix="artu-bench-agents-work-")
    stamps = os.path.join(home, "stamps")
    os.makedirs(stamps)
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1", PATH=FAKES + ":" + os.environ["PATH"],
               BENCH_STAMP_DIR=stamps)
    subprocess.run([ARTU, "server", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    sock = os.path.join(home, "artuditu.sock")
    res = {"machine": os.uname().nodename, "cpus": os.cpu_count(), "loadavg_before": os.getloadavg(),
           "git": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
           "panes": a.panes, "rounds": a.rounds, "flood_kib": a.flood_kib,
           "command": "bench/agents.py " + " ".join(sys.argv[1:])}
    try:
        pid = server_pid(home)
        anchor = ok(sock, "workspace.open", {"cwd": work, "name": "bench"})["pane"]
        ev = Events(sock)
        panes = panes_running(sock, anchor, "benchagent", a.panes)
        for p in panes:
            w = ok(sock, "agent.wait", {"pane": p, "status": "idle", "timeout_s": 30})
            if w["matched"] is not True:
                raise SystemExit(f"pane {p} never became an idle benchagent: {w}\n"
                                 + json.dumps(ok(sock, "agent.explain", {"target": p})) + "\n"
                                 + json.dumps(ok(sock, "server.agent_manifests", {})["problems"]))
        time.sleep(2)  # 50 shells and agents have just started: let the machine settle
        samples = []
        for _ in range(a.rounds):
            for p in panes:
                ev.clear(p, "working")
                ev.clear(p, "done")
                ok(sock, "pane.send_input", {"pane": p, "text": "w\r"})
                try:
                    seen = {s: ev.wait(p, s) for s in ("working", "done")}
                except SystemExit as e:
                    raise SystemExit(f"{e}: " + json.dumps(ok(sock, "agent.explain", {"target": p})) + "\n"
                                     + ok(sock, "agent.read", {"target": p})["text"])
                with open(os.path.join(stamps, p)) as f:
                    drawn = dict(line.split() for line in f.read().splitlines()[-2:])
                for s in ("working", "done"):
                    samples.append((seen[s] - float(drawn[s])) * 1000)
        res["latency_ms"] = {"p50": statistics.median(samples), "p99": percentile(samples, 99), "max": max(samples),
                             "min": min(samples), "n": len(samples), "samples": samples}
        print(f"latency_ms_p50={res['latency_ms']['p50']:.2f} p99={res['latency_ms']['p99']:.2f} "
              f"max={res['latency_ms']['max']:.2f} n={len(samples)}")

        def flood(ps):
            """Every pane floods; done once each shows its prompt again, then 0.5 s for the detector to catch up."""
            c0, l0, t0 = cpu_seconds(pid), thread_cpu_seconds(pid, "agents-loop"), time.perf_counter()
            for p in ps:
                ok(sock, "pane.send_input", {"pane": p, "text": f"flood {a.flood_kib}\r"})
            for p in ps:
                end = time.time() + 120
                while not ok(sock, "pane.read", {"pane": p, "lines": 2})["text"].rstrip().endswith("(? for shortcuts)") \
                        or "Working" in ok(sock, "pane.read", {"pane": p, "lines": 2})["text"]:
                    if time.time() > end:
                        raise SystemExit(f"the flood in pane {p} did not end")
                    time.sleep(0.05)
            wall = time.perf_counter() - t0
            time.sleep(0.5)
            return cpu_seconds(pid) - c0, thread_cpu_seconds(pid, "agents-loop") - l0, wall

        mb = a.panes * a.flood_kib / 1024

        def call_agent(p):
            return next((x for x in ok(sock, "agent.list")["agents"] if x["pane"] == p), None)

        def run_as(program):
            for p in panes:
                ok(sock, "pane.send_input", {"pane": p, "keys": ["ctrl+c"]})
            time.sleep(0.3)
            for p in panes:
                ok(sock, "pane.send_input", {"pane": p, "text": program + "\r"})
            want = program == "benchagent"
            end = time.time() + 20
            while any((call_agent(p) is not None) != want for p in panes):  # started, recognised (or not)
                if time.time() > end:
                    raise SystemExit(f"the panes do not all run {program} as expected")
                time.sleep(0.2)

        # interleaved, the order rotated each rep, after one warm-up flood each (JIT, buffers)
        runs = {"benchagent": [], "benchplain": []}
        order = ["benchagent", "benchplain"]
        for rep in range(a.reps + 1):
            for program in (order if rep % 2 == 0 else order[::-1]):
                run_as(program)
                cpu, loop_cpu, wall = flood(panes)
                if rep > 0:
                    runs[program].append({"cpu_s": cpu, "agents_loop_cpu_s": loop_cpu, "wall_s": wall})
        med = {k: statistics.median(r["cpu_s"] for r in v) for k, v in runs.items()}
        loop_med = statistics.median(r["agents_loop_cpu_s"] for r in runs["benchagent"])
        res["flood"] = {"mb_per_run": mb, "reps": a.reps, "runs": runs,
                        "server_cpu_ms_per_mb_recognised": med["benchagent"] * 1000 / mb,
                        "server_cpu_ms_per_mb_unrecognised": med["benchplain"] * 1000 / mb,
                        "agents_loop_cpu_ms_per_mb": loop_med * 1000 / mb,
                        "difference_cpu_ms_per_mb": (med["benchagent"] - med["benchplain"]) * 1000 / mb}
        counters = ok(sock, "pane.list", {})["detection_performance"]
        res["detection_performance"] = counters
        print(f"flood_mb_per_run={mb:.1f} reps={a.reps} median cpu_ms_per_mb recognised={res['flood']['server_cpu_ms_per_mb_recognised']:.1f} "
              f"unrecognised={res['flood']['server_cpu_ms_per_mb_unrecognised']:.1f} "
              f"agents-loop={res['flood']['agents_loop_cpu_ms_per_mb']:.1f} "
              f"difference={res['flood']['difference_cpu_ms_per_mb']:.1f}")
        res["loadavg_after"] = os.getloadavg()
    finally:
        subprocess.run([ARTU, "server", "stop"], env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "agents.json"), "w") as f:
        json.dump(res, f, indent=1)
    print("results=" + os.path.join(a.out, "agents.json"))


if __name__ == "__main__":
    main()
