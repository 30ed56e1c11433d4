package io.artuditu.pty.internal;

import com.sun.jna.Memory;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The one thread, {@code pty-read}, that reads every PTY master of a host: a {@code poll(2)}
 * over all the masters and a wake-up pipe, then one {@value UnixPty#CHUNK}-byte read from each
 * ready master in turn (so one flooding pane cannot starve the others), handed to that PTY's
 * listener before the next. A thread per PTY cost each pane its own stack: the JVM touches
 * about 100 KiB of a thread's stack before its first native call (the stack banging of its
 * shadow zone), most of a pane's memory.
 *
 * <p>Besides readiness the loop keeps two kinds of time: every {@value UnixPty#IDLE_POLL_MILLIS}
 * ms each PTY that printed nothing in that time checks whether its child exited while
 * something else still holds the slave open; and a PTY whose output has ended but whose child
 * has not been reaped yet is asked again after 1 ms, then twice as long each time, up to
 * {@value #MAX_REAP_BACKOFF_MILLIS} ms, so an exit is reported about as soon as it happens
 * without a thread waiting in {@code waitpid}.
 *
 * <p>Bounds: the PTYs it reads are the host's live ones (at most what the host spawns); the
 * queue of PTYs added since the last round is drained every round.
 */
final class Reader implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Reader.class.getName());
    static final String THREAD = "pty-read";
    static final int MAX_REAP_BACKOFF_MILLIS = 64;
    private static final int POLLFD_BYTES = 8;

    private final ConcurrentLinkedQueue<UnixPty> added = new ConcurrentLinkedQueue<>();
    private final int wakeRead;
    private final int wakeWrite;
    private final Thread thread;
    private volatile boolean closing;
    /** Set once the pipe is closed, under {@code this}: no write may reach a reused fd number. */
    private boolean pipeClosed;

    Reader() {
        int[] fds = Posix.pipe();
        wakeRead = fds[0];
        wakeWrite = fds[1];
        thread = new Thread(this::loop, THREAD);
        thread.setDaemon(true);
        thread.start();
    }

    /** From now on the thread reads {@code pty}'s master, until its output ends and it is reaped. */
    void add(UnixPty pty) {
        added.add(pty);
        wake();
        if (closing && added.remove(pty)) {
            pty.abandon(); // lost a race with close(): nothing will read it, so it ends here
        }
    }

    private synchronized void wake() {
        if (!pipeClosed) {
            Posix.write(wakeWrite, WAKE, 0, 1); // EAGAIN: a wake-up is pending already
        }
    }

    private static final byte[] WAKE = {1};

    /** Stops the thread (after the host's children are gone); waits up to 2 s for it. */
    @Override
    public void close() {
        closing = true;
        wake();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            synchronized (this) {
                pipeClosed = true;
                Posix.closeFd(wakeRead);
                Posix.closeFd(wakeWrite);
            }
        }
    }

    boolean alive() {
        return thread.isAlive();
    }

    private void loop() {
        byte[] buf = new byte[UnixPty.CHUNK];
        byte[] drain = new byte[64];
        List<UnixPty> live = new ArrayList<>();
        Memory fds = new Memory(POLLFD_BYTES * 16L);
        long nextTick = System.nanoTime() + UnixPty.IDLE_POLL_MILLIS * 1_000_000L;
        try {
            while (true) {
                for (UnixPty p; (p = added.poll()) != null; ) {
                    live.add(p);
                }
                if (closing) {
                    return; // the finally block ends what is still read
                }
                int n = live.size() + 1;
                if (fds.size() < (long) POLLFD_BYTES * n) {
                    fds = new Memory((long) POLLFD_BYTES * Math.max(n, 2 * (int) (fds.size() / POLLFD_BYTES)));
                }
                long now = System.nanoTime();
                long timeout = Math.max(0, (nextTick - now) / 1_000_000L);
                set(fds, 0, wakeRead);
                for (int i = 0; i < live.size(); i++) {
                    UnixPty p = live.get(i);
                    set(fds, i + 1, p.reading() ? p.master() : -1); // a negative fd is skipped by poll
                    if (!p.reading()) {
                        timeout = Math.min(timeout, Math.max(0, (p.reapAt() - now) / 1_000_000L));
                    }
                }
                int r = Posix.poll(fds, n, (int) timeout);
                if (r < 0 && r != -Posix.EINTR) {
                    LOG.log(Level.ERROR, "poll failed, errno " + -r + "; PTY output is no longer read");
                    return;
                }
                if (revents(fds, 0) != 0) {
                    while (Posix.read(wakeRead, drain, drain.length) > 0) {
                        // drained: the wake-up only ends the poll
                    }
                }
                now = System.nanoTime();
                boolean tick = now - nextTick >= 0;
                if (tick) {
                    nextTick = now + UnixPty.IDLE_POLL_MILLIS * 1_000_000L;
                }
                List<UnixPty> done = null;
                for (int i = 0; i < live.size(); i++) {
                    UnixPty p = live.get(i);
                    boolean finished;
                    try {
                        finished = p.reading() ? p.onReady(r > 0 && revents(fds, i + 1) != 0, tick, buf)
                                : now - p.reapAt() >= 0 && p.tryReap(now);
                    } catch (RuntimeException | Error e) {
                        LOG.log(Level.ERROR, "PTY " + p.id() + ": failed while reading; its output ends here", e);
                        p.abandon();
                        finished = true;
                        if (e instanceof VirtualMachineError) {
                            throw (VirtualMachineError) e;
                        }
                    }
                    if (finished) {
                        if (done == null) {
                            done = new ArrayList<>();
                        }
                        done.add(p);
                    }
                }
                if (done != null) {
                    live.removeAll(done);
                }
            }
        } finally {
            // Closing, poll failing, or an Error: every PTY still read gets its end (abandon).
            for (UnixPty p; (p = added.poll()) != null; ) {
                live.add(p);
            }
            for (UnixPty p : live) {
                p.abandon();
            }
        }
    }

    private static void set(Memory fds, int i, int fd) {
        long at = (long) POLLFD_BYTES * i;
        fds.setInt(at, fd);
        fds.setShort(at + 4, Posix.POLLIN);
        fds.setShort(at + 6, (short) 0);
    }

    private static int revents(Memory fds, int i) {
        return fds.getShort((long) POLLFD_BYTES * i + 6) & 0xFFFF;
    }
}
