package io.artuditu.bench;

import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Event-bus measurements against a running Artuditu server that has the example module
 * ({@code example.publish}) installed, for {@code bench/run.sh --events}. The JDK and the
 * UHP client only, like {@link ServerBench}. Publishers and subscribers live in this one
 * process, so the {@code System.nanoTime()} a publisher puts into the event's data can be
 * compared with the subscriber's clock when the line arrives. Each mode prints one
 * {@code key=value} line.
 *
 * <pre>
 * install SOCKET JAR                                          server.bundle.install JAR
 * fanout SOCKET RATE SECONDS SUBSCRIBERS PUBLISHERS [slow]    RATE 0 = as fast as possible
 * wait SOCKET WARMUP ITERATIONS                               events.wait wake-up latency
 * </pre>
 */
public final class EventBench {
    private static final String FANOUT = "bench.fanout";
    private static final String WAKE = "bench.wake";
    private static final String RESYNC = "{\"event\":\"events.resync_required\"";

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            usage();
        }
        UhpClient socket = UhpClient.of(Path.of(args[1]));
        switch (args[0]) {
            case "install": {
                String reply = call(socket, "{\"id\":\"i\",\"method\":\"server.bundle.install\",\"params\":{\"path\":\""
                        + Path.of(args[2]).toAbsolutePath() + "\"}}");
                if (!reply.contains("\"bundle_installed\"") && !reply.contains("already")) {
                    throw new IOException("install failed: " + reply);
                }
                System.out.println("install ok");
                break;
            }
            case "fanout":
                if (args.length < 6) {
                    usage();
                }
                fanout(socket, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                        Integer.parseInt(args[5]), args.length > 6 && args[6].equals("slow"));
                break;
            case "wait":
                if (args.length < 4) {
                    usage();
                }
                waitLatency(socket, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                break;
            default:
                usage();
        }
    }

    private static void usage() {
        System.err.println("usage: EventBench install SOCKET JAR\n"
                + "       EventBench fanout SOCKET RATE SECONDS SUBSCRIBERS PUBLISHERS [slow]\n"
                + "       EventBench wait SOCKET WARMUP ITERATIONS");
        System.exit(2);
    }

    // ---- fan-out ----

    /** One subscriber: its own connection and reader thread. */
    private static final class Subscriber extends Thread {
        final UhpConnection ch;
        final long[] latency;
        volatile int received;     // measured events
        volatile int warm;         // warm-up events
        volatile boolean resync;   // got events.resync_required
        volatile boolean closed;   // the server ended the stream
        volatile int disorder;     // sequences not strictly increasing

        Subscriber(UhpClient socket, int capacity) throws IOException {
            super("subscriber");
            setDaemon(true);
            ch = socket.connect();
            latency = new long[capacity];
            String ack = subscribe(ch);
            if (!ack.contains("\"events_subscribed\"")) {
                throw new IOException("subscribe failed: " + ack);
            }
        }

        @Override
        public void run() {
            try {
                long lastSeq = 0;
                String line;
                while ((line = ch.readLine()) != null) {
                    long now = System.nanoTime();
                    if (line.startsWith(RESYNC)) {
                        resync = true;
                        continue;
                    }
                    long seq = longField(line, "\"sequence\":");
                    if (seq <= lastSeq) {
                        disorder++;
                    }
                    lastSeq = seq;
                    if (line.contains("\"w\":1")) {
                        warm++;
                        continue;
                    }
                    int n = received;
                    if (n < latency.length) {
                        latency[n] = now - longField(line, "\"t\":");
                    }
                    received = n + 1;
                }
            } catch (IOException e) {
                // closed by us at the end, or by the server
            }
            closed = true;
        }
    }

    private static String subscribe(UhpConnection ch) throws IOException {
        ch.send("{\"id\":\"s\",\"method\":\"events.subscribe\",\"params\":{\"events\":[\"" + FANOUT + "\"]}}");
        return readLine(ch); // the event lines after it stay in the connection's buffer for the reader
    }

    private static void fanout(UhpClient socket, int rate, int seconds, int subscribers,
            int publishers, boolean slow) throws Exception {
        int total = rate > 0 ? rate * seconds : 0;
        int capacity = rate > 0 ? total : 2_000_000;
        long cut0 = statsField(socket, "\"subscribers_cut\":");
        List<Subscriber> subs = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Subscriber s = new Subscriber(socket, capacity);
            subs.add(s);
            s.start();
        }
        // Warm-up: 2 s at the target rate (or 5,000 events as fast as possible), not counted.
        int warmCount = rate > 0 ? Math.min(rate * 2, 20_000) : 5_000;
        publishPhase(socket, rate, warmCount, 0, publishers, true);
        UhpConnection slowCh = null;
        if (slow) {
            // Subscribes after the warm-up, so it is cut during the measured phase, and never reads.
            slowCh = socket.connect();
            slowCh.send("{\"id\":\"slow\",\"method\":\"events.subscribe\",\"params\":{\"events\":[\"" + FANOUT
                    + "\"]}}");
        }

        // The measured phase.
        long[] phase = publishPhase(socket, rate, total, rate > 0 ? 0 : TimeUnit.SECONDS.toNanos(seconds),
                publishers, false);
        long published = phase[0];
        long errors = phase[1];
        long elapsed = phase[2];
        long[] rtt = Arrays.copyOfRange(phase, 3, 3 + (int) published);

        // Let delivery finish (or a subscriber be cut).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            boolean done = true;
            for (Subscriber s : subs) {
                done &= s.received >= published || s.closed;
            }
            if (done) {
                break;
            }
            LockSupport.parkNanos(1_000_000);
        }
        long cut = statsField(socket, "\"subscribers_cut\":") - cut0;

        int slowEvents = -1;
        boolean slowResync = false;
        boolean slowClosed = false;
        if (slowCh != null) {
            // Only now read what the slow subscriber was sent: the buffered events, then (if it
            // was cut and the server still got the line out) events.resync_required, then EOF.
            UhpConnection ch = slowCh;
            int[] count = new int[1];
            boolean[] flags = new boolean[2]; // resync line seen, EOF reached
            Thread reader = new Thread(() -> {
                try {
                    String line;
                    while ((line = ch.readLine()) != null) {
                        if (line.startsWith(RESYNC)) {
                            flags[0] = true;
                        } else if (line.startsWith("{\"event\"")) {
                            count[0]++;
                        }
                    }
                    flags[1] = true;
                } catch (IOException e) {
                    // we closed it: the server had not ended the stream within 5 s
                }
            }, "slow-reader");
            reader.start();
            reader.join(5_000);
            slowCh.close();
            reader.join();
            slowEvents = count[0];
            slowResync = flags[0];
            slowClosed = flags[1];
            slowCh.close();
        }
        for (Subscriber s : subs) {
            s.ch.close();
        }
        for (Subscriber s : subs) {
            s.join(2_000);
        }

        long minDelivered = Long.MAX_VALUE;
        long maxDelivered = 0;
        long lost = 0;
        int resyncs = 0;
        int disorder = 0;
        int n = 0;
        for (Subscriber s : subs) {
            minDelivered = Math.min(minDelivered, s.received);
            maxDelivered = Math.max(maxDelivered, s.received);
            lost += Math.max(0, published - s.received);
            resyncs += s.resync ? 1 : 0;
            disorder += s.disorder;
            n += Math.min(s.received, s.latency.length);
        }
        long[] all = new long[n];
        int k = 0;
        for (Subscriber s : subs) {
            int m = Math.min(s.received, s.latency.length);
            System.arraycopy(s.latency, 0, all, k, m);
            k += m;
        }
        Arrays.sort(all);
        Arrays.sort(rtt);
        double achieved = published / (elapsed / 1e9);
        System.out.printf(Locale.ROOT, "fanout subscribers=%d publishers=%d target_rate=%d seconds=%d published=%d"
                + " publish_errors=%d achieved_rate=%.0f sustained=%s delivered_min=%d delivered_max=%d lost=%d"
                + " resync=%d disorder=%d cut=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f"
                + " publish_p50_us=%.1f publish_p99_us=%.1f slow=%s slow_events=%d slow_resync_line=%s"
                + " slow_closed=%s%n",
                subscribers, publishers, rate, seconds, published, errors, achieved,
                rate > 0 ? (achieved >= 0.98 * rate ? "yes" : "no") : "n/a", minDelivered, maxDelivered, lost,
                resyncs, disorder, cut, pct(all, 50) / 1e3, pct(all, 90) / 1e3, pct(all, 99) / 1e3,
                all.length == 0 ? 0 : all[all.length - 1] / 1e3, pct(rtt, 50) / 1e3, pct(rtt, 99) / 1e3,
                slow, slowEvents, slowResync, slowClosed);
    }

    /**
     * Publishes {@code count} events (or, when {@code count} is 0, as many as fit in
     * {@code duration}) from {@code threads} threads, each publish a request on a fresh
     * connection. With a rate, event k is due at start + k/rate; a thread that is behind
     * schedule publishes at once, so the achieved rate shows whether the rate was sustained.
     * Returns {published, errors, elapsed ns, round trip ns...}.
     */
    private static long[] publishPhase(UhpClient socket, int rate, int count, long duration,
            int threads, boolean warm) throws InterruptedException {
        int cap = count > 0 ? count : 2_000_000;
        long[] rtt = new long[cap];
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong done = new AtomicLong();
        double interval = rate > 0 ? 1e9 / rate : 0;
        long start = System.nanoTime() + 5_000_000;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                while (true) {
                    long i = next.getAndIncrement();
                    if (i >= cap || (count > 0 && i >= count)) {
                        return;
                    }
                    long due = start + (long) (i * interval);
                    long now = System.nanoTime();
                    if (count == 0 && now - start >= duration) {
                        return;
                    }
                    if (due > now) {
                        LockSupport.parkNanos(due - now);
                    }
                    try {
                        long t0 = System.nanoTime();
                        String reply = call(socket, "{\"id\":\"p\",\"method\":\"example.publish\",\"params\":{\"event\":\""
                                + FANOUT + "\",\"data\":{\"t\":" + t0 + ",\"i\":" + i + (warm ? ",\"w\":1" : "")
                                + "}}}");
                        rtt[(int) i] = System.nanoTime() - t0;
                        if (!reply.contains("\"published\"")) {
                            errors.incrementAndGet();
                        } else {
                            done.incrementAndGet();
                        }
                    } catch (IOException e) {
                        errors.incrementAndGet();
                    }
                }
            }, "publisher-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long elapsed = System.nanoTime() - start;
        long published = done.get();
        long[] out = new long[3 + (int) published];
        out[0] = published;
        out[1] = errors.get();
        out[2] = elapsed;
        int k = 3;
        for (int i = 0; i < cap && k < out.length; i++) {
            if (rtt[i] > 0) {
                out[k++] = rtt[i];
            }
        }
        return out;
    }

    // ---- events.wait wake-up ----

    private static void waitLatency(UhpClient socket, int warmup, int iterations) throws Exception {
        SynchronousQueue<Integer> go = new SynchronousQueue<>();
        SynchronousQueue<long[]> sent = new SynchronousQueue<>();
        Thread publisher = new Thread(() -> {
            try {
                while (true) {
                    int n = go.take();
                    if (n < 0) {
                        return;
                    }
                    long t0 = System.nanoTime();
                    String reply = call(socket, "{\"id\":\"p\",\"method\":\"example.publish\",\"params\":{\"event\":\""
                            + WAKE + "\",\"data\":{\"n\":" + n + "}}}");
                    long t1 = System.nanoTime();
                    sent.put(new long[] {t0, t1 - t0, reply.contains("\"published\"") ? 1 : 0});
                }
            } catch (InterruptedException | IOException e) {
                throw new IllegalStateException(e);
            }
        }, "wake-publisher");
        publisher.setDaemon(true);
        publisher.start();
        long[] wake = new long[iterations];
        long[] rtt = new long[iterations];
        int errors = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            try (UhpConnection w = socket.connect()) {
                w.send("{\"id\":\"w\",\"method\":\"events.wait\",\"params\":{\"event\":\"" + WAKE
                        + "\",\"where\":{\"n\":" + i + "},\"timeout_s\":30}}");
                // The waiter has no ack: wait until the server counts it, then publish.
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (statsField(socket, "\"waiters\":") < 1) {
                    if (System.nanoTime() > until) {
                        throw new IOException("the waiter never showed up in uhp.stats");
                    }
                    LockSupport.parkNanos(50_000);
                }
                go.put(i);
                String reply = readLine(w);
                long arrived = System.nanoTime();
                long[] p = sent.take();
                if (!reply.contains("\"matched\":true") || !reply.contains("\"n\":" + i + "}") || p[2] != 1) {
                    errors++;
                }
                if (i >= warmup) {
                    wake[i - warmup] = arrived - p[0];
                    rtt[i - warmup] = p[1];
                }
            }
        }
        go.put(-1);
        Arrays.sort(wake);
        Arrays.sort(rtt);
        System.out.printf(Locale.ROOT, "wait iterations=%d warmup=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f"
                + " publish_p50_us=%.1f publish_p99_us=%.1f errors=%d%n", iterations, warmup, pct(wake, 50) / 1e3,
                pct(wake, 90) / 1e3, pct(wake, 99) / 1e3, wake[iterations - 1] / 1e3, pct(rtt, 50) / 1e3,
                pct(rtt, 99) / 1e3, errors);
    }

    // ---- helpers ----

    /** One request line on a fresh connection; its reply line. */
    static String call(UhpClient socket, String request) throws IOException {
        return socket.exchange(request);
    }

    /** The next line of an open connection; the server closing it first is an error. */
    private static String readLine(UhpConnection ch) throws IOException {
        String line = ch.readLine();
        if (line == null) {
            throw new IOException("connection closed before a reply line");
        }
        return line;
    }

    private static long statsField(UhpClient socket, String key) throws IOException {
        String reply = call(socket, "{\"id\":\"st\",\"method\":\"uhp.stats\",\"params\":{}}");
        long v = longField(reply, key);
        if (v < 0) {
            throw new IOException("no " + key + " in " + reply);
        }
        return v;
    }

    /** The non-negative integer after {@code key} in {@code s}, or -1. */
    private static long longField(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) {
            return -1;
        }
        i += key.length();
        long v = 0;
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            v = v * 10 + (s.charAt(i++) - '0');
        }
        return i == start ? -1 : v;
    }

    /** Nearest-rank percentile of sorted values. */
    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private EventBench() {
    }
}
