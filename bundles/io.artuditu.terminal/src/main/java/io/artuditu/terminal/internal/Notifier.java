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
    private final Thread thread;
    private boolean closed;

    Notifier(RenderCounters counters) {
        this.counters = counters;
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

    void changed(Screen s) {
        synchronized (dirty) {
            if (dirty.add(s) && dirty.size() == 1) {
                dirty.notifyAll();
            }
        }
    }

    private void run() {
        while (true) {
            Screen[] batch;
            boolean idled = false;
            synchronized (dirty) {
                while (dirty.isEmpty() && !closed) {
                    idled = true;
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
            }
            counters.add(idled ? RenderCounters.Count.WAKE_NOTIFY_CHANGE : RenderCounters.Count.WAKE_NOTIFY_WINDOW);
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
            try {
                Thread.sleep(FRAME_MILLIS); // the coalescing window: changes meanwhile wait for the next batch
            } catch (InterruptedException e) {
                return;
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
