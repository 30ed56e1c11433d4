package io.artuditu.agents.internal;

import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The agents family's one writer: a daemon thread, {@code agents-loop}, that owns every
 * pane's agent state. It wakes for three things only: screens that changed (a set of
 * terminal ids, so a burst of changes to one screen is one pass), tasks (requests, hook
 * and report evidence, input), and the one earliest deadline anyone asked for (a lease or
 * a wait ending, hook evidence going stale, an identity recheck), which the owner sets
 * after each pass. Nothing runs while
 * nothing happens: there is no per-pane timer and no polling.
 *
 * <p>Bounds: at most {@value #MAX_TASKS} queued tasks (more are refused, the caller gets an
 * error) and at most {@value #MAX_DIRTY} dirty screens (the server's pane limit).
 */
final class AgentsLoop implements AutoCloseable {
    static final int MAX_TASKS = 4096;
    static final int MAX_DIRTY = 1024;
    private static final System.Logger LOG = System.getLogger(AgentsLoop.class.getName());

    private final Object lock = new Object();
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final Set<String> dirty = new LinkedHashSet<>();
    private final Consumer<Set<String>> onDirty;
    private final LongConsumer onDeadline;
    private final Runnable afterPass;
    private final Thread thread;
    private long deadline;
    private boolean closed;

    /**
     * @param onDirty runs on the loop with the screens that changed since the last pass
     * @param onDeadline runs on the loop with the current time when the requested deadline is reached
     * @param afterPass runs on the loop after every pass, to set the next {@link #deadline}
     */
    AgentsLoop(Consumer<Set<String>> onDirty, LongConsumer onDeadline, Runnable afterPass) {
        this.onDirty = onDirty;
        this.onDeadline = onDeadline;
        this.afterPass = afterPass;
        this.thread = new Thread(this::run, "agents-loop");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    boolean onLoop() {
        return Thread.currentThread() == thread;
    }

    /** A screen changed (from the notifier thread): only marks it. */
    void dirty(String terminalId) {
        synchronized (lock) {
            if (closed || dirty.size() >= MAX_DIRTY && !dirty.contains(terminalId)) {
                return;
            }
            if (dirty.add(terminalId)) {
                lock.notifyAll();
            }
        }
    }

    /** Queues a task; false when the loop is closed or full. */
    boolean post(Runnable task) {
        synchronized (lock) {
            if (closed || tasks.size() >= MAX_TASKS) {
                return false;
            }
            tasks.add(task);
            lock.notifyAll();
            return true;
        }
    }

    /** Runs {@code work} on the loop; the future fails when the loop cannot take it. */
    <T> CompletableFuture<T> call(Supplier<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                f.complete(work.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        };
        if (onLoop()) {
            r.run();
        } else if (!post(r)) {
            f.completeExceptionally(new IllegalStateException("the agents loop is " + (closed ? "stopped" : "full")));
        }
        return f;
    }

    /**
     * Sets the one deadline (wall clock milliseconds; 0 for none), replacing the one before:
     * the owner computes its earliest due time after every pass. Loop thread only.
     */
    void deadline(long atMillis) {
        synchronized (lock) {
            deadline = Math.max(0, atMillis);
        }
    }

    private void run() {
        while (true) {
            Runnable task = null;
            Set<String> batch = null;
            boolean due = false;
            synchronized (lock) {
                while (!closed && tasks.isEmpty() && dirty.isEmpty()) {
                    long now = System.currentTimeMillis();
                    if (deadline != 0 && deadline <= now) {
                        break;
                    }
                    try {
                        lock.wait(deadline == 0 ? 0 : Math.max(1, deadline - now));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                if (!tasks.isEmpty()) {
                    task = tasks.poll();
                } else if (!dirty.isEmpty()) {
                    batch = new LinkedHashSet<>(dirty);
                    dirty.clear();
                }
                if (deadline != 0 && deadline <= System.currentTimeMillis()) {
                    deadline = 0;
                    due = true;
                }
            }
            try {
                if (task != null) {
                    task.run();
                }
                if (batch != null) {
                    onDirty.accept(batch);
                }
                if (due) {
                    onDeadline.accept(System.currentTimeMillis());
                }
                afterPass.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "an agents-loop task failed", e);
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            tasks.clear();
            dirty.clear();
            lock.notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
