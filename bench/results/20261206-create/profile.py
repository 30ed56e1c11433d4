"""A JFR recording around N terminal.backend.create of `sleep 600` (200x50) on fresh connections,
after 30 made and closed to warm the server, as bench/results/20261203-create-profile did:
python3 profile.py ROOT OUT.jfr N"""
import os, subprocess, sys, tempfile, time

sys.path.insert(0, "/work/wt-create/bench/suite")
sys.path.insert(0, "/work/wt-create/bench")
import parts  # noqa: E402

root, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="create-prof-")
home = os.path.join(tmp, "home")
os.makedirs(home, mode=0o700)
sock = os.path.join(home, "artuditu.sock")
env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1")
log = open(os.path.join(tmp, "server.log"), "w")
proc = subprocess.Popen([os.path.join(root, "artu"), "server", "--foreground"], env=env, stdout=log,
                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
until = time.monotonic() + 60
while True:
    try:
        parts.fresh_call(sock, "ping")
        break
    except (OSError, RuntimeError):
        if time.monotonic() > until:
            raise
        time.sleep(0.05)
u = parts.Uhp(sock)
params = {"command": ["sleep", "600"], "cwd": tmp, "cols": 200, "rows": 50}
ids = [u.call("terminal.backend.create", params)["terminal_id"] for _ in range(30)]
for i in ids:
    u.call("terminal.backend.close", {"terminal_id": i})
time.sleep(1)
subprocess.run(["jcmd", str(proc.pid), "JFR.start", "name=create", "settings=profile",
                "jdk.ExecutionSample#period=1ms", "jdk.NativeMethodSample#period=1ms"], check=True, capture_output=True)
lat = []
t0 = time.perf_counter_ns()
ids = []
for _ in range(n):
    a = time.perf_counter_ns()
    ids.append(u.call("terminal.backend.create", params)["terminal_id"])
    lat.append((time.perf_counter_ns() - a) / 1e6)
total = (time.perf_counter_ns() - t0) / 1e6
subprocess.run(["jcmd", str(proc.pid), "JFR.stop", "name=create", "filename=" + out], check=True, capture_output=True)
print(f"{n} creates: {total:.0f} ms, {total / n:.2f} ms a pane; p50 {parts.pct(lat, 50):.2f} ms, "
      f"p90 {parts.pct(lat, 90):.2f} ms; load {os.getloadavg()[0]:.1f}")
for i in ids:
    u.call("terminal.backend.close", {"terminal_id": i})
parts.fresh_call(sock, "server.stop")
proc.wait(30)
