#!/usr/bin/env python3
"""Memory per pane on a running server: RSS and the live heap before and after N panes.

  python3 bench/pane_memory.py HOME OUT_DIR [--panes 100]

HOME is the ARTUDITU_HOME of a server already started (ARTU_NO_BUILD=1 ./artu server start).
Opens a workspace, waits 2 s, takes RSS (/proc/PID/status) and `jcmd PID GC.class_histogram`
(a full GC first), makes N panes with tab.new (each a shell pane), waits 5 s, takes both again.
Writes OUT_DIR/histo-before.txt, histo-after-N-tabs.txt and per-pane.txt (the growth per
pane by class). For native memory, start the server with
ARTUDITU_SERVER_JAVA_OPTS=-XX:NativeMemoryTracking=summary and use `jcmd PID VM.native_memory
baseline` / `summary.diff` around the same steps.
"""
import argparse, os, re, subprocess, sys, time

sys.path.insert(0, os.path.dirname(__file__))
from uhp import ok  # noqa: E402


def server_pid(home):
    for line in subprocess.run(["pgrep", "-af", "artuditu.jar"], capture_output=True, text=True).stdout.splitlines():
        pid = int(line.split()[0])
        try:
            if open(f"/proc/{pid}/environ", "rb").read().find(("ARTUDITU_HOME=" + home).encode()) >= 0:
                return pid
        except OSError:
            pass
    raise SystemExit("no server with ARTUDITU_HOME=" + home)


def histo(pid):
    raw = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True).stdout
    return {m.group(3): (int(m.group(1)), int(m.group(2)))
            for m in re.finditer(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", raw, re.M)}, raw


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("home")
    ap.add_argument("out")
    ap.add_argument("--panes", type=int, default=100)
    a = ap.parse_args()
    sock = os.path.join(a.home, "artuditu.sock")
    pid = server_pid(a.home)
    os.makedirs(a.out, exist_ok=True)
    ok(sock, "workspace.open", {"cwd": "/tmp"})
    time.sleep(2)
    h0, raw0 = histo(pid)
    r0 = rss(pid)
    for _ in range(a.panes):
        ok(sock, "tab.new", {})
    time.sleep(5)
    h1, raw1 = histo(pid)
    r1 = rss(pid)
    open(os.path.join(a.out, "histo-before.txt"), "w").write(raw0)
    open(os.path.join(a.out, f"histo-after-{a.panes}-tabs.txt"), "w").write(raw1)
    n = a.panes
    heap0 = sum(b for _, b in h0.values())
    heap1 = sum(b for _, b in h1.values())
    growth = sorted(((b - h0.get(k, (0, 0))[1], c - h0.get(k, (0, 0))[0], k) for k, (c, b) in h1.items()
                     if b > h0.get(k, (0, 0))[1]), reverse=True)
    lines = [f"server pid {pid}; {n} tab.new (each a shell pane); RSS {r0} KiB -> {r1} KiB: {(r1 - r0) / n:.0f} KiB per pane",
             f"live heap after GC (class histogram): {heap0 / 1024:.0f} KiB -> {heap1 / 1024:.0f} KiB: "
             f"{(heap1 - heap0) / 1024 / n:.1f} KiB per pane", "", "bytes per pane  instances per pane  class"]
    lines += [f"{b / n:12.0f}  {c / n:10.1f}  {k}" for b, c, k in growth[:30]]
    open(os.path.join(a.out, "per-pane.txt"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines[:12]))


if __name__ == "__main__":
    main()
