package io.artuditu.pty.internal;

import com.sun.jna.Memory;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyInputException;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.SpawnRequest;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * One child on one PTY. pty4j creates the PTY and forks the process ({@link Host#spawn});
 * after that this class works on the master fd itself (non-blocking, build notes item 8),
 * and pty4j's streams are never opened, so only the host's reader thread ever closes the
 * master, after its last read (no other thread can close an fd number the reader is still
 * using). pty4j's process object is not used either: it would start a second thread per
 * child just to wait for it. The reader reaps the child itself ({@code waitpid} without
 * waiting), so it is the one thread that ever waits for this pid.
 *
 * <p>Threads: the host's one {@link Reader} ({@code pty-read}) reads the master into its
 * {@value #CHUNK}-byte buffer, appends to the retained output and hands each chunk to the
 * listener before reading on, so a slow listener slows the children instead of growing a
 * queue; when the output ends it reaps the child and completes {@link #exit()}. The output
 * ends when the last holder of the slave side closes it (EIO), or, when the child exited but
 * something else still holds the slave, at the reader's next idle tick
 * ({@value #IDLE_POLL_MILLIS} ms). {@code pty-write-<id>} exists only while input is queued
 * that the PTY could not take at once (a child that is not reading).
 */
final class UnixPty implements Pty {
    private static final System.Logger LOG = System.getLogger(UnixPty.class.getName());
    static final int CHUNK = 16 * 1024;
    static final int SIGHUP = 1;
    static final int SIGKILL = 9;
    /** The reader's idle tick: how soon it notices a child gone while its terminal is still held. */
    static final int IDLE_POLL_MILLIS = 1000;

    private final String id;
    private final int master;
    private final int pid;
    private final List<String> command;
    private final Path cwd;
    private final java.util.Map<String, String> env;
    private final IntConsumer onExit;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final Reader reader;

    /** Guards {@link #ring}, {@link #listener}, {@link #outputEnded}, {@link #outputBytes}. */
    private final Object outLock = new Object();
    private final OutputRing ring = new OutputRing(RETAINED_OUTPUT);
    private PtyListener listener;
    private boolean outputEnded;
    private long outputBytes;

    /** Guards {@link #pending}, {@link #pendingBytes}, {@link #writer}. */
    private final Object inLock = new Object();
    private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    private int pendingBytes;
    private int headOffset;
    private Thread writer;
    private boolean masterClosed;

    private volatile boolean stopReading;
    // Reader thread only:
    /** False once the output ended; from then on the reader only waits to reap the child. */
    private boolean reading = true;
    /** Output arrived since the reader's last idle tick. */
    private boolean busySinceTick;
    /** When the reader next tries to reap the child (nanoTime), after the output ended. */
    private long reapAt;
    private int reapBackoffMillis;
    private boolean abandoned;
    /** Set by the reader once it reaped the child; from then on the pid may name another process. */
    private volatile boolean reaped;
    /** The reaped child's status; written by the reader before {@link #reaped}. */
    private int reapedStatus;
    private volatile Integer exitStatus;
    private volatile int cols;
    private volatile int rows;

    /**
     * @param master the PTY master this object owns from now on (it closes it)
     * @param pid the child running on its slave, which this object reaps
     */
    UnixPty(String id, int master, int pid, SpawnRequest request, PtyListener listener, Reader reader,
            IntConsumer onExit) {
        this.id = id;
        this.master = master;
        this.pid = pid;
        this.command = request.command();
        this.cwd = request.cwd();
        this.env = request.env();
        this.listener = listener;
        this.onExit = onExit;
        this.cols = request.cols();
        this.rows = request.rows();
        this.reader = reader;
    }

    void start() {
        if (!Posix.nonBlocking(master)) {
            LOG.log(Level.WARNING, "PTY " + id + ": cannot make the master non-blocking");
        }
        reader.add(this);
    }

    // --- output ---

    int master() {
        return master;
    }

    boolean reading() {
        return reading;
    }

    long reapAt() {
        return reapAt;
    }

    /**
     * Reader thread, while reading: one read when the master is ready; at an idle tick with no
     * output since the last, a check whether the child exited while something else (a
     * background grandchild) still holds the slave open, in which case what is left is read
     * and the output ends. True once the child is reaped and {@link #exit()} completed.
     */
    boolean onReady(boolean ready, boolean tick, byte[] buf) {
        if (ready) {
            int n = Posix.read(master, buf, buf.length);
            if (n > 0) {
                deliver(buf, n);
                flushInput();
                busySinceTick = true;
                return false;
            }
            if (n == 0 || n == -Posix.EIO) {
                return outputEnded(); // EIO: the last holder of the slave side is gone
            }
            if (n != -Posix.EAGAIN && n != -Posix.EINTR) {
                LOG.log(Level.WARNING, "PTY " + id + ": read failed, errno " + -n);
                return outputEnded();
            }
        }
        if (tick) {
            boolean idle = !busySinceTick;
            busySinceTick = false;
            if (idle && reap()) {
                stopReading = true;
                for (int i = 0, n; i < DRAIN_CHUNKS && (n = Posix.read(master, buf, buf.length)) > 0; i++) {
                    deliver(buf, n);
                }
                return outputEnded();
            }
        }
        return false;
    }

    /** Chunks read after the child was found gone with its terminal still held: at most 1 MiB. */
    private static final int DRAIN_CHUNKS = 64;

    private boolean outputEnded() {
        reading = false;
        endOutput();
        reapBackoffMillis = 1;
        return tryReap(System.nanoTime());
    }

    /**
     * Reader thread, after the output ended: reaps the child if it has exited, then closes the
     * master and completes {@link #exit()}; else tries again later (1 ms, doubling, at most
     * {@value Reader#MAX_REAP_BACKOFF_MILLIS} ms). Closing the master only once the child is
     * gone matters: a child that closed its terminal (coreutils close stdin, stdout and stderr
     * before exiting) would otherwise be hung up (SIGHUP) in the moment before it exits, and
     * report 129.
     */
    boolean tryReap(long now) {
        if (!reap()) {
            reapAt = now + reapBackoffMillis * 1_000_000L;
            reapBackoffMillis = Math.min(Reader.MAX_REAP_BACKOFF_MILLIS, reapBackoffMillis * 2);
            return false;
        }
        closeMaster();
        finish(reapedStatus);
        return true;
    }

    /**
     * The reader thread as it stops, or the spawning thread when the reader had stopped before
     * this PTY reached it: the output ends, the master closes, {@link #exit()} completes.
     */
    void abandon() {
        if (abandoned || exit.isDone()) {
            return;
        }
        abandoned = true;
        if (reading) {
            reading = false;
            endOutput();
        }
        closeMaster();
        finish(reap() ? reapedStatus : -1);
    }

    private void deliver(byte[] buf, int n) {
        synchronized (outLock) {
            ring.append(buf, 0, n);
            outputBytes += n;
            PtyListener l = listener;
            if (l != null) {
                try {
                    l.output(buf, 0, n);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "PTY " + id + ": listener failed and is detached", e);
                    listener = null;
                }
            }
        }
    }

    private void endOutput() {
        PtyListener l;
        synchronized (outLock) {
            outputEnded = true;
            l = listener;
        }
        if (l != null) {
            try {
                l.closed();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "PTY " + id + ": listener failed on close", e);
            }
        }
    }

    /** Under the input lock, so no write can use the fd number while or after it is closed. */
    private void closeMaster() {
        synchronized (inLock) {
            masterClosed = true;
            pending.clear();
            pendingBytes = 0;
            int err = Posix.closeFd(master);
            if (err != 0) {
                LOG.log(Level.DEBUG, "PTY " + id + ": close: errno " + -err);
            }
        }
    }

    @Override
    public void listen(PtyListener l) {
        boolean ended;
        synchronized (outLock) {
            listener = l;
            if (l != null) {
                byte[] replay = ring.toArray();
                if (replay.length > 0) {
                    l.output(replay, 0, replay.length);
                }
            }
            ended = outputEnded;
        }
        if (ended && l != null) {
            l.closed();
        }
    }

    @Override
    public long outputBytes() {
        synchronized (outLock) {
            return outputBytes;
        }
    }


    // --- input ---

    @Override
    public void write(byte[] buf, int off, int len) throws PtyInputException {
        if (len == 0) {
            return;
        }
        synchronized (inLock) {
            if (masterClosed || exitStatus != null || stopReading) {
                throw new PtyInputException(PtyInputException.Reason.EXITED, pendingBytes, "the process has exited");
            }
            if (pendingBytes + (long) len > MAX_PENDING_INPUT) {
                throw new PtyInputException(PtyInputException.Reason.BACKLOG, pendingBytes,
                        "the process is not reading its input: " + pendingBytes + " bytes already wait (limit "
                                + MAX_PENDING_INPUT + ")");
            }
            if (pending.isEmpty()) {
                int w = Posix.write(master, buf, off, len);
                if (w == len) {
                    return;
                }
                if (w > 0) {
                    off += w;
                    len -= w;
                }
            }
            byte[] copy = java.util.Arrays.copyOfRange(buf, off, off + len);
            pending.add(copy);
            pendingBytes += len;
            if (writer == null) {
                writer = new Thread(this::writeLoop, "pty-write-" + id);
                writer.setDaemon(true);
                writer.start();
            }
        }
    }

    /** Writes what the PTY takes now without waiting; true when the queue is empty. */
    private boolean flushInput() {
        synchronized (inLock) {
            while (!pending.isEmpty() && !masterClosed) {
                byte[] head = pending.peek();
                int w = Posix.write(master, head, headOffset, head.length - headOffset);
                if (w <= 0) {
                    return false;
                }
                headOffset += w;
                pendingBytes -= w;
                if (headOffset == head.length) {
                    pending.poll();
                    headOffset = 0;
                }
            }
            return pending.isEmpty();
        }
    }

    private void writeLoop() {
        Memory pfd = Posix.pollFd(master);
        while (true) {
            synchronized (inLock) {
                if (flushInput() || masterClosed || stopReading || exit.isDone()) {
                    writer = null;
                    return;
                }
            }
            Posix.poll(pfd, Posix.POLLOUT, 100);
        }
    }

    @Override
    public int pendingInput() {
        synchronized (inLock) {
            return pendingBytes;
        }
    }

    // --- lifetime ---

    /**
     * Reader thread only: collects the child's status if it has exited, without waiting; true
     * once it is reaped. A status that cannot be had is -1.
     */
    private boolean reap() {
        if (reaped) {
            return true;
        }
        int s = Posix.waitpid(pid, false);
        if (s == Posix.RUNNING) {
            return false;
        }
        if (s < 0 && s > -4096) { // -errno
            LOG.log(Level.WARNING, "PTY " + id + ": waitpid " + pid + " failed, errno " + -s);
            s = -1;
        }
        reapedStatus = s;
        reaped = true;
        return true;
    }

    private void finish(int status) {
        exitStatus = status;
        onExit.accept(status); // the host forgets the PTY before anyone waiting on exit() wakes
        exit.complete(status);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public List<String> command() {
        return command;
    }

    @Override
    public Path cwd() {
        return cwd;
    }

    @Override
    public java.util.Map<String, String> env() {
        return env;
    }

    @Override
    public void resize(int cols, int rows) {
        SpawnRequest.checkSize(cols, rows);
        synchronized (inLock) {
            if (!masterClosed) {
                int err = Posix.windowSize(master, cols, rows);
                if (err != 0) {
                    LOG.log(Level.DEBUG, "PTY " + id + ": resize: errno " + -err);
                }
            }
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
        if (!reaped) { // a zombie still holds its pid; a reaped child's pid may be reused
            Posix.kill(pid, signal);
        }
    }

    @Override
    public void terminate(long graceMillis) {
        if (reaped) {
            return;
        }
        signal(SIGHUP);
        CompletableFuture.delayedExecutor(Math.max(0, graceMillis), TimeUnit.MILLISECONDS).execute(() -> {
            if (!reaped) {
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
    public OptionalInt exitStatus() {
        Integer s = exitStatus;
        return s == null ? OptionalInt.empty() : OptionalInt.of(s);
    }

    @Override
    public boolean isAlive() {
        return exitStatus == null;
    }

    @Override
    public String toString() {
        return "Pty[" + id + ", pid " + pid + "]";
    }
}
