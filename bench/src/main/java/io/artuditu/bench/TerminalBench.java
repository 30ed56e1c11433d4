package io.artuditu.bench;

import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Terminal-host measurements, Artuditu side by side with tmux in the same run, for
 * {@code bench/run.sh --terminal}. The JDK and the UHP client only, like {@link ServerBench}:
 * it talks to the server over its Unix socket with one request line per fresh connection
 * (streams keep theirs), and drives tmux through its command line and a control-mode
 * client. Every pane is
 * {@value #COLS}x{@value #ROWS}. Each mode prints one line of {@code key=value} pairs; a key
 * whose side was not measured is left out.
 *
 * <p>SOCKET {@code -}, or a server without the methods a mode needs, measures tmux only
 * (the line then says {@code artu_skipped=<method>}).
 *
 * <pre>
 * payload FILE MIB                               MIB MiB of printable lines, some with SGR colour (fixed seed)
 * throughput SOCKET WORKDIR FILE REPS            cat FILE in a pane: bare PTY, tmux, Artuditu; then the two
 *                                                with a client attached
 * flood SOCKET WORKDIR PINGS SECONDS             request round trip, idle and while `yes` floods a pane
 * keys SOCKET WORKDIR WARMUP SAMPLES GAP_MS      key sent to its echo arriving at an attached client (pane runs cat)
 * memory SOCKET PID WORKDIR PANES SETTLE_S       server RSS (Artuditu also heap) per idle `sh` pane
 * run SOCKET WORKDIR WARMUP RUNS                 pane.run wait:true of `true` in bash; tmux: send-keys, then
 *                                                wait for the printed status
 * </pre>
 */
public final class TerminalBench {
    static final int COLS = 200;
    static final int ROWS = 50;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /** Everything started here; the shutdown hook ends what is still running. */
    private static final List<Process> CHILDREN = new CopyOnWriteArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            usage();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Tmux t : Tmux.LIVE) {
                t.killQuietly();
            }
            for (Process p : CHILDREN) {
                p.destroyForcibly();
            }
        }));
        switch (args[0]) {
            case "payload":
                payload(Path.of(args[1]), Integer.parseInt(args[2]));
                break;
            case "throughput":
                need(args, 5);
                throughput(Artu.open(args[1], "terminal.backend.create", "events.wait", "attach.pane"),
                        Path.of(args[2]), Path.of(args[3]), Integer.parseInt(args[4]));
                break;
            case "flood":
                need(args, 5);
                flood(Artu.open(args[1], "terminal.backend.create", "terminal.backend.close", "events.wait"),
                        Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                break;
            case "keys":
                need(args, 6);
                keys(Artu.open(args[1], "terminal.backend.create", "terminal.backend.close", "attach.pane"),
                        Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                        Integer.parseInt(args[5]));
                break;
            case "memory":
                need(args, 6);
                memory(Artu.open(args[1], "terminal.backend.create", "terminal.backend.close"), args[2],
                        Path.of(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]));
                break;
            case "run":
                need(args, 5);
                run(Artu.open(args[1], "terminal.backend.create", "terminal.backend.close", "pane.run"),
                        Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                break;
            default:
                usage();
        }
        System.exit(0); // reader threads of closed streams must not keep the JVM up
    }

    private static void need(String[] args, int n) {
        if (args.length < n) {
            usage();
        }
    }

    private static void usage() {
        System.err.println("usage: TerminalBench payload FILE MIB\n"
                + "       TerminalBench throughput SOCKET|- WORKDIR FILE REPS\n"
                + "       TerminalBench flood SOCKET|- WORKDIR PINGS SECONDS\n"
                + "       TerminalBench keys SOCKET|- WORKDIR WARMUP SAMPLES GAP_MS\n"
                + "       TerminalBench memory SOCKET|- SERVER_PID WORKDIR PANES SETTLE_S\n"
                + "       TerminalBench run SOCKET|- WORKDIR WARMUP RUNS");
        System.exit(2);
    }

    // ---- the payload ----

    private static final String[] WORDS = {"the", "server", "pane", "terminal", "error", "warning", "info",
        "request", "0x7f3a", "42", "connection", "accepted", "closed", "GET", "/api/v1/items", "200", "OK",
        "latency_ms=3.2", "user=alice", "{\"k\":1}", "[main]", "DEBUG", "retry", "timeout", "#", "--", "x86_64",
        "compile", "test", "passed", "failed", "::", "→", "données", "日本", "ok", "build", "release"};

    /**
     * Lines of 10 to 190 columns (one in twenty wraps, up to 320), words and numbers; one line
     * in five starts in an SGR colour and resets at its end, one in ten has a 256-colour or
     * RGB word in the middle. A fixed seed, so every run measures the same bytes.
     */
    private static void payload(Path file, int mib) throws IOException {
        long size = (long) mib << 20;
        Random rnd = new Random(42);
        long written = 0;
        long lines = 0;
        long sgr = 0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            StringBuilder sb = new StringBuilder(512);
            while (written < size) {
                sb.setLength(0);
                int width = rnd.nextInt(20) == 0 ? 200 + rnd.nextInt(120) : 10 + rnd.nextInt(180);
                boolean coloured = rnd.nextInt(5) == 0;
                if (coloured) {
                    sb.append("\033[").append(rnd.nextBoolean() ? "1;" : "").append(31 + rnd.nextInt(7)).append('m');
                    sgr++;
                }
                int cols = 0;
                while (cols < width) {
                    String w = WORDS[rnd.nextInt(WORDS.length)];
                    if (rnd.nextInt(10) == 0) {
                        sb.append(rnd.nextBoolean() ? "\033[38;5;" + rnd.nextInt(256) + "m"
                                : "\033[38;2;" + rnd.nextInt(256) + ";" + rnd.nextInt(256) + ";" + rnd.nextInt(256)
                                        + "m").append(w).append("\033[39m ");
                    } else {
                        sb.append(w).append(' ');
                    }
                    cols += w.length() + 1;
                }
                if (coloured) {
                    sb.append("\033[0m");
                }
                sb.append('\n');
                byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
                int n = (int) Math.min(b.length, size - written);
                if (n < b.length) {
                    b[n - 1] = '\n'; // the last line is cut to fit; it still ends the line (may split an escape)
                }
                out.write(b, 0, n);
                written += n;
                lines++;
            }
        }
        System.out.printf(Locale.ROOT, "payload bytes=%d lines=%d sgr_lines=%d%n", written, lines, sgr);
    }

    // ---- 1 and 2: output throughput ----

    /**
     * Each repetition, interleaved: the bare PTY, tmux, Artuditu, then tmux and Artuditu with a
     * client attached. Every pane runs {@code sh -c 'read _ < FIFO; exec cat FILE'}: the clock
     * starts when the harness writes the go line into the FIFO (so a client can attach first
     * and spawning is not counted) and stops when the pane is gone, which both servers report
     * only after the pane's output has ended and been consumed by their emulator.
     */
    private static void throughput(Artu artu, Path work, Path file, int reps) throws Exception {
        Files.createDirectories(work);
        long size = Files.size(file);
        double[][] mbps = new double[5][reps]; // bare, tmux, artu, tmux attached, artu attached
        long[] frames = new long[reps];
        long[] frameBytes = new long[reps];
        for (int r = 0; r < reps; r++) {
            mbps[0][r] = rate(size, barePty(work, file, r));
            int rep = r;
            sides(() -> {
                if (artu.ok()) {
                    mbps[2][rep] = rate(size, artuThroughput(artu, work, file, rep, false)[0]);
                }
            }, () -> mbps[1][rep] = rate(size, tmuxThroughput(work, file, rep, false)));
            sides(() -> {
                if (artu.ok()) {
                    long[] a = artuThroughput(artu, work, file, rep, true);
                    mbps[4][rep] = rate(size, a[0]);
                    frames[rep] = a[1];
                    frameBytes[rep] = a[2];
                }
            }, () -> mbps[3][rep] = rate(size, tmuxThroughput(work, file, rep, true)));
            System.err.printf(Locale.ROOT, "throughput rep %d: bare %.1f, tmux %.1f, artu %.1f, tmux attached %.1f,"
                    + " artu attached %.1f MB/s (%d frames, %d bytes)%n", r + 1, mbps[0][r], mbps[1][r], mbps[2][r],
                    mbps[3][r], mbps[4][r], frames[r], frameBytes[r]);
        }
        Out o = new Out("throughput").put("bytes", size).put("reps", reps);
        o.put("bare_mbps", median(mbps[0])).put("tmux_mbps", median(mbps[1]))
                .put("tmux_att_mbps", median(mbps[3]));
        if (artu.ok()) {
            o.put("artu_mbps", median(mbps[2])).put("ratio", median(mbps[2]) / median(mbps[1]))
                    .put("artu_att_mbps", median(mbps[4]))
                    .put("att_ratio", median(mbps[4]) / median(mbps[3]))
                    .put("artu_att_frames", median(frames)).put("artu_att_frame_bytes", median(frameBytes));
        }
        artu.skipped(o).print();
    }

    private static double rate(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    private static String catScript(Path fifo, Path file) {
        return "read _ < " + sq(fifo.toAbsolutePath().toString()) + "; exec cat "
                + sq(file.toAbsolutePath().toString());
    }

    /** {@code script} gives cat a PTY and copies its output to /dev/null: no emulator at all. */
    private static long barePty(Path work, Path file, int r) throws Exception {
        Path fifo = mkfifo(work.resolve("go-bare-" + r));
        Process p = launch(quiet(new ProcessBuilder("script", "-qfc",
                "stty cols " + COLS + " rows " + ROWS + "; " + catScript(fifo, file), "/dev/null")));
        try {
            long t0 = go(fifo);
            if (!p.waitFor(600, TimeUnit.SECONDS)) {
                throw new IOException("script did not finish within 600 s");
            }
            return System.nanoTime() - t0;
        } finally {
            destroy(p);
            Files.deleteIfExists(fifo);
        }
    }

    /**
     * A fresh tmux server per repetition, so the {@code pane-exited} hook's
     * {@code wait-for -S done} cannot be left over from an earlier pane. tmux destroys a pane
     * (and runs the hook) once the program has exited and its PTY has reached end of file,
     * after parsing everything it read. The attached client is a real tmux client on a
     * 200x50 PTY made by {@code script}, whose output goes to /dev/null.
     */
    private static long tmuxThroughput(Path work, Path file, int r, boolean attach) throws Exception {
        Path fifo = mkfifo(work.resolve("go-tmux-" + r + (attach ? "a" : "")));
        Process client = null;
        try (Tmux t = new Tmux(work, "tp", "sleep", "100000")) {
            t.cmd("set-hook", "-g", "pane-exited", "wait-for -S done");
            String pane = t.cmd("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:", "sh", "-c",
                    catScript(fifo, file));
            if (attach) {
                t.cmd("select-window", "-t", pane);
                client = t.attachTerminalClient();
            }
            Process waiter = t.spawn("wait-for", "done");
            long t0 = go(fifo);
            if (!waiter.waitFor(600, TimeUnit.SECONDS)) {
                throw new IOException("tmux wait-for did not return within 600 s");
            }
            long elapsed = System.nanoTime() - t0;
            destroy(waiter);
            return elapsed;
        } finally {
            if (client != null) {
                destroy(client);
            }
            Files.deleteIfExists(fifo);
        }
    }

    /**
     * Returns {nanos, frames, frame bytes}. The waiter uses {@code after_sequence} from before
     * the pane was created, so the {@code pane.closed} cannot slip past it; the go line can
     * only be read once the pane exists, so nothing is lost before the clock starts either.
     */
    private static long[] artuThroughput(Artu artu, Path work, Path file, int r, boolean attach) throws Exception {
        Path fifo = mkfifo(work.resolve("go-artu-" + r + (attach ? "a" : "")));
        AttachClient client = null;
        String terminalId = null;
        boolean went = false;
        try {
            long seq = artu.eventSequence();
            Map<String, Object> pane = artu.create(work, "sh", "-c", catScript(fifo, file));
            terminalId = str(pane, "terminal_id");
            String id = str(pane, "pane");
            if (attach) {
                client = AttachClient.open(artu.uhp, id, true);
            }
            try (Stream waiter = artu.waitClosed(id, seq, 600)) {
                long t0 = go(fifo);
                went = true;
                String reply = waiter.next();
                long elapsed = System.nanoTime() - t0;
                if (reply == null || !Boolean.TRUE.equals(field(reply, "result", "matched"))) {
                    throw new IOException("events.wait for pane.closed of pane " + id + ": " + reply);
                }
                long frames = 0;
                long bytes = 0;
                if (client != null) {
                    client.join(10_000); // the stream ends after the pane's last frame
                    frames = client.frames;
                    bytes = client.stream.connection.bytesRead();
                }
                return new long[] {elapsed, frames, bytes};
            }
        } finally {
            if (client != null) {
                client.close();
            }
            if (!went && terminalId != null) {
                artu.close(terminalId); // its shell still waits for the go line
            }
            Files.deleteIfExists(fifo);
        }
    }

    // ---- 3: request round trip while a pane floods ----

    /**
     * Artuditu: fresh-connection {@code ping}s, paced evenly over SECONDS, first with no pane,
     * then while {@code yes} runs in a pane nobody is attached to. tmux has no request socket
     * a harness can ping without a process start, so its column is the round trip of
     * {@code display-message -p x} through a control-mode client attached to a second session
     * (it gets no {@code %output} of the flooding pane): compare each side's flood against
     * its own idle figure.
     */
    private static void flood(Artu artu, Path work, int pings, int seconds) throws Exception {
        Files.createDirectories(work);
        long interval = seconds * SECOND / pings;
        Out o = new Out("flood").put("pings", pings).put("seconds", seconds);
        Call artuSide = () -> {
            if (!artu.ok()) {
                return;
            }
            for (int i = 0; i < 500; i++) {
                artu.ping();
            }
            long[] idle = paced(pings, interval, artu::ping);
            long seq = artu.eventSequence();
            Map<String, Object> t = artu.create(work, "yes");
            String id = str(t, "terminal_id");
            long pid = num(t.get("pid"));
            try {
                Thread.sleep(1000);
                long w0 = wchar(pid);
                long t0 = System.nanoTime();
                long[] busy = paced(pings, interval, artu::ping);
                long w1 = wchar(pid);
                long dt = System.nanoTime() - t0;
                o.put("artu_idle_p50_us", pct(idle, 50) / 1e3).put("artu_idle_p99_us", pct(idle, 99) / 1e3)
                        .put("artu_flood_p50_us", pct(busy, 50) / 1e3).put("artu_flood_p99_us", pct(busy, 99) / 1e3)
                        .put("artu_flood_max_us", busy[busy.length - 1] / 1e3)
                        .samples("artu_idle_samples_us", idle).samples("artu_flood_samples_us", busy);
                if (w0 >= 0 && w1 >= 0) {
                    o.put("artu_flood_mbps", rate(w1 - w0, dt));
                }
            } finally {
                artu.close(id);
                try (Stream w = artu.waitClosed(str(t, "pane"), seq, 30)) {
                    w.next();
                }
            }
        };
        Call tmuxSide = () -> {
            try (Tmux t = new Tmux(work, "flood", "sleep", "100000")) {
                t.cmd("new-session", "-d", "-s", "probe", "-x", "" + COLS, "-y", "" + ROWS, "sleep", "100000");
                try (Control c = t.control("probe")) {
                    for (int i = 0; i < 500; i++) {
                        c.command("display-message -p x");
                    }
                    long[] idle = paced(pings, interval, () -> c.command("display-message -p x"));
                    long pid = Long.parseLong(t.cmd("new-window", "-d", "-P", "-F", "#{pane_pid}", "-t", "main:",
                            "exec yes"));
                    Thread.sleep(1000);
                    long w0 = wchar(pid);
                    long t0 = System.nanoTime();
                    long[] busy = paced(pings, interval, () -> c.command("display-message -p x"));
                    long w1 = wchar(pid);
                    long dt = System.nanoTime() - t0;
                    o.put("tmux_idle_p50_us", pct(idle, 50) / 1e3).put("tmux_idle_p99_us", pct(idle, 99) / 1e3)
                            .put("tmux_flood_p50_us", pct(busy, 50) / 1e3).put("tmux_flood_p99_us", pct(busy, 99) / 1e3)
                            .put("tmux_flood_max_us", busy[busy.length - 1] / 1e3)
                            .samples("tmux_idle_samples_us", idle).samples("tmux_flood_samples_us", busy);
                    if (w0 >= 0 && w1 >= 0) {
                        o.put("tmux_flood_mbps", rate(w1 - w0, dt));
                    }
                }
            }
        };
        sides(artuSide, tmuxSide);
        artu.skipped(o).print();
    }

    interface Call {
        void run() throws Exception;
    }

    /**
     * tmux before Artuditu when the system property {@code bench.order} is {@code tmux}
     * (bench/run rotates the order each run), else Artuditu first.
     */
    private static final boolean TMUX_FIRST = "tmux".equals(System.getProperty("bench.order"));

    private static void sides(Call artu, Call tmux) throws Exception {
        if (TMUX_FIRST) {
            tmux.run();
            artu.run();
        } else {
            artu.run();
            tmux.run();
        }
    }

    /** Runs {@code n} calls, call k due at start + k * interval; sorted round trips. */
    private static long[] paced(int n, long interval, Call call) throws Exception {
        long[] rtt = new long[n];
        long start = System.nanoTime() + 1_000_000;
        for (int k = 0; k < n; k++) {
            long due = start + k * interval;
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
            }
            long t0 = System.nanoTime();
            call.run();
            rtt[k] = System.nanoTime() - t0;
        }
        Arrays.sort(rtt);
        return rtt;
    }

    /** Bytes the process has written so far ({@code /proc/PID/io} wchar), or -1. */
    private static long wchar(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/io"))) {
                if (l.startsWith("wchar:")) {
                    return Long.parseLong(l.substring(6).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not readable: leave the rate out
        }
        return -1;
    }

    // ---- 4: keystroke to echoed cell ----

    /**
     * A pane runs {@code cat}, so the PTY's own echo paints each key. Sample k sends letter
     * k mod 26 and waits until that letter is at the k-th cell after the starting cursor,
     * which no earlier sample touched (at most 4,000 keys, under the 4,095-byte line limit of
     * a canonical-mode PTY, so no newline is needed). Artuditu: an {@code attach.pane} client
     * keeps a screen model from the frames and the key goes in as an {@code input} line on the
     * same connection. tmux: {@code send-keys -t %0 -l c} written to a control-mode client,
     * until its {@code %output} carries the letter. GAP_MS between samples, like typing.
     */
    private static void keys(Artu artu, Path work, int warmup, int samples, int gapMs) throws Exception {
        if (warmup + samples > 4000) {
            throw new IllegalArgumentException("at most 4,000 keys (warm-up + samples)");
        }
        Files.createDirectories(work);
        Out o = new Out("keys").put("warmup", warmup).put("samples", samples).put("gap_ms", gapMs);
        Call artuSide = () -> {
            if (artu.ok()) {
                Map<String, Object> t = artu.create(work, "cat");
                try (AttachClient c = AttachClient.open(artu.uhp, str(t, "pane"), true)) {
                    int x0 = Math.max(0, c.cursorX);
                    int y0 = Math.max(0, c.cursorY);
                    long[] lat = new long[samples];
                    for (int k = 0; k < warmup + samples; k++) {
                        char ch = (char) ('a' + k % 26);
                        int cell = x0 + k;
                        long t0 = c.expectAndSend(cell % COLS, y0 + cell / COLS, String.valueOf(ch),
                                "{\"input\":{\"key\":{\"code\":{\"char\":\"" + ch + "\"}}}}");
                        long t1 = c.awaitHit(5 * SECOND);
                        if (t1 < 0) {
                            throw new IOException("key " + k + " ('" + ch + "') never appeared at " + cell % COLS + ","
                                    + (y0 + cell / COLS) + "; last frame: " + c.lastFrame);
                        }
                        if (k >= warmup) {
                            lat[k - warmup] = t1 - t0;
                        }
                        Thread.sleep(gapMs);
                    }
                    Arrays.sort(lat);
                    o.put("artu_p50_us", pct(lat, 50) / 1e3).put("artu_p90_us", pct(lat, 90) / 1e3)
                            .put("artu_p99_us", pct(lat, 99) / 1e3).samples("artu_samples_us", lat);
                } finally {
                    artu.close(str(t, "terminal_id"));
                }
            }
        };
        Call tmuxSide = () -> {
            try (Tmux t = new Tmux(work, "keys", "cat"); Control c = t.control("main")) {
                String pane = t.cmd("display-message", "-p", "-t", "main:0", "#{pane_id}");
                c.watch(pane);
                long[] lat = new long[samples];
                for (int k = 0; k < warmup + samples; k++) {
                    char ch = (char) ('a' + k % 26);
                    c.expect(String.valueOf(ch));
                    long t0 = System.nanoTime();
                    c.command("send-keys -t " + pane + " -l " + ch);
                    long t1 = c.awaitHit(5 * SECOND);
                    if (t1 < 0) {
                        throw new IOException("tmux: key " + k + " ('" + ch + "') never came back as %output");
                    }
                    if (k >= warmup) {
                        lat[k - warmup] = t1 - t0;
                    }
                    Thread.sleep(gapMs);
                }
                Arrays.sort(lat);
                o.put("tmux_p50_us", pct(lat, 50) / 1e3).put("tmux_p90_us", pct(lat, 90) / 1e3)
                        .put("tmux_p99_us", pct(lat, 99) / 1e3).samples("tmux_samples_us", lat);
            }
        };
        sides(artuSide, tmuxSide);
        artu.skipped(o).print();
    }

    // ---- 5: memory per idle pane ----

    /** Panes created and closed before memory is measured; see {@link #memory}. */
    private static final int WARM_PANES = 5;

    /**
     * Server RSS ({@code /proc/PID/status} VmRSS) before and after PANES panes running
     * {@code sh}, each reading taken SETTLE_S seconds after the last change. First
     * {@value #WARM_PANES} panes are created and closed, so the classes and compiled code a
     * server's first panes need are not charged to the PANES (tmux does the same). For the
     * JVM both readings follow full collections ({@code jcmd GC.run}, when jcmd exists), and
     * the heap in use after them ({@code GC.heap_info}) is reported beside the RSS; the
     * "before" heap is read until it stops falling. A {@code jcmd} call is made before the
     * first reading so the attach listener it starts is already counted. tmux: the same with
     * PANES windows running {@code sh} in one session. PID may be a shell whose one java
     * descendant is the server.
     */
    private static void memory(Artu artu, String pid, Path work, int panes, int settleS) throws Exception {
        Files.createDirectories(work);
        Out o = new Out("memory").put("panes", panes).put("settle_s", settleS);
        Call artuSide = () -> {
            if (artu.ok()) {
                String serverPid = jvm(pid);
                List<String> warm = new ArrayList<>();
                for (int i = 0; i < WARM_PANES; i++) {
                    warm.add(str(artu.create(work, "sh"), "terminal_id"));
                }
                Thread.sleep(1000);
                for (String id : warm) {
                    artu.close(id);
                }
                boolean jcmd = jcmd(serverPid, "VM.uptime") != null;
                // A closed pane is released a little after close returns: settle first.
                Thread.sleep(settleS * 1000L);
                long heap0 = jcmd ? settledHeap(serverPid) : -1;
                if (jcmd) {
                    Thread.sleep(1000);
                }
                long rss0 = rss(serverPid);
                List<String> ids = new ArrayList<>();
                try {
                    for (int i = 0; i < panes; i++) {
                        ids.add(str(artu.create(work, "sh"), "terminal_id"));
                    }
                    Thread.sleep(settleS * 1000L);
                    long heap1 = jcmd ? heapUsed(serverPid) : -1;
                    if (jcmd) {
                        Thread.sleep(1000);
                    }
                    long rss1 = rss(serverPid);
                    o.put("artu_rss0_kib", rss0).put("artu_rss1_kib", rss1)
                            .put("artu_kib_per_pane", (rss1 - rss0) / (double) panes);
                    if (heap0 >= 0 && heap1 >= 0) {
                        o.put("artu_heap0_kib", heap0).put("artu_heap1_kib", heap1)
                                .put("artu_heap_kib_per_pane", (heap1 - heap0) / (double) panes);
                    }
                } finally {
                    for (String id : ids) {
                        try {
                            artu.close(id);
                        } catch (IOException e) {
                            System.err.println("close " + id + ": " + e.getMessage());
                        }
                    }
                }
            }
        };
        Call tmuxSide = () -> {
            try (Tmux t = new Tmux(work, "mem", "sleep", "100000")) {
                String tmuxPid = t.cmd("display-message", "-p", "#{pid}");
                t.cmd("new-session", "-d", "-s", "warm", "-x", "" + COLS, "-y", "" + ROWS, "exec sh");
                for (int i = 1; i < WARM_PANES; i++) {
                    t.cmd("new-window", "-d", "-t", "warm:", "exec sh");
                }
                Thread.sleep(1000);
                t.cmd("kill-session", "-t", "warm");
                Thread.sleep(settleS * 1000L);
                long rss0 = rss(tmuxPid);
                for (int i = 0; i < panes; i++) {
                    t.cmd("new-window", "-d", "-t", "main:", "exec sh");
                }
                Thread.sleep(settleS * 1000L);
                long rss1 = rss(tmuxPid);
                o.put("tmux_rss0_kib", rss0).put("tmux_rss1_kib", rss1)
                        .put("tmux_kib_per_pane", (rss1 - rss0) / (double) panes);
            }
        };
        sides(artuSide, tmuxSide);
        artu.skipped(o).print();
    }

    /**
     * The JVM itself: PID when it is a java process, else its one java descendant (a shell
     * that started the server without exec).
     */
    private static String jvm(String pid) throws IOException {
        ProcessHandle p = ProcessHandle.of(Long.parseLong(pid))
                .orElseThrow(() -> new IOException("no process " + pid));
        if (p.info().command().map(c -> c.endsWith("/java")).orElse(false)) {
            return pid;
        }
        List<ProcessHandle> javas = p.descendants()
                .filter(d -> d.info().command().map(c -> c.endsWith("/java")).orElse(false)).toList();
        if (javas.size() != 1) {
            throw new IOException("process " + pid + " is not a JVM and has " + javas.size() + " java descendants");
        }
        System.err.println("TerminalBench: " + pid + " is not a JVM; measuring its java child " + javas.get(0).pid());
        return Long.toString(javas.get(0).pid());
    }

    private static long rss(String pid) throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.substring(6).replace("kB", "").trim());
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    /**
     * {@link #heapUsed} once it stops falling (within 1 %, at most 6 readings a second
     * apart): the warm-up panes' memory is let go a few seconds after they are closed.
     */
    private static long settledHeap(String pid) throws Exception {
        long prev = heapUsed(pid);
        for (int i = 0; i < 5 && prev >= 0; i++) {
            Thread.sleep(1000);
            long cur = heapUsed(pid);
            if (cur >= prev * 0.99) {
                return Math.min(prev, cur);
            }
            prev = cur;
        }
        return prev;
    }

    /**
     * Heap in use after full collections, KiB: the sum of the heap lines' "used NK". Two
     * collections half a second apart, because objects that wait for finalization or a
     * cleaner (a closed pane's, say) survive the first.
     */
    private static long heapUsed(String pid) throws Exception {
        if (jcmd(pid, "GC.run") == null) {
            return -1;
        }
        Thread.sleep(500);
        if (jcmd(pid, "GC.run") == null) {
            return -1;
        }
        String info = jcmd(pid, "GC.heap_info");
        if (info == null) {
            return -1;
        }
        long used = 0;
        boolean any = false;
        for (String l : info.split("\n")) {
            int u = l.indexOf(" used ");
            if (l.contains(" total ") && u > 0 && !l.contains("Metaspace") && !l.contains("class space")) {
                int e = l.indexOf('K', u);
                used += Long.parseLong(l.substring(u + 6, e).trim());
                any = true;
            }
        }
        return any ? used : -1;
    }

    /** jcmd's output, or null when there is no jcmd or it failed. */
    private static String jcmd(String pid, String command) {
        try {
            Process p = launch(piped(new ProcessBuilder("jcmd", pid, command)));
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? out : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    // ---- 6: run a command and wait for it ----

    /**
     * Artuditu: {@code pane.run {pane, command:"true", wait:true}} on a bash pane, one fresh
     * connection per call; the first call is retried for up to 30 s while the shell starts.
     * tmux has no such request: the nearest is typing {@code true; echo E$?_K<n>_} with
     * {@code send-keys ... Enter} through a control-mode client and waiting for the
     * {@code E0_K<n>_} the command prints (the typed line shows {@code E$?}, never the
     * marker), so both end when the shell has run the command and reported its status.
     */
    private static void run(Artu artu, Path work, int warmup, int runs) throws Exception {
        Files.createDirectories(work);
        Out o = new Out("run").put("warmup", warmup).put("runs", runs);
        if (artu.ok()) {
            Map<String, Object> t = artu.create(work, "bash");
            String pane = str(t, "pane");
            String req = "{\"id\":\"r\",\"method\":\"pane.run\",\"params\":{\"pane\":\"" + pane
                    + "\",\"command\":\"true\",\"wait\":true}}";
            try {
                long until = System.nanoTime() + 30 * SECOND;
                String last;
                while (true) {
                    last = call(artu.uhp, req);
                    if (Long.valueOf(0).equals(field(last, "result", "exit_status"))) {
                        break;
                    }
                    if (System.nanoTime() > until) {
                        throw new IOException("pane.run never succeeded in 30 s: " + last);
                    }
                    Thread.sleep(200);
                }
                long[] rtt = new long[runs];
                int errors = 0;
                for (int k = 0; k < warmup + runs; k++) {
                    long t0 = System.nanoTime();
                    String reply = call(artu.uhp, req);
                    long dt = System.nanoTime() - t0;
                    if (!Long.valueOf(0).equals(field(reply, "result", "exit_status"))) {
                        errors++;
                        System.err.println("pane.run: " + reply);
                    }
                    if (k >= warmup) {
                        rtt[k - warmup] = dt;
                    }
                }
                Arrays.sort(rtt);
                o.put("artu_p50_ms", pct(rtt, 50) / 1e6).put("artu_p90_ms", pct(rtt, 90) / 1e6)
                        .put("artu_errors", errors);
            } finally {
                artu.close(str(t, "terminal_id"));
            }
        }
        try (Tmux t = new Tmux(work, "run", "bash"); Control c = t.control("main")) {
            String pane = t.cmd("display-message", "-p", "-t", "main:0", "#{pane_id}");
            c.watch(pane);
            long[] rtt = new long[runs];
            for (int k = 0; k < 1 + warmup + runs; k++) {
                c.expect("E0_K" + k + "_");
                long t0 = System.nanoTime();
                c.command("send-keys -t " + pane + " 'true; echo E$?_K" + k + "_' Enter");
                long t1 = c.awaitHit((k == 0 ? 30 : 10) * SECOND);
                if (t1 < 0) {
                    throw new IOException("tmux: run " + k + " never printed its marker");
                }
                if (k > warmup) {
                    rtt[k - warmup - 1] = t1 - t0;
                }
            }
            Arrays.sort(rtt);
            o.put("tmux_p50_ms", pct(rtt, 50) / 1e6).put("tmux_p90_ms", pct(rtt, 90) / 1e6);
        }
        artu.skipped(o).print();
    }

    // ---- Artuditu over its socket ----

    /** The server, or none (SOCKET "-", or a method missing): then only tmux is measured. */
    static final class Artu {
        final UhpClient uhp;
        final String missing;

        private Artu(UhpClient uhp, String missing) {
            this.uhp = uhp;
            this.missing = missing;
        }

        static Artu open(String socket, String... methods) throws IOException {
            if (socket.equals("-")) {
                return new Artu(null, "all");
            }
            UhpClient a = UhpClient.of(Path.of(socket));
            Object caps = result(call(a, "{\"id\":\"c\",\"method\":\"uhp.capabilities\",\"params\":{}}"));
            Set<String> names = new HashSet<>();
            for (Object m : (List<?>) ((Map<?, ?>) caps).get("methods")) {
                names.add(String.valueOf(((Map<?, ?>) m).get("name")));
            }
            for (String m : methods) {
                if (!names.contains(m)) {
                    System.err.println("TerminalBench: the server has no " + m + "; measuring tmux only");
                    return new Artu(a, m);
                }
            }
            return new Artu(a, null);
        }

        boolean ok() {
            return missing == null;
        }

        Out skipped(Out o) {
            return missing == null ? o : o.put("artu_skipped", missing);
        }

        void ping() throws IOException {
            String r = call(uhp, "{\"id\":\"1\",\"method\":\"ping\",\"params\":{}}");
            if (!r.contains("\"pong\"")) {
                throw new IOException("not a pong: " + r);
            }
        }

        long eventSequence() throws IOException {
            return num(((Map<?, ?>) result(call(uhp,
                    "{\"id\":\"c\",\"method\":\"uhp.capabilities\",\"params\":{}}"))).get("event_sequence"));
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> create(Path cwd, String... argv) throws IOException {
            StringJoiner cmd = new StringJoiner(",", "[", "]");
            for (String a : argv) {
                cmd.add(quote(a));
            }
            return (Map<String, Object>) result(call(uhp, "{\"id\":\"t\",\"method\":\"terminal.backend.create\","
                    + "\"params\":{\"command\":" + cmd + ",\"cwd\":" + quote(cwd.toAbsolutePath().toString())
                    + ",\"cols\":" + COLS + ",\"rows\":" + ROWS + "}}"));
        }

        void close(String terminalId) throws IOException {
            String r = call(uhp, "{\"id\":\"x\",\"method\":\"terminal.backend.close\",\"params\":{\"terminal_id\":"
                    + quote(terminalId) + "}}");
            // not_found: it had exited already
            if (field(r, "result") == null && !r.contains("not_found")) {
                throw new IOException("terminal.backend.close " + terminalId + ": " + r);
            }
        }

        /** An events.wait for this pane's pane.closed, registered now; read its one line. */
        Stream waitClosed(String pane, long afterSequence, int timeoutS) throws IOException {
            Stream s = new Stream(uhp);
            s.write("{\"id\":\"w\",\"method\":\"events.wait\",\"params\":{\"event\":\"pane.closed\","
                    + "\"where\":{\"pane\":" + quote(pane) + "},\"timeout_s\":" + timeoutS + ",\"after_sequence\":"
                    + afterSequence + "}}");
            return s;
        }
    }

    /** A connection kept open: lines in, lines out. */
    static class Stream implements AutoCloseable {
        final UhpConnection connection;

        Stream(UhpClient uhp) throws IOException {
            connection = uhp.connect();
        }

        void write(String line) throws IOException {
            connection.send(line);
        }

        /** The next line, or null once the server closed the connection. */
        String next() throws IOException {
            return connection.readLine();
        }

        @Override
        public void close() {
            connection.close();
        }
    }

    /**
     * An {@code attach.pane} client: the reply line, then one {@code {"frame":{…}}} line per
     * update, read on its own thread. With a model it applies each frame to a grid of cells
     * (a full frame clears it first; runs are row-contiguous and advance by each grapheme's
     * display width, as in the client protocol) and notes the cursor, as a real client would.
     */
    static final class AttachClient extends Thread implements AutoCloseable {
        final Stream stream;
        final boolean model;
        final String[][] grid = new String[ROWS][COLS];
        volatile long frames;
        volatile int cursorX = -1;
        volatile int cursorY = -1;
        volatile String lastFrame;
        /** What the reader looks for; it clears this on a hit. */
        private volatile Expect expect;
        /** The sender's own copy, which the reader never clears. */
        private Expect armed;

        private static final class Expect {
            final int x;
            final int y;
            final String ch;
            final Thread waiter;
            volatile long hit = -1;

            Expect(int x, int y, String ch, Thread waiter) {
                this.x = x;
                this.y = y;
                this.ch = ch;
                this.waiter = waiter;
            }
        }

        private AttachClient(Stream stream, boolean model) {
            super("attach-client");
            setDaemon(true);
            this.stream = stream;
            this.model = model;
        }

        /** Attaches at 200x50 and returns once the first frame is in. */
        static AttachClient open(UhpClient uhp, String pane, boolean model) throws Exception {
            Stream s = new Stream(uhp);
            s.write("{\"id\":\"a\",\"method\":\"attach.pane\",\"params\":{\"pane\":" + quote(pane) + ",\"cols\":" + COLS
                    + ",\"rows\":" + ROWS + "}}");
            String reply = s.next();
            if (reply == null || field(reply, "result") == null) {
                s.close();
                throw new IOException("attach.pane " + pane + ": " + reply);
            }
            AttachClient c = new AttachClient(s, model);
            c.start();
            long until = System.nanoTime() + 10 * SECOND;
            while (c.frames == 0) {
                if (System.nanoTime() > until || !c.isAlive()) {
                    c.close();
                    throw new IOException("attach.pane " + pane + ": no first frame within 10 s");
                }
                LockSupport.parkNanos(1_000_000);
            }
            return c;
        }

        @Override
        public void run() {
            try {
                String line;
                while ((line = stream.next()) != null) {
                    if (!line.startsWith("{\"frame\"")) {
                        continue;
                    }
                    if (model) {
                        Object f = ((Map<?, ?>) Json.parse(line)).get("frame");
                        if (f instanceof Map) {
                            apply((Map<?, ?>) f);
                        }
                        lastFrame = line.length() > 2000 ? line.substring(0, 2000) + "…" : line;
                    }
                    frames++;
                    Expect e = expect;
                    if (e != null && e.ch.equals(grid[e.y][e.x])) {
                        e.hit = System.nanoTime();
                        expect = null;
                        LockSupport.unpark(e.waiter);
                    }
                }
            } catch (IOException e) {
                // closed by us, or the server ended the stream
            }
        }

        private void apply(Map<?, ?> frame) {
            if (Boolean.TRUE.equals(frame.get("full"))) {
                for (String[] row : grid) {
                    Arrays.fill(row, null);
                }
            }
            Object runs = frame.get("cells");
            if (runs instanceof List) {
                for (Object o : (List<?>) runs) {
                    Map<?, ?> run = (Map<?, ?>) o;
                    int x = (int) num(run.get("x"));
                    int y = (int) num(run.get("y"));
                    Object cells = run.get("cells");
                    if (!(cells instanceof List) || y < 0 || y >= ROWS) {
                        continue;
                    }
                    for (Object c : (List<?>) cells) {
                        Object o2 = c instanceof Map ? ((Map<?, ?>) c).get("ch") : null;
                        String ch = o2 == null || o2.toString().isEmpty() ? " " : o2.toString();
                        if (x >= 0 && x < COLS) {
                            grid[y][x] = ch;
                        }
                        x += width(ch);
                    }
                }
            }
            Object cur = frame.get("cursor");
            if (cur instanceof List && ((List<?>) cur).size() == 2) {
                cursorX = (int) num(((List<?>) cur).get(0));
                cursorY = (int) num(((List<?>) cur).get(1));
            }
        }

        /**
         * Columns a grapheme takes: 2 for the East Asian wide and fullwidth blocks and the
         * common emoji blocks, else 1. Close enough for a model; the keystroke test types ASCII.
         */
        static int width(String ch) {
            int cp = ch.codePointAt(0);
            boolean wide = cp >= 0x1100 && cp <= 0x115F || cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F
                    || cp >= 0xAC00 && cp <= 0xD7A3 || cp >= 0xF900 && cp <= 0xFAFF || cp >= 0xFE30 && cp <= 0xFE4F
                    || cp >= 0xFF00 && cp <= 0xFF60 || cp >= 0xFFE0 && cp <= 0xFFE6 || cp >= 0x1F300 && cp <= 0x1F64F
                    || cp >= 0x1F900 && cp <= 0x1F9FF || cp >= 0x20000 && cp <= 0x3FFFD;
            return wide ? 2 : 1;
        }

        /** Arms the check for {@code ch} at (x, y), then sends the line; returns the send time. */
        long expectAndSend(int x, int y, String ch, String line) throws IOException {
            armed = new Expect(x, y, ch, Thread.currentThread());
            expect = armed;
            long t0 = System.nanoTime();
            stream.write(line);
            return t0;
        }

        /** When the armed cell appeared (nanoTime), or -1 after the timeout. */
        long awaitHit(long timeoutNanos) {
            Expect e = armed;
            if (e == null) {
                return -1;
            }
            long until = System.nanoTime() + timeoutNanos;
            while (e.hit < 0 && System.nanoTime() < until) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
            return e.hit;
        }

        @Override
        public void close() throws IOException {
            stream.close();
        }
    }

    // ---- tmux ----

    /** A private tmux server (its own socket, no config) whose session "main" runs a command. */
    static final class Tmux implements AutoCloseable {
        static final List<Tmux> LIVE = new CopyOnWriteArrayList<>();
        final String sock;

        Tmux(Path work, String name, String... command) throws Exception {
            sock = work.resolve("tmux-" + name + ".sock").toString();
            killQuietly();
            LIVE.add(this);
            List<String> args = new ArrayList<>(List.of("new-session", "-d", "-s", "main", "-x", "" + COLS, "-y",
                    "" + ROWS));
            args.addAll(List.of(command));
            cmd(args.toArray(new String[0]));
            cmd("set-option", "-g", "status", "off");
        }

        private List<String> argv(String... args) {
            List<String> a = new ArrayList<>(List.of("tmux", "-S", sock, "-f", "/dev/null"));
            a.addAll(List.of(args));
            return a;
        }

        /** Runs one tmux command; its output, trimmed. */
        String cmd(String... args) throws Exception {
            Process p = launch(piped(new ProcessBuilder(argv(args))));
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                destroy(p);
                throw new IOException(String.join(" ", argv(args)) + ": " + out);
            }
            CHILDREN.remove(p);
            return out;
        }

        Process spawn(String... args) throws IOException {
            return launch(quiet(new ProcessBuilder(argv(args))));
        }

        /**
         * A terminal client: {@code tmux attach} on a PTY from {@code script}, sized 200x50
         * by stty, its output to /dev/null. Returns once the server lists it, plus 300 ms for
         * the first full redraw.
         */
        Process attachTerminalClient() throws Exception {
            Process p = launch(quiet(new ProcessBuilder("script", "-qfc", "stty cols " + COLS + " rows " + ROWS
                    + "; exec tmux -S " + sq(sock) + " attach -t main", "/dev/null")));
            long until = System.nanoTime() + 10 * SECOND;
            while (cmd("list-clients").isEmpty()) {
                if (System.nanoTime() > until || !p.isAlive()) {
                    destroy(p);
                    throw new IOException("the tmux client did not attach within 10 s");
                }
                Thread.sleep(10);
            }
            String size = cmd("display-message", "-p", "#{window_width}x#{window_height}");
            if (!size.equals(COLS + "x" + ROWS)) {
                System.err.println("TerminalBench: the attached tmux window is " + size);
            }
            Thread.sleep(300);
            return p;
        }

        Control control(String session) throws Exception {
            // stdout is the protocol; stderr is dropped so it cannot interleave
            return new Control(launch(new ProcessBuilder(argv("-C", "attach", "-t", session))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)));
        }

        void killQuietly() {
            try {
                Process p = new ProcessBuilder(argv("kill-server")).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                // nothing to kill
            }
        }

        @Override
        public void close() {
            killQuietly();
            LIVE.remove(this);
        }
    }

    /**
     * A tmux control-mode client ({@code tmux -C attach}) on pipes. Commands are written one
     * per line and answered by a {@code %begin}…{@code %end} block; {@code %output %N data}
     * lines carry what pane %N printed (octal-escaped below space and for backslash).
     */
    static final class Control extends Thread implements AutoCloseable {
        private final Process p;
        private final Writer in;
        private final BufferedReader out;
        private final BlockingQueue<String> ends = new LinkedBlockingQueue<>();
        private volatile String watched;
        private final StringBuilder recent = new StringBuilder();
        private volatile String want;
        private volatile long hit = -1;
        private volatile Thread waiter;

        Control(Process p) throws Exception {
            super("tmux-control");
            setDaemon(true);
            this.p = p;
            this.in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
            this.out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.ISO_8859_1));
            start();
            // The attach itself is answered first.
            if (ends.poll(10, TimeUnit.SECONDS) == null) {
                close();
                throw new IOException("tmux -C attach: no answer within 10 s");
            }
        }

        @Override
        public void run() {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("%end ") || line.startsWith("%error ")) {
                        ends.add(line);
                    } else if (watched != null && line.startsWith(watched)) {
                        String w = want;
                        synchronized (recent) {
                            recent.append(line, watched.length(), line.length());
                            if (recent.length() > 8192) {
                                recent.delete(0, recent.length() - 4096);
                            }
                            if (w != null && recent.indexOf(w) >= 0) {
                                hit = System.nanoTime();
                                want = null;
                                LockSupport.unpark(waiter);
                            }
                        }
                    }
                }
            } catch (IOException e) {
                // the client ended
            }
        }

        /** Collects {@code %output} of this pane from now on. */
        void watch(String pane) {
            watched = "%output " + pane + " ";
        }

        /** Arms the wait for {@code s} in the watched pane's output from now on. */
        void expect(String s) {
            synchronized (recent) {
                recent.setLength(0);
                hit = -1;
                waiter = Thread.currentThread();
                want = s;
            }
        }

        long awaitHit(long timeoutNanos) {
            long until = System.nanoTime() + timeoutNanos;
            while (hit < 0 && System.nanoTime() < until) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
            return hit;
        }

        /** Sends one command and waits for its {@code %end}. */
        void command(String command) throws Exception {
            in.write(command + "\n");
            in.flush();
            String end = ends.poll(10, TimeUnit.SECONDS);
            if (end == null || end.startsWith("%error")) {
                throw new IOException("tmux -C: " + command + ": " + (end == null ? "no answer in 10 s" : end));
            }
        }

        @Override
        public void close() throws Exception {
            try {
                in.close(); // end of input detaches the client
            } catch (IOException e) {
                // already gone
            }
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                destroy(p);
            }
        }
    }

    // ---- processes, FIFOs ----

    /**
     * Starts a child with the redirects the caller set; its stdin stays a pipe that is never
     * closed before the end, so script and tmux clients see no end of input.
     */
    private static Process launch(ProcessBuilder pb) throws IOException {
        Process p = pb.start();
        CHILDREN.add(p);
        return p;
    }

    /** Output and errors discarded. */
    private static ProcessBuilder quiet(ProcessBuilder pb) {
        return pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    }

    /** Output and errors together, for the caller to read. */
    private static ProcessBuilder piped(ProcessBuilder pb) {
        return pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE);
    }

    private static void destroy(Process p) throws InterruptedException {
        if (p.isAlive()) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        CHILDREN.remove(p);
    }

    private static Path mkfifo(Path path) throws Exception {
        Files.deleteIfExists(path);
        Process p = launch(quiet(new ProcessBuilder("mkfifo", path.toString())));
        if (p.waitFor() != 0) {
            throw new IOException("mkfifo " + path + " failed");
        }
        CHILDREN.remove(p);
        return path;
    }

    /**
     * Writes the go line into the FIFO the pane's shell reads; returns the time just after the
     * open succeeded (the shell is waiting in its read), just before the write.
     */
    private static long go(Path fifo) throws Exception {
        FutureTask<Long> task = new FutureTask<>(() -> {
            try (FileOutputStream o = new FileOutputStream(fifo.toFile())) {
                long t0 = System.nanoTime();
                o.write('\n');
                return t0;
            }
        });
        Thread th = new Thread(task, "go");
        th.setDaemon(true);
        th.start();
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            try (InputStream unblock = new java.io.FileInputStream(fifo.toFile())) {
                // opening the read side releases the writer
            }
            throw new IOException("the pane never opened " + fifo + " (did it start?)");
        }
    }

    /** Shell single quotes. */
    private static String sq(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    // ---- the wire ----

    /** One request line on a fresh connection; its reply line. */
    static String call(UhpClient uhp, String request) throws IOException {
        return uhp.exchange(request);
    }

    /** The reply's result, or an IOException with its error. */
    static Object result(String reply) throws IOException {
        Object r = Json.parse(reply);
        if (!(r instanceof Map) || !((Map<?, ?>) r).containsKey("result")) {
            throw new IOException("error reply: " + reply);
        }
        return ((Map<?, ?>) r).get("result");
    }

    /** The value at a path of object keys in a JSON line, or null. */
    static Object field(String json, String... path) throws IOException {
        Object o = Json.parse(json);
        for (String k : path) {
            if (!(o instanceof Map)) {
                return null;
            }
            o = ((Map<?, ?>) o).get(k);
        }
        return o;
    }

    static String str(Map<String, Object> m, String key) throws IOException {
        Object v = m.get(key);
        if (v == null) {
            throw new IOException("no " + key + " in " + m);
        }
        return v.toString();
    }

    static long num(Object o) {
        return o instanceof Number ? ((Number) o).longValue() : -1;
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** A small JSON reader: objects, arrays, strings, numbers (Long or Double), booleans, null. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String s) throws IOException {
            Json j = new Json(s);
            Object v = j.value();
            j.ws();
            if (j.i != s.length()) {
                throw j.error("trailing characters");
            }
            return v;
        }

        private IOException error(String what) {
            return new IOException("JSON: " + what + " at " + i + " in " + (s.length() > 200 ? s.substring(0, 200)
                    + "…" : s));
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() throws IOException {
            ws();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        if (s.charAt(i++) != ':') {
                            throw error("':' expected");
                        }
                        m.put(k, value());
                        ws();
                        char d = s.charAt(i++);
                        if (d == '}') {
                            return m;
                        }
                        if (d != ',') {
                            throw error("',' or '}' expected");
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        char d = s.charAt(i++);
                        if (d == ']') {
                            return l;
                        }
                        if (d != ',') {
                            throw error("',' or ']' expected");
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return number();
            }
        }

        private Object literal(String word, Object v) throws IOException {
            if (!s.startsWith(word, i)) {
                throw error(word + " expected");
            }
            i += word.length();
            return v;
        }

        private Object number() throws IOException {
            int start = i;
            boolean real = false;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                real |= s.charAt(i) == '.' || s.charAt(i) == 'e' || s.charAt(i) == 'E';
                i++;
            }
            if (start == i) {
                throw error("value expected");
            }
            String n = s.substring(start, i);
            try {
                return real ? (Object) Double.parseDouble(n) : (Object) Long.parseLong(n);
            } catch (NumberFormatException e) {
                return Double.parseDouble(n);
            }
        }

        private String string() throws IOException {
            if (s.charAt(i) != '"') {
                throw error("string expected");
            }
            i++;
            StringBuilder b = null;
            int start = i;
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i);
                if (c == '"') {
                    String r = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
                    i++;
                    return r;
                }
                if (c == '\\') {
                    if (b == null) {
                        b = new StringBuilder();
                    }
                    b.append(s, start, i);
                    char e = s.charAt(i + 1);
                    i += 2;
                    switch (e) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break;
                        case 'b': b.append('\b'); break;
                        case 'f': b.append('\f'); break;
                        case 'u':
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                            break;
                        default: b.append(e);
                    }
                    start = i;
                } else {
                    i++;
                }
            }
        }
    }

    // ---- output ----

    /** One {@code mode key=value ...} line. */
    static final class Out {
        private final StringBuilder sb;
        private final List<String> extra = new ArrayList<>();

        Out(String mode) {
            sb = new StringBuilder(mode);
        }

        Out put(String key, Object value) {
            sb.append(' ').append(key).append('=');
            if (value instanceof Double) {
                sb.append(String.format(Locale.ROOT, "%.2f", (Double) value));
            } else {
                sb.append(value);
            }
            return this;
        }

        /** Every sample (nanoseconds), printed in microseconds on its own line before the summary. */
        Out samples(String key, long[] nanos) {
            StringBuilder line = new StringBuilder("#samples ").append(key);
            for (long n : nanos) {
                line.append(' ').append(String.format(Locale.ROOT, "%.1f", n / 1e3));
            }
            extra.add(line.toString());
            return this;
        }

        void print() {
            for (String l : extra) {
                System.out.println(l);
            }
            System.out.println(sb);
        }
    }

    /** Nearest-rank percentile of sorted values. */
    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private TerminalBench() {
    }
}
