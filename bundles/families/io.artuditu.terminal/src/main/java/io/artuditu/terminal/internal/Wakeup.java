package io.artuditu.terminal.internal;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.util.Map;

/**
 * A parked request thread's doorbell on one screen: the screen's watcher rings it (on the
 * notifier thread, which only sets a flag), the connection's end cancels it. No timer: the
 * thread sleeps until a change, a cancel or its deadline.
 */
final class Wakeup implements Runnable, AutoCloseable {
    private final Screen screen;
    private boolean rung;
    private boolean cancelled;

    private Wakeup(Screen screen) {
        this.screen = screen;
    }

    /** Watches {@code screen}; {@code too_many_connections} when it already has its most watchers. */
    static Wakeup on(Screen screen) {
        Wakeup w = new Wakeup(screen);
        if (!screen.watch(w)) {
            throw new UhpException(ErrorCode.TOO_MANY_CONNECTIONS, "terminal " + screen.terminalId() + " already has "
                    + Screen.MAX_WATCHERS + " waiters and streams", Map.of("limit", Screen.MAX_WATCHERS, "kind", "screen_watchers"));
        }
        return w;
    }

    @Override
    public synchronized void run() {
        rung = true;
        notifyAll();
    }

    synchronized void cancel() {
        cancelled = true;
        notifyAll();
    }

    synchronized boolean cancelled() {
        return cancelled;
    }

    /**
     * Parks until rung, cancelled or the deadline; consumes the ring. Returns false on the
     * deadline or a cancel.
     */
    synchronized boolean await(long deadlineNanos) throws InterruptedException {
        while (!rung && !cancelled) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(left / 1_000_000, (int) (left % 1_000_000));
        }
        rung = false;
        return !cancelled;
    }

    @Override
    public void close() {
        screen.unwatch(this);
    }
}
