"""The scenarios of bench/run. Each one measures both sides (where tmux has an equivalent) with
the same client model, the same payload and the same completion signal, in the order it is
given (bench/run rotates it each run), and returns {"artuditu": {...}, "tmux": {...}}: the
figures of that run by key, and every sample.

A scenario's `figures` name the keys the report reads; `sizes` give its work for the quick
pass and for the full suite.
"""
import os, statistics, subprocess, time

import modules  # bench/modules.py: the hot update under load
from parts import (ARTU, BENCH_CLASSES, COLS, ROOT, ROWS, Tmux, Uhp, fresh_call, heap_used_kib, java_bench, pct,
                   remove, rss_kib)

COUNTER_JAR = os.path.join(ROOT, "modules-sdk/io.artuditu.example.counter/target/"
                                 "io.artuditu.example.counter-0.1.0-SNAPSHOT.jar")
ECHO_JAR = os.path.join(ROOT, "modules-sdk/io.artuditu.example.echo/target/"
                              "io.artuditu.example.echo-0.1.0-SNAPSHOT.jar")
PING = b'{"id":"p","method":"ping","params":{}}\n'
TMUX_PING = b"display-message -p x\n"


class Fig:
    """One figure: KEY in each side's result of a run. target: ("max", v), ("min", v),
    ("le_tmux",) (no worse than tmux) or ("ratio_min", x) (at least x times tmux)."""

    def __init__(self, id, title, unit, key, better="lower", target=None, tmux=True):
        self.id, self.title, self.unit, self.key = id, title, unit, key
        self.better, self.target, self.tmux = better, target, tmux


def us(ns):
    return round(ns / 1000.0, 1)


def summary_us(samples):
    return {"samples_us": samples, "p50_us": pct(samples, 50), "p99_us": pct(samples, 99)}


def by_side(kv, samples, keys, sample_keys=()):
    """A TerminalBench result (artu_K and tmux_K figures, #samples lines of the same names) as
    {"artuditu": {K: …}, "tmux": {K: …}} for each K; what a side lacks is None."""
    out = {}
    for side, prefix in (("artuditu", "artu"), ("tmux", "tmux")):
        out[side] = {k: kv.get(f"{prefix}_{k}") for k in keys}
        out[side].update({k: samples.get(f"{prefix}_{k}") for k in sample_keys})
    return out


def sides(order, fns):
    """Runs fns[side]() for each side in order; returns {side: result}."""
    return {side: fns[side]() for side in order if side in fns}


class Scenario:
    id = title = method = ""
    figures = []

    def __init__(self, quick):
        self.size = self.sizes[0 if quick else 1]


class Memory(Scenario):
    id, title = "memory", "server memory per idle pane"
    sizes = [dict(panes=10, settle=1), dict(panes=100, settle=3)]
    method = ("Server RSS (`/proc/PID/status` VmRSS) before and after {panes} panes running `sh`, each "
              "reading {settle} s after the last change, on a server that has done nothing else; five "
              "warm-up panes are made and closed first on both sides. Artuditu: one `terminal.backend.create` "
              "each; tmux: one `new-window` each, in one session. Artuditu's JVM readings follow "
              "a full collection (`jcmd GC.run`), and the heap in use is reported too. Harness: "
              "`io.artuditu.bench.TerminalBench memory`.")
    figures = [Fig("memory_rss_per_pane", "server RSS per idle pane", "KiB", "kib_per_pane", target=("max", 32)),
               Fig("memory_heap_per_pane", "Java heap in use per idle pane (after a full GC)", "KiB",
                   "heap_kib_per_pane", tmux=False)]

    def run(self, ctx, order):
        kv, _ = java_bench("TerminalBench", "memory", ctx.artu.sock, ctx.artu.pid, ctx.work("memory"),
                           self.size["panes"], self.size["settle"], order=order[0], log=ctx.log)
        return by_side(kv, {}, ["kib_per_pane", "heap_kib_per_pane", "rss0_kib", "rss1_kib"])


class RoundTrip(Scenario):
    id, title = "rtt", "request round trip"
    sizes = [dict(warmup=50, calls=300), dict(warmup=1000, calls=5000)]
    method = ("A trivial request answered by the server, from one long-lived client in the harness: "
              "Artuditu `ping`, on a fresh connection each as UHP has it (connect, the request line, the reply "
              "line, close); tmux `display-message -p x` written to one control-mode client "
              "(`tmux -C attach`, a command line out, its `%end` in). {warmup} warm-up calls, then {calls} "
              "timed back to back, from before the connect (the write, for tmux) to after the reply is read. "
              "The floor: the same client against `io.artuditu.bench.FloorServer`, a JDK-only Unix-socket server "
              "that reads a line and writes a canned pong (no framework, no JSON), started with the server's "
              "JVM flags: what the client model and the JDK cost before Artuditu adds anything.")
    figures = [Fig("rtt_p50", "request round trip, p50", "µs", "p50_us", target=("max", 100)),
               Fig("rtt_p99", "request round trip, p99", "µs", "p99_us", target=("max", 1000)),
               Fig("rtt_floor_p50", "request round trip, p50, against a JDK-only server (the floor)", "µs",
                   "floor_p50_us", tmux=False)]

    @staticmethod
    def timed(n, call):
        out = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            call()
            out.append(us(time.perf_counter_ns() - t0))
        return out

    def run(self, ctx, order):
        w, n = self.size["warmup"], self.size["calls"]

        def artu():
            u = ctx.artu.uhp()

            def ping():
                if b'"pong"' not in u.raw(PING):
                    raise RuntimeError("not a pong")
            self.timed(w, ping)
            res = summary_us(self.timed(n, ping))
            sock = os.path.join(ctx.tmp, "floor.sock")
            if os.path.exists(sock):
                os.remove(sock)  # an earlier run's: connecting to it would be refused
            floor = subprocess.Popen(["java", "-XX:+UseSerialGC", "-Xss512k", "-cp", BENCH_CLASSES,
                                      "io.artuditu.bench.FloorServer", sock, "600"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                fu = Uhp(sock)
                until = time.monotonic() + 20
                while True:  # up once it answers (the file exists a moment before it listens)
                    try:
                        fu.raw(PING)
                        break
                    except OSError:
                        if time.monotonic() > until or floor.poll() is not None:
                            raise RuntimeError("FloorServer did not start")
                        time.sleep(0.01)
                self.timed(w, lambda: fu.raw(PING))
                f = self.timed(n, lambda: fu.raw(PING))
                res.update(floor_samples_us=f, floor_p50_us=pct(f, 50), floor_p99_us=pct(f, 99))
            finally:
                floor.kill()
                floor.wait()
            return res

        def tmux():
            t = Tmux(ctx.tmp, "rtt")
            c = t.control()
            try:
                self.timed(w, lambda: c.raw(TMUX_PING))
                return summary_us(self.timed(n, lambda: c.raw(TMUX_PING)))
            finally:
                c.close()
                t.stop()
        return sides(order, {"artuditu": artu, "tmux": tmux})


class Cli(Scenario):
    id, title = "cli", "one-shot CLI"
    sizes = [dict(warmup=1, runs=3), dict(warmup=3, runs=20)]
    method = ("A whole client process that asks the running server one question and exits: `artu ping` "
              "(`./artu` with `ARTU_NO_BUILD=1`, as an installed `artu` runs) against "
              "`tmux -S SOCK display-message -p x`, each started by the harness with its output discarded, "
              "timed from spawn to exit. {warmup} warm-up runs each, then {runs} each, alternating.")
    figures = [Fig("cli_ms", "one-shot CLI (`artu ping`; `tmux display -p`), median", "ms", "p50_ms",
                   target=("max", 60))]

    def run(self, ctx, order):
        t = Tmux(ctx.tmp, "cli")
        argv = {"artuditu": [ARTU, "ping"], "tmux": t.base + ["display-message", "-p", "x"]}
        samples = {"artuditu": [], "tmux": []}
        try:
            for i in range(self.size["warmup"] + self.size["runs"]):
                for side in order:
                    t0 = time.perf_counter_ns()
                    r = subprocess.run(argv[side], env=ctx.artu.env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE)
                    dt = (time.perf_counter_ns() - t0) / 1e6
                    if r.returncode != 0:
                        raise RuntimeError(f"{side}: {r.stderr.decode(errors='replace').strip()}")
                    if i >= self.size["warmup"]:
                        samples[side].append(round(dt, 2))
        finally:
            t.stop()
        return {s: {"samples_ms": v, "p50_ms": statistics.median(v)} for s, v in samples.items()}


class Throughput(Scenario):
    id, title = "throughput", "pane output throughput"
    sizes = [dict(mib=4), dict(mib=64)]
    method = ("`cat` of one {mib} MiB payload (printable lines of 10–190 columns, some SGR colour, a fixed "
              "seed; the same file for every side) in a 200x50 pane, clock from the go line (a FIFO the pane "
              "waits on) until the pane has exited and its output is consumed (Artuditu: `events.wait` for "
              "`pane.closed`; tmux: the `pane-exited` hook). No client; then again with one client attached "
              "(Artuditu: an `attach.pane` stream applying every frame to a screen model; tmux: a terminal "
              "client on a PTY). A bare PTY (`script`, no emulator) gives the floor of the machine. Harness: "
              "`io.artuditu.bench.TerminalBench throughput`.")
    figures = [Fig("tp", "pane output, no client", "MB/s", "mbps", better="higher", target=("ratio_min", 2.5)),
               Fig("tp_bare_share", "pane output, no client, as a share of a bare PTY read", "%", "bare_share",
                   better="higher", target=("min", 80), tmux=False),
               Fig("tp_attached", "pane output, one client attached", "MB/s", "att_mbps", better="higher")]

    def run(self, ctx, order):
        kv, _ = java_bench("TerminalBench", "throughput", ctx.artu.sock, ctx.work("tp"), ctx.payload(self.size["mib"]),
                           1, order=order[0], log=ctx.log)
        bare = kv.get("bare_mbps")
        a = kv.get("artu_mbps")
        return {"artuditu": {"mbps": a, "att_mbps": kv.get("artu_att_mbps"), "bare_mbps": bare,
                             "bare_share": round(100.0 * a / bare, 1) if a and bare else None,
                             "att_frames": kv.get("artu_att_frames")},
                "tmux": {"mbps": kv.get("tmux_mbps"), "att_mbps": kv.get("tmux_att_mbps")}}


class Create(Scenario):
    id, title = "create", "pane creation"
    sizes = [dict(panes=10), dict(panes=100)]
    method = ("{panes} new panes running `sleep 600`, one request each, the next sent when the previous is "
              "answered: Artuditu `terminal.backend.create` on a fresh connection each (a pane tab of its own, "
              "200x50) against tmux `new-window -d sleep 600` on one control-mode client. Wall time from the "
              "first request to the last reply; the panes are closed afterwards.")
    figures = [Fig("create_ms", "create panes running `sleep 600`", "ms", "total_ms", target=("le_tmux",))]

    def run(self, ctx, order):
        n = self.size["panes"]
        cwd = ctx.work("create")

        def artu():
            u = ctx.artu.uhp()
            ids = []
            t0 = time.perf_counter_ns()
            for _ in range(n):
                ids.append(u.call("terminal.backend.create", {"command": ["sleep", "600"], "cwd": cwd,
                                                              "cols": COLS, "rows": ROWS})["terminal_id"])
            total = (time.perf_counter_ns() - t0) / 1e6
            for i in ids:
                u.call("terminal.backend.close", {"terminal_id": i})
            return {"total_ms": round(total, 1), "per_pane_ms": round(total / n, 2)}

        def tmux():
            t = Tmux(ctx.tmp, "create")
            c = t.control()
            try:
                t0 = time.perf_counter_ns()
                for _ in range(n):
                    c.command("new-window -d sleep 600")
                total = (time.perf_counter_ns() - t0) / 1e6
            finally:
                c.close()
                t.stop()
            return {"total_ms": round(total, 1), "per_pane_ms": round(total / n, 2)}
        return sides(order, {"artuditu": artu, "tmux": tmux})


class Scrollback(Scenario):
    id, title = "scrollback", "scrollback memory"
    sizes = [dict(lines=5000), dict(lines=100000)]
    method = ("Server memory before and after one pane prints {lines} lines (and a screenful) of 100 printable "
              "characters "
              "(`cat` of one file, the same for both) and keeps them in its scrollback, divided by the lines. "
              "Complete when the pane reports them all in its history (Artuditu: `pane.status` `history_rows`; "
              "tmux: `#{{history_size}}`), then 2 s to settle. tmux's `history-limit` and Artuditu's "
              "`pane.history_budget_bytes` (1 GiB, `config.patch`) are set so that nothing is dropped. tmux: "
              "its RSS delta. Artuditu: the heap in use after a full collection (`jcmd GC.run`, "
              "`GC.heap_info`), or the RSS delta if that is larger; both are in the results. A JVM's heap is "
              "committed at start and becomes resident as it is used, so an RSS delta alone can read near zero "
              "(pages an earlier scenario touched) or far above what is kept.")
    figures = [Fig("scrollback_per_line", "scrollback RSS per 100-character line", "B", "bytes_per_line",
                   target=("max", 300))]

    def payload(self, ctx):
        path = os.path.join(ctx.tmp, f"lines-{self.size['lines']}.txt")
        if not os.path.exists(path):
            chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            with open(path, "w") as f:
                for i in range(self.size["lines"] + ROWS):  # the screen's rows are not history
                    s = f"{i:08d} "
                    f.write((s + (chars[i % 62:] + chars) * 2)[:100] + "\n")
        return path

    def run(self, ctx, order):
        n = self.size["lines"]
        data = self.payload(ctx)

        def settle_rss(pid):
            time.sleep(2)
            return rss_kib(pid)

        def artu():
            u = ctx.artu.uhp()
            u.call("config.patch", {"patch": {"pane": {"history_budget_bytes": 1 << 30}}})
            heap0 = heap_used_kib(ctx.artu.pid)
            rss0 = settle_rss(ctx.artu.pid)
            t = u.call("terminal.backend.create", {"command": ["sh", "-c", f"cat {data}; exec sleep 600"],
                                                   "cwd": ctx.tmp, "cols": COLS, "rows": ROWS})
            until = time.monotonic() + 120
            while u.call("pane.status", {"pane": t["pane"]})["history_rows"] < n:
                if time.monotonic() > until:
                    raise RuntimeError("the pane never held every line")
                time.sleep(0.1)
            rss1 = settle_rss(ctx.artu.pid)
            heap1 = heap_used_kib(ctx.artu.pid)
            u.call("terminal.backend.close", {"terminal_id": t["terminal_id"]})
            # The JVM's heap is committed up front and its pages become resident as the young
            # generation is used, so its RSS delta says little about what the lines keep: the
            # figure is the heap in use after a full collection, or the RSS delta if larger.
            kept = max(heap1 - heap0, rss1 - rss0)
            return {"bytes_per_line": round(kept * 1024 / n), "heap_bytes_per_line": round((heap1 - heap0) * 1024 / n),
                    "rss_bytes_per_line": round((rss1 - rss0) * 1024 / n), "rss0_kib": rss0, "rss1_kib": rss1,
                    "heap0_kib": heap0, "heap1_kib": heap1}

        def tmux():
            t = Tmux(ctx.tmp, "scroll", history=n + 1000)
            try:
                rss0 = settle_rss(t.pid)
                pane = t.cmd("new-window", "-d", "-P", "-F", "#{pane_id}", f"cat {data}; exec sleep 600")
                until = time.monotonic() + 120
                while int(t.cmd("display-message", "-p", "-t", pane, "#{history_size}")) < n:
                    if time.monotonic() > until:
                        raise RuntimeError("tmux never held every line")
                    time.sleep(0.1)
                rss1 = settle_rss(t.pid)
            finally:
                t.stop()
            return {"bytes_per_line": round((rss1 - rss0) * 1024 / n), "rss0_kib": rss0, "rss1_kib": rss1}
        return sides(order, {"artuditu": artu, "tmux": tmux})


class Keys(Scenario):
    id, title = "keys", "key to its echo in the pane stream"
    sizes = [dict(warmup=10, keys=40, gap=25), dict(warmup=100, keys=500, gap=25)]
    method = ("A pane runs `cat`, so the PTY's echo paints each key; letter k goes to the k-th cell after the "
              "cursor. Artuditu: an `attach.pane` client keeps a screen model from the frames and sends the "
              "key as an `input` line on the same connection, until the letter is in its model; tmux: "
              "`send-keys -l` written to a control-mode client, until its `%output` carries the letter. "
              "{warmup} warm-up keys, then {keys}, {gap} ms apart like typing. Harness: "
              "`io.artuditu.bench.TerminalBench keys`.")
    figures = [Fig("keys_p50", "key to its echo in the pane stream, p50", "µs", "p50_us", target=("le_tmux",)),
               Fig("keys_p99", "key to its echo in the pane stream, p99", "µs", "p99_us", target=("le_tmux",))]

    def run(self, ctx, order):
        kv, smp = java_bench("TerminalBench", "keys", ctx.artu.sock, ctx.work("keys"), self.size["warmup"],
                             self.size["keys"], self.size["gap"], order=order[0], log=ctx.log)
        return by_side(kv, smp, ["p50_us", "p99_us"], ["samples_us"])


class Flood(Scenario):
    id, title = "flood", "requests while a pane floods output"
    sizes = [dict(pings=200, seconds=1), dict(pings=2000, seconds=10)]
    method = ("{pings} trivial requests paced over {seconds} s (Artuditu `ping` on a fresh connection each; "
              "tmux `display-message -p x` on one control-mode client), first idle, then while `yes` floods a "
              "200x50 pane of the same server. Harness: `io.artuditu.bench.TerminalBench flood`.")
    figures = [Fig("flood_p99", "request round trip p99 while a pane floods output", "µs", "flood_p99_us"),
               Fig("flood_idle_p99", "the same requests, idle, p99", "µs", "idle_p99_us")]

    def run(self, ctx, order):
        kv, smp = java_bench("TerminalBench", "flood", ctx.artu.sock, ctx.work("flood"), self.size["pings"],
                             self.size["seconds"], order=order[0], log=ctx.log)
        return by_side(kv, smp, ["flood_p99_us", "idle_p99_us", "flood_p50_us", "flood_mbps"],
                       ["idle_samples_us", "flood_samples_us"])


class Snapshot(Scenario):
    id, title = "snapshot", "whole-session snapshot"
    sizes = [dict(panes=20, calls=5), dict(panes=400, calls=50)]
    method = ("With {panes} panes running `sleep 600`, one window or pane tab each (Artuditu's in workspaces "
              "of 200, as a workspace holds at most 256 tabs, plus each extra workspace's first shell), {calls} "
              "requests for the whole session one after another: Artuditu `session.snapshot` on a fresh "
              "connection each (every workspace, tab, pane, process and agent state) against tmux "
              "`list-panes -a` with a format of the same facts (session, window, pane, pid, command, path, "
              "size) on a control-mode client; p50 of the reply times.")
    figures = [Fig("snapshot_p50", "whole-session snapshot at {panes} panes, p50", "ms", "p50_ms")]
    PER_WORKSPACE = 200

    def run(self, ctx, order):
        n, calls = self.size["panes"], self.size["calls"]
        cwd = ctx.work("snapshot")
        fmt = ("list-panes -a -F '#{session_name}\t#{window_index}\t#{window_name}\t#{pane_id}\t#{pane_pid}\t"
               "#{pane_current_command}\t#{pane_current_path}\t#{pane_width}x#{pane_height}'\n").encode()

        def timed(call):
            out = []
            for _ in range(calls + 2):
                t0 = time.perf_counter_ns()
                call()
                out.append(round((time.perf_counter_ns() - t0) / 1e6, 3))
            return out[2:]

        def artu():
            u = ctx.artu.uhp()
            ids = []
            # a workspace holds at most 256 tabs: PER_WORKSPACE pane tabs in each
            ws = None
            for i in range(n):
                if i and i % self.PER_WORKSPACE == 0:
                    ws = u.call("workspace.open", {"cwd": cwd, "name": f"bench {i}"})["workspace_id"]
                params = {"command": ["sleep", "600"], "cwd": cwd, "cols": COLS, "rows": ROWS}
                if ws:
                    params["workspace_id"] = ws
                ids.append(u.call("terminal.backend.create", params)["terminal_id"])
            got = len([p for w in u.call("session.snapshot")["workspaces"] for t in w.get("tabs", [])
                       for p in t.get("panes", [])])
            if got < n:
                raise RuntimeError(f"session.snapshot lists {got} panes, not {n}")
            req = b'{"id":"s","method":"session.snapshot","params":{}}\n'
            s = timed(lambda: u.raw(req))
            for i in ids:
                u.call("terminal.backend.close", {"terminal_id": i})
            return {"samples_ms": s, "p50_ms": statistics.median(s), "panes": got}

        def tmux():
            t = Tmux(ctx.tmp, "snap", command="sleep 600")
            c = t.control()
            try:
                for _ in range(n - 1):
                    c.command("new-window -d sleep 600")
                got = len(c.raw(fmt))
                s = timed(lambda: c.raw(fmt))
            finally:
                c.close()
                t.stop()
            return {"samples_ms": s, "p50_ms": statistics.median(s), "panes": got}
        r = sides(order, {"artuditu": artu, "tmux": tmux})
        return r


class Fanout(Scenario):
    id, title = "fanout", "event fan-out to 8 subscribers"
    sizes = [dict(rate=2000, seconds=2), dict(rate=10000, seconds=10)]
    method = ("8 `events.subscribe` connections and 4 publisher threads sending `example.publish` (the echo "
              "example module, installed first) at {rate} events/s for {seconds} s, one fresh connection per "
              "publish; delay from the publish request to each subscriber's line, and events lost. tmux has no "
              "event bus. Harness: `io.artuditu.bench.EventBench fanout`.")
    figures = [Fig("fanout_p99", "event fan-out to 8 subscribers, publish to delivery p99", "µs", "p99_us",
                   tmux=False),
               Fig("fanout_lost", "event fan-out to 8 subscribers, events lost", "count", "lost", tmux=False,
                   target=("max", 0))]

    def run(self, ctx, order):
        java_bench("EventBench", "install", ctx.artu.sock, ECHO_JAR, log=ctx.log)
        kv, _ = java_bench("EventBench", "fanout", ctx.artu.sock, self.size["rate"], self.size["seconds"], 8, 4,
                           log=ctx.log)
        return {"artuditu": {"p50_us": kv.get("p50_us"), "p99_us": kv.get("p99_us"), "lost": kv.get("lost"),
                             "rate": kv.get("achieved_rate"), "published": kv.get("published")}}


class HotUpdate(Scenario):
    id, title = "hot_update", "family bundle hot update under load"
    sizes = [dict(updates=2, rate=500), dict(updates=10, rate=500)]
    method = ("The counter example module (a bundle registering the `example.counter` family) is linked; "
              "a client calls `example.counter.get` at {rate} requests/s (paced, a fresh connection each) while "
              "`server.bundle.update` replaces the bundle {updates} times, each once the family answers again "
              "and 0.5 s more. Failed requests (by error code), the unavailable windows (first failed call "
              "to the next answered one), and the slowest call while the updates ran (a call held until "
              "its family is back is slow instead of failed). tmux has no plugin host. Harness: "
              "`bench/modules.py`'s `update_under_load`.")
    figures = [Fig("hot_update_failed", "requests failed during {updates} hot updates at {rate}/s", "count",
                   "failed", tmux=False),
               Fig("hot_update_window", "unavailable window of one hot update, max", "ms", "window_max_ms",
                   tmux=False),
               Fig("hot_update_slowest", "slowest request during {updates} hot updates at {rate}/s", "ms",
                   "latency_max_ms", tmux=False)]

    def run(self, ctx, order):
        sock = ctx.artu.sock
        fresh_call(sock, "module.link", {"path": COUNTER_JAR})
        until = time.monotonic() + 30
        while True:
            try:
                fresh_call(sock, "example.counter.get")
                break
            except RuntimeError:
                if time.monotonic() > until:
                    raise
                time.sleep(0.05)
        bundle = fresh_call(sock, "module.info", {"id": "counter"})["module"]["bundle_id"]
        r = modules.update_under_load(sock, bundle, self.size["updates"], self.size["rate"])
        return {"artuditu": {"failed": r["failed"], "calls": r["calls"], "rate": r["achieved_rate_per_s"],
                             "errors": r["failed_by_code"], "windows_ms": r["windows_ms"],
                             "window_max_ms": r["unavailable_window_max_ms"],
                             "latency_p50_ms": r["latency_p50_ms"], "latency_p99_ms": r["latency_p99_ms"],
                             "latency_max_ms": r["latency_max_ms"]}}


class Cold(Scenario):
    id, title = "cold", "cold start to first answer"
    sizes = [dict(starts=1), dict(starts=5)]
    method = ("A server started in a fresh home (nothing unpacked or cached from an earlier start) until it "
              "first answers: Artuditu `./artu server --foreground` (with `ARTU_NO_BUILD=1`), polled every "
              "2 ms with a `ping` on a fresh connection until the pong; tmux `tmux -S SOCK -f /dev/null "
              "new-session -d` until that command returns (its server has started and answered it). "
              "{starts} starts each per run, alternating; each server is stopped before the next starts.")
    figures = [Fig("cold_ms", "cold start to first answer", "ms", "p50_ms", target=("max", 300))]

    def run(self, ctx, order):
        samples = {"artuditu": [], "tmux": []}
        for i in range(self.size["starts"]):
            for side in order:
                d = ctx.work(f"cold-{side}-{i}")
                if side == "artuditu":
                    sock = os.path.join(d, "artuditu.sock")
                    env = dict(os.environ, ARTUDITU_HOME=d, ARTU_NO_BUILD="1")
                    t0 = time.perf_counter_ns()
                    p = subprocess.Popen([ARTU, "server", "--foreground"], env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
                    while True:
                        try:
                            if b'"pong"' in Uhp(sock).raw(PING):
                                break
                        except OSError:
                            pass
                        if p.poll() is not None or time.perf_counter_ns() - t0 > 60e9:
                            raise RuntimeError("the server did not answer within 60 s")
                        time.sleep(0.002)
                    samples[side].append(round((time.perf_counter_ns() - t0) / 1e6, 1))
                    fresh_call(sock, "server.stop")
                    p.wait(30)
                else:
                    sock = os.path.join(d, "tmux.sock")
                    t0 = time.perf_counter_ns()
                    subprocess.run(["tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", str(COLS),
                                    "-y", str(ROWS)], check=True, stdin=subprocess.DEVNULL)
                    samples[side].append(round((time.perf_counter_ns() - t0) / 1e6, 1))
                    subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)
                remove(d)
        return {s: {"samples_ms": v, "p50_ms": statistics.median(v)} for s, v in samples.items()}


class Tui(Scenario):
    id, title = "tui", "the TUI against an attached tmux client"
    sizes = [dict(keys=20, warmup=5, mib=2), dict(keys=300, warmup=50, mib=32)]
    method = ("Both clients run on a PTY the harness owns (the outer terminal, 200x50), read the way a terminal "
              "emulator reads. Keys: a letter written to the outer terminal until it comes back in the client's "
              "output, the pane running `cat`, {warmup} warm-up + {keys} keys 25 ms apart. Throughput: `cat` of "
              "a {mib} MiB payload in the pane the client shows, clock from the go line until the server "
              "reports the pane gone, the client drawing all along. Artuditu: `artu attach` (the TUI); tmux: "
              "`tmux attach`. Harness: `bench/tui.py` (its own server).")
    figures = [Fig("tui_keys_p50", "TUI: key to its echo on the outer terminal, p50", "µs", "keys_p50_us",
                   target=("le_tmux",)),
               Fig("tui_tp", "TUI: pane output with the client attached", "MB/s", "mbps", better="higher",
                   target=("ratio_min", 1.5))]

    def run(self, ctx, order):
        import json
        out = ctx.work("tui-out")
        r = subprocess.run(["python3", os.path.join(ROOT, "bench", "tui.py"), "--only", "keys,throughput",
                            "--keys", str(self.size["keys"]), "--warmup", str(self.size["warmup"]),
                            "--mib", str(self.size["mib"]), "--reps", "1", "--out", out],
                           capture_output=True, text=True, timeout=1800)
        ctx.log.write(r.stderr)
        if r.returncode != 0:
            raise RuntimeError(f"bench/tui.py failed: {r.stderr.strip()[-800:]}")
        with open(os.path.join(out, "tui.json")) as f:
            d = json.load(f)
        return {"artuditu": {"keys_p50_us": d.get("artu_keys_p50_us"), "keys_p99_us": d.get("artu_keys_p99_us"),
                             "samples_us": d.get("artu_keys_samples_us"), "mbps": d.get("artu_tui_mbps")},
                "tmux": {"keys_p50_us": d.get("tmux_keys_p50_us"), "keys_p99_us": d.get("tmux_keys_p99_us"),
                         "samples_us": d.get("tmux_keys_samples_us"), "mbps": d.get("tmux_att_mbps")}}


# The order within a run: memory first, on a server that has done nothing else.
ALL = [Memory, RoundTrip, Cli, Throughput, Create, Scrollback, Keys, Flood, Snapshot, Fanout, HotUpdate, Cold,
       Tui]
