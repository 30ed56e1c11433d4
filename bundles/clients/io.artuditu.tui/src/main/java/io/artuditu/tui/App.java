package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The workbench's controller. One thread (the caller of {@link #run}) owns every field
 * below and draws; the input reader, the event stream, the pane streams and the request
 * worker only post work to it through a bounded queue. State comes from the server alone:
 * a {@code session.snapshot}, refreshed whenever an event says the topology or config
 * changed, and one {@code attach.pane} per visible pane.
 */
final class App implements PaneView.Listener {
    /** Work posted to the UI thread; a full queue drops input rather than growing. */
    static final int QUEUE = 4096;
    /** Toasts shown at once, and how long each stays. */
    static final int MAX_TOASTS = 4;
    static final long TOAST_MS = 4000;
    /** Escape waits this long for the rest of a sequence. */
    static final long ESC_MS = 25;
    /** Input waits at most this long for a request that moves the focus. */
    static final long HOLD_MS = 2000;
    /** A pane whose stream could not start is tried again after this long. */
    static final long RETRY_MS = 500;
    /** Inputs held behind a focus move at most (a paste is one input). */
    static final int MAX_HELD = 4096;

    enum Mode { NORMAL, PREFIX, PROMPT, CONFIRM, COPY, HELP, MENU }

    /** A short message above the bottom-right corner; {@code level} is info, success, warning or error. */
    record Toast(String text, String level) {
    }

    private final JsonUhp uhp;
    private final Outer outer;
    private final AnsiWriter writer;
    private final String session;
    private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE);
    private final ExecutorService worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(256), r -> daemon(r, "tui-worker"), new ThreadPoolExecutor.DiscardOldestPolicy());
    /** Set by the pane streams' threads: some pane's cells changed (only those rows are redrawn). */
    private final AtomicBoolean dirty = new AtomicBoolean(true);
    private final AtomicBoolean refreshPending = new AtomicBoolean();
    private final Workbench bench = new Workbench();
    private final Keymap keys = new Keymap();
    private final Map<String, PaneView> views = new HashMap<>();
    private final Set<String> activity = new HashSet<>();
    private final Set<String> bells = new HashSet<>();
    private final List<Toast> toasts = new ArrayList<>();
    private final List<Long> toastExpiry = new ArrayList<>();

    /** Something besides pane cells changed: paint the whole workbench. UI thread only. */
    private boolean chrome = true;
    private final InputDecoder decoder = new InputDecoder();
    private final java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
    private final java.nio.ByteBuffer utf8Pending = java.nio.ByteBuffer.allocate(8);
    private long escapeDeadline;
    private long retryAt;
    private final Set<String> failing = new HashSet<>();
    /** Input that came while a request moving the focus was in flight; replayed once it lands. */
    private final java.util.ArrayDeque<Input> held = new java.util.ArrayDeque<>();
    private long holdUntil;
    private int hold;
    private Model model = Model.EMPTY;
    private Layout layout = new Layout();
    private Layout.Rect stage = new Layout.Rect(0, 1, 1, 1);
    private Canvas shown;
    private int cols;
    private int rows;
    private boolean sidebarVisible = true;
    private int sidebarWidth = 28;
    private boolean dockVisible;
    private int dockWidth = 32;
    private String version = "";
    private volatile boolean offline;
    private volatile boolean running = true;
    private String exitMessage;
    private Mode mode = Mode.NORMAL;
    private long prefixDeadline;
    private Prompt prompt;
    private CopyMode copy;
    private String confirmText;
    private Runnable confirmAction;
    private Layout.Divider dragging;
    private boolean draggingSidebar;
    private int dragSidebarWidth;
    private PaneView mouseTarget;
    private Layout.Rect mouseRect;
    private JsonUhp.Stream events;
    /** What modules show, as the feed last fetched it, and where the last paint put what a click acts on. */
    private final ModuleFeed feed;
    private List<ModuleUi.Widget> widgets = List.of();
    private List<ModuleUi.Dock> docks = List.of();
    private List<ModuleUi.Notice> notices = List.of();
    private final List<ModuleUi.Spot> spots = new ArrayList<>();
    private Menu menu;
    /** The colours everything is drawn in: theme.list's active theme, or the terminal's own. */
    private Theme theme = Theme.TERMINAL;

    App(JsonUhp uhp, Outer outer, String session) {
        this.uhp = uhp;
        this.outer = outer;
        this.session = session;
        this.writer = new AnsiWriter(outer.colorDepth());
        this.feed = new ModuleFeed(uhp, worker, this::post, new Surfaces());
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Posts work to the UI thread; false when the queue is full. */
    boolean post(Runnable r) {
        return queue.offer(r);
    }

    private void redraw() {
        if (dirty.compareAndSet(false, true)) {
            post(() -> { });
        }
    }

    /** Runs until detach or quit; returns the line to print after the terminal is restored. */
    String run() throws IOException {
        cols = outer.cols();
        rows = outer.rows();
        outer.onResize(() -> post(this::resized));
        Thread input = daemon(this::readInput, "tui-input");
        input.start();
        daemon(this::followServer, "tui-events").start();
        outer.write("\033[?2026$p"); // does the terminal do synchronized output?
        while (running) {
            Runnable r;
            try {
                long wait = nextDeadline() - System.currentTimeMillis();
                r = queue.poll(Math.max(1, wait), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (r != null) {
                r.run();
                for (Runnable more; (more = queue.poll()) != null; ) {
                    more.run();
                }
            }
            timers();
            boolean cells = dirty.getAndSet(false);
            if (running && (chrome || cells)) {
                draw();
            }
        }
        for (PaneView v : views.values()) {
            v.detach();
            v.close();
        }
        if (events != null) {
            events.close();
        }
        worker.shutdownNow();
        outer.stopReading();
        try {
            input.join(500); // the terminal goes back to the shell only once nothing reads it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return exitMessage;
    }

    private long nextDeadline() {
        long d = System.currentTimeMillis() + 1000;
        if (mode == Mode.PREFIX) {
            d = Math.min(d, prefixDeadline);
        }
        if (escapeDeadline > 0) {
            d = Math.min(d, escapeDeadline);
        }
        if (retryAt > 0) {
            d = Math.min(d, retryAt);
        }
        if (holdUntil > 0) {
            d = Math.min(d, holdUntil);
        }
        for (long t : toastExpiry) {
            d = Math.min(d, t);
        }
        for (ModuleUi.Notice n : notices) {
            d = Math.min(d, n.expiresAt());
        }
        return d;
    }

    private void timers() {
        long now = System.currentTimeMillis();
        if (retryAt > 0 && now >= retryAt) {
            retryAt = 0;
            syncViews();
            chrome = true;
        }
        if (escapeDeadline > 0 && now >= escapeDeadline) {
            escapeDeadline = 0;
            for (Input i : decoder.flush()) {
                handle(i); // a lone Escape: nothing followed it
            }
        }
        if (mode == Mode.PREFIX && now >= prefixDeadline) {
            mode = Mode.NORMAL;
            chrome = true;
        }
        if (holdUntil > 0 && now >= holdUntil) {
            release(hold);
        }
        for (int i = toastExpiry.size() - 1; i >= 0; i--) {
            if (toastExpiry.get(i) <= now) {
                toastExpiry.remove(i);
                toasts.remove(i);
                chrome = true;
            }
        }
        if (!notices.isEmpty() && notices.stream().anyMatch(n -> n.expiresAt() <= now)) {
            notices = notices.stream().filter(n -> n.expiresAt() > now).toList();
            chrome = true;
        }
    }

    void toast(String text, boolean error) {
        toast(text, error ? "error" : "info");
    }

    void toast(String text, String level) {
        toasts.add(new Toast(text.replace('\n', ' '), level));
        toastExpiry.add(System.currentTimeMillis() + TOAST_MS);
        while (toasts.size() > MAX_TOASTS) {
            toasts.remove(0);
            toastExpiry.remove(0);
        }
        chrome = true;
    }

    // ---------------------------------------------------------------- the server

    /** The event stream: snapshot, subscribe from its sequence, follow; reconnect when the server goes. */
    private void followServer() {
        boolean first = true;
        while (running) {
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
                post(() -> {
                    version = v;
                    if (wasOffline) {
                        model = Model.EMPTY; // a restarted server counts its sequence from 0 again
                    }
                    applyConfig(config);
                    showTheme.run();
                    applySnapshot(s0);
                    if (offline || wasOffline) {
                        offline = false;
                        syncViews();
                        toast("server is back", false);
                    }
                    feed.refreshAll(); // after the panes' streams: they queue on the worker first
                });
                first = false;
                JsonUhp.Stream l = uhp.open("events.subscribe", JsonUhp.params().put("after_sequence", snap.path("sequence").asLong()));
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
                    post(() -> onEvent(name, seq, data));
                }
                l.close();
            } catch (IOException e) {
                // no server, or it went away: fall through to the retry
            }
            if (!running) {
                return;
            }
            if (pingOk()) {
                continue; // a resync, or a subscriber cut: take a fresh snapshot
            }
            post(() -> {
                if (!offline) {
                    offline = true;
                    toast("the server stopped; reattaching when it is back", true);
                }
            });
            while (running && !pingOk()) {
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

    private JsonNode snapshot() throws IOException {
        return uhp.call("session.snapshot", JsonUhp.params());
    }

    private void onEvent(String name, long seq, JsonNode data) {
        // what modules show is not in the snapshot: its events count whatever the sequence
        if (name.equals("ui.toast")) {
            toast(data.path("text").asText(""), data.path("level").asText("info"));
            return;
        }
        if (feed.onEvent(name)) {
            return;
        }
        if (name.equals("theme.changed")) {
            worker.execute(() -> {
                try {
                    post(fetchTheme());
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
                    if (!layout.places.containsKey(pane) && activity.add(pane)) {
                        chrome = true;
                    }
                }
                case "terminal.bell" -> {
                    if (!layout.places.containsKey(pane)) {
                        bells.add(pane);
                        chrome = true;
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
            worker.execute(() -> {
                try {
                    JsonNode c = uhp.call("config.get", JsonUhp.params()).path("config");
                    post(() -> applyConfig(c));
                } catch (IOException e) {
                    post(() -> toast("config: " + e.getMessage(), true));
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
        if (pane == null || layout.places.containsKey(pane) || data.path("left").asBoolean()
                || !(st.equals("blocked") || st.equals("done"))) {
            return;
        }
        String who = data.path("agent").asText("agent") + " in pane " + pane;
        toast(st.equals("blocked") ? who + " needs you" : who + " is done", false);
    }

    /** Takes a fresh snapshot on the worker; requests while one is pending share it. */
    private void requestSnapshot() {
        if (!refreshPending.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            refreshPending.set(false);
            try {
                JsonNode s = snapshot();
                post(() -> applySnapshot(s));
            } catch (IOException e) {
                // the event stream notices a lost server
            }
        });
    }

    private void applySnapshot(JsonNode snap) {
        Model m = Model.parse(snap);
        if (m.sequence < model.sequence) {
            return; // an older answer overtaken by a newer one
        }
        model = m;
        Model.Workspace ws = model.active();
        Model.Tab tab = ws == null ? null : ws.activeTabOrFirst();
        if (tab != null) {
            for (String p : tab.panes().keySet()) {
                activity.remove(p);
                bells.remove(p);
            }
        }
        if (copy != null && model.pane(copy.pane) == null) {
            copy = null;
            mode = Mode.NORMAL;
        }
        syncViews();
        chrome = true;
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
            return () -> applyTheme(t);
        } catch (JsonUhp.Failure f) {
            if (f.code.equals("unknown_method") || f.code.equals("method_unavailable")) {
                return () -> applyTheme(Theme.TERMINAL);
            }
            return () -> toast("theme: " + f.getMessage(), true);
        } catch (IllegalArgumentException e) {
            return () -> toast("theme: " + e.getMessage(), true);
        }
    }

    /** Shows {@code t}: everything is painted again and sent whole, since the last picture sent does not record colours as shown. */
    private void applyTheme(Theme t) {
        if (t == theme) {
            return;
        }
        theme = t;
        bench.theme = t;
        writer.theme(t);
        shown = null;
        chrome = true;
    }

    /** What puts the outer terminal back as the workbench found it, as far as drawing changed it (the cursor colour). */
    String restoreSequence() {
        return writer.restore();
    }

    private void applyConfig(JsonNode c) {
        keys.apply(c);
        JsonNode sb = c.path("sidebars");
        sidebarVisible = sb.path("left").path("visible").asBoolean(true);
        sidebarWidth = sb.path("left").path("width").asInt(28);
        dockVisible = sb.path("right").path("visible").asBoolean(false);
        dockWidth = sb.path("right").path("width").asInt(32);
        syncViews();
        chrome = true;
    }

    /** Runs a request on the worker; an error becomes a toast. */
    private void request(String method, ObjectNode params) {
        worker.execute(() -> {
            try {
                uhp.call(method, params);
            } catch (IOException e) { // a Failure too: the server's message
                post(() -> toast(method + ": " + e.getMessage(), true));
            }
        });
    }

    /**
     * A request that moves the focus (split, focus, tab or workspace switch, close). Input
     * that follows it waits until the snapshot after it shows where the focus went and that
     * pane's stream is open, so keys typed right behind it reach the pane tmux would send
     * them to, not the one focused before.
     */
    private void focusRequest(String method, ObjectNode params) {
        int id = ++hold;
        holdUntil = System.currentTimeMillis() + HOLD_MS;
        worker.execute(() -> {
            try {
                uhp.call(method, params);
            } catch (IOException e) {
                post(() -> toast(method + ": " + e.getMessage(), true));
            }
            JsonNode snap;
            try {
                snap = snapshot();
            } catch (IOException e) {
                snap = null;
            }
            JsonNode s = snap;
            post(() -> {
                if (s != null) {
                    applySnapshot(s);
                }
                // a new pane's stream starts on this worker, in order: release after it
                worker.execute(() -> post(() -> release(id)));
            });
        });
    }

    private void release(int id) {
        if (id != hold || holdUntil == 0) {
            return;
        }
        holdUntil = 0;
        while (!held.isEmpty() && holdUntil == 0) {
            handle(held.poll());
        }
    }

    // ---------------------------------------------------------------- layout and pane streams

    private void resized() {
        cols = outer.cols();
        rows = outer.rows();
        shown = null;
        syncViews();
        chrome = true;
    }

    private Model.Tab activeTab() {
        Model.Workspace ws = model.active();
        return ws == null ? null : ws.activeTabOrFirst();
    }

    private String focusedPane() {
        Model.Tab t = activeTab();
        return t == null ? null : t.focused();
    }

    private int sidebarShown() {
        int w = draggingSidebar ? dragSidebarWidth : sidebarWidth;
        return sidebarVisible && cols >= w + 30 ? w : 0;
    }

    /** The right sidebar shows when the config says so or a dock is mounted there, room permitting. */
    private int dockShown() {
        boolean wanted = dockVisible || docks.stream().anyMatch(d -> d.side().equals("right"));
        return wanted && cols >= sidebarShown() + dockWidth + 30 ? dockWidth : 0;
    }

    /** Recomputes the stage and attaches, resizes or detaches pane streams to match it. */
    private void syncViews() {
        int left = sidebarShown();
        int x0 = left == 0 ? 0 : left + 1;
        int right = dockShown();
        stage = new Layout.Rect(x0, 1, Math.max(1, cols - x0 - right), Math.max(1, rows - 2));
        layout = Layout.of(activeTab(), stage);
        if (offline) {
            return;
        }
        Set<String> want = new HashSet<>();
        for (Layout.Place p : layout.places.values()) {
            Layout.Rect c = p.content();
            if (c.w() < 1 || c.h() < 1) {
                continue;
            }
            want.add(p.pane());
            PaneView v = views.get(p.pane());
            if (v == null || v.ended()) {
                PaneView old = v;
                PaneView nv = new PaneView(uhp, p.pane(), c.w(), c.h(), this);
                views.put(p.pane(), nv);
                worker.execute(() -> {
                    try {
                        nv.start();
                        post(() -> failing.remove(nv.pane));
                    } catch (IOException e) {
                        post(() -> {
                            if (views.get(nv.pane) == nv) {
                                // keep the last picture (dimmed) and try again shortly: the
                                // terminal bundle may be restarting under a live server
                                if (old != null) {
                                    views.put(nv.pane, old);
                                } else {
                                    views.remove(nv.pane);
                                }
                                retryAt = System.currentTimeMillis() + RETRY_MS;
                            }
                            if (!offline && failing.add(nv.pane)) {
                                toast("pane " + nv.pane + ": " + e.getMessage(), true);
                            }
                        });
                    }
                });
            } else {
                v.resize(c.w(), c.h());
            }
        }
        views.entrySet().removeIf(e -> {
            if (!want.contains(e.getKey())) {
                e.getValue().detach();
                e.getValue().close();
                return true;
            }
            return false;
        });
    }

    @Override
    public void changed(PaneView view) {
        redraw();
    }

    @Override
    public void line(PaneView view, JsonNode line) {
        post(() -> {
            if (line.isTextual()) {
                switch (line.asText()) {
                    case "bell" -> {
                        if (layout.places.containsKey(view.pane)) {
                            outer.write("\007");
                        }
                    }
                    case "read_clipboard_image" -> {
                        ObjectNode n = JsonUhp.JSON.createObjectNode().put("notice", "no image on the clipboard: the TUI cannot read it");
                        view.send(n);
                    }
                    default -> { }
                }
            } else if (line.has("set_clipboard")) {
                copyToClipboard(line.get("set_clipboard").asText());
            } else if (line.has("error")) {
                toast(line.get("error").asText(), true);
            } else if (line.has("file_put")) {
                toast("pasted " + line.get("file_put").path("path").asText(), false);
            }
        });
    }

    @Override
    public void ended(PaneView view, String reason) {
        post(() -> {
            if (views.get(view.pane) == view) {
                if (reason.equals("pane closed")) {
                    views.remove(view.pane);
                } else {
                    // Keep the last picture (dimmed while the server is away); the next
                    // snapshot reattaches, or the event stream finds the server gone.
                    requestSnapshot();
                }
            }
            chrome = true;
        });
    }

    /** OSC 52: the outer terminal puts the text on the clipboard of the person's machine. */
    private void copyToClipboard(String text) {
        outer.write("\033]52;c;" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "\007");
        toast("copied " + text.codePointCount(0, text.length()) + " characters", false);
    }

    // ---------------------------------------------------------------- drawing

    private void draw() {
        if (!chrome && shown != null && shown.cols == cols && shown.rows == rows && mode != Mode.HELP) {
            drawCells();
            return;
        }
        chrome = false;
        Canvas c = new Canvas(cols, rows);
        bench.hits.clear();
        spots.clear();
        Model.Workspace ws = model.active();
        Model.Tab tab = activeTab();
        String focused = focusedPane();
        List<BarPainter.Placed> top = BarPainter.fit(widgets, "top-right",
                BarPainter.room(cols, Workbench.tabsWidth(ws, activity, bells) + 2));
        int topWidth = BarPainter.width(top);
        bench.tabBar(c, ws, activity, bells, topWidth == 0 ? 0 : topWidth + 2);
        BarPainter.paint(c, theme, cols - 1 - topWidth, 0, top, theme.bar, spots);
        int left = sidebarShown();
        if (left > 0) {
            List<ModuleUi.Dock> own = ModuleUi.side(docks, "left");
            int[] heights = DockPainter.layout(1 + model.workspaces.size(), own, rows - 2);
            bench.sidebar(c, model, 1, left, rows - 2, heights[0]);
            DockPainter.paint(c, theme, own, 0, 1 + heights[0], left, heights, true, spots);
        }
        int right = dockShown();
        if (right > 0) {
            List<ModuleUi.Dock> own = ModuleUi.side(docks, "right");
            bench.rightSidebar(c, cols - right, 1, right, rows - 2, own.isEmpty());
            DockPainter.paint(c, theme, own, cols - right + 1, 1, right - 1, DockPainter.layout(-1, own, rows - 2), false, spots);
        }
        if (tab != null) {
            bench.frames(c, layout, tab, focused, activity);
            for (Layout.Place p : layout.places.values()) {
                Layout.Rect r = p.content();
                if (copy != null && p.pane().equals(copy.pane)) {
                    copy.paint(c, r, theme.copyText, theme.copySelection);
                    c.text(r.x(), p.all().y(), Canvas.clip(" " + copy.header(), r.w()), theme.prefix, r.w());
                    continue;
                }
                PaneView v = views.get(p.pane());
                if (v != null) {
                    v.paint(c, r.x(), r.y(), r.w(), r.h(), offline || v.ended());
                    cursor(c, p, v, focused);
                }
            }
        } else {
            String empty = offline ? "waiting for the server…"
                    : ws == null ? "no workspace: " + keys.prefixChord() + " " + keys.chord("new_tab") + " opens one here"
                    : "no tab left: " + keys.prefixChord() + " " + keys.chord("new_tab") + " opens a shell";
            c.text(stage.x() + 2, stage.y() + 1, empty, theme.barDim, stage.w() - 2);
        }
        bottomLine(c);
        overlays(c, spots);
        if (mode == Mode.HELP) {
            bench.overlay(c, "keys (after " + keys.prefixChord() + ")  — any key closes", helpLines());
            c.cursorX = -1;
        }
        String out = writer.diff(shown, c, null);
        outer.write(out);
        shown = c;
    }

    /** Only pane cells changed: repaint the rows the frames touched, and send their difference. */
    private void drawCells() {
        Canvas c = shown.copy();
        boolean[] touched = new boolean[rows];
        String focused = focusedPane();
        c.cursorX = -1;
        for (Layout.Place p : layout.places.values()) {
            PaneView v = views.get(p.pane());
            if (v == null || copy != null && p.pane().equals(copy.pane)) {
                continue;
            }
            Layout.Rect r = p.content();
            v.paintDamage(c, r.x(), r.y(), r.w(), r.h(), offline || v.ended(), touched);
            cursor(c, p, v, focused);
        }
        if (copy != null) {
            c.cursorX = shown.cursorX;
            c.cursorY = shown.cursorY;
            c.cursorShape = shown.cursorShape;
        }
        if (!toasts.isEmpty() || !notices.isEmpty() || menu != null) {
            overlays(c, new ArrayList<>()); // a pane row under a toast must not wipe it out
        }
        if (mode == Mode.PROMPT) {
            c.cursorX = shown.cursorX;
            c.cursorY = shown.cursorY;
            c.cursorShape = shown.cursorShape;
        }
        outer.write(writer.diff(shown, c, touched));
        shown = c;
    }

    private void cursor(Canvas c, Layout.Place p, PaneView v, String focused) {
        Layout.Rect r = p.content();
        if (p.pane().equals(focused) && !offline && mode != Mode.PROMPT && v.cursorX() >= 0
                && v.cursorX() < r.w() && v.cursorY() < r.h()) {
            c.cursorX = r.x() + v.cursorX();
            c.cursorY = r.y() + v.cursorY();
            c.cursorShape = v.cursorShape();
        }
    }

    /** Notifications above the bottom line, toasts above them, then an open menu: what lies over the panes. */
    private void overlays(Canvas c, List<ModuleUi.Spot> into) {
        int used = NoticePainter.paint(c, theme, notices, rows - 2, into);
        bench.toasts(c, toasts, rows - 2 - used);
        if (menu != null) {
            menu.paint(c, theme);
        }
    }

    private void bottomLine(Canvas c) {
        String p = keys.prefixChord();
        String text;
        long style = theme.prefix;
        switch (mode) {
            case PROMPT -> {
                text = prompt.label + prompt.text();
                style = theme.bar;
            }
            case CONFIRM -> text = confirmText + " (y/n)";
            case PREFIX -> text = " " + p + "  " + keys.chord("split_right") + " split right  "
                    + keys.chord("split_down") + " split down  arrows focus  C-arrows resize  "
                    + keys.chord("zoom") + " zoom  " + keys.chord("new_tab") + " tab  "
                    + keys.chord("copy_mode") + " copy  " + keys.chord("command") + " command  "
                    + keys.chord("detach") + " detach  " + keys.chord("help") + " help";
            case COPY -> text = " copy mode: arrows/hjkl move  / ? search  n N again  space select  enter copy  q quit";
            case MENU -> text = " menu: Up/Down choose  Enter run  Esc close";
            default -> {
                text = " " + p + " then:  " + keys.chord("split_right") + " split│  "
                        + keys.chord("split_down") + " split─  arrows focus  " + keys.chord("zoom") + " zoom  "
                        + keys.chord("new_tab") + " tab  " + keys.chord("copy_mode") + " copy  "
                        + keys.chord("command") + " command  " + keys.chord("detach") + " detach  "
                        + keys.chord("help") + " help";
                style = theme.bar;
            }
        }
        // a prompt or a question needs the whole line: the bottom-right widgets wait
        boolean widgetsShow = mode != Mode.PROMPT && mode != Mode.CONFIRM;
        String version = Workbench.versionLabel(this.version, offline);
        List<BarPainter.Placed> placed = widgetsShow ? BarPainter.fit(widgets, "bottom-right",
                BarPainter.room(cols, Canvas.width(text) + Canvas.width(version) + 2)) : List.of();
        int w = BarPainter.width(placed);
        int vx = bench.bottom(c, text, style, this.version, offline, w == 0 ? 0 : w + 1);
        BarPainter.paint(c, theme, vx - 1 - w, rows - 1, placed, theme.bar, spots);
        if (mode == Mode.PROMPT) {
            c.cursorX = Math.min(c.cols - 1, Canvas.width(prompt.label) + Canvas.width(prompt.beforeCursor()));
            c.cursorY = c.rows - 1;
            c.cursorShape = 6;
        } else if (mode == Mode.CONFIRM) {
            c.cursorX = -1;
        }
    }

    private List<String> helpLines() {
        List<String> l = new ArrayList<>();
        for (String a : Keymap.DEFAULTS.keySet()) {
            l.add(String.format("%-8s %s", keys.chord(a), Keymap.HELP.get(a)));
        }
        l.add(String.format("%-8s %s", "0-9", "select tab 1–10"));
        l.add(String.format("%-8s %s", keys.prefixChord(), "send the prefix key itself to the pane"));
        l.add("mouse: click focuses a pane, tab or workspace; drag a border to resize; wheel scrolls");
        l.add("       click a dock row, widget or notification: its action; right-click a dock row: its menu");
        return l;
    }

    // ---------------------------------------------------------------- input

    /**
     * The input thread only reads: bytes go to the UI thread, which decodes them, so the
     * decoder and its Escape deadline have one owner. A full queue blocks this thread (the
     * terminal then holds the person's keys) rather than dropping input.
     */
    private void readInput() {
        byte[] buf = new byte[16384];
        try {
            while (running) {
                int n = outer.read(buf);
                if (n == Outer.STOPPED) {
                    return;
                }
                if (n < 0) {
                    post(() -> quit("[the terminal went away]"));
                    return;
                }
                byte[] chunk = java.util.Arrays.copyOf(buf, n);
                queue.put(() -> decode(chunk));
            }
        } catch (IOException e) {
            post(() -> quit("[input failed: " + e.getMessage() + "]"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void decode(byte[] chunk) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(chunk);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(chunk.length + 4);
        if (utf8Pending.position() > 0) {
            // the tail of a character cut by the previous read
            java.nio.ByteBuffer joined = java.nio.ByteBuffer.allocate(utf8Pending.position() + chunk.length);
            utf8Pending.flip();
            joined.put(utf8Pending).put(chunk).flip();
            utf8Pending.clear();
            in = joined;
            out = java.nio.CharBuffer.allocate(in.remaining() + 4);
        }
        utf8.decode(in, out, false);
        utf8Pending.put(in); // at most 3 bytes of an unfinished character
        out.flip();
        char[] chars = new char[out.remaining()];
        out.get(chars);
        for (Input i : decoder.feed(chars, chars.length)) {
            handle(i);
        }
        escapeDeadline = decoder.pendingEscape() ? System.currentTimeMillis() + ESC_MS : 0;
    }

    private void quit(String message) {
        exitMessage = message;
        running = false;
    }

    void handle(Input in) {
        if (holdUntil > 0 && !(in instanceof Input.ModeReport)) {
            if (held.size() >= MAX_HELD) {
                return; // past the bound a burst is cut, as a full queue would
            }
            held.add(in);
            return;
        }
        boolean passed = mode == Mode.NORMAL && (in instanceof Input.Paste
                || in instanceof Input.Key k && !KeyNames.matches(keys.prefix, k));
        if (!passed) {
            chrome = true; // keys the workbench itself answers change what it shows
        }
        if (in instanceof Input.ModeReport r) {
            if (r.mode() == 2026 && (r.value() == 1 || r.value() == 2)) {
                writer.synchronizedOutput(true);
            }
        } else if (in instanceof Input.Paste p) {
            if (mode == Mode.PROMPT) {
                prompt.insert(p.text().replace('\n', ' '));
            } else if (mode == Mode.NORMAL) {
                PaneView v = views.get(focusedPane());
                if (v != null) {
                    ObjectNode n = JsonUhp.JSON.createObjectNode();
                    n.putObject("input").put("paste", p.text());
                    v.send(n);
                }
            }
        } else if (in instanceof Input.Mouse m) {
            mouse(m);
        } else if (in instanceof Input.Key k) {
            key(k);
        }
    }

    private void key(Input.Key k) {
        switch (mode) {
            case HELP -> mode = Mode.NORMAL;
            case PROMPT -> promptKey(k);
            case CONFIRM -> {
                mode = Mode.NORMAL;
                if (k.isChar("y") || k.isChar("Y")) {
                    confirmAction.run();
                }
            }
            case COPY -> copyKey(k);
            case MENU -> menuKey(k);
            case PREFIX -> {
                mode = Mode.NORMAL;
                String action = keys.action(k);
                if (action != null) {
                    act(action);
                }
            }
            default -> {
                if (KeyNames.matches(keys.prefix, k)) {
                    mode = Mode.PREFIX;
                    prefixDeadline = System.currentTimeMillis() + keys.prefixTimeoutMs;
                    return;
                }
                sendKey(k);
            }
        }
    }

    private void sendKey(Input.Key k) {
        PaneView v = views.get(focusedPane());
        if (v != null) {
            v.sendLine(k.toAttach());
        }
    }

    private void act(String action) {
        String pane = focusedPane();
        Model.Tab tab = activeTab();
        Model.Workspace ws = model.active();
        switch (action) {
            case "split_right" -> focusRequest("pane.split", withPane(pane).put("right", true));
            case "split_down" -> focusRequest("pane.split", withPane(pane).put("down", true));
            case "focus_left", "focus_right", "focus_up", "focus_down" ->
                    focusRequest("pane.focus_direction", withPane(pane).put("direction", action.substring(6)));
            case "resize_left", "resize_right", "resize_up", "resize_down" ->
                    request("pane.resize", withPane(pane).put("direction", action.substring(7)).put("cells", 1));
            case "next_pane" -> {
                if (tab != null && pane != null && tab.panes().size() > 1) {
                    List<String> ids = new ArrayList<>(layout.places.keySet());
                    if (ids.isEmpty()) {
                        ids = new ArrayList<>(tab.panes().keySet());
                    }
                    int i = ids.indexOf(pane);
                    focusRequest("pane.focus", JsonUhp.params().put("pane", ids.get((i + 1) % ids.size())));
                }
            }
            case "zoom" -> request("pane.zoom", withPane(pane));
            case "new_tab" -> {
                if (ws != null) {
                    focusRequest("tab.new", JsonUhp.params().put("workspace_id", ws.id()));
                } else {
                    focusRequest("workspace.open", JsonUhp.params().put("cwd", System.getProperty("user.dir")));
                }
            }
            case "next_tab", "prev_tab" -> {
                if (ws != null && tab != null && !ws.tabs().isEmpty()) {
                    int i = ws.tabs().indexOf(tab) + (action.equals("next_tab") ? 1 : -1);
                    Model.Tab t = ws.tabs().get(Math.floorMod(i, ws.tabs().size()));
                    focusRequest("tab.focus", JsonUhp.params().put("tab_id", t.id()));
                }
            }
            case "rename_tab" -> {
                if (tab != null) {
                    String id = tab.id();
                    startPrompt("rename tab: ", tab.name() == null ? "" : tab.name(),
                            name -> request("tab.rename", JsonUhp.params().put("tab_id", id).put("name", name)));
                }
            }
            case "close_pane" -> {
                if (pane != null) {
                    confirmText = " close pane " + pane + "?";
                    confirmAction = () -> focusRequest("pane.close", JsonUhp.params().put("pane", pane));
                    mode = Mode.CONFIRM;
                }
            }
            case "next_workspace", "prev_workspace" -> {
                List<Model.Workspace> order = model.displayOrder();
                if (ws != null && order.size() > 1) {
                    int i = order.indexOf(ws) + (action.equals("next_workspace") ? 1 : -1);
                    focusRequest("workspace.focus", JsonUhp.params().put("workspace_id", order.get(Math.floorMod(i, order.size())).id()));
                }
            }
            case "toggle_sidebar" -> {
                ObjectNode patch = JsonUhp.params();
                patch.putObject("patch").putObject("sidebars").putObject("left").put("visible", !sidebarVisible);
                request("config.patch", patch);
            }
            case "copy_mode" -> startCopy(pane);
            case "command" -> startPrompt(":", "", this::runCommand);
            case "detach" -> quit("[detached (from session " + session + ")]");
            case "help" -> mode = Mode.HELP;
            case "send_prefix" -> sendKey(keys.prefix);
            default -> {
                if (action.startsWith("select_tab_") && ws != null) {
                    int n = Integer.parseInt(action.substring("select_tab_".length()));
                    if (n <= ws.tabs().size()) {
                        focusRequest("tab.focus", JsonUhp.params().put("tab_id", ws.tabs().get(n - 1).id()));
                    }
                }
            }
        }
    }

    private static ObjectNode withPane(String pane) {
        ObjectNode p = JsonUhp.params();
        if (pane != null) {
            p.put("pane", pane);
        }
        return p;
    }

    // ---------------------------------------------------------------- prompt, command line, copy mode

    private void startPrompt(String label, String initial, java.util.function.Consumer<String> done) {
        prompt = new Prompt(label, initial, done);
        mode = Mode.PROMPT;
    }

    private void promptKey(Input.Key k) {
        switch (prompt.key(k)) {
            case DONE -> {
                mode = copy != null ? Mode.COPY : Mode.NORMAL;
                prompt.done.accept(prompt.text());
            }
            case CANCEL -> mode = copy != null ? Mode.COPY : Mode.NORMAL;
            default -> { }
        }
    }

    /** {@code :} runs any artu command in this process against this server; its output becomes toasts. */
    private void runCommand(String line) {
        List<String> argv;
        try {
            argv = Prompt.split(line);
        } catch (IllegalArgumentException e) {
            toast(e.getMessage(), true);
            return;
        }
        if (argv.isEmpty()) {
            return;
        }
        if (argv.get(0).equals("artu")) {
            argv = argv.subList(1, argv.size());
        }
        String[] args = argv.toArray(new String[0]);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("ARTUDITU_SOCKET_PATH", uhp.socket().toString());
        String pane = focusedPane();
        if (pane != null) {
            env.put("ARTUDITU_PANE_ID", pane);
        }
        Model.Workspace ws = model.active();
        if (ws != null) {
            env.put("ARTUDITU_WORKSPACE_ID", ws.id());
        }
        worker.execute(() -> {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            int status = io.artuditu.cli.Artu.run(args, env, new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8).strip();
            String e = err.toString(StandardCharsets.UTF_8).strip();
            post(() -> {
                if (!e.isEmpty()) {
                    toast(e.lines().findFirst().orElse(e), true);
                }
                if (!o.isEmpty()) {
                    toast(o.length() > 300 ? o.substring(0, 300) + "…" : o, false);
                } else if (status == 0 && e.isEmpty()) {
                    toast("ok", false);
                }
            });
        });
    }

    private void startCopy(String pane) {
        if (pane == null) {
            return;
        }
        worker.execute(() -> {
            try {
                JsonNode r = uhp.call("pane.read", JsonUhp.params().put("pane", pane).put("source", "all"));
                String text = r.path("text").asText("");
                post(() -> {
                    copy = new CopyMode(pane, text);
                    mode = Mode.COPY;
                    chrome = true;
                });
            } catch (IOException e) {
                post(() -> toast("copy mode: " + e.getMessage(), true));
            }
        });
    }

    private void copyKey(Input.Key k) {
        switch (copy.key(k)) {
            case EXIT -> {
                copy = null;
                mode = Mode.NORMAL;
            }
            case COPY -> {
                copyToClipboard(copy.selection());
                copy = null;
                mode = Mode.NORMAL;
            }
            case SEARCH -> {
                int dir = "?".equals(copy.status) ? 1 : -1;
                CopyMode cm = copy;
                startPrompt(dir < 0 ? "search up: " : "search down: ", cm.search == null ? "" : cm.search,
                        term -> cm.find(term, dir));
            }
            default -> { }
        }
    }

    // ---------------------------------------------------------------- what modules show

    /** The feed's answers, on the UI thread. */
    private final class Surfaces implements ModuleFeed.Sink {
        @Override
        public void bars(List<ModuleUi.Widget> w) {
            widgets = w;
            chrome = true;
        }

        @Override
        public void docks(List<ModuleUi.Dock> d) {
            int right = dockShown();
            docks = d;
            if (menu != null && d.stream().noneMatch(x -> menu.owner.equals(x.owner()))) {
                closeMenu(); // its module's docks are gone: its actions would only fail
            }
            if (dockShown() != right) {
                syncViews();
            }
            chrome = true;
        }

        @Override
        public void notices(List<ModuleUi.Notice> n) {
            notices = n;
            chrome = true;
        }
    }

    /** The spot under (x, y) from the last paint; what was painted last (notifications, over panes and docks) wins. */
    private ModuleUi.Spot spotAt(int x, int y) {
        for (int i = spots.size() - 1; i >= 0; i--) {
            if (spots.get(i).contains(x, y)) {
                return spots.get(i);
            }
        }
        return null;
    }

    /** Runs a module action on the worker without waiting for it; a refusal becomes a toast. */
    private void invoke(ModuleUi.Invoke inv) {
        worker.execute(() -> {
            try {
                JsonNode r = uhp.call("module.action.invoke", inv.params());
                String error = r.path("error").asText("");
                if (!error.isEmpty()) {
                    post(() -> toast(inv.module() + " " + inv.action() + ": " + error, true));
                }
            } catch (IOException e) {
                post(() -> toast(inv.module() + " " + inv.action() + ": " + e.getMessage(), true));
            }
        });
    }

    private void openMenu(ModuleUi.Spot spot, Input.Mouse m) {
        if (mode != Mode.NORMAL && mode != Mode.PREFIX && mode != Mode.MENU) {
            return; // a prompt, a question or copy mode owns the keys
        }
        menu = new Menu(spot.owner(), spot.menu(), spot.rowValue(), m.x(), m.y());
        mode = Mode.MENU;
        chrome = true;
    }

    private void closeMenu() {
        menu = null;
        if (mode == Mode.MENU) {
            mode = Mode.NORMAL;
        }
        chrome = true;
    }

    private void menuKey(Input.Key k) {
        switch (menu.key(k)) {
            case RUN -> {
                ModuleUi.Invoke inv = menu.invoke(menu.selected);
                closeMenu();
                invoke(inv);
            }
            case CLOSE -> closeMenu();
            default -> { }
        }
    }

    /** A press while the menu is open: an entry runs; the frame or a divider does nothing; outside closes it. */
    private void menuClick(Input.Mouse m) {
        int i = menu.entryAt(m.x(), m.y());
        if (i >= 0 && m.button() == 0) {
            ModuleUi.Invoke inv = menu.invoke(i);
            closeMenu();
            invoke(inv);
            return;
        }
        if (menu.contains(m.x(), m.y())) {
            return;
        }
        closeMenu();
        ModuleUi.Spot spot = spotAt(m.x(), m.y());
        if (m.button() == 2 && spot != null && !spot.menu().isEmpty()) {
            openMenu(spot, m); // another row's menu, at once
        }
    }

    // ---------------------------------------------------------------- mouse

    private void mouse(Input.Mouse m) {
        if (mode == Mode.HELP) {
            mode = Mode.NORMAL;
            return;
        }
        if (menu != null && m.kind() != Input.Mouse.Kind.WHEEL_UP && m.kind() != Input.Mouse.Kind.WHEEL_DOWN) {
            if (m.kind() == Input.Mouse.Kind.DOWN) {
                menuClick(m);
            }
            return; // an open menu takes the mouse: a release or drag must not reach what lies under it
        }
        switch (m.kind()) {
            case DOWN -> mouseDown(m);
            case DRAG -> mouseDrag(m);
            case UP -> mouseUp(m);
            case WHEEL_UP, WHEEL_DOWN -> {
                Layout.Place p = layout.at(m.x(), m.y());
                PaneView v = p == null ? null : views.get(p.pane());
                if (v != null && p.content().contains(m.x(), m.y())) {
                    ObjectNode n = JsonUhp.JSON.createObjectNode();
                    n.putObject("input").putObject(m.kind() == Input.Mouse.Kind.WHEEL_UP ? "scroll_up" : "scroll_down")
                            .put("x", m.x() - p.content().x()).put("y", m.y() - p.content().y());
                    v.send(n);
                }
            }
            default -> { }
        }
    }

    private void mouseDown(Input.Mouse m) {
        ModuleUi.Spot spot = spotAt(m.x(), m.y());
        if (m.button() == 2) {
            if (spot != null && !spot.menu().isEmpty()) {
                openMenu(spot, m);
            }
            return;
        }
        if (m.button() != 0) {
            return;
        }
        if (spot != null) {
            if (spot.click() != null) {
                invoke(spot.click());
            } else if (!spot.menu().isEmpty()) {
                openMenu(spot, m); // a row with a menu and no action of its own: a left click opens it too
            }
            return;
        }
        for (Workbench.Hit h : bench.hits) {
            if ((h.y() == m.y() || h.y() < 0 && m.y() > 0 && m.y() < rows - 1) && m.x() >= h.x0() && m.x() < h.x1()) {
                switch (h.kind()) {
                    case "tab" -> {
                        focusRequest("tab.focus", JsonUhp.params().put("tab_id", h.id()));
                        return;
                    }
                    case "workspace" -> {
                        focusRequest("workspace.focus", JsonUhp.params().put("workspace_id", h.id()));
                        return;
                    }
                    case "sidebar_edge" -> {
                        draggingSidebar = true;
                        dragSidebarWidth = sidebarWidth;
                        return;
                    }
                    default -> { }
                }
            }
        }
        Layout.Divider d = layout.dividerAt(m.x(), m.y());
        if (d != null && d.horizontal()) {
            dragging = d;
            return;
        }
        Layout.Place p = layout.at(m.x(), m.y());
        if (p == null) {
            return;
        }
        if (!p.pane().equals(focusedPane())) {
            focusRequest("pane.focus", JsonUhp.params().put("pane", p.pane()));
        }
        if (d != null) {
            dragging = d; // a stacked pane's header is the border above it
            return;
        }
        PaneView v = views.get(p.pane());
        if (v != null && p.content().contains(m.x(), m.y()) && copy == null) {
            mouseTarget = v;
            mouseRect = p.content();
            sendMouse(v, "mouse_down", m);
        }
    }

    private void mouseDrag(Input.Mouse m) {
        if (draggingSidebar) {
            dragSidebarWidth = Math.max(12, Math.min(80, m.x()));
            syncViews();
            return;
        }
        if (dragging != null) {
            Layout.Rect r = dragging.parent();
            double ratio = dragging.horizontal()
                    ? (double) (m.x() - r.x()) / Math.max(1, r.w() - 1)
                    : (double) (m.y() - r.y()) / Math.max(1, r.h());
            ratio = Math.max(0.05, Math.min(0.95, ratio));
            Model.Tab t = activeTab();
            if (t != null) {
                ObjectNode p = JsonUhp.params().put("tab_id", t.id()).put("ratio", ratio);
                ArrayNode path = p.putArray("path");
                dragging.path().forEach(path::add);
                request("layout.set_split_ratio", p);
            }
            return;
        }
        if (mouseTarget != null) {
            sendMouse(mouseTarget, "mouse_drag", m);
        }
    }

    private void mouseUp(Input.Mouse m) {
        if (draggingSidebar) {
            draggingSidebar = false;
            ObjectNode patch = JsonUhp.params();
            patch.putObject("patch").putObject("sidebars").putObject("left").put("width", dragSidebarWidth);
            sidebarWidth = dragSidebarWidth;
            request("config.patch", patch);
            return;
        }
        if (dragging != null) {
            dragging = null;
            return;
        }
        if (mouseTarget != null) {
            sendMouse(mouseTarget, "mouse_up", m);
            mouseTarget = null;
        }
    }

    private void sendMouse(PaneView v, String kind, Input.Mouse m) {
        Layout.Rect r = mouseRect;
        int x = Math.max(0, Math.min(r.w() - 1, m.x() - r.x()));
        int y = Math.max(0, Math.min(r.h() - 1, m.y() - r.y()));
        ObjectNode n = JsonUhp.JSON.createObjectNode();
        n.putObject("input").putObject(kind).put("x", x).put("y", y);
        v.send(n);
    }

    /** The outer terminal: what App needs of it (JLine in {@link Tui}, a fake nowhere). */
    interface Outer {
        int cols();

        int rows();

        int colorDepth();

        void onResize(Runnable r);

        /** Returned by {@link #read} once {@link #stopReading()} was called. */
        int STOPPED = -2;

        /** Reads what the person typed into {@code buf}, blocking; -1 at end of input. */
        int read(byte[] buf) throws IOException;

        /** Makes a blocked {@link #read} return {@link #STOPPED} soon, having read nothing more. */
        void stopReading();

        void write(String s);
    }

}
