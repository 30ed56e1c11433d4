"""One UHP request per connection, as every client does: the helpers the bench scripts share."""
import json, socket


def raw(sock, request, timeout=60.0):
    """Sends one request line (bytes, with its newline) on a fresh connection; the reply line's bytes."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.settimeout(timeout)
        s.connect(sock)
        s.sendall(request)
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            buf += chunk
        return buf
    finally:
        s.close()


def call(sock, method, params=None):
    """Sends one request on a fresh connection and returns the parsed reply."""
    return json.loads(raw(sock, (json.dumps({"id": "b", "method": method, "params": params or {}}) + "\n").encode()))


def ok(sock, method, params=None):
    """The result of a request that must succeed; exits with the reply otherwise."""
    r = call(sock, method, params)
    if "result" not in r:
        raise SystemExit(f"{method} {params}: {r}")
    return r["result"]
