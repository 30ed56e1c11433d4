package io.artuditu.pty.internal;

import com.pty4j.PtyProcess;
import com.pty4j.WinSize;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One child on one PTY, with two threads: {@code pty-read-<id>} reads the master into a
 * fixed {@value #CHUNK}-byte buffer and hands each chunk to the listener before reading on
 * (so memory per PTY is that buffer, however fast the child writes); {@code pty-wait-<id>}
 * waits for the exit, lets the reader drain, then completes {@link #exit()}.
 */
final class UnixPty implements Pty {
    private static final System.Logger LOG = System.getLogger(UnixPty.class.getName());
    static final int CHUNK = 16 * 1024;
    static final int SIGHUP = 1;
    static final int SIGKILL = 9;
    /** How long the exit waits for the reader after the child is gone. */
    static final long DRAIN_MILLIS = 1000;

    private final String id;
    private final PtyProcess process;
    private final PtyListener listener;
    private final OutputStream input;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final Thread reader;
    private final Thread waiter;
    private volatile int cols;
    private volatile int rows;

    UnixPty(String id, PtyProcess process, PtyListener listener, int cols, int rows) {
        this.id = id;
        this.process = process;
        this.listener = listener;
        this.input = process.getOutputStream();
        this.cols = cols;
        this.rows = rows;
        this.reader = new Thread(this::readLoop, "pty-read-" + id);
        this.waiter = new Thread(this::waitLoop, "pty-wait-" + id);
        reader.setDaemon(true);
        waiter.setDaemon(true);
    }

    void start() {
        reader.start();
        waiter.start();
    }

    private void readLoop() {
        byte[] buf = new byte[CHUNK];
        boolean listening = true;
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (n == 0 || !listening) {
                    continue;
                }
                try {
                    listener.output(buf, 0, n);
                } catch (RuntimeException e) {
                    // Keep draining so the child never blocks on a full PTY; drop the listener.
                    LOG.log(Level.WARNING, "PTY " + id + ": listener failed, output is discarded from now on", e);
                    listening = false;
                }
            }
        } catch (IOException e) {
            // Linux reports EIO on the master once the last slave holder is gone: end of output.
            LOG.log(Level.DEBUG, "PTY " + id + ": read ended: " + e.getMessage());
        } finally {
            try {
                listener.closed();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "PTY " + id + ": listener failed on close", e);
            }
        }
    }

    private void waitLoop() {
        try {
            int status = process.waitFor();
            reader.join(DRAIN_MILLIS);
            exit.complete(status);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit.completeExceptionally(e);
        } catch (RuntimeException e) {
            exit.completeExceptionally(e);
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
        synchronized (input) {
            input.write(buf, off, len);
            input.flush();
        }
    }

    @Override
    public void resize(int cols, int rows) {
        SpawnRequest.checkSize(cols, rows);
        synchronized (this) {
            process.setWinSize(new WinSize(cols, rows));
            this.cols = cols;
            this.rows = rows;
        }
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public void signal(int signal) {
        if (signal < 1 || signal > 64) {
            throw new IllegalArgumentException("no such signal: " + signal);
        }
        if (process.isAlive()) {
            LibC.Holder.INSTANCE.kill((int) process.pid(), signal);
        }
    }

    @Override
    public void terminate(long graceMillis) {
        if (!process.isAlive()) {
            return;
        }
        signal(SIGHUP);
        CompletableFuture.delayedExecutor(Math.max(0, graceMillis), TimeUnit.MILLISECONDS).execute(() -> {
            if (process.isAlive()) {
                signal(SIGKILL);
            }
        });
    }

    /** A copy: a caller completing or cancelling it must not change what others see. */
    @Override
    public CompletableFuture<Integer> exit() {
        return exit.copy();
    }

    CompletableFuture<Integer> exitInternal() {
        return exit;
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public String toString() {
        return "Pty[" + id + ", pid " + process.pid() + "]";
    }
}
