import sys, os, time, statistics, importlib.util
spec=importlib.util.spec_from_file_location("rtt","/work/wt-rtt/bench/rtt.py"); rtt=importlib.util.module_from_spec(spec); spec.loader.exec_module(rtt)
a,b=sys.argv[1:3]; B=int(os.environ.get('BLK','30')); N=100; GAP=0.005
for p in (a,b):
    for _ in range(5000): rtt.once(p)
r={a:[],b:[]}
for i in range(B):
    for p in ((a,b) if i%2==0 else (b,a)):
        for _ in range(N):
            r[p].append(rtt.once(p)); time.sleep(GAP)
for n,p in (("before",a),("after",b)):
    s=sorted(r[p]); print(n,"paced 5 ms: n=%d p50=%.0f p90=%.0f p99=%.0f max=%.0f"%(len(s),rtt.pct(s,50),rtt.pct(s,90),rtt.pct(s,99),s[-1]))
