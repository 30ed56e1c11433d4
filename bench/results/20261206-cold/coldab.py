#!/usr/bin/env python3
"""Cold-start A/B: alternates starts of `ARTU_NO_BUILD=1 <checkout>/artu server --foreground`
between checkouts, the way the suite's `cold` scenario measures one (first pong, polled every
2 ms on fresh connections), and tmux's `new-session -d` in the same rounds as the yardstick.

  coldab.py [--rounds N] [--home fresh|kept] [--env K=V ...] LABEL=CHECKOUT ...

--home fresh: a new ARTUDITU_HOME for every start (the suite's `cold`); kept: one home per
checkout, created and started once (not counted) before the rounds (a user's restart)."""
import argparse, os, shutil, socket, statistics, subprocess, sys, tempfile, time, json

PING = b'{"id":"p","method":"ping","params":{}}\n'


def raw(path, req, timeout=5):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    try:
        s.connect(path)
        s.sendall(req)
        buf = b""
        while not buf.endswith(b"\n"):
            c = s.recv(65536)
            if not c:
                break
            buf += c
        return buf
    finally:
        s.close()


CPU = []


def cpu_ms(pid):
    """CPU time (user + system, all threads) the process has used so far: less sensitive than
    the wall clock to what else runs on the machine."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK"))


def start(checkout, home, extra_env, opts=""):
    if opts:
        extra_env = dict(extra_env, ARTUDITU_SERVER_JAVA_OPTS=opts)
    sock = os.path.join(home, "artuditu.sock")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1", **extra_env)
    t0 = time.perf_counter_ns()
    p = subprocess.Popen([os.path.join(checkout, "artu"), "server", "--foreground"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    while True:
        try:
            if b'"pong"' in raw(sock, PING):
                break
        except OSError:
            pass
        if p.poll() is not None or time.perf_counter_ns() - t0 > 60e9:
            raise RuntimeError(f"{checkout}: no answer (exit {p.poll()})")
        time.sleep(0.002)
    ms = round((time.perf_counter_ns() - t0) / 1e6, 1)
    CPU.append(cpu_ms(p.pid))
    raw(sock, b'{"id":"s","method":"server.stop","params":{}}\n')
    p.wait(30)
    return ms


def tmux(d):
    sock = os.path.join(d, "tmux.sock")
    t0 = time.perf_counter_ns()
    subprocess.run(["tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50"],
                   check=True, stdin=subprocess.DEVNULL)
    ms = round((time.perf_counter_ns() - t0) / 1e6, 1)
    subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)
    return ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--home", choices=["fresh", "kept"], default="fresh")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--json")
    ap.add_argument("sides", nargs="+")
    a = ap.parse_args()
    # LABEL=CHECKOUT or LABEL=CHECKOUT@JAVA_OPTS (then ARTUDITU_SERVER_JAVA_OPTS for that side)
    sides = [s.split("=", 1) for s in a.sides]
    opts = {label: (co.split("@", 1) + [""])[1] for label, co in sides}
    sides = [(label, co.split("@", 1)[0]) for label, co in sides]
    extra = dict(e.split("=", 1) for e in a.env)
    tmp = tempfile.mkdtemp(prefix="coldab-")
    kept = {}
    if a.home == "kept":
        for label, co in sides:
            kept[label] = os.path.join(tmp, "home-" + label)
            os.makedirs(kept[label], mode=0o700)
            start(co, kept[label], extra, opts[label])
    res = {label: [] for label, _ in sides}
    res["tmux"] = []
    cpu = {label: [] for label, _ in sides}
    for r in range(a.rounds):
        order = sides if r % 2 == 0 else sides[::-1]
        for label, co in order:
            home = kept.get(label) or tempfile.mkdtemp(prefix="h-", dir=tmp)
            res[label].append(start(co, home, extra, opts[label]))
            cpu[label].append(CPU[-1])
            if label not in kept:
                shutil.rmtree(home, ignore_errors=True)
        d = tempfile.mkdtemp(prefix="t-", dir=tmp)
        res["tmux"].append(tmux(d))
        print(f"round {r}: " + ", ".join(f"{k} {v[-1]}" for k, v in res.items())
              + " | cpu " + ", ".join(f"{k} {v[-1]}" for k, v in cpu.items()), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    out = {k: {"samples_ms": v, "p50_ms": statistics.median(v), "min": min(v), "max": max(v)} for k, v in res.items()}
    for k, v in out.items():
        print(f"{k:>10}: median {v['p50_ms']:8.1f} ms  range {v['min']}-{v['max']}  ({a.home} home)")
    for k, v in cpu.items():
        print(f"{k:>10}: cpu to first pong median {statistics.median(v):8.1f} ms  range {min(v)}-{max(v)}")
    out["cpu_ms"] = {k: {"samples_ms": v, "p50_ms": statistics.median(v)} for k, v in cpu.items()}
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"home": a.home, "env": extra, "sides": dict(sides), "opts": opts, "results": out}, f, indent=1)


if __name__ == "__main__":
    main()
