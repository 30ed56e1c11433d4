#!/usr/bin/env python3
"""The themes family on a running server, one UHP connection per request as every client makes.

  python3 bench/themes.py [--rounds N] [--out DIR]

Starts its own server in a fresh home (./artu server start, ARTU_NO_BUILD=1: build first),
then measures, with --rounds samples each:
  - theme.list: connect, request, the whole reply (12 entries with every resolved colour), close;
  - theme.use -> theme.changed: from sending theme.use to the event on a subscriber;
  - a file edit -> theme.changed: from the atomic rename of an edited theme file into
    <home>/themes/ to the event on a subscriber (includes the watch's 150 ms quiet period).
Writes DIR/themes.json (every sample, machine, load average) and prints medians and p99s.
"""
import argparse, json, os, platform, shutil, socket, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from uhp import ok  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def theme(bg):
    pal = ["#000000", "#cc0000", "#00cc00", "#cccc00", "#0000cc", "#cc00cc", "#00cccc", "#cccccc",
           "#555555", "#ff5555", "#55ff55", "#ffff55", "#5555ff", "#ff55ff", "#55ffff", "#ffffff"]
    keys = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_black", "bright_red",
            "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "bright_white"]
    lines = ['id = "bench"', 'name = "Bench"', 'variant = "dark"', "[colors]", 'foreground = "#c0c0c0"',
             f'background = "{bg}"'] + [f'{k} = "{v}"' for k, v in zip(keys, pal)]
    return "\n".join(lines) + "\n"


class Events:
    def __init__(self, sock):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(sock)
        self.s.sendall(b'{"id":"e","method":"events.subscribe","params":{}}\n')
        self.buf = b""
        self.line()  # the acknowledgment

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 16)
            if not chunk:
                raise SystemExit("the event stream ended")
            self.buf += chunk
        l, self.buf = self.buf.split(b"\n", 1)
        return json.loads(l)

    def until(self, name):
        while True:
            e = self.line()
            if e.get("event") == name:
                return time.perf_counter_ns(), e


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", time.strftime("%Y%m%d") + "-themes"))
    a = ap.parse_args()
    home = tempfile.mkdtemp(prefix="artu-bench-themes-")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
    subprocess.run([os.path.join(ROOT, "artu"), "server", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
    sock = os.path.join(home, "artuditu.sock")
    try:
        for _ in range(20):
            ok(sock, "theme.list")  # warm up
        lst = []
        for _ in range(a.rounds):
            t0 = time.perf_counter_ns()
            ok(sock, "theme.list")
            lst.append((time.perf_counter_ns() - t0) / 1e6)
        ev = Events(sock)
        use = []
        for i in range(a.rounds):
            t0 = time.perf_counter_ns()
            ok(sock, "theme.use", {"id": "nord" if i % 2 == 0 else "dracula"})
            t1, _ = ev.until("theme.changed")
            use.append((t1 - t0) / 1e6)
        ok(sock, "theme.use", {"id": "default"})
        ev.until("theme.changed")
        folder = os.path.join(home, "themes")
        with open(os.path.join(folder, "bench.toml"), "w") as f:
            f.write(theme("#000000"))
        edit = []
        deadline = time.time() + 10
        while "bench" not in [t["id"] for t in ok(sock, "theme.list")["themes"]]:
            if time.time() > deadline:
                raise SystemExit("the watch never picked up bench.toml")
            time.sleep(0.05)
        ok(sock, "theme.use", {"id": "bench"})
        ev.until("theme.changed")
        for i in range(min(a.rounds, 50)):
            part = os.path.join(folder, ".bench.part")
            with open(part, "w") as f:
                f.write(theme("#%06x" % (i + 1)))
            t0 = time.perf_counter_ns()
            os.rename(part, os.path.join(folder, "bench.toml"))
            t1, _ = ev.until("theme.changed")
            edit.append((t1 - t0) / 1e6)
    finally:
        subprocess.run([os.path.join(ROOT, "artu"), "server", "stop"], env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {
        "command": "python3 bench/themes.py --rounds %d" % a.rounds, "commit": commit,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "loadavg": os.getloadavg()},
        "unit": "ms",
        "theme_list": lst, "theme_use_to_event": use, "file_edit_to_event": edit,
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "themes.json"), "w") as f:
        json.dump(result, f, indent=1)
    for k in ("theme_list", "theme_use_to_event", "file_edit_to_event"):
        xs = result[k]
        print(f"{k:20s} n={len(xs):4d} median {statistics.median(xs):7.2f} ms  p99 {pct(xs, 99):7.2f} ms  max {max(xs):7.2f} ms")
    print("load average", result["machine"]["loadavg"], "->", a.out)


if __name__ == "__main__":
    main()
