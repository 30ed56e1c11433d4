package io.artuditu.bench;

import io.artuditu.uhp.client.UhpClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whole-server measurements against a real Artuditu process, for {@code bench/run.sh}.
 * The JDK and the UHP client ({@code io.artuditu.uhp.client}) only, so it runs from
 * {@code bench/target/classes} and the API jar. Each mode prints one line of
 * {@code key=value} pairs.
 *
 * <pre>
 * roundtrip SOCKET [WARMUP [CALLS]]        fresh connection per ping, sequential
 * coldstart RUNS WORKDIR -- COMMAND...     spawn, poll until a ping answers, server.stop
 * tmux-coldstart RUNS WORKDIR              new-session -d, poll has-session, kill-server
 * </pre>
 */
public final class ServerBench {
    private static final String PING = "{\"id\":\"1\",\"method\":\"ping\",\"params\":{}}";
    private static final String STOP = "{\"id\":\"s\",\"method\":\"server.stop\",\"params\":{}}";
    private static final long POLL_NANOS = 1_000_000;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    /** The child being measured; a shutdown hook ends it if this harness is stopped early. */
    private static volatile Process child;

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            usage();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Process p = child;
            if (p != null) {
                p.destroyForcibly();
            }
        }));
        ServerBench b = new ServerBench();
        switch (args[0]) {
            case "roundtrip":
                b.roundTrip(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 2_000,
                        args.length > 3 ? Integer.parseInt(args[3]) : 10_000);
                break;
            case "coldstart":
                if (args.length < 5 || !args[3].equals("--")) {
                    usage();
                }
                b.coldStart(Integer.parseInt(args[1]), Path.of(args[2]),
                        List.of(Arrays.copyOfRange(args, 4, args.length)));
                break;
            case "tmux-coldstart":
                b.tmuxColdStart(Integer.parseInt(args[1]), Path.of(args[2]));
                break;
            default:
                usage();
        }
    }

    private static void usage() {
        System.err.println("usage: ServerBench roundtrip SOCKET [WARMUP [CALLS]]\n"
                + "       ServerBench coldstart RUNS WORKDIR -- COMMAND...\n"
                + "       ServerBench tmux-coldstart RUNS WORKDIR");
        System.exit(2);
    }

    // ---- fresh-connection round trip ----

    private void roundTrip(Path socket, int warmup, int calls) throws IOException {
        UhpClient server = UhpClient.of(socket);
        for (int i = 0; i < warmup; i++) {
            requirePong(call(server, PING));
        }
        long[] nanos = new long[calls];
        int wrong = 0;
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            String reply = call(server, PING);
            nanos[i] = System.nanoTime() - t0;
            if (!reply.contains("\"pong\"")) {
                wrong++;
            }
        }
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "roundtrip calls=%d warmup=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f"
                + " mean_us=%.1f errors=%d%n", calls, warmup, pct(nanos, 50) / 1e3, pct(nanos, 90) / 1e3,
                pct(nanos, 99) / 1e3, nanos[calls - 1] / 1e3, Arrays.stream(nanos).average().orElse(0) / 1e3, wrong);
    }

    /** Connect, write one line, read one line, close. */
    private static String call(UhpClient server, String request) throws IOException {
        return server.exchange(request);
    }

    private static void requirePong(String reply) throws IOException {
        if (!reply.contains("\"pong\"")) {
            throw new IOException("not a pong: " + reply);
        }
    }

    // ---- cold start ----

    private void coldStart(int runs, Path workdir, List<String> command) throws Exception {
        long[] ready = new long[runs];
        long[] listening = new long[runs];
        long[] stop = new long[runs];
        long[] cpu = new long[runs];
        for (int r = 0; r < runs; r++) {
            Path home = Files.createTempDirectory(Files.createDirectories(workdir), "home");
            Path socket = home.resolve("artuditu.sock");
            File log = home.resolve("server.log").toFile();
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("ARTUDITU_HOME", home.toString());
            long wall0 = System.currentTimeMillis();
            long t0 = System.nanoTime();
            Process p = pb.start();
            child = p;
            try {
                pollPing(UhpClient.of(socket), p, t0);
                ready[r] = System.nanoTime() - t0;
                // CPU the server burnt to get here, all threads: less sensitive to a busy machine.
                cpu[r] = p.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
                listening[r] = listeningAt(log.toPath()) - wall0;
                long s0 = System.nanoTime();
                call(UhpClient.of(socket), STOP);
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    throw new IOException("server did not exit within 15 s of server.stop");
                }
                stop[r] = System.nanoTime() - s0;
            } finally {
                destroy(p);
            }
            System.err.printf(Locale.ROOT, "coldstart run %d: ready %.1f ms (cpu %.0f ms), log 'listening on' at %d ms,"
                    + " stop %.1f ms%n", r + 1, ready[r] / 1e6, cpu[r] / 1e6, listening[r], stop[r] / 1e6);
        }
        Arrays.sort(ready);
        Arrays.sort(listening);
        Arrays.sort(stop);
        Arrays.sort(cpu);
        System.out.printf(Locale.ROOT, "coldstart runs=%d median_ms=%.1f min_ms=%.1f max_ms=%.1f listening_median_ms=%d"
                + " cpu_median_ms=%.1f stop_median_ms=%.1f%n", runs, median(ready) / 1e6, ready[0] / 1e6,
                ready[runs - 1] / 1e6, median(listening), median(cpu) / 1e6, median(stop) / 1e6);
    }

    /** Poll-connects until a ping is answered; gives up when the process dies or 30 s pass. */
    private void pollPing(UhpClient server, Process p, long t0) throws IOException {
        while (System.nanoTime() - t0 < DEADLINE_NANOS) {
            if (!p.isAlive()) {
                throw new IOException("server exited with status " + p.exitValue() + " before answering");
            }
            if (Files.exists(server.socket())) {
                try {
                    requirePong(call(server, PING));
                    return;
                } catch (IOException notYet) {
                    // bound but not serving, or not bound yet: poll again
                }
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        throw new IOException("no pong within 30 s");
    }

    /** Wall-clock milliseconds of the server log's "listening on" line, or -1. */
    private static long listeningAt(Path log) throws IOException {
        for (String line : Files.readAllLines(log)) {
            if (line.contains("listening on") && line.length() > 23) {
                return LocalDateTime.parse(line.substring(0, 23), LOG_TIME).atZone(ZoneId.systemDefault())
                        .toInstant().toEpochMilli();
            }
        }
        return -1;
    }

    // ---- tmux cold start, for comparison ----

    private void tmuxColdStart(int runs, Path workdir) throws Exception {
        long[] ready = new long[runs];
        for (int r = 0; r < runs; r++) {
            Path dir = Files.createTempDirectory(Files.createDirectories(workdir), "tmux");
            String sock = dir.resolve("tmux.sock").toString();
            long t0 = System.nanoTime();
            try {
                run("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d");
                while (run("tmux", "-S", sock, "has-session") != 0) {
                    if (System.nanoTime() - t0 > DEADLINE_NANOS) {
                        throw new IOException("tmux has-session failed for 30 s");
                    }
                    LockSupport.parkNanos(POLL_NANOS);
                }
                ready[r] = System.nanoTime() - t0;
            } finally {
                run("tmux", "-S", sock, "kill-server");
            }
            System.err.printf(Locale.ROOT, "tmux coldstart run %d: ready %.1f ms%n", r + 1, ready[r] / 1e6);
        }
        Arrays.sort(ready);
        System.out.printf(Locale.ROOT, "tmux-coldstart runs=%d median_ms=%.1f min_ms=%.1f max_ms=%.1f%n", runs,
                median(ready) / 1e6, ready[0] / 1e6, ready[runs - 1] / 1e6);
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        child = p;
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException(String.join(" ", command) + " did not finish within 10 s");
            }
            return p.exitValue();
        } finally {
            destroy(p);
        }
    }

    // ---- helpers ----

    private static void destroy(Process p) throws InterruptedException {
        if (p.isAlive()) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /** Nearest-rank percentile of sorted values. */
    private static long pct(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static long median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private ServerBench() {
    }
}
