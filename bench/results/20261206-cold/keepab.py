import os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, '/work/wt-cold/bench/results/20261206-cold')
import coldab
def go(jar, home):
    sock = home + "/artuditu.sock"
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(["java", "-Xshare:auto", "-XX:+UseSerialGC", "-Xss512k", "-jar", jar],
                         env=dict(os.environ, ARTUDITU_HOME=home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            if b'pong' in coldab.raw(sock, coldab.PING): break
        except OSError: pass
        time.sleep(0.002)
    ms = (time.perf_counter_ns() - t0) / 1e6
    c = coldab.cpu_ms(p.pid)
    coldab.raw(sock, b'{"id":"s","method":"server.stop","params":{}}\n'); p.wait(30)
    return round(ms), c
jars = {"temp-cache": "/work/base/distribution/target/artuditu.jar", "kept-cache": "/tmp/cold-keep/artuditu.jar"}
homes = {k: tempfile.mkdtemp() for k in jars}
for k in jars: go(jars[k], homes[k])   # the kept cache's first fill, not counted
res = {k: [] for k in jars}
for r in range(int(sys.argv[1])):
    for k in (list(jars) if r % 2 == 0 else list(jars)[::-1]):
        res[k].append(go(jars[k], homes[k]))
    print(r, {k: v[-1] for k, v in res.items()}, flush=True)
for k, v in res.items():
    print(k, "wall median", statistics.median(x[0] for x in v), "cpu median", statistics.median(x[1] for x in v))
