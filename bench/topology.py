#!/usr/bin/env python3
"""bench/topology.py: the workspace topology beside tmux (issue 6's figures).

  bench/topology.py [--panes 100] [--create split|tab] [--snap-ws 20 --snap-tabs 5 --snap-panes 4] [--reps 50]

Starts a fresh server under a temporary ARTUDITU_HOME with ./artu (no build: run
`mvn -B -q -o -DskipTests package -pl distribution -am` first), then measures
 1. wall time to create N panes running a shell (pane.split in one tab, balanced, or
    tab.new; one request each, the next after the answer), beside tmux creating N windows
    (`new-window`, one command each);
 2. session.snapshot p50 over REPS calls with WS workspaces x TABS tabs x PANES panes;
 3. restore time: server.stop, then `./artu server start` until ping answers and
    session.snapshot lists every pane again.
Prints key=value lines. Only Unix sockets; everything started is stopped at the end.
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, tempfile, time

import uhp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")


def call(sock, method, params=None):
    """The result of one request; an error reply raises."""
    reply = uhp.call(sock, method, params)
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error']}")
    return reply["result"]


def panes_of(snapshot):
    return [p for w in snapshot["workspaces"] for t in w.get("tabs", []) for p in t.get("panes", [])]


def settle():
    """Waits until the 1-minute load is low again, so one side's shells do not slow the other."""
    for _ in range(60):
        if os.getloadavg()[0] < 2.0:
            return
        time.sleep(1)


def artu(env, *args):
    return subprocess.run([ARTU, *args], env=env, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--panes", type=int, default=100)
    ap.add_argument("--snap-ws", type=int, default=20)
    ap.add_argument("--snap-tabs", type=int, default=5)
    ap.add_argument("--snap-panes", type=int, default=4)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--create", choices=["split", "tab"], default="split",
                    help="how the N panes are made: pane.split in one tab (default) or one tab.new each")
    a = ap.parse_args()
    home = tempfile.mkdtemp(prefix="artu-topo-")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
    sock = os.path.join(home, "artuditu.sock")
    tmux_sock = "artu-topo-bench"
    try:
        # 1. N panes beside tmux's N windows (tmux first, then a quiet machine
        # again: the shells one side starts must not slow the other).
        settle()
        subprocess.run(["tmux", "-L", tmux_sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50"], check=True)
        t0 = time.monotonic()
        for _ in range(a.panes - 1):  # the session's first window is pane 1
            subprocess.run(["tmux", "-L", tmux_sock, "new-window", "-d"], check=True)
        tmux_ms = (time.monotonic() - t0) * 1000
        subprocess.run(["tmux", "-L", tmux_sock, "kill-server"], capture_output=True)
        artu(env, "server", "start")
        settle()
        first = call(sock, "workspace.open", {"cwd": home})["pane"]  # its shell counts as pane 1
        t0 = time.monotonic()
        if a.create == "split":
            # pane.split, as the issue asks, balanced (split the oldest pane, alternating
            # axes) so 100 panes fit one tab above the minimum pane size
            queue = [(first, 0)]
            for _ in range(a.panes - 1):
                pane, depth = queue.pop(0)
                new = call(sock, "pane.split", {"pane": pane, "direction": "right" if depth % 2 == 0 else "down",
                                                "focus": False})["pane"]
                queue += [(pane, depth + 1), (new, depth + 1)]
        else:
            for _ in range(a.panes - 1):
                call(sock, "tab.new", {})
        artu_ms = (time.monotonic() - t0) * 1000
        print(f"create_{a.panes}_artu_ms={artu_ms:.0f}")
        print(f"create_{a.panes}_tmux_ms={tmux_ms:.0f}")
        artu(env, "server", "stop")
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(home)
        # 2. snapshot latency with WS x TABS x PANES.
        artu(env, "server", "start")
        for w in range(a.snap_ws):
            folder = os.path.join(home, f"ws{w}")
            os.makedirs(folder)
            call(sock, "workspace.open", {"cwd": folder})
            for t in range(a.snap_tabs):
                if t:
                    call(sock, "tab.new", {"workspace": w})
                for p in range(a.snap_panes - 1):
                    call(sock, "pane.split", {"direction": "right"})
        total = len(panes_of(call(sock, "session.snapshot")))
        time.sleep(3)
        times = []
        for _ in range(a.reps):
            t0 = time.monotonic()
            call(sock, "session.snapshot")
            times.append((time.monotonic() - t0) * 1000)
        print(f"snapshot_panes={total}")
        print(f"snapshot_p50_ms={statistics.median(times):.2f}")
        # 3. restore after server.stop.
        artu(env, "server", "stop")
        t0 = time.monotonic()
        artu(env, "server", "start")
        while True:
            try:
                snap = call(sock, "session.snapshot")
            except RuntimeError:  # the family may register a moment after ping answers
                time.sleep(0.01)
                continue
            if len(panes_of(snap)) == total and all(p.get("alive") for p in panes_of(snap)):
                break
            time.sleep(0.01)
        print(f"restore_panes={total}")
        print(f"restore_ms={(time.monotonic() - t0) * 1000:.0f}")
    finally:
        subprocess.run([ARTU, "server", "stop"], env=env, capture_output=True)
        subprocess.run(["tmux", "-L", tmux_sock, "kill-server"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
