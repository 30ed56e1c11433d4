"""Server CPU by thread (user + system, /proc/PID/task/*/stat, grouped by name with digits
dropped) over N terminal.backend.create of `sleep 600` (200x50), then over their N closes,
after 30 made and closed to warm up: python3 threads.py ROOT N ROUNDS"""
import collections, os, re, subprocess, sys, tempfile, time

sys.path.insert(0, "/work/wt-create/bench/suite")
sys.path.insert(0, "/work/wt-create/bench")
import parts  # noqa: E402

root, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
TICK = os.sysconf("SC_CLK_TCK")
tmp = tempfile.mkdtemp(prefix="create-threads-")
home = os.path.join(tmp, "home")
os.makedirs(home, mode=0o700)
sock = os.path.join(home, "artuditu.sock")
env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
proc = subprocess.Popen([os.path.join(root, "artu"), "server", "--foreground"], env=env,
                        stdout=open(os.path.join(tmp, "server.log"), "w"), stderr=subprocess.STDOUT,
                        stdin=subprocess.DEVNULL)
until = time.monotonic() + 60
while True:
    try:
        parts.fresh_call(sock, "ping")
        break
    except (OSError, RuntimeError):
        if time.monotonic() > until:
            raise
        time.sleep(0.05)


def threads():
    out = collections.Counter()
    for tid in os.listdir(f"/proc/{proc.pid}/task"):
        try:
            with open(f"/proc/{proc.pid}/task/{tid}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        name = name if "CompilerThre" in name else re.sub(r"[0-9]+", "N", name)
        fields = s.rsplit(")", 1)[1].split()
        out[name] += (int(fields[11]) + int(fields[12])) * 1000 / TICK
    return out


u = parts.Uhp(sock)
params = {"command": ["sleep", "600"], "cwd": tmp, "cols": 200, "rows": 50}
create, close = collections.Counter(), collections.Counter()
for r in range(rounds + 1):
    a = threads()
    ids = [u.call("terminal.backend.create", params)["terminal_id"] for _ in range(n)]
    time.sleep(0.5)
    b = threads()
    for i in ids:
        u.call("terminal.backend.close", {"terminal_id": i})
    time.sleep(1.5)
    c = threads()
    print(f"round {r}: create {sum(b.values()) - sum(a.values()):.0f} ms CPU (JIT {b['C1 CompilerThre'] + b['C2 CompilerThre'] - a.get('C1 CompilerThre', 0) - a.get('C2 CompilerThre', 0):.0f}), "
          f"close {sum(c.values()) - sum(b.values()):.0f} ms", flush=True)
    if r > 0:  # round 0 warms up
        create.update({k: b[k] - a.get(k, 0) for k in b})
        close.update({k: c[k] - b.get(k, 0) for k in c})
parts.fresh_call(sock, "server.stop")
proc.wait(30)
for title, cnt in (("create (+0.5 s)", create), ("close (+1.5 s)", close)):
    total = sum(cnt.values())
    print(f"{title}: {total / rounds:.0f} ms CPU per {n} panes ({total / rounds / n:.2f} ms a pane)")
    for k, v in cnt.most_common(12):
        if v > 0:
            print(f"   {v / rounds:8.1f} ms  {k}")
