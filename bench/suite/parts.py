"""The parts every scenario of bench/run uses: an Artuditu server and a tmux server, each started
fresh in a private place, and one long-lived client in the harness for each.

- Artuditu: `./artu server --foreground` under its own ARTUDITU_HOME (ARTU_NO_BUILD=1: what runs
  is what bench/run built), and `Uhp`: UHP allows one request per connection, so each request
  connects, writes its line, reads the reply line and closes (what every UHP client does).
- tmux: `tmux -S SOCK -f /dev/null`, every session 200x50 with the status line off, and
  `Control`, one `tmux -C attach` client on pipes, one command out, its %end in.
"""
import os, re, select, shutil, subprocess, tempfile, time

import uhp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTU = os.path.join(ROOT, "artu")
COLS, ROWS = 200, 50
BENCH_CLASSES = os.path.join(ROOT, "bench", "target", "classes")
# The Java harnesses' class path: their classes and the API jar, whose io.artuditu.uhp.client
# is the UHP client every Java client of Artuditu uses (bench/run builds the distribution).
BENCH_CP = os.pathsep.join([BENCH_CLASSES, os.path.join(ROOT, "distribution", "target", "artuditu", "lib",
                                                        "io.artuditu.uhp.api.jar")])
BENCH_JAR = os.path.join(ROOT, "bench", "target", "benchmarks.jar")


def pct(values, p):
    """Nearest-rank percentile (p in 0..100) of the values; None for none."""
    if not values:
        return None
    s = sorted(values)
    rank = max(1, -(-len(s) * p // 100))
    return s[int(min(len(s), rank)) - 1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def heap_used_kib(pid):
    """The JVM's heap in use after a full collection (jcmd GC.run, then GC.heap_info), in KiB:
    the sum of each generation's "used" (the server runs the serial collector)."""
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=60, check=True)
    info = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60,
                          check=True).stdout
    used = [int(k) for k in re.findall(r"generation\s+total \d+K, used (\d+)K", info)]
    if not used:
        raise RuntimeError("no heap figure in jcmd GC.heap_info: " + info[:200])
    return sum(used)


class Uhp:
    """A UHP client as every client is: one request per connection (the spec's rule), so each
    call connects, writes its line, reads the one reply line and closes (`bench/uhp.py`)."""

    def __init__(self, sock_path):
        self.path = sock_path

    def raw(self, request_bytes):
        """Sends one prepared request line (bytes, with its newline); returns the reply bytes."""
        return uhp.raw(self.path, request_bytes)

    def call(self, method, params=None):
        """The result; an error reply raises (RuntimeError, which a scenario reports)."""
        reply = uhp.call(self.path, method, params)
        if "error" in reply:
            raise RuntimeError(f"{method} {params}: {reply['error']}")
        return reply["result"]


def fresh_call(sock_path, method, params=None):
    return Uhp(sock_path).call(method, params)


class Artuditu:
    """A server of its own: a fresh home, `./artu server --foreground`, stopped by stop()."""

    def __init__(self, tmp, name, config=None):
        self.home = os.path.join(tmp, "home-" + name)
        os.makedirs(self.home, mode=0o700)
        if config:
            with open(os.path.join(self.home, "config.toml"), "w") as f:
                f.write(config)
        self.sock = os.path.join(self.home, "artuditu.sock")
        self.log = open(os.path.join(tmp, f"server-{name}.log"), "w")
        self.env = dict(os.environ, ARTUDITU_HOME=self.home, ARTU_NO_BUILD="1")
        self.proc = subprocess.Popen([ARTU, "server", "--foreground"], env=self.env, stdout=self.log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        until = time.monotonic() + 60
        while True:
            try:
                fresh_call(self.sock, "ping")
                break
            except (OSError, RuntimeError):
                if self.proc.poll() is not None or time.monotonic() > until:
                    raise RuntimeError(f"the server did not answer; see {self.log.name}")
                time.sleep(0.02)
        self.pid = self.proc.pid  # artu execs the JVM

    def uhp(self):
        return Uhp(self.sock)

    def stop(self):
        if self.proc.poll() is None:
            try:
                fresh_call(self.sock, "server.stop")
            except (OSError, RuntimeError):
                self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Tmux:
    """A private tmux server (own socket, no config) whose session "main" runs a command."""

    def __init__(self, tmp, name, command="sleep 100000", history=None):
        self.sock = os.path.join(tmp, f"tmux-{name}.sock")
        self.base = ["tmux", "-S", self.sock, "-f", "/dev/null"]
        self.cmd("new-session", "-d", "-s", "main", "-x", str(COLS), "-y", str(ROWS), command)
        self.cmd("set-option", "-g", "status", "off")
        if history is not None:
            self.cmd("set-option", "-g", "history-limit", str(history))
        self.pid = int(self.cmd("display-message", "-p", "#{pid}"))

    def cmd(self, *args):
        r = subprocess.run(self.base + list(args), capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout.strip()

    def control(self):
        return Control(self.base + ["-C", "attach", "-t", "main"])

    def stop(self):
        subprocess.run(self.base + ["kill-server"], capture_output=True)


class Control:
    """A tmux control-mode client on pipes: command() writes one line and reads to its %end."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, bufsize=0)
        self.fd = self.p.stdout.fileno()
        self.buf = b""
        self._block()  # the attach itself is answered first

    def _line(self, timeout=60.0):
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.fd], [], [], timeout)
            if not r:
                raise TimeoutError("tmux -C: no answer")
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise ConnectionError("tmux -C ended")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def _block(self):
        out = []
        inside = False
        while True:
            line = self._line()
            if line.startswith(b"%begin "):
                inside = True
            elif line.startswith(b"%end ") or line.startswith(b"%error "):
                if line.startswith(b"%error "):
                    raise RuntimeError("tmux -C: " + b"\n".join(out).decode(errors="replace"))
                return out
            elif inside:
                out.append(line)

    def raw(self, command_bytes):
        """Sends one prepared command line (bytes, with its newline); returns its output lines."""
        os.write(self.p.stdin.fileno(), command_bytes)
        return self._block()

    def command(self, command):
        return self.raw((command + "\n").encode())

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def java_bench(cls, *args, order="artuditu", timeout=1800, log=None):
    """Runs io.artuditu.bench.CLS with the args; returns (key=value dict of its last line, samples).

    Lines "#samples KEY v1 v2 ..." become samples[KEY] = [floats]. order "tmux" runs tmux's side
    first where the harness has two sides.
    """
    argv = ["java", "-XX:+UseSerialGC", "-Dbench.order=" + ("tmux" if order == "tmux" else "artu"),
            "-cp", BENCH_CP, "io.artuditu.bench." + cls] + [str(a) for a in args]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if log is not None:
        log.write(f"$ {' '.join(argv)}\n{r.stderr}\n")
        log.flush()
    if r.returncode != 0:
        raise RuntimeError(f"{cls} {args[0] if args else ''} failed ({r.returncode}): {r.stderr.strip()[-800:]}")
    samples, last = {}, ""
    for line in r.stdout.splitlines():
        if line.startswith("#samples "):
            parts = line.split()
            samples[parts[1]] = [float(v) for v in parts[2:]]
        elif line.strip():
            last = line
    kv = {}
    for tok in last.split()[1:]:
        if "=" in tok:
            k, v = tok.split("=", 1)
            try:
                kv[k] = float(v)
            except ValueError:
                kv[k] = v
    return kv, samples


def scratch():
    """A short temp folder (Unix socket paths must stay under 108 bytes)."""
    return tempfile.mkdtemp(prefix="artu-bench.", dir="/tmp")


def remove(path):
    shutil.rmtree(path, ignore_errors=True)
