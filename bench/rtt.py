#!/usr/bin/env python3
"""bench/rtt.py: the UHP round trip of issue 16, as a client sees it.

One fresh AF_UNIX connection per `ping` (connect, request line, reply line, close), timed
from before connect() to after close(); 500 warm-up round trips, then 5,000 samples.

    bench/rtt.py LABEL [--sock PATH] [--samples N] [--warmup N] [--out DIR]

The socket defaults to $ARTUDITU_HOME/artuditu.sock (start a server first:
ARTU_NO_BUILD=1 ./artu server start). Prints p50/p90/p99/max in microseconds and writes
every sample (µs, in order) to bench/results/20261203-rtt-LABEL/rtt.json.
"""
import argparse, json, os, platform, socket, sys, time

REQUEST = b'{"id":"r","method":"ping","params":{}}\n'


def once(path):
    t0 = time.perf_counter_ns()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(REQUEST)
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    s.close()
    t1 = time.perf_counter_ns()
    if b'"pong"' not in buf:
        raise SystemExit(f"unexpected reply: {buf!r}")
    return (t1 - t0) / 1000.0


def pct(sorted_us, p):
    return sorted_us[min(len(sorted_us) - 1, int(round(p / 100.0 * (len(sorted_us) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("label")
    ap.add_argument("--sock", default=None)
    ap.add_argument("--samples", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=500)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    path = a.sock or os.path.join(os.environ.get("ARTUDITU_HOME") or sys.exit("set ARTUDITU_HOME or --sock"),
                                  "artuditu.sock")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = a.out or os.path.join(root, "bench", "results", "20261203-rtt-" + a.label)
    for _ in range(a.warmup):
        once(path)
    samples = [once(path) for _ in range(a.samples)]
    s = sorted(samples)
    summary = {"p50_us": pct(s, 50), "p90_us": pct(s, 90), "p99_us": pct(s, 99), "max_us": s[-1]}
    print(f"{a.label}: n={len(s)} p50={summary['p50_us']:.0f} p90={summary['p90_us']:.0f} "
          f"p99={summary['p99_us']:.0f} max={summary['max_us']:.0f} µs")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "rtt.json"), "w") as f:
        json.dump({"label": a.label, "method": "ping", "warmup": a.warmup, "samples_us": samples,
                   "summary_us": summary, "machine": platform.platform(), "cpus": os.cpu_count(),
                   "loadavg": os.getloadavg()}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
