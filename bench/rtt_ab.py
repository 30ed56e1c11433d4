#!/usr/bin/env python3
"""bench/rtt_ab.py BEFORE_SOCK AFTER_SOCK: the round trip of two servers side by side, interleaved in
blocks of 250 (order alternating), so both see the same machine load; WARM (10000) warm-up
round trips each, BLK (80) blocks. Prints p50/p90/p99/max each and a paired count of blocks."""
import sys, os, statistics, importlib.util
spec=importlib.util.spec_from_file_location("rtt","/work/wt-rtt/bench/rtt.py"); rtt=importlib.util.module_from_spec(spec); spec.loader.exec_module(rtt)
a,b=sys.argv[1:3]; W=int(os.environ.get('WARM','10000')); B=int(os.environ.get('BLK','80'))
for p in (a,b):
    for _ in range(W): rtt.once(p)
ra,rb,wins=[],[],0; meds=[]
for i in range(B):
    order=(a,b) if i%2==0 else (b,a)
    blk={}
    for p in order: blk[p]=[rtt.once(p) for _ in range(250)]
    ma,mb=statistics.median(blk[a]),statistics.median(blk[b]); meds.append((ma,mb)); wins+= mb<ma
    ra+=blk[a]; rb+=blk[b]
for n,r in (("before",ra),("after",rb)):
    s=sorted(r); print(n,"n=%d p50=%.0f p90=%.0f p99=%.0f max=%.0f"%(len(s),rtt.pct(s,50),rtt.pct(s,90),rtt.pct(s,99),s[-1]))
print("blocks where after's median < before's: %d of %d; median of per-block differences (before-after): %.1f us"%(wins,B,statistics.median([x-y for x,y in meds])))
