import socket, json, sys, time, statistics, os
socks = sys.argv[1:3]; N = int(sys.argv[3]); CALLS = int(sys.argv[4])
def raw(path, line):
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(line)
    buf = bytearray()
    while not buf.endswith(b"\n"):
        c = s.recv(1 << 16)
        if not c: break
        buf += c
    s.close(); return bytes(buf)
def call(path, method, params):
    r = json.loads(raw(path, (json.dumps({"id": "x", "method": method, "params": params}) + "\n").encode()))
    if "error" in r: raise SystemExit(r)
    return r["result"]
ids = {p: [] for p in socks}
for p in socks:
    for i in range(N):
        ids[p].append(call(p, "terminal.backend.create", {"command": ["sleep", "600"], "cwd": "/tmp", "cols": 80, "rows": 24})["terminal_id"])
req = b'{"id":"s","method":"session.snapshot","params":{}}\n'
for p in socks:
    for _ in range(20): raw(p, req)
t = {p: [] for p in socks}
for i in range(CALLS):
    for p in (socks if i % 2 == 0 else socks[::-1]):
        t0 = time.perf_counter_ns(); n = len(raw(p, req)); t[p].append((time.perf_counter_ns() - t0) / 1e6)
for name, p in zip(("before", "after"), socks):
    s = sorted(t[p]); print("%s: snapshot at %d panes, %d calls: p50=%.2f ms p90=%.2f ms, reply %d bytes" % (name, N, CALLS, statistics.median(s), s[int(0.9 * len(s))], n))
for p in socks:
    for i in ids[p]: call(p, "terminal.backend.close", {"terminal_id": i})
