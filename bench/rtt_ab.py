#!/usr/bin/env python3
"""bench/rtt_ab.py BEFORE_SOCK AFTER_SOCK: the round trip of two servers side by side, interleaved in
blocks of 250 (order alternating), so both see the same machine load; WARM (10000) warm-up
round trips each, BLK (80) blocks. Prints p50/p90/p99/max each and a paired count of blocks.
With PIDS=BEFORE_PID,AFTER_PID it also prints each server's CPU time (user+system, from
/proc/PID/stat) per round trip over its blocks: the server's own cost, which the client's
latency shows only through the noise of a loaded machine."""
import sys, os, statistics, importlib.util
spec=importlib.util.spec_from_file_location("rtt",os.path.join(os.path.dirname(os.path.abspath(__file__)),"rtt.py")); rtt=importlib.util.module_from_spec(spec); spec.loader.exec_module(rtt)
a,b=sys.argv[1:3]; W=int(os.environ.get('WARM','10000')); B=int(os.environ.get('BLK','80'))
pids=dict(zip((a,b),os.environ['PIDS'].split(','))) if os.environ.get('PIDS') else {}
tick=os.sysconf('SC_CLK_TCK')
def cpu(p):
    if p not in pids: return 0.0
    f=open('/proc/%s/stat'%pids[p]).read().rsplit(')',1)[1].split()
    return (int(f[11])+int(f[12]))/tick
for p in (a,b):
    for _ in range(W): rtt.once(p)
ra,rb,wins=[],[],0; meds=[]; cpus={a:0.0,b:0.0}
for i in range(B):
    order=(a,b) if i%2==0 else (b,a)
    blk={}
    for p in order:
        c0=cpu(p); blk[p]=[rtt.once(p) for _ in range(250)]; cpus[p]+=cpu(p)-c0
    ma,mb=statistics.median(blk[a]),statistics.median(blk[b]); meds.append((ma,mb)); wins+= mb<ma
    ra+=blk[a]; rb+=blk[b]
for n,p,r in (("before",a,ra),("after",b,rb)):
    s=sorted(r); print(n,"n=%d p50=%.0f p90=%.0f p99=%.0f max=%.0f"%(len(s),rtt.pct(s,50),rtt.pct(s,90),rtt.pct(s,99),s[-1])
                      +(" server_cpu_per_rt=%.1f us"%(cpus[p]/len(r)*1e6) if pids else ""))
print("blocks where after's median < before's: %d of %d; median of per-block differences (before-after): %.1f us"%(wins,B,statistics.median([x-y for x,y in meds])))
