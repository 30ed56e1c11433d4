package io.artuditu.modules.internal;

import io.artuditu.sdk.ActionEvent;
import io.artuditu.sdk.ActionHandler;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs module actions: at most {@link #CONCURRENT} at once and {@link #QUEUED} waiting
 * (more are refused), each bounded in time (killed with its descendants past its timeout)
 * and in output (the last {@link #KEEP_BYTES} bytes kept, the rest counted and dropped).
 */
final class ActionRunner {
    static final int CONCURRENT = 4;
    static final int QUEUED = 64;
    static final int KEEP_BYTES = 64 * 1024;
    /** How long the output reader may outlive the process (a grandchild holding the pipe). */
    static final long DRAIN_MS = 1_000;

    /** How a run ended. */
    record Result(Integer exitCode, long durationMs, String output, long outputBytes, boolean truncated,
            boolean timedOut, String error) {
    }

    private final AtomicInteger threads = new AtomicInteger();
    private final ThreadPoolExecutor pool;

    ActionRunner() {
        pool = new ThreadPoolExecutor(CONCURRENT, CONCURRENT, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
                r -> {
                    Thread t = new Thread(r, "module-action-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    /** Runs {@code body} on the pool; refused with {@code invalid_request} when the queue is full. */
    CompletableFuture<Result> submit(java.util.function.Supplier<Result> body) {
        try {
            return CompletableFuture.supplyAsync(body, pool);
        } catch (RejectedExecutionException e) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "too many module actions are running or queued (at most "
                    + CONCURRENT + " running and " + QUEUED + " queued); try again", Map.of("limit", QUEUED));
        }
    }

    /** A script action, on the calling (pool) thread. */
    Result runScript(ModuleRecord m, Manifest.Action a, Path folder, Map<String, String> env) {
        long t0 = System.nanoTime();
        List<String> cmd = new ArrayList<>();
        cmd.add(a.run().toString());
        cmd.addAll(a.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(folder.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("ARTUDITU_"));
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Result(null, ms(t0), "", 0, false, false, "cannot start " + a.run() + ": " + e.getMessage());
        }
        m.running.add(p);
        Tail tail = new Tail(p.getInputStream());
        Thread reader = new Thread(tail, "module-action-out-" + m.id);
        reader.setDaemon(true);
        reader.start();
        boolean timedOut = false;
        try {
            if (!p.waitFor(a.timeoutMs(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                kill(p);
                p.waitFor(DRAIN_MS, TimeUnit.MILLISECONDS);
            }
            reader.join(DRAIN_MS);
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
        } finally {
            m.running.remove(p);
        }
        if (reader.isAlive()) {
            tail.close();
        }
        Integer code = p.isAlive() ? null : p.exitValue();
        return new Result(timedOut ? null : code, ms(t0), tail.text(), tail.total, tail.total > KEEP_BYTES, timedOut, null);
    }

    /** A Java action: on the module's own scheduler, waited for at most its timeout. */
    Result runJava(ContextComponent ctx, ActionHandler h, ActionEvent event, int timeoutMs) {
        long t0 = System.nanoTime();
        Future<?> f;
        try {
            f = ctx.scheduler().submit(() -> {
                h.run(event);
                return null;
            });
        } catch (RuntimeException e) {
            return new Result(null, ms(t0), "", 0, false, false, "the module is going away: " + e.getMessage());
        }
        try {
            f.get(timeoutMs, TimeUnit.MILLISECONDS);
            return new Result(0, ms(t0), "", 0, false, false, null);
        } catch (TimeoutException e) {
            f.cancel(true);
            return new Result(null, ms(t0), "", 0, false, true, null);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            return new Result(1, ms(t0), "", 0, false, false, c.getClass().getSimpleName() + ": " + c.getMessage());
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            return new Result(null, ms(t0), "", 0, false, false, "interrupted");
        } catch (RuntimeException e) {
            return new Result(null, ms(t0), "", 0, false, false, e.toString());
        }
    }

    /** The process and everything it started, at once. */
    static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long ms(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** Reads a stream to its end keeping only the last {@link #KEEP_BYTES}. */
    private static final class Tail implements Runnable {
        private final InputStream in;
        private final byte[] ring = new byte[KEEP_BYTES];
        private volatile long total;

        Tail(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0;) {
                    synchronized (this) {
                        for (int i = 0; i < n; i++) {
                            ring[(int) ((total + i) % KEEP_BYTES)] = buf[i];
                        }
                        total += n;
                    }
                }
            } catch (IOException closed) {
                // the process went away or we closed the pipe
            }
        }

        void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing more to read either way
            }
        }

        synchronized String text() {
            int len = (int) Math.min(total, KEEP_BYTES);
            byte[] out = new byte[len];
            long start = total - len;
            for (int i = 0; i < len; i++) {
                out[i] = ring[(int) ((start + i) % KEEP_BYTES)];
            }
            return new String(out, StandardCharsets.UTF_8);
        }
    }
}
