#!/usr/bin/env python3
"""CPU time by thread of one server start, read from /proc at its first pong (fresh home):
threadcpu.py CHECKOUT [RUNS]"""
import os, shutil, subprocess, sys, tempfile, time, collections, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coldab
tick = os.sysconf("SC_CLK_TCK")
tot = collections.Counter()
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
for _ in range(runs):
    home = tempfile.mkdtemp()
    sock = home + "/artuditu.sock"
    p = subprocess.Popen([sys.argv[1] + "/artu", "server", "--foreground"], env=dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            if b'pong' in coldab.raw(sock, coldab.PING): break
        except OSError: pass
        time.sleep(0.002)
    for t in os.listdir(f"/proc/{p.pid}/task"):
        try:
            s = open(f"/proc/{p.pid}/task/{t}/stat").read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        f = s.rsplit(")", 1)[1].split()
        name = re.sub(r"\d+", "N", name)
        tot[name] += (int(f[11]) + int(f[12])) * 1000 / tick
    coldab.raw(sock, b'{"id":"s","method":"server.stop","params":{}}\n'); p.wait(30)
    shutil.rmtree(home, ignore_errors=True)
print(f"CPU ms by thread at the first pong, mean of {runs} starts ({sys.argv[1]}):")
for k, v in tot.most_common(12):
    print(f"{v / runs:8.0f}  {k}")
print(f"{sum(tot.values()) / runs:8.0f}  all")
