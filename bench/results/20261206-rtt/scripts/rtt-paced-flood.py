import sys, os, json, socket
sys.argv=[sys.argv[0]]+sys.argv[1:]
def call(path, method, params):
    s=socket.socket(socket.AF_UNIX); s.connect(path); s.sendall((json.dumps({"id":"x","method":method,"params":params})+"\n").encode()); b=b""
    while not b.endswith(b"\n"):
        c=s.recv(65536)
        if not c: break
        b+=c
    s.close(); return json.loads(b)
for p in sys.argv[1:3]:
    print(call(p,"terminal.backend.create",{"command":["yes"],"cwd":"/tmp","cols":200,"rows":50}).get("result",{}).get("type"))
exec(open('/tmp/rtt-paced.py').read())
