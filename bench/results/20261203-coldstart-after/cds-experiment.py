import os, sys, time, subprocess, tempfile, shutil
sys.path.insert(0,'bench/suite')
from parts import Uhp, fresh_call, ARTU
PING=b'{"id":"p","method":"ping","params":{}}\n'
def cold(opts):
    d=tempfile.mkdtemp(prefix="cold.",dir="/tmp")
    env=dict(os.environ, ARTUDITU_HOME=d, ARTU_NO_BUILD="1", ARTUDITU_SERVER_JAVA_OPTS=opts)
    sock=d+"/artuditu.sock"
    t0=time.perf_counter()
    p=subprocess.Popen([ARTU,"server","--foreground"],env=env,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    while True:
        try:
            if b'pong' in Uhp(sock).raw(PING): break
        except OSError: pass
        time.sleep(0.002)
    t=(time.perf_counter()-t0)*1000
    fresh_call(sock,"server.stop"); p.wait(30); shutil.rmtree(d,ignore_errors=True)
    return t
mode=sys.argv[1]
if mode=="train":
    d=tempfile.mkdtemp(prefix="cold.",dir="/tmp")
    env=dict(os.environ, ARTUDITU_HOME=d, ARTU_NO_BUILD="1", ARTUDITU_SERVER_JAVA_OPTS="-XX:ArchiveClassesAtExit=/tmp/srv.jsa")
    p=subprocess.Popen([ARTU,"server","--foreground"],env=env,stdout=open('/tmp/train.log','w'),stderr=subprocess.STDOUT)
    time.sleep(6)
    for m in ["ping","session.snapshot","uhp.capabilities"]:
        try: fresh_call(d+"/artuditu.sock",m)
        except Exception as e: print(e)
    fresh_call(d+"/artuditu.sock","server.stop"); p.wait(60)
    print("trained", os.path.getsize('/tmp/srv.jsa') if os.path.exists('/tmp/srv.jsa') else None)
else:
    res={"base":[], "cds":[]}
    for i in range(5):
        res["base"].append(round(cold(""),1))
        res["cds"].append(round(cold("-XX:SharedArchiveFile=/tmp/srv.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"),1))
    print(res)
    import statistics
    print({k: statistics.median(v) for k,v in res.items()})
