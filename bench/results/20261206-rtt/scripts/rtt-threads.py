import os,sys,subprocess,importlib.util,collections
spec=importlib.util.spec_from_file_location("rtt","/work/wt-rtt/bench/rtt.py"); rtt=importlib.util.module_from_spec(spec); spec.loader.exec_module(rtt)
pid,sock,n=sys.argv[1],sys.argv[2],int(sys.argv[3])
def snap():
    d=collections.Counter()
    for t in os.listdir('/proc/%s/task'%pid):
        try:
            name=open('/proc/%s/task/%s/comm'%(pid,t)).read().strip()
            f=open('/proc/%s/task/%s/stat'%(pid,t)).read().rsplit(')',1)[1].split()
        except OSError: continue
        import re; name=re.sub(r'\d+$','N',name)
        d[name+' user']+=int(f[11]); d[name+' sys']+=int(f[12])
    return d
for _ in range(3000): rtt.once(sock)
a=snap()
for _ in range(n): rtt.once(sock)
b=snap()
tick=os.sysconf('SC_CLK_TCK')
tot=0
for k in sorted(b, key=lambda k: -(b[k]-a.get(k,0))):
    v=b[k]-a.get(k,0)
    if v>0: print("%-30s %.1f us/rt"%(k, v/tick/n*1e6)); tot+=v
print("total %.1f us/rt"%(tot/tick/n*1e6))
