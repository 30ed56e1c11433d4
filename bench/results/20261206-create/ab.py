"""A/B of pane creation, interleaved: a server built from each tree (before, after) and one
tmux, all started once; then ROUNDS rounds, each making N panes running `sleep 600` on every
side (order rotated per round), exactly as bench/run's `create` does (terminal.backend.create
on a fresh connection each, 200x50, a pane tab of its own; tmux new-window -d on one control
client), then closing them. Prints every round's total and per-request p50/p90, and the server's CPU time (user + system,
/proc/PID/stat; for Artuditu also its app-loop thread's) over the creates and the closes that
follow, as JSON lines.

usage: python3 ab.py OUT_DIR ROUNDS N before=/work/base after=/work/wt-create
"""
import json, os, subprocess, sys, tempfile, time

sys.path.insert(0, "/work/wt-create/bench/suite")
sys.path.insert(0, "/work/wt-create/bench")
import parts  # noqa: E402

out, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
trees = dict(a.split("=", 1) for a in sys.argv[4:])
tmp = tempfile.mkdtemp(prefix="create-ab-")
cwd = os.path.join(tmp, "work")
os.makedirs(cwd)


class Server:
    def __init__(self, name, root):
        self.home = os.path.join(tmp, "home-" + name)
        os.makedirs(self.home, mode=0o700)
        self.sock = os.path.join(self.home, "artuditu.sock")
        self.log = open(os.path.join(tmp, f"server-{name}.log"), "w")
        env = dict(os.environ, ARTUDITU_HOME=self.home, ARTU_NO_BUILD="1")
        self.proc = subprocess.Popen([os.path.join(root, "artu"), "server", "--foreground"], env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        until = time.monotonic() + 60
        while True:
            try:
                parts.fresh_call(self.sock, "ping")
                break
            except (OSError, RuntimeError):
                if time.monotonic() > until:
                    raise
                time.sleep(0.05)
        self.pid = self.proc.pid
        self.u = parts.Uhp(self.sock)

    def create(self):
        ids, lat = [], []
        t0 = time.perf_counter_ns()
        for _ in range(n):
            a = time.perf_counter_ns()
            ids.append(self.u.call("terminal.backend.create", {"command": ["sleep", "600"], "cwd": cwd,
                                                               "cols": parts.COLS, "rows": parts.ROWS})["terminal_id"])
            lat.append((time.perf_counter_ns() - a) / 1e6)
        total = (time.perf_counter_ns() - t0) / 1e6
        for i in ids:
            self.u.call("terminal.backend.close", {"terminal_id": i})
        return total, lat

    def stop(self):
        try:
            parts.fresh_call(self.sock, "server.stop")
        except (OSError, RuntimeError):
            self.proc.terminate()
        self.proc.wait(30)


TICK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid, thread=None):
    """CPU time (user + system) of a process, or of its threads named `thread`, in ms."""
    paths = [f"/proc/{pid}/stat"]
    if thread:
        paths = []
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    if f.read().strip() == thread:
                        paths.append(f"/proc/{pid}/task/{tid}/stat")
            except OSError:
                pass
    total = 0
    for p in paths:
        with open(p) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total * 1000 / TICK


def tmux_create(t, c):
    lat = []
    t0 = time.perf_counter_ns()
    for _ in range(n):
        a = time.perf_counter_ns()
        c.command("new-window -d sleep 600")
        lat.append((time.perf_counter_ns() - a) / 1e6)
    total = (time.perf_counter_ns() - t0) / 1e6
    for w in t.cmd("list-windows", "-t", "main", "-F", "#{window_id}").split()[1:]:
        t.cmd("kill-window", "-t", w)
    return total, lat


servers = {k: Server(k, v) for k, v in trees.items()}
t = parts.Tmux(tmp, "create")
c = t.control()
sides = list(servers) + ["tmux"]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "rounds.jsonl"), "w") as f:
    for s in servers.values():  # warm-up
        s.create()
    tmux_create(t, c)
    for r in range(rounds):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        for side in order:
            pid = t.pid if side == "tmux" else servers[side].pid
            cpu0 = cpu_ms(pid)
            loop0 = 0 if side == "tmux" else cpu_ms(pid, "app-loop")
            total, lat = tmux_create(t, c) if side == "tmux" else servers[side].create()
            # the CPU of the creates and of the closes that follow them
            row = dict(round=r, side=side, total_ms=round(total, 1), p50_ms=round(parts.pct(lat, 50), 2),
                       p90_ms=round(parts.pct(lat, 90), 2), server_cpu_ms=cpu_ms(pid) - cpu0,
                       app_loop_cpu_ms=None if side == "tmux" else cpu_ms(pid, "app-loop") - loop0,
                       load=round(os.getloadavg()[0], 2))
            print(json.dumps(row), flush=True)
            f.write(json.dumps(row) + "\n")
for s in servers.values():
    s.stop()
c.close()
subprocess.run(t.base + ["kill-server"])
