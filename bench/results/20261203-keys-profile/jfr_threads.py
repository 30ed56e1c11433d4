import re, collections, subprocess, sys
f=sys.argv[1]; want=sys.argv[2].split(',') if len(sys.argv)>2 else None
txt=subprocess.run(["jfr","print","--events","jdk.NativeMethodSample,jdk.ExecutionSample","--stack-depth","16",f],capture_output=True,text=True).stdout
events=re.split(r'\n(?=jdk\.(?:NativeMethodSample|ExecutionSample))',txt)
c=collections.Counter(); top=collections.Counter(); incl=collections.Counter()
idle=('Posix.poll','accept0','EPoll','poll0','Unsafe.park','Object.wait','Thread.sleep')
for e in events:
    kind='native' if e.startswith('jdk.NativeMethodSample') else 'java'
    m=re.search(r'sampledThread = "([^"]+)"',e)
    th=re.sub(r'\d+','N',m.group(1)) if m else '?'
    frames=[x.split('.')[-2]+'.'+x.split('.')[-1] for x in re.findall(r'^\s+([\w$./<>]+)\(.*?\)\s+line:',e,re.M)]
    if not frames: continue
    if kind=='native' and any(frames[0].endswith(i.split('.')[-1]) for i in idle): continue
    if 'WatchService' in th: continue
    c[(th,kind)]+=1
    top[(th,kind,' < '.join(frames[:5]))]+=1
    for fr in set(frames): incl[(th,fr)]+=1
print("busy samples by thread (idle waits left out):")
for k,v in c.most_common(15): print(f"{v:6d}  {k[0]:<22} {k[1]}")
print("\ntop stacks (leaf first):")
for k,v in top.most_common(30): print(f"{v:6d}  {k[0]:<18} {k[1]:<6} {k[2]}")
print("\ninclusive frames on the busiest threads:")
busiest=[k[0] for k,_ in c.most_common(4)]
for k,v in incl.most_common(400):
    if k[0] in busiest[:3] and v>=5: print(f"{v:6d}  {k[0]:<18} {k[1]}")
