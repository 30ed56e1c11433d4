package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyInputException;
import io.artuditu.pty.PtyListener;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;
import io.artuditu.vt.TerminalMetrics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * One PTY's emulator. The PTY's reader thread feeds it ({@link #output}); everyone else
 * reads it through {@link #read}, under the same lock, so a reader sees whole chunks.
 * The terminal's answers to queries (device attributes, cursor position) go back to the
 * PTY at once. Watchers ({@link #watch}) hear about changes through the {@link Notifier},
 * coalesced to at most one call per {@value Notifier#FRAME_MILLIS} ms per screen, except the
 * first change after input ({@link #typed}), which runs them at once on its own thread.
 */
public final class Screen implements PtyListener {
    /** Most watchers (streams, waits) one screen carries. */
    public static final int MAX_WATCHERS = 64;

    private final Pty pty;
    private final Notifier notifier;
    private final Terminal term;
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    private final List<Runnable> immediate = new CopyOnWriteArrayList<>();
    /** Grows by one per output chunk fed and per resize; guarded by this. */
    private long outputRevision;
    /** Rows scrolled back from live output by a viewer; output snaps it to 0. Guarded by this. */
    private int scrollOffset;
    /** A title set through the API, shown instead of the program's; null for none. Guarded by this. */
    private String titleOverride;
    private volatile boolean ended;
    /** Set by {@link #typed}, taken by the next change: that change is notified without the window. */
    private final java.util.concurrent.atomic.AtomicBoolean typedSinceChange = new java.util.concurrent.atomic.AtomicBoolean();
    private final long historyBudget;

    Screen(Pty pty, Limits limits, Notifier notifier) {
        this.pty = pty;
        this.notifier = notifier;
        this.term = Terminal.create(pty.cols(), pty.rows(), limits);
        this.historyBudget = limits.historyBytes();
    }

    /** The render_performance counters this screen and its streams count in. */
    public RenderCounters counters() {
        return notifier.counters();
    }

    /**
     * The scrollback now: viewport offset, rows and bytes kept, the budget. The byte count
     * is exact (the emulator counts what it keeps, {@code docs/vt.md}).
     */
    public synchronized TerminalMetrics.History history() {
        return new TerminalMetrics.History(scrollOffset, term.historySize(), historyBudget, term.historyBytes(), true);
    }

    /** The bytes of scrollback this screen keeps at most, fixed when it was made. */
    public long historyBudget() {
        return historyBudget;
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
        counters().add(RenderCounters.Count.RENDER_OUTPUT);
        if (replies.length > 0) {
            try {
                pty.write(replies);
            } catch (PtyInputException e) {
                // the child left or does not read: its own query goes unanswered
            }
        }
        changed();
    }

    @Override
    public void closed() {
        ended = true;
        counters().add(RenderCounters.Count.RENDER_EXIT);
        changed();
    }

    /** Whether the PTY's output has ended (the process and every slave holder are gone). */
    public boolean ended() {
        return ended;
    }

    /**
     * A client is about to write input (keys, a paste, text) to this screen's program: the
     * notifier tells its input watchers at once, on this thread, and fires the screen's next
     * change (the echo, as a rule) without waiting for its coalescing window.
     */
    public void typed() {
        typedSinceChange.set(true);
        notifier.typed(this);
    }

    /**
     * The one input path: {@link #typed} then one write to the PTY's bounded input queue.
     * Every client's input takes it (attach streams, the pane and terminal input methods, the
     * agents family through {@code TerminalScreens.write}).
     *
     * @throws PtyInputException the program exited, or its input queue is full; nothing queued
     */
    public void input(byte[] bytes) throws io.artuditu.pty.PtyInputException {
        typed();
        pty.write(bytes);
    }

    /**
     * After every change. The first change after input (a key's echo, as a rule) runs the
     * coalesced watchers here, on the thread that made it (the PTY's reader for output), so the
     * stream that shows the echo is signalled at once instead of after a hand-off to
     * {@code terminal-notify}, a thread wake-up that cost a key's echo a few hundred
     * microseconds (issue 16). The notifier still hears of every change (its watchers of every
     * screen, and the rest of a burst, which coalesces as before).
     */
    private void changed() {
        boolean afterInput = typedSinceChange.getAndSet(false);
        if (afterInput) {
            fire();
        }
        notifier.changed(this, afterInput);
        fireNow();
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
            counters().add(RenderCounters.Count.RENDER_SCROLL);
            changed();
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
        counters().add(RenderCounters.Count.RENDER_RESIZE);
        pty.resize(cols, rows);
        changed();
    }

    /**
     * Sets or (with null) clears the title shown instead of the program's; a change moves
     * the revision and notifies watchers.
     */
    void titleOverride(String title) {
        synchronized (this) {
            if (java.util.Objects.equals(title, titleOverride)) {
                return;
            }
            titleOverride = title;
            outputRevision++;
        }
        counters().add(RenderCounters.Count.RENDER_TITLE);
        changed();
    }

    /** The API's title override, or null. */
    synchronized String titleOverride() {
        return titleOverride;
    }

    /** The title to show: the override when set, else the program's (OSC 0/2). */
    synchronized String title() {
        return titleOverride != null ? titleOverride : term.title();
    }


    /**
     * Registers a watcher, run on the notifier thread after changes (coalesced), and on the
     * changing thread for the first change after input; it must only hand off (signal a
     * stream, complete a wait), never block.
     *
     * @return false when the screen already has {@value #MAX_WATCHERS}
     */
    public boolean watch(Runnable watcher) {
        synchronized (watchers) {
            if (watchers.size() + immediate.size() >= MAX_WATCHERS) {
                return false;
            }
            watchers.add(watcher);
            return true;
        }
    }

    /**
     * Registers a watcher run right after every change, on the thread that made it (the
     * PTY's reader for output), without coalescing: for a waiter whose check is a counter
     * compare (a finished command) and that should not wait for the next notification
     * window. It must only hand off. Counts against {@value #MAX_WATCHERS} like
     * {@link #watch}.
     */
    public boolean watchNow(Runnable watcher) {
        synchronized (watchers) {
            if (watchers.size() + immediate.size() >= MAX_WATCHERS) {
                return false;
            }
            immediate.add(watcher);
            return true;
        }
    }

    public void unwatch(Runnable watcher) {
        watchers.remove(watcher);
        immediate.remove(watcher);
    }

    private void fireNow() {
        for (Runnable w : immediate) {
            try {
                w.run();
            } catch (RuntimeException e) {
                System.getLogger(Screen.class.getName()).log(System.Logger.Level.WARNING, "a screen watcher failed", e);
            }
        }
    }

    /** Runs the coalesced watchers: on the notifier thread, or on a change's own thread after input. */
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
