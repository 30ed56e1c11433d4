package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Keeps the workbench's copy of what modules show: on a {@code ui.*.changed} event it asks
 * the server for that list again, on {@code module.changed} (or a reconnect) for all three.
 * Per list one request is in flight and at most one more is pending, on the workbench's
 * worker; the answer is parsed there and handed to the UI thread through {@code post}. A
 * server without the modules family answers {@code unknown_method} or
 * {@code method_unavailable}: the list is then empty.
 */
final class ModuleFeed {
    enum Kind {
        BARS("ui.bar.list"), DOCKS("ui.dock.list"), NOTICES("ui.notification.list");

        final String method;

        Kind(String method) {
            this.method = method;
        }
    }

    /** What the UI thread gets: the lists, each only when it was fetched. */
    interface Sink {
        void bars(List<ModuleUi.Widget> widgets);

        void docks(List<ModuleUi.Dock> docks);

        void notices(List<ModuleUi.Notice> notices);
    }

    /** A pending mark older than this is taken to be lost (a full worker queue drops its oldest task). */
    static final long STALE_MS = 10_000;

    private final JsonUhp uhp;
    private final Executor worker;
    private final Consumer<Runnable> post;
    private final Sink sink;
    /** Per kind: when a request was queued that has not started yet, or 0. */
    private final AtomicLong[] pending = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

    ModuleFeed(JsonUhp uhp, Executor worker, Consumer<Runnable> post, Sink sink) {
        this.uhp = uhp;
        this.worker = worker;
        this.post = post;
        this.sink = sink;
    }

    /** Whether {@code event} is the modules'; if so, the lists it touches are fetched again. */
    boolean onEvent(String event) {
        switch (event) {
            case "ui.bar.changed" -> refresh(Kind.BARS);
            case "ui.dock.changed" -> refresh(Kind.DOCKS);
            case "ui.notification.changed" -> refresh(Kind.NOTICES);
            case "module.changed" -> refreshAll();
            case "module.action.finished" -> { } // an action's end shows in what it pushed, if anything
            default -> {
                return false;
            }
        }
        return true;
    }

    void refreshAll() {
        for (Kind k : Kind.values()) {
            refresh(k);
        }
    }

    void refresh(Kind k) {
        AtomicLong p = pending[k.ordinal()];
        long now = System.currentTimeMillis();
        long since = p.get();
        if (since != 0 && now - since < STALE_MS || !p.compareAndSet(since, now)) {
            return; // the pending request will see this change too
        }
        try {
            worker.execute(() -> {
                p.set(0);
                fetch(k);
            });
        } catch (RejectedExecutionException e) {
            p.set(0); // the workbench is closing
        }
    }

    private void fetch(Kind k) {
        JsonNode r;
        try {
            r = uhp.call(k.method, JsonUhp.params());
        } catch (JsonUhp.Failure f) {
            if (!f.code.equals("unknown_method") && !f.code.equals("method_unavailable")) {
                return;
            }
            r = JsonUhp.JSON.createObjectNode();
        } catch (IOException e) {
            return; // the event stream notices a lost server, and a reconnect fetches again
        }
        switch (k) {
            case BARS -> {
                List<ModuleUi.Widget> w = ModuleUi.widgets(r);
                post.accept(() -> sink.bars(w));
            }
            case DOCKS -> {
                List<ModuleUi.Dock> d = ModuleUi.docks(r);
                post.accept(() -> sink.docks(d));
            }
            case NOTICES -> {
                List<ModuleUi.Notice> n = ModuleUi.notices(r, System.currentTimeMillis());
                post.accept(() -> sink.notices(n));
            }
        }
    }
}
