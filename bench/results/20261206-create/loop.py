"""Does the app loop answer while panes are being made? A server built from each tree
(before, after), started once each; per round and side: one client thread makes N panes
(terminal.backend.create of `sleep 600`, 200x50, back to back) while another calls
workspace.rename (a change, so it runs on the app loop) back to back; the rename latencies
during the creates are recorded; the panes are closed after. Rounds alternate the order.
usage: python3 loop.py OUT_DIR ROUNDS N before=/work/base after=/work/wt-create"""
import json, os, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, "/work/wt-create/bench/suite")
sys.path.insert(0, "/work/wt-create/bench")
import parts  # noqa: E402

out, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
trees = dict(a.split("=", 1) for a in sys.argv[4:])
tmp = tempfile.mkdtemp(prefix="create-loop-")


def start(name, root):
    home = os.path.join(tmp, "home-" + name)
    os.makedirs(home, mode=0o700)
    sock = os.path.join(home, "artuditu.sock")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
    p = subprocess.Popen([os.path.join(root, "artu"), "server", "--foreground"], env=env,
                         stdout=open(os.path.join(tmp, name + ".log"), "w"), stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    until = time.monotonic() + 60
    while True:
        try:
            parts.fresh_call(sock, "ping")
            return p, parts.Uhp(sock)
        except (OSError, RuntimeError):
            if time.monotonic() > until:
                raise
            time.sleep(0.05)


servers = {k: start(k, v) for k, v in trees.items()}
params = {"command": ["sleep", "600"], "cwd": tmp, "cols": 200, "rows": 50}
for _, u in servers.values():
    u.call("terminal.backend.create", params)  # workspace 0
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "loop.jsonl"), "w") as f:
    for r in range(rounds + 1):
        names = list(servers) if r % 2 == 0 else list(reversed(servers))
        for name in names:
            u = servers[name][1]
            ids = []

            def creator():
                for _ in range(n):
                    ids.append(u.call("terminal.backend.create", params)["terminal_id"])

            t = threading.Thread(target=creator)
            lat = []
            t.start()
            i = 0
            while t.is_alive():
                a = time.perf_counter_ns()
                u.call("workspace.rename", {"workspace": 0, "name": f"w{i}"})
                lat.append((time.perf_counter_ns() - a) / 1e6)
                i += 1
            t.join()
            for tid in ids:
                u.call("terminal.backend.close", {"terminal_id": tid})
            time.sleep(1)
            if r == 0:
                continue  # warm-up
            row = dict(round=r, side=name, renames=len(lat), p50_ms=round(parts.pct(lat, 50), 2),
                       p90_ms=round(parts.pct(lat, 90), 2), max_ms=round(max(lat), 1),
                       load=round(os.getloadavg()[0], 2))
            print(json.dumps(row), flush=True)
            f.write(json.dumps(row) + "\n")
for p, u in servers.values():
    parts.fresh_call(u.path, "server.stop")
    p.wait(30)
