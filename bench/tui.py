#!/usr/bin/env python3
"""bench/tui.py: the artu TUI side by side with a tmux client, both on a real terminal.

  bench/tui.py [--keys 300] [--warmup 50] [--gap-ms 25] [--mib 32] [--reps 3] [--starts 10]
               [--out DIR] [--only keys,throughput,start]

Both clients run on a PTY this harness owns (the "outer terminal", 200x50, TERM=xterm-256color),
whose output it reads the way a terminal emulator would (everything, as it comes). Same client
model, payload and completion signal on both sides:

 keys        a key written to the outer terminal's input until that letter comes back in the
             client's output, the pane running `cat` (its PTY echo draws the letter); letter k
             is k mod 26, GAP_MS apart, like typing. p50/p90/p99 over KEYS after WARMUP.
             First the same keys on a bare attach.pane stream (no TUI) until the frame carries
             the letter: the server's share of the TUI's figure.
 throughput  `cat` of one MIB MiB payload (printable lines, some SGR colour; the same file for
             both) in the pane the client shows, clock from the go line (a FIFO the pane waits
             on) until the server reports the pane gone; the client keeps drawing all along.
             One uncounted warm-up repetition on each side, then REPS interleaved, median. The bytes the client wrote to the outer terminal are
             reported too, to show it drew.
 start       a fresh client process (`./artu attach`, `tmux attach`) until the pane's marker
             line is on the outer terminal (its first full frame), then detach. STARTS runs,
             median; the first run of each is a warm-up and not counted.

The server is started fresh from distribution/target with ARTU_NO_BUILD=1 (build first:
`mvn -B -q -o -DskipTests package -pl distribution -am`). tmux runs on its own socket with no
config, `status-interval 0` (no clock redraws that could carry the letters). Everything
started is stopped at the end. Results: key=value lines on stdout, and OUT/tui.json.
"""
import argparse, fcntl, json, os, pty, random, shutil, signal, socket, statistics, struct
import subprocess, sys, tempfile, termios, threading, time

from topology import call  # one UHP request on a fresh connection

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")
COLS, ROWS = 200, 50


class Received:
    """Everything a reader thread takes from a stream, with a wait for a needle in it."""

    def __init__(self, read):
        self.buf = bytearray()
        self.cond = threading.Condition()
        self.done = False
        threading.Thread(target=self._drain, args=(read,), daemon=True).start()

    def _drain(self, read):
        while True:
            try:
                b = read()
            except OSError:
                b = b""
            with self.cond:
                if not b:
                    self.done = True
                    self.cond.notify_all()
                    return
                self.buf += b
                self.cond.notify_all()

    def mark(self):
        with self.cond:
            return len(self.buf)

    def wait_for(self, needle, start, timeout):
        """The time at which needle was seen after offset start, or None."""
        deadline = time.perf_counter() + timeout
        with self.cond:
            while True:
                if self.buf.find(needle, start) >= 0:
                    return time.perf_counter()
                left = deadline - time.perf_counter()
                if left <= 0 or self.done:
                    return None
                self.cond.wait(left)


class Outer(Received):
    """A PTY playing the outer terminal: runs argv on its slave, reads everything from its master."""

    def __init__(self, argv, env):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        super().__init__(lambda: os.read(self.master, 1 << 16))

    def write(self, data):
        os.write(self.master, data)

    def stop(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        try:
            os.close(self.master)
        except OSError:
            pass


class Artu:
    def __init__(self, work):
        self.home = os.path.join(work, "home")
        os.makedirs(self.home)
        # The panes' shells read a HOME of their own: a user's rc files (pyenv, conda, a
        # prompt that runs git) would measure them, and a stale lock of theirs once held a
        # pane's terminal open for a minute after its program exited.
        user = os.path.join(work, "user")
        os.makedirs(user)
        with open(os.path.join(user, ".bashrc"), "w") as f:
            f.write("PS1='$ '\nunset PROMPT_COMMAND\n")
        self.env = dict(os.environ, ARTUDITU_HOME=self.home, ARTU_NO_BUILD="1", TERM="xterm-256color",
                        HOME=user, SHELL="/bin/bash")
        self.env.pop("ARTUDITU_PANE_ID", None)
        self.env.pop("ARTUDITU_SOCKET_PATH", None)
        subprocess.run([ARTU, "server", "start"], env=self.env, check=True, stdout=subprocess.DEVNULL)
        self.sock = os.path.join(self.home, "artuditu.sock")

    def call(self, method, params=None):
        return call(self.sock, method, params)

    def workspace(self, shell_line):
        """A new focused workspace whose one pane runs shell_line (typed into its shell)."""
        w = self.call("workspace.open", {"cwd": "/tmp"})
        self.call("workspace.focus", {"workspace_id": w["workspace_id"]})
        pane = w["pane"]
        self.wait_prompt(pane)
        self.call("pane.send_input", {"pane": pane, "text": shell_line + "\n"})
        return pane

    def wait_prompt(self, pane):
        for _ in range(200):
            if self.call("pane.read", {"pane": pane, "source": "screen"})["text"].strip():
                return
            time.sleep(0.02)

    def client(self, args=("attach",)):
        return Outer([ARTU, *args], self.env)

    def stop(self):
        subprocess.run([ARTU, "server", "stop"], env=self.env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


class Tmux:
    def __init__(self, work, command):
        self.sock = os.path.join(work, "tmux.sock")
        self.env = dict(os.environ, TERM="xterm-256color")
        self.env.pop("TMUX", None)
        self.cmd("new-session", "-d", "-s", "main", "-x", str(COLS), "-y", str(ROWS), command)
        self.cmd("set", "-g", "status-interval", "0")

    def cmd(self, *args):
        return subprocess.run(["tmux", "-S", self.sock, "-f", "/dev/null", *args], env=self.env,
                              check=True, capture_output=True, text=True).stdout.strip()

    def client(self):
        return Outer(["tmux", "-S", self.sock, "attach", "-t", "main"], self.env)

    def stop(self):
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True)


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def settle(outer, quiet_s=0.5, limit_s=15):
    """Waits until the client has drawn and then stayed quiet for quiet_s."""
    end = time.time() + limit_s
    last = outer.mark()
    quiet_since = time.time()
    while time.time() < end:
        time.sleep(0.05)
        m = outer.mark()
        if m != last:
            last, quiet_since = m, time.time()
        elif time.time() - quiet_since >= quiet_s and m > 0:
            return
    raise RuntimeError("the client never settled")


def typing(outer, n, warmup, gap_ms, seen=lambda ch: ch):
    """Key k is letter k mod 26; the sample is until seen(letter) arrives."""
    lat = []
    for k in range(warmup + n):
        ch = bytes([ord("a") + k % 26])
        start = outer.mark()
        t0 = time.perf_counter()
        outer.write(ch)
        t1 = outer.wait_for(seen(ch), start, 5)
        if t1 is None:
            raise RuntimeError(f"key {k} ({ch!r}) never came back")
        if k >= warmup:
            lat.append((t1 - t0) * 1e6)
        time.sleep(gap_ms / 1000)
    return lat


class AttachLine(Received):
    """An attach.pane stream read raw, the way the TUI receives it, for the server's share."""

    def __init__(self, sock, pane):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(sock)
        self.s.sendall((json.dumps({"id": "a", "method": "attach.pane",
                                    "params": {"pane": pane, "cols": 100, "rows": 30}}) + "\n").encode())
        super().__init__(lambda: self.s.recv(1 << 16))

    def write(self, ch):
        self.s.sendall(b'{"input":{"key":{"code":{"char":"' + ch + b'"}}}}\n')


def keys(work, a, n, warmup, gap_ms, out):
    pane = a.workspace("exec cat")
    # the server's share: the same keys on a bare attach.pane stream, no TUI
    time.sleep(0.5)
    s = AttachLine(a.sock, pane)
    time.sleep(0.5)
    lat = typing(s, n, warmup, gap_ms, seen=lambda ch: b'"ch":"' + ch + b'"')
    out.update(artu_stream_keys_p50_us=pct(lat, 50), artu_stream_keys_p99_us=pct(lat, 99))
    s.s.close()
    c = a.client()
    try:
        settle(c)
        lat = typing(c, n, warmup, gap_ms)
        out.update(artu_keys_p50_us=pct(lat, 50), artu_keys_p90_us=pct(lat, 90), artu_keys_p99_us=pct(lat, 99),
                   artu_keys_samples_us=lat)
    finally:
        c.write(b"\x02d")
        time.sleep(0.3)
        c.stop()
    t = Tmux(work, "cat")
    try:
        c = t.client()
        settle(c)
        lat = typing(c, n, warmup, gap_ms)
        out.update(tmux_keys_p50_us=pct(lat, 50), tmux_keys_p90_us=pct(lat, 90), tmux_keys_p99_us=pct(lat, 99),
                   tmux_keys_samples_us=lat)
        c.stop()
    finally:
        t.stop()
    out["keys_ratio_p50"] = out["artu_keys_p50_us"] / out["tmux_keys_p50_us"]


def payload(path, mib):
    rnd = random.Random(7)
    chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:-_/()[]{}"
    with open(path, "w") as f:
        size = 0
        while size < mib << 20:
            n = rnd.randint(20, 190)
            line = "".join(rnd.choice(chars) for _ in range(n))
            if rnd.random() < 0.3:
                line = f"\033[3{rnd.randint(1, 7)}m{line[:20]}\033[0m{line[20:]}"
            f.write(line + "\n")
            size += len(line) + 1


def throughput(work, a, mib, reps, out):
    data = os.path.join(work, "payload.txt")
    payload(data, mib)
    size = os.path.getsize(data)
    artu_rates, tmux_rates, artu_drawn, tmux_drawn = [], [], [], []
    # one more repetition first, on both sides, not counted: the long-lived server's JIT warms up
    for r in range(reps + 1):
        # tmux: a window running the cat, selected in the attached client's session
        fifo = os.path.join(work, f"go-tmux-{r}")
        os.mkfifo(fifo)
        t = Tmux(work, "sleep 100000")
        try:
            t.cmd("set-hook", "-g", "pane-exited", "wait-for -S done")
            pane = t.cmd("new-window", "-P", "-F", "#{pane_id}", "-t", "main:", "sh", "-c",
                         f"read _ < {fifo}; exec cat {data}")
            t.cmd("select-window", "-t", pane)
            c = t.client()
            settle(c, 0.3)
            waiter = subprocess.Popen(["tmux", "-S", t.sock, "wait-for", "done"])
            m0 = c.mark()
            t0 = time.perf_counter()
            with open(fifo, "w") as f:
                f.write("go\n")
            waiter.wait(600)
            tmux_rates.append(size / 1e6 / (time.perf_counter() - t0))
            tmux_drawn.append(c.mark() - m0)
            c.stop()
        finally:
            t.stop()
        # artu: a fresh focused workspace whose pane runs the cat; the TUI shows it
        fifo = os.path.join(work, f"go-artu-{r}")
        os.mkfifo(fifo)
        seq = a.call("uhp.capabilities")["event_sequence"]
        pane = a.workspace(f"exec sh -c 'read _ < {fifo}; exec cat {data}'")
        c = a.client()
        try:
            settle(c, 0.3)
            time.sleep(0.3)
            m0 = c.mark()
            result = {}

            def wait():
                result["r"] = call(a.sock, "events.wait", {"event": "pane.closed", "where": {"pane": pane},
                                                            "timeout_s": 600, "after_sequence": seq})
            w = threading.Thread(target=wait)
            w.start()
            time.sleep(0.2)
            t0 = time.perf_counter()
            with open(fifo, "w") as f:
                f.write("go\n")
            w.join(600)
            if not result.get("r", {}).get("matched"):
                raise RuntimeError(f"pane {pane} never closed: {result}")
            artu_rates.append(size / 1e6 / (time.perf_counter() - t0))
            artu_drawn.append(c.mark() - m0)
        finally:
            c.write(b"\x02d")
            time.sleep(0.3)
            c.stop()
        print(f"throughput rep {r}{' (warm-up)' if r == 0 else ''}: tmux {tmux_rates[-1]:.1f} MB/s "
              f"(client drew {tmux_drawn[-1]} B), artu {artu_rates[-1]:.1f} MB/s (TUI drew {artu_drawn[-1]} B)",
              file=sys.stderr)
        if r == 0:
            for l in (artu_rates, tmux_rates, artu_drawn, tmux_drawn):
                l.clear()
    out.update(tmux_att_mbps_samples=tmux_rates, artu_tui_mbps_samples=artu_rates,
               tmux_client_drawn_samples=tmux_drawn, artu_tui_drawn_samples=artu_drawn)
    out.update(throughput_bytes=size, tmux_att_mbps=statistics.median(tmux_rates),
               artu_tui_mbps=statistics.median(artu_rates),
               tmux_client_drawn_bytes=statistics.median(tmux_drawn),
               artu_tui_drawn_bytes=statistics.median(artu_drawn))
    out["throughput_ratio"] = out["artu_tui_mbps"] / out["tmux_att_mbps"]


def first_frames(client, n, marker):
    """n fresh clients (after one warm-up) until the marker is on the outer terminal, in ms."""
    samples = []
    for i in range(n + 1):
        t0 = time.perf_counter()
        c = client()
        t1 = c.wait_for(marker, 0, 20)
        if t1 is None:
            c.stop()
            raise RuntimeError("the client never drew the marker")
        if i > 0:
            samples.append((t1 - t0) * 1e3)
        settle(c, 0.2)
        c.write(b"\x02d")
        c.proc.wait(10)
        c.stop()
    return samples


def starts(work, a, n, out):
    marker = b"FIRST-FRAME-MARK"
    a.workspace("clear; echo FIRST-FRAME-MARK")
    time.sleep(0.5)
    samples = first_frames(a.client, n, marker)
    out.update(artu_first_frame_ms=statistics.median(samples), artu_first_frame_samples_ms=samples)
    t = Tmux(work, "clear; echo FIRST-FRAME-MARK; exec cat")
    try:
        time.sleep(0.5)
        samples = first_frames(t.client, n, marker)
        out.update(tmux_first_frame_ms=statistics.median(samples), tmux_first_frame_samples_ms=samples)
    finally:
        t.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--gap-ms", type=int, default=25)
    ap.add_argument("--mib", type=int, default=32)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--starts", type=int, default=10)
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default="keys,throughput,start")
    args = ap.parse_args()
    only = set(args.only.split(","))
    work = tempfile.mkdtemp(prefix="artu-tui-bench-")
    out = {"cols": COLS, "rows": ROWS, "cpus": os.cpu_count(),
           "tmux": subprocess.run(["tmux", "-V"], capture_output=True, text=True).stdout.strip()}
    a = Artu(work)
    try:
        if "keys" in only:
            keys(work, a, args.keys, args.warmup, args.gap_ms, out)
        if "throughput" in only:
            throughput(work, a, args.mib, args.reps, out)
        if "start" in only:
            starts(work, a, args.starts, out)
    finally:
        a.stop()
        shutil.rmtree(work, ignore_errors=True)
    out["load_average_after"] = os.getloadavg()
    for k, v in out.items():
        if isinstance(v, list):
            continue
        print(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "tui.json"), "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
