package io.artuditu.tui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the mouse does: a click focuses a pane, tab or workspace, runs a module's spot or
 * opens its menu; a drag moves a split's border or the sidebar's; the wheel and whatever a
 * pane's program asked for go to that pane's stream. An open menu takes every press.
 * UI thread only.
 */
final class MouseActions {
    private final App app;
    /** The border being dragged, or null. */
    private Layout.Divider dragging;
    /** The pane a press went to: its drag and release follow it there, clamped to its place. */
    private PaneView mouseTarget;
    private Layout.Rect mouseRect;

    MouseActions(App app) {
        this.app = app;
    }

    void handle(Input.Mouse m) {
        if (app.mode == App.Mode.HELP) {
            app.mode = App.Mode.NORMAL;
            return;
        }
        if (app.prompts.menu() != null && m.kind() != Input.Mouse.Kind.WHEEL_UP && m.kind() != Input.Mouse.Kind.WHEEL_DOWN) {
            if (m.kind() == Input.Mouse.Kind.DOWN) {
                app.prompts.menuClick(m);
            }
            return; // an open menu takes the mouse: a release or drag must not reach what lies under it
        }
        switch (m.kind()) {
            case DOWN -> down(m);
            case DRAG -> drag(m);
            case UP -> up(m);
            case WHEEL_UP, WHEEL_DOWN -> {
                Layout.Place p = app.panes.layout.at(m.x(), m.y());
                PaneView v = p == null ? null : app.panes.view(p.pane());
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

    private void down(Input.Mouse m) {
        ModuleUi.Spot spot = app.painter.spotAt(m.x(), m.y());
        if (m.button() == 2) {
            if (spot != null && !spot.menu().isEmpty()) {
                app.prompts.openMenu(spot, m);
            }
            return;
        }
        if (m.button() != 0) {
            return;
        }
        if (spot != null) {
            if (spot.click() != null) {
                app.prompts.invoke(spot.click());
            } else if (!spot.menu().isEmpty()) {
                app.prompts.openMenu(spot, m); // a row with a menu and no action of its own: a left click opens it too
            }
            return;
        }
        Panes panes = app.panes;
        for (Workbench.Hit h : app.painter.hits()) {
            if ((h.y() == m.y() || h.y() < 0 && m.y() > 0 && m.y() < panes.rows - 1) && m.x() >= h.x0() && m.x() < h.x1()) {
                switch (h.kind()) {
                    case "tab" -> {
                        app.requests.focusRequest("tab.focus", JsonUhp.params().put("tab_id", h.id()));
                        return;
                    }
                    case "workspace" -> {
                        app.requests.focusRequest("workspace.focus", JsonUhp.params().put("workspace_id", h.id()));
                        return;
                    }
                    case "sidebar_edge" -> {
                        panes.startSidebarDrag();
                        return;
                    }
                    default -> { }
                }
            }
        }
        Layout.Divider d = panes.layout.dividerAt(m.x(), m.y());
        if (d != null && d.horizontal()) {
            dragging = d;
            return;
        }
        Layout.Place p = panes.layout.at(m.x(), m.y());
        if (p == null) {
            return;
        }
        if (!p.pane().equals(app.server.focusedPane())) {
            app.requests.focusRequest("pane.focus", JsonUhp.params().put("pane", p.pane()));
        }
        if (d != null) {
            dragging = d; // a stacked pane's header is the border above it
            return;
        }
        PaneView v = panes.view(p.pane());
        if (v != null && p.content().contains(m.x(), m.y()) && app.prompts.copy() == null) {
            mouseTarget = v;
            mouseRect = p.content();
            send(v, "mouse_down", m);
        }
    }

    private void drag(Input.Mouse m) {
        if (app.panes.draggingSidebar()) {
            app.panes.dragSidebar(Math.max(12, Math.min(80, m.x())));
            return;
        }
        if (dragging != null) {
            Layout.Rect r = dragging.parent();
            double ratio = dragging.horizontal()
                    ? (double) (m.x() - r.x()) / Math.max(1, r.w() - 1)
                    : (double) (m.y() - r.y()) / Math.max(1, r.h());
            ratio = Math.max(0.05, Math.min(0.95, ratio));
            Model.Tab t = app.server.activeTab();
            if (t != null) {
                ObjectNode p = JsonUhp.params().put("tab_id", t.id()).put("ratio", ratio);
                ArrayNode path = p.putArray("path");
                dragging.path().forEach(path::add);
                app.requests.request("layout.set_split_ratio", p);
            }
            return;
        }
        if (mouseTarget != null) {
            send(mouseTarget, "mouse_drag", m);
        }
    }

    private void up(Input.Mouse m) {
        if (app.panes.draggingSidebar()) {
            int width = app.panes.endSidebarDrag();
            ObjectNode patch = JsonUhp.params();
            patch.putObject("patch").putObject("sidebars").putObject("left").put("width", width);
            app.requests.request("config.patch", patch);
            return;
        }
        if (dragging != null) {
            dragging = null;
            return;
        }
        if (mouseTarget != null) {
            send(mouseTarget, "mouse_up", m);
            mouseTarget = null;
        }
    }

    private void send(PaneView v, String kind, Input.Mouse m) {
        Layout.Rect r = mouseRect;
        int x = Math.max(0, Math.min(r.w() - 1, m.x() - r.x()));
        int y = Math.max(0, Math.min(r.h() - 1, m.y() - r.y()));
        ObjectNode n = JsonUhp.JSON.createObjectNode();
        n.putObject("input").putObject(kind).put("x", x).put("y", y);
        v.send(n);
    }
}
