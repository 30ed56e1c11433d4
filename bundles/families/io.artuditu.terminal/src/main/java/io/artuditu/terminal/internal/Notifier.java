package io.artuditu.terminal.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Coalesces screen changes: a screen that changed is fired at most once per
 * {@value #FRAME_MILLIS} ms, on the one {@code terminal-notify} thread, however many output
 * chunks arrived in between. Nothing runs while nothing changes (no idle timer).
 *
 * <p>Input is the exception: the first change to a screen after a client typed into it
 * ({@link Screen#typed}; its echo, as a rule) ends the window at once, so a keystroke's echo
 * is never held back by a window an earlier change opened. The batch it fires opens a new
 * window, so the rest of a burst (a command's output, a paste's echo) coalesces as before:
 * at most one early batch per input write.
 */
final class Notifier implements AutoCloseable {
    /** About 60 notifications per second per screen at most. */
    static final long FRAME_MILLIS = 16;

    /** Most watchers of every screen ({@link #watchAll}): one per reader part, such as the agent detector. */
    static final int MAX_GLOBAL_WATCHERS = 8;

    private final Set<Screen> dirty = new LinkedHashSet<>();
    private final List<Consumer<String>> global = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> inputs = new CopyOnWriteArrayList<>();
    private final RenderCounters counters;
    private final long windowNanos;
    private final Thread thread;
    // Guarded by dirty:
    private boolean closed;
    /** A screen typed into since its last notification changed: end the window now. */
    private boolean input;

    Notifier(RenderCounters counters) {
        this(counters, FRAME_MILLIS);
    }

    /** With a window of {@code windowMillis} instead of {@value #FRAME_MILLIS} (tests). */
    Notifier(RenderCounters counters, long windowMillis) {
        this.counters = counters;
        this.windowNanos = windowMillis * 1_000_000L;
        thread = new Thread(this::run, "terminal-notify");
        thread.setDaemon(true);
        thread.start();
    }

    RenderCounters counters() {
        return counters;
    }

    /**
     * Registers {@code w}, called with the terminal id of every screen fired, after its own
     * watchers; refused (an exception) past {@value #MAX_GLOBAL_WATCHERS}.
     */
    AutoCloseable watchAll(Consumer<String> w) {
        return add(global, w, "watchers of every screen");
    }

    private static AutoCloseable add(List<Consumer<String>> list, Consumer<String> w, String what) {
        synchronized (list) {
            if (list.size() >= MAX_GLOBAL_WATCHERS) {
                throw new IllegalStateException("at most " + MAX_GLOBAL_WATCHERS + " " + what);
            }
            list.add(w);
        }
        return () -> list.remove(w);
    }

    /** Like {@link #watchAll}, for input clients write ({@link Screen#typed}), called at once. */
    AutoCloseable watchInput(Consumer<String> w) {
        return add(inputs, w, "input watchers");
    }

    void typed(Screen s) {
        for (Consumer<String> w : inputs) {
            try {
                w.accept(s.terminalId());
            } catch (RuntimeException e) {
                System.getLogger(Notifier.class.getName()).log(System.Logger.Level.WARNING, "an input watcher failed", e);
            }
        }
    }

    /** {@code s} changed; {@code afterInput}: the first change since a client typed into it. */
    void changed(Screen s, boolean afterInput) {
        synchronized (dirty) {
            boolean first = dirty.add(s) && dirty.size() == 1;
            if (afterInput) {
                input = true;
            }
            if (first || afterInput) {
                dirty.notifyAll();
            }
        }
    }

    private void run() {
        boolean windowed = false; // a window, not idling, came before this batch
        boolean cut = false; // that window ended early, for input
        while (true) {
            Screen[] batch;
            synchronized (dirty) {
                while (dirty.isEmpty() && !closed) {
                    windowed = false;
                    try {
                        dirty.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                batch = dirty.toArray(new Screen[0]);
                dirty.clear();
                input = false; // what this batch fires; input from now on cuts the next window
            }
            counters.add(!windowed ? RenderCounters.Count.WAKE_NOTIFY_CHANGE
                    : cut ? RenderCounters.Count.WAKE_NOTIFY_INPUT : RenderCounters.Count.WAKE_NOTIFY_WINDOW);
            for (Screen s : batch) {
                s.fire();
                for (Consumer<String> w : global) {
                    try {
                        w.accept(s.terminalId());
                    } catch (RuntimeException e) {
                        System.getLogger(Notifier.class.getName()).log(System.Logger.Level.WARNING, "a screen watcher failed", e);
                    }
                }
            }
            // The coalescing window: changes meanwhile wait for the next batch, unless one
            // follows input.
            synchronized (dirty) {
                long deadline = System.nanoTime() + windowNanos;
                long left;
                while (!input && !closed && (left = deadline - System.nanoTime()) > 0) {
                    try {
                        dirty.wait(left / 1_000_000, (int) (left % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                windowed = true;
                cut = input;
            }
        }
    }

    @Override
    public void close() {
        synchronized (dirty) {
            closed = true;
            dirty.notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
