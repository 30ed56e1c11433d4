package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyInputException;
import io.artuditu.pty.PtyListener;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * One PTY's emulator. The PTY's reader thread feeds it ({@link #output}); everyone else
 * reads it through {@link #read}, under the same lock, so a reader sees whole chunks.
 * The terminal's answers to queries (device attributes, cursor position) go back to the
 * PTY at once. Watchers ({@link #watch}) hear about changes through the {@link Notifier},
 * coalesced to at most one call per {@value Notifier#FRAME_MILLIS} ms per screen.
 */
public final class Screen implements PtyListener {
    /** Most watchers (streams, waits) one screen carries. */
    public static final int MAX_WATCHERS = 64;

    private final Pty pty;
    private final Notifier notifier;
    private final Terminal term;
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    /** Grows by one per output chunk fed and per resize; guarded by this. */
    private long outputRevision;
    /** Rows scrolled back from live output by a viewer; output snaps it to 0. Guarded by this. */
    private int scrollOffset;
    private volatile boolean ended;
    private volatile long lastOutputNanos;

    Screen(Pty pty, Limits limits, Notifier notifier) {
        this.pty = pty;
        this.notifier = notifier;
        this.term = Terminal.create(pty.cols(), pty.rows(), limits);
    }

    public Pty pty() {
        return pty;
    }

    public String terminalId() {
        return pty.id();
    }

    @Override
    public void output(byte[] buf, int off, int len) {
        byte[] replies;
        synchronized (this) {
            term.feed(buf, off, len);
            replies = term.takeReplies();
            outputRevision++;
            scrollOffset = 0;
        }
        lastOutputNanos = System.nanoTime();
        if (replies.length > 0) {
            try {
                pty.write(replies);
            } catch (PtyInputException e) {
                // the child left or does not read: its own query goes unanswered
            }
        }
        notifier.changed(this);
    }

    @Override
    public void closed() {
        ended = true;
        notifier.changed(this);
    }

    /** Whether the PTY's output has ended (the process and every slave holder are gone). */
    public boolean ended() {
        return ended;
    }

    /** Runs {@code reader} with the terminal locked; do not keep the terminal. */
    public synchronized <T> T read(Function<Terminal, T> reader) {
        return reader.apply(term);
    }

    public synchronized long revision() {
        return outputRevision;
    }

    public synchronized int scrollOffset() {
        return scrollOffset;
    }

    /** Moves the viewport by {@code rows} (positive: back into history), clamped; returns the new offset. */
    public synchronized int scroll(int rows) {
        long target = Math.max(0, Math.min((long) term.historySize(), (long) scrollOffset + rows));
        if (target != scrollOffset) {
            scrollOffset = (int) target;
            outputRevision++;
            notifier.changed(this);
        }
        return scrollOffset;
    }

    /** Resizes the emulator and the PTY together (the child gets SIGWINCH). */
    public void resize(int cols, int rows) {
        synchronized (this) {
            if (cols == term.cols() && rows == term.rows()) {
                return;
            }
            term.resize(cols, rows);
            outputRevision++;
            scrollOffset = 0;
        }
        pty.resize(cols, rows);
        notifier.changed(this);
    }

    /** When output last arrived, {@link System#nanoTime()}; 0 for never. */
    public long lastOutputNanos() {
        return lastOutputNanos;
    }

    /**
     * Registers a watcher, run on the notifier thread after changes (coalesced); it must
     * only hand off (signal a stream, complete a wait), never block.
     *
     * @return false when the screen already has {@value #MAX_WATCHERS}
     */
    public boolean watch(Runnable watcher) {
        synchronized (watchers) {
            if (watchers.size() >= MAX_WATCHERS) {
                return false;
            }
            watchers.add(watcher);
            return true;
        }
    }

    public void unwatch(Runnable watcher) {
        watchers.remove(watcher);
    }

    /** Called by the notifier thread. */
    void fire() {
        for (Runnable w : watchers) {
            try {
                w.run();
            } catch (RuntimeException e) {
                System.getLogger(Screen.class.getName()).log(System.Logger.Level.WARNING, "a screen watcher failed", e);
            }
        }
    }
}
