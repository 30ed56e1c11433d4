package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One-shot requests, run on the worker thread so drawing never waits, and the focus holds:
 * input that comes while a request that moves the focus is in flight waits until the
 * snapshot after it shows where the focus went (at most {@value #HOLD_MS} ms), then is
 * replayed. The worker only posts results to the UI thread; everything else here runs on it.
 */
final class Requests {
    /** Input waits at most this long for a request that moves the focus. */
    static final long HOLD_MS = 2000;
    /** Inputs held behind a focus move at most (a paste is one input). */
    static final int MAX_HELD = 4096;

    private final App app;
    private final JsonUhp uhp;
    /** One thread; past 256 queued requests the oldest is dropped. */
    private final ExecutorService worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(256), r -> App.daemon(r, "tui-worker"), new ThreadPoolExecutor.DiscardOldestPolicy());
    /** Input that came while a request moving the focus was in flight; replayed once it lands. */
    private final ArrayDeque<Input> held = new ArrayDeque<>();
    private long holdUntil;
    private int hold;

    Requests(App app, JsonUhp uhp) {
        this.app = app;
        this.uhp = uhp;
    }

    /** Runs {@code task} on the worker, after what is queued there. */
    void execute(Runnable task) {
        worker.execute(task);
    }

    /** The client requests go through (the worker's tasks call it). */
    JsonUhp uhp() {
        return uhp;
    }

    ExecutorService worker() {
        return worker;
    }

    void shutdown() {
        worker.shutdownNow();
    }

    /** Runs a request on the worker; an error becomes a toast. */
    void request(String method, ObjectNode params) {
        worker.execute(() -> {
            try {
                uhp.call(method, params);
            } catch (IOException e) { // a Failure too: the server's message
                app.post(() -> app.toast(method + ": " + e.getMessage(), true));
            }
        });
    }

    /**
     * A request that moves the focus (split, focus, tab or workspace switch, close). Input
     * that follows it waits until the snapshot after it shows where the focus went and that
     * pane's stream is open, so keys typed right behind it reach the pane tmux would send
     * them to, not the one focused before.
     */
    void focusRequest(String method, ObjectNode params) {
        int id = ++hold;
        holdUntil = System.currentTimeMillis() + HOLD_MS;
        worker.execute(() -> {
            try {
                uhp.call(method, params);
            } catch (IOException e) {
                app.post(() -> app.toast(method + ": " + e.getMessage(), true));
            }
            JsonNode snap;
            try {
                snap = app.server.snapshot();
            } catch (IOException e) {
                snap = null;
            }
            JsonNode s = snap;
            app.post(() -> {
                if (s != null) {
                    app.server.applySnapshot(s);
                }
                // a new pane's stream starts on this worker, in order: release after it
                worker.execute(() -> app.post(() -> release(id)));
            });
        });
    }

    /** Keeps {@code in} for later while a focus move is in flight; false when it should be handled now. */
    boolean holds(Input in) {
        if (holdUntil > 0 && !(in instanceof Input.ModeReport)) {
            if (held.size() < MAX_HELD) { // past the bound a burst is cut, as a full queue would
                held.add(in);
            }
            return true;
        }
        return false;
    }

    private void release(int id) {
        if (id != hold || holdUntil == 0) {
            return;
        }
        holdUntil = 0;
        while (!held.isEmpty() && holdUntil == 0) {
            app.keys.handle(held.poll());
        }
    }

    /** The earlier of {@code d} and the end of the current hold. */
    long deadline(long d) {
        return holdUntil > 0 ? Math.min(d, holdUntil) : d;
    }

    /** A hold whose request never landed ends at its deadline. */
    void releaseIfDue(long now) {
        if (holdUntil > 0 && now >= holdUntil) {
            release(hold);
        }
    }
}
