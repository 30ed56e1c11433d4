#!/usr/bin/env python3
"""bench/modules.py: the module platform's figures (issue 13).

  bench/modules.py [--reps 30] [--updates 20] [--rate 500] [--out DIR]

Starts a fresh server under a temporary ARTUDITU_HOME with ./artu (no build: run
`mvn -B -q -o -DskipTests package -pl distribution -am` first; the counter example jar
must be built too: it is part of that reactor), then measures
 1. bundle module: module.enable -> its first widget in ui.bar.list, and module.disable ->
    the widget gone from ui.bar.list (p50, min, max over REPS; each poll is one ui.bar.list
    request on a fresh connection, so the figure includes one request's latency);
 2. script module: the same for a module whose on_enable action pushes its widget with
    `artu bar push` (a CLI process: this figure is dominated by starting that process);
 3. server.bundle.update of the counter bundle while a client calls its method at RATE
    requests/s (each on a fresh connection): calls failed by error code, and the
    unavailable window of each update (the first failed call to the next answered one).
Prints key=value lines and writes DIR/modules.json. Everything started is stopped at the end.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

from uhp import call, ok

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")
COUNTER = os.path.join(ROOT, "modules-sdk/io.artuditu.example.counter/target/io.artuditu.example.counter-0.1.0-SNAPSHOT.jar")


def has_widget(sock, key):
    return any(w["key"] == key for w in ok(sock, "ui.bar.list")["widgets"])


def until(pred, timeout=20.0, what="a condition"):
    t0 = time.perf_counter()
    while not pred():
        if time.perf_counter() - t0 > timeout:
            raise RuntimeError("timed out waiting for " + what)
    return time.perf_counter() - t0


def cycle(sock, module, key, reps):
    on, off = [], []
    ok(sock, "module.disable", {"id": module})
    until(lambda: not has_widget(sock, key))
    for _ in range(reps):
        t0 = time.perf_counter()
        ok(sock, "module.enable", {"id": module})
        until(lambda: has_widget(sock, key), what=key + " to appear")
        on.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ok(sock, "module.disable", {"id": module})
        until(lambda: not has_widget(sock, key), what=key + " to go")
        off.append((time.perf_counter() - t0) * 1000)
    ok(sock, "module.enable", {"id": module})
    return on, off


def summary(name, xs):
    return {f"{name}_p50_ms": round(statistics.median(xs), 2), f"{name}_min_ms": round(min(xs), 2),
            f"{name}_max_ms": round(max(xs), 2)}


def update_under_load(sock, bundle, updates, rate):
    stop = threading.Event()
    events = []  # (time, ok, code, latency in ms)
    def client():
        interval = 1.0 / rate
        nxt = time.perf_counter()
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                r = call(sock, "example.counter.get")
                t1 = time.perf_counter()
                events.append((t1, "result" in r, r.get("error", {}).get("code"), (t1 - t0) * 1000))
            except OSError as e:  # refused or cut while the server swaps the bundle
                t1 = time.perf_counter()
                events.append((t1, False, type(e).__name__, (t1 - t0) * 1000))
            nxt += interval
            d = nxt - time.perf_counter()
            if d > 0:
                time.sleep(d)
            else:
                nxt = time.perf_counter()
    th = threading.Thread(target=client, daemon=True)
    th.start()
    time.sleep(1.0)
    t_start = time.perf_counter()
    for _ in range(updates):
        ok(sock, "server.bundle.update", {"bundle": bundle})
        until(lambda: "result" in call(sock, "example.counter.get"))
        time.sleep(0.5)
    t_end = time.perf_counter()
    time.sleep(0.5)
    stop.set()
    th.join()
    codes = {}
    windows = []
    first_fail = None
    for t, good, code, _ in events:
        if not good:
            codes[code] = codes.get(code, 0) + 1
            if first_fail is None:
                first_fail = t
        elif first_fail is not None:
            windows.append((t - first_fail) * 1000)
            first_fail = None
    during = [e for e in events if t_start <= e[0] <= t_end]
    achieved = len(during) / (t_end - t_start)
    lat = sorted(e[3] for e in during) or [0.0]
    return {"calls": len(events), "achieved_rate_per_s": round(achieved), "failed_by_code": codes,
            "failed": sum(codes.values()), "windows_ms": [round(w, 1) for w in windows],
            "unavailable_windows": len(windows),
            "unavailable_window_p50_ms": round(statistics.median(windows), 1) if windows else 0,
            "unavailable_window_max_ms": round(max(windows), 1) if windows else 0,
            # every call's time, failed or answered: a held call is slow rather than failed
            "latency_p50_ms": round(statistics.median(lat), 2),
            "latency_p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2),
            "latency_max_ms": round(lat[-1], 2)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--updates", type=int, default=20)
    ap.add_argument("--rate", type=int, default=500)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    home = tempfile.mkdtemp(prefix="artu-bench-modules-")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
    sock = os.path.join(home, "artuditu.sock")
    subprocess.run([ARTU, "server", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    print("server started", file=sys.stderr)
    res = {"machine": os.uname().nodename, "cpus": os.cpu_count(), "loadavg": os.getloadavg(),
           "reps": a.reps, "updates": a.updates, "rate": a.rate}
    try:
        ok(sock, "module.link", {"path": COUNTER})
        until(lambda: has_widget(sock, "counter/count"))
        on, off = cycle(sock, "counter", "counter/count", a.reps)
        res.update(summary("bundle_enable_to_widget", on))
        res.update(summary("bundle_disable_to_gone", off))
        res["bundle_samples_ms"] = {"enable": on, "disable": off}
        sdir = os.path.join(home, "script-mod")
        os.makedirs(os.path.join(sdir, "bin"))
        with open(os.path.join(sdir, "module.toml"), "w") as f:
            f.write('id = "s"\nname = "s"\nversion = "1.0.0"\napi = "[1.0,2.0)"\nscopes = ["read", "extensions"]\n'
                    'on_enable = "show"\n[[actions]]\nid = "show"\nrun = "bin/show.sh"\n[[bars]]\nid = "w"\n')
        with open(os.path.join(sdir, "bin/show.sh"), "w") as f:
            f.write("#!/bin/sh\nexec artu bar push --id w --content '[{\"type\":\"text\",\"text\":\"hi\"}]'\n")
        os.chmod(os.path.join(sdir, "bin/show.sh"), 0o755)
        ok(sock, "module.link", {"path": sdir})
        until(lambda: has_widget(sock, "s/w"), what="the script module's first widget")
        son, soff = cycle(sock, "s", "s/w", max(5, a.reps // 3))
        res.update(summary("script_enable_to_widget", son))
        res.update(summary("script_disable_to_gone", soff))
        res["script_samples_ms"] = {"enable": son, "disable": soff}
        bundle = ok(sock, "module.info", {"id": "counter"})["module"]["bundle_id"]
        res["update_under_load"] = update_under_load(sock, bundle, a.updates, a.rate)
    finally:
        subprocess.run([ARTU, "server", "stop"], env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)
    for k, v in res.items():
        if not k.endswith("samples_ms"):
            print(f"{k}={v}")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "modules.json"), "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
