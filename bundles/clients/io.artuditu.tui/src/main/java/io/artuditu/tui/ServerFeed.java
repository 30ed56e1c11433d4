package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the server said, and the thread that follows it. The {@code tui-events} thread
 * pings, takes a {@code session.snapshot} (opening a first workspace on a fresh server),
 * reads config and theme, then follows {@code events.subscribe} from the snapshot's
 * sequence; when the server goes it says so and reconnects once it answers again. It only
 * posts to the UI thread, which owns the state here: the topology ({@link #model}), the
 * server's version, whether it is offline, and which panes out of sight printed or rang.
 *
 * <p>Events at or below the snapshot's sequence are already in it; {@code terminal.output}
 * and {@code terminal.bell} mark tabs; anything else takes a fresh snapshot (one in flight,
 * one pending). What the snapshot does not hold (modules' lists, the theme) is fetched again
 * on its own events, whatever their sequence.
 */
final class ServerFeed {
    private final App app;
    private final JsonUhp uhp;
    /** A snapshot is queued on the worker: set on the UI thread, cleared by the worker as it starts. */
    private final AtomicBoolean refreshPending = new AtomicBoolean();
    /** Panes out of sight that printed, and that rang the bell, since the person last looked. */
    final Set<String> activity = new HashSet<>();
    final Set<String> bells = new HashSet<>();
    Model model = Model.EMPTY;
    String version = "";
    /** The server went away; the picture stays, dimmed, until it is back. */
    volatile boolean offline;
    /** The open event stream, set by the event thread; closed by the UI thread when the workbench leaves. */
    private volatile JsonUhp.Stream events;

    ServerFeed(App app, JsonUhp uhp) {
        this.app = app;
        this.uhp = uhp;
    }

    void start() {
        App.daemon(this::followServer, "tui-events").start();
    }

    void close() {
        JsonUhp.Stream e = events;
        if (e != null) {
            e.close();
        }
    }

    Model.Tab activeTab() {
        Model.Workspace ws = model.active();
        return ws == null ? null : ws.activeTabOrFirst();
    }

    String focusedPane() {
        Model.Tab t = activeTab();
        return t == null ? null : t.focused();
    }

    /** The event stream: snapshot, subscribe from its sequence, follow; reconnect when the server goes. The event thread. */
    private void followServer() {
        boolean first = true;
        while (app.running()) {
            try {
                JsonNode ping = uhp.call("ping", JsonUhp.params());
                String v = ping.path("version").asText("");
                JsonNode snap = snapshot();
                if (snap.path("workspaces").isEmpty()) {
                    // a fresh server: open the first workspace where the TUI was started
                    uhp.call("workspace.open", JsonUhp.params().put("cwd", System.getProperty("user.dir")));
                    snap = snapshot();
                }
                JsonNode config = uhp.call("config.get", JsonUhp.params()).path("config");
                Runnable showTheme = fetchTheme();
                JsonNode s0 = snap;
                boolean wasOffline = !first;
                app.post(() -> {
                    version = v;
                    if (wasOffline) {
                        model = Model.EMPTY; // a restarted server counts its sequence from 0 again
                    }
                    applyConfig(config);
                    showTheme.run();
                    applySnapshot(s0);
                    if (offline || wasOffline) {
                        offline = false;
                        app.panes.syncViews();
                        app.toast("server is back", false);
                    }
                    app.surfaces.refreshAll(); // after the panes' streams: they queue on the worker first
                });
                first = false;
                JsonUhp.Stream l = uhp.open("events.subscribe",
                        JsonUhp.params().put("after_sequence", snap.path("sequence").asLong()));
                l.reply();
                events = l;
                String line;
                while ((line = l.readLine()) != null) {
                    JsonNode e = JsonUhp.JSON.readTree(line);
                    String name = e.path("event").asText();
                    if (name.equals("events.resync_required")) {
                        break;
                    }
                    long seq = e.path("sequence").asLong();
                    JsonNode data = e.path("data");
                    app.post(() -> onEvent(name, seq, data));
                }
                l.close();
            } catch (IOException e) {
                // no server, or it went away: fall through to the retry
            }
            if (!app.running()) {
                return;
            }
            if (pingOk()) {
                continue; // a resync, or a subscriber cut: take a fresh snapshot
            }
            app.post(() -> {
                if (!offline) {
                    offline = true;
                    app.toast("the server stopped; reattaching when it is back", true);
                }
            });
            while (app.running() && !pingOk()) {
                sleep(500);
            }
        }
    }

    private boolean pingOk() {
        try {
            uhp.call("ping", JsonUhp.params());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A {@code session.snapshot}, on the calling thread (never the UI thread: it waits for the server). */
    JsonNode snapshot() throws IOException {
        return uhp.call("session.snapshot", JsonUhp.params());
    }

    private void onEvent(String name, long seq, JsonNode data) {
        // what modules show is not in the snapshot: its events count whatever the sequence
        if (name.equals("ui.toast")) {
            app.toast(data.path("text").asText(""), data.path("level").asText("info"));
            return;
        }
        if (app.surfaces.onEvent(name)) {
            return;
        }
        if (name.equals("git.op") || name.equals("diff.changed") || name.equals("files.changed")) {
            // the review views read again; nothing here is in the snapshot
            if (name.equals("git.op")) {
                app.git.onOp(data);
            } else {
                app.git.invalidate();
            }
            Model.Workspace ws = model.active();
            app.files.invalidate(ws == null ? null : ws.id());
            return;
        }
        if (name.equals("theme.changed")) {
            app.requests.execute(() -> {
                try {
                    app.post(fetchTheme());
                } catch (IOException e) {
                    // the event stream notices a lost server, and a reconnect fetches again
                }
            });
            return;
        }
        if (name.startsWith("terminal.")) {
            String pane = data.path("pane").asText(null);
            if (pane == null) {
                return;
            }
            switch (name) {
                case "terminal.output" -> {
                    if (!app.panes.shows(pane) && activity.add(pane)) {
                        app.chrome = true;
                    }
                }
                case "terminal.bell" -> {
                    if (!app.panes.shows(pane)) {
                        bells.add(pane);
                        app.chrome = true;
                    }
                }
                case "terminal.title" -> requestSnapshot();
                default -> { }
            }
            return;
        }
        if (seq <= model.sequence) {
            return; // the snapshot already shows it
        }
        if (name.equals("pane.agent_status_changed")) {
            agentNotice(data);
        }
        if (name.startsWith("config.")) {
            app.requests.execute(() -> {
                try {
                    JsonNode c = uhp.call("config.get", JsonUhp.params()).path("config");
                    app.post(() -> applyConfig(c));
                } catch (IOException e) {
                    app.post(() -> app.toast("config: " + e.getMessage(), true));
                }
            });
            return;
        }
        requestSnapshot();
    }

    /**
     * An agent out of sight that now needs the user (blocked) or finished (done) says so in a
     * toast; one on screen shows it in its header's dot.
     */
    private void agentNotice(JsonNode data) {
        String pane = data.path("pane").asText(null);
        String st = data.path("status").asText("");
        if (pane == null || app.panes.shows(pane) || data.path("left").asBoolean()
                || !(st.equals("blocked") || st.equals("done"))) {
            return;
        }
        String who = data.path("agent").asText("agent") + " in pane " + pane;
        app.toast(st.equals("blocked") ? who + " needs you" : who + " is done", false);
    }

    /** Takes a fresh snapshot on the worker; requests while one is pending share it. */
    void requestSnapshot() {
        if (!refreshPending.compareAndSet(false, true)) {
            return;
        }
        app.requests.execute(() -> {
            refreshPending.set(false);
            try {
                JsonNode s = snapshot();
                app.post(() -> applySnapshot(s));
            } catch (IOException e) {
                // the event stream notices a lost server
            }
        });
    }

    void applySnapshot(JsonNode snap) {
        Model m = Model.parse(snap);
        if (m.sequence < model.sequence) {
            return; // an older answer overtaken by a newer one
        }
        model = m;
        Model.Tab tab = activeTab();
        if (tab != null) {
            for (String p : tab.panes().keySet()) {
                activity.remove(p);
                bells.remove(p);
            }
        }
        app.prompts.leaveCopyModeIfGone(model);
        app.panes.syncViews();
        app.chrome = true;
    }

    /**
     * What {@code theme.list} says the workbench shows, as work for the UI thread: a server
     * without the themes family shows the terminal's own colours; another error, or colours
     * the contract does not allow, keep what shows and say why in a toast.
     *
     * @throws IOException when the server cannot be reached
     */
    private Runnable fetchTheme() throws IOException {
        try {
            Theme t = Theme.fromList(uhp.call("theme.list", JsonUhp.params()));
            return () -> app.painter.applyTheme(t);
        } catch (JsonUhp.Failure f) {
            if (f.code.equals("unknown_method") || f.code.equals("method_unavailable")) {
                return () -> app.painter.applyTheme(Theme.TERMINAL);
            }
            return () -> app.toast("theme: " + f.getMessage(), true);
        } catch (IllegalArgumentException e) {
            return () -> app.toast("theme: " + e.getMessage(), true);
        }
    }

    private void applyConfig(JsonNode c) {
        app.keymap.apply(c);
        app.panes.configure(c);
    }
}
