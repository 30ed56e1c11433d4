package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The stage and its panes: the terminal's size, the sidebars' widths, the active tab's
 * split tree laid out on what they leave ({@link Layout}), and one {@code attach.pane}
 * stream ({@link PaneView}) per visible pane, attached, resized or detached as the layout
 * changes. A stream's reader thread reports through the {@link PaneView.Listener} methods
 * here, which post to the UI thread (or, for cells, ask for a redraw); everything else runs
 * on the UI thread.
 */
final class Panes implements PaneView.Listener {
    /** A pane whose stream could not start is tried again after this long. */
    static final long RETRY_MS = 500;

    private final App app;
    private final JsonUhp uhp;
    private final Map<String, PaneView> views = new HashMap<>();
    /** Panes whose stream failed to start, each said once in a toast until it starts. */
    private final Set<String> failing = new HashSet<>();
    private long retryAt;
    int cols;
    int rows;
    Layout layout = new Layout();
    Layout.Rect stage = new Layout.Rect(0, 1, 1, 1);
    private boolean sidebarVisible = true;
    private int sidebarWidth = 28;
    private boolean dockVisible;
    private int dockWidth = 32;
    /** The sidebar's width while its border is dragged (saved to the config on release). */
    private boolean draggingSidebar;
    private int dragSidebarWidth;

    Panes(App app, JsonUhp uhp) {
        this.app = app;
        this.uhp = uhp;
    }

    void resize(int c, int r) {
        cols = c;
        rows = r;
    }

    /** The outer terminal changed size. */
    void resized() {
        resize(app.outer.cols(), app.outer.rows());
        app.painter.forgetShown();
        syncViews();
        app.chrome = true;
    }

    /** The config's {@code sidebars} table. */
    void configure(JsonNode c) {
        JsonNode sb = c.path("sidebars");
        sidebarVisible = sb.path("left").path("visible").asBoolean(true);
        sidebarWidth = sb.path("left").path("width").asInt(28);
        dockVisible = sb.path("right").path("visible").asBoolean(false);
        dockWidth = sb.path("right").path("width").asInt(32);
        syncViews();
        app.chrome = true;
    }

    boolean sidebarVisible() {
        return sidebarVisible;
    }

    int sidebarShown() {
        int w = draggingSidebar ? dragSidebarWidth : sidebarWidth;
        return sidebarVisible && cols >= w + 30 ? w : 0;
    }

    /** The right sidebar shows when the config says so, the FILES dock is open or a dock is mounted there, room permitting. */
    int dockShown() {
        boolean wanted = dockVisible || app.files.visible
                || app.surfaces.docks().stream().anyMatch(d -> d.side().equals("right"));
        return wanted && cols >= sidebarShown() + dockWidth + 30 ? dockWidth : 0;
    }

    boolean draggingSidebar() {
        return draggingSidebar;
    }

    void startSidebarDrag() {
        draggingSidebar = true;
        dragSidebarWidth = sidebarWidth;
    }

    void dragSidebar(int width) {
        dragSidebarWidth = width;
        syncViews();
    }

    /** Ends a drag of the sidebar's border; the width it ends at. */
    int endSidebarDrag() {
        draggingSidebar = false;
        sidebarWidth = dragSidebarWidth;
        return sidebarWidth;
    }

    /** Whether {@code pane} is laid out on the stage now. */
    boolean shows(String pane) {
        return layout.places.containsKey(pane);
    }

    PaneView view(String pane) {
        return views.get(pane);
    }

    /** Recomputes the stage and attaches, resizes or detaches pane streams to match it. */
    void syncViews() {
        int left = sidebarShown();
        int x0 = left == 0 ? 0 : left + 1;
        int right = dockShown();
        stage = new Layout.Rect(x0, 1, Math.max(1, cols - x0 - right), Math.max(1, rows - 2));
        layout = Layout.of(app.server.activeTab(), stage);
        if (app.server.offline) {
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
                app.requests.execute(() -> {
                    try {
                        nv.start();
                        app.post(() -> failing.remove(nv.pane));
                    } catch (IOException e) {
                        app.post(() -> {
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
                            if (!app.server.offline && failing.add(nv.pane)) {
                                app.toast("pane " + nv.pane + ": " + e.getMessage(), true);
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

    /** The earlier of {@code d} and the next retry of a stream that could not start. */
    long deadline(long d) {
        return retryAt > 0 ? Math.min(d, retryAt) : d;
    }

    void retryIfDue(long now) {
        if (retryAt > 0 && now >= retryAt) {
            retryAt = 0;
            syncViews();
            app.chrome = true;
        }
    }

    /** Detaches and closes every stream: the workbench is leaving. */
    void closeAll() {
        for (PaneView v : views.values()) {
            v.detach();
            v.close();
        }
    }

    /** A pane's cells changed. Its reader thread. */
    @Override
    public void changed(PaneView view) {
        app.redraw();
    }

    /** A line of a pane's stream other than a frame. Its reader thread. */
    @Override
    public void line(PaneView view, JsonNode line) {
        app.post(() -> {
            if (line.isTextual()) {
                switch (line.asText()) {
                    case "bell" -> {
                        if (shows(view.pane)) {
                            app.outer.write("\007");
                        }
                    }
                    case "read_clipboard_image" -> {
                        ObjectNode n = JsonUhp.JSON.createObjectNode().put("notice", "no image on the clipboard: the TUI cannot read it");
                        view.send(n);
                    }
                    default -> { }
                }
            } else if (line.has("set_clipboard")) {
                app.copyToClipboard(line.get("set_clipboard").asText());
            } else if (line.has("error")) {
                app.toast(line.get("error").asText(), true);
            } else if (line.has("file_put")) {
                app.toast("pasted " + line.get("file_put").path("path").asText(), false);
            }
        });
    }

    /** A pane's stream ended. Its reader thread. */
    @Override
    public void ended(PaneView view, String reason) {
        app.post(() -> {
            if (views.get(view.pane) == view) {
                if (reason.equals("pane closed")) {
                    views.remove(view.pane);
                } else {
                    // Keep the last picture (dimmed while the server is away); the next
                    // snapshot reattaches, or the event stream finds the server gone.
                    app.server.requestSnapshot();
                }
            }
            app.chrome = true;
        });
    }
}
