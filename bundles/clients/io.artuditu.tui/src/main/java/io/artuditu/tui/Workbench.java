package io.artuditu.tui;

import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.List;

/**
 * Paints the workbench's own chrome into a {@link Canvas}: the tab bar (leaving its right end
 * to the top-right widget region), the left sidebar's workspace list, the right sidebar's
 * frame, the focused tab's panes with their headers and borders, the bottom line (key
 * guidance, room for the bottom-right widget region, version) and toasts. What modules add
 * is painted by {@link BarPainter}, {@link DockPainter}, {@link NoticePainter} and
 * {@link Menu}, all in the colours of the same {@link Theme}. It only paints: every decision
 * about what to show is made by {@link Painter} and the parts of {@link App}.
 */
final class Workbench {
    /** What it paints with; the {@link Painter} sets it when the theme changes. UI thread only. */
    Theme theme = Theme.TERMINAL;

    /** Where things landed, for the mouse. */
    record Hit(int x0, int x1, int y, String kind, String id) {
    }

    final List<Hit> hits = new ArrayList<>();

    /** The most urgent agent state among a tab's panes, or null when none runs an agent. */
    static String tabState(Model.Tab t) {
        String best = null;
        int rank = 0;
        for (Model.Pane p : t.panes().values()) {
            int r = p.agentState() == null ? 0 : switch (p.agentState()) {
                case "blocked" -> 5;
                case "working" -> 4;
                case "done" -> 3;
                case "idle" -> 2;
                default -> 1;
            };
            if (r > rank) {
                rank = r;
                best = p.agentState();
            }
        }
        return best;
    }

    /** A tab's label in the bar: its position and name, then {@code +} (activity) or {@code !} (bell). */
    private static String tabLabel(Model.Tab t, java.util.Set<String> activity, java.util.Set<String> bells) {
        String mark = "";
        for (String p : t.panes().keySet()) {
            if (bells.contains(p)) {
                mark = "!";
                break;
            }
            if (activity.contains(p)) {
                mark = "+";
            }
        }
        return t.position() + ":" + Canvas.clip(t.label(), 24) + mark + " ";
    }

    private static String workspaceLabel(Model.Workspace ws) {
        String wsName = ws == null ? "artuditu" : ws.name() != null ? ws.name() : "workspace " + ws.index();
        return " " + Canvas.clip(wsName, 20) + " ";
    }

    /** The columns the workspace name and every tab would take, so the widget region knows what is left. */
    static int tabsWidth(Model.Workspace ws, java.util.Set<String> activity, java.util.Set<String> bells) {
        int w = Canvas.width(workspaceLabel(ws));
        if (ws != null) {
            for (Model.Tab t : ws.tabs()) {
                w += 1 + (tabState(t) != null ? 1 : 0) + Canvas.width(tabLabel(t, activity, bells));
            }
        }
        return w;
    }

    /** The tab bar; the right {@code reserve} columns are left to the top-right widget region. */
    void tabBar(Canvas c, Model.Workspace ws, java.util.Set<String> activity, java.util.Set<String> bells, int reserve) {
        c.fill(0, 0, c.cols, 1, Canvas.BLANK, theme.bar);
        int x = 0;
        x += c.text(x, 0, workspaceLabel(ws), theme.accent, c.cols - x);
        if (ws == null) {
            return;
        }
        int limit = c.cols - reserve;
        for (Model.Tab t : ws.tabs()) {
            if (x >= limit) {
                x += c.text(x, 0, "…", theme.barDim, limit + 1 - x);
                break;
            }
            boolean active = t.id().equals(ws.activeTab());
            long st = active ? theme.barActive : theme.bar;
            int x0 = x;
            x += c.text(x, 0, " ", st, limit - x);
            String state = tabState(t);
            if (state != null) {
                x += c.text(x, 0, "●", Style.withBg(theme.agent(state), Style.bg(st)), limit - x);
            }
            x += c.text(x, 0, tabLabel(t, activity, bells), st, limit - x);
            hits.add(new Hit(x0, x, 0, "tab", t.id()));
        }
    }

    /**
     * The left sidebar's background and border, and its workspace list in the first
     * {@code listHeight} rows (cut with "…N more" when they do not all fit).
     */
    void sidebar(Canvas c, Model m, int top, int width, int height, int listHeight) {
        c.fill(0, top, width, height, Canvas.BLANK, theme.sidebar);
        c.text(1, top, "WORKSPACES", theme.sidebar | Style.BOLD, width - 2);
        List<Model.Workspace> order = m.displayOrder();
        int room = Math.min(height, listHeight) - 1;
        int shown = order.size() <= room ? order.size() : Math.max(0, room - 1);
        int y = top + 1;
        for (Model.Workspace w : order.subList(0, shown)) {
            boolean active = w.id().equals(m.activeWorkspace);
            long st = active ? theme.sidebarActive : theme.sidebar;
            c.fill(0, y, width, 1, Canvas.BLANK, st);
            String name = (w.pinned() ? "^ " : "  ") + (w.name() != null ? w.name() : "workspace " + w.index());
            int x = c.text(0, y, Canvas.clip(name, width - 2), st, width - 1) + 1;
            for (Model.Tab t : w.tabs()) {
                for (Model.Pane p : t.panes().values()) {
                    if (x >= width - 1) {
                        break;
                    }
                    String g = p.agentState() == null ? "·" : "●";
                    x += c.text(x, y, g, Style.withBg(theme.agent(p.agentState()), Style.bg(st)), width - 1 - x);
                }
            }
            hits.add(new Hit(0, width, y, "workspace", w.id()));
            y++;
        }
        if (shown < order.size() && room > 0) {
            c.text(2, y, "…" + (order.size() - shown) + " more", theme.sidebarDim, width - 3);
        }
        // its border, which the mouse drags to resize
        for (int r = top; r < top + height; r++) {
            c.put(width, r, "│", 1, theme.border);
        }
        hits.add(new Hit(width, width + 1, -1, "sidebar_edge", null));
    }

    /** The right sidebar's background and border; docks paint over it, and without any it says so. */
    void rightSidebar(Canvas c, int x, int top, int width, int height, boolean empty) {
        c.fill(x, top, width, height, Canvas.BLANK, theme.sidebar);
        for (int r = top; r < top + height; r++) {
            c.put(x, r, "│", 1, theme.border);
        }
        if (empty) {
            c.text(x + 2, top, "no docks", theme.sidebarDim, width - 3);
        }
    }

    /** Pane headers and the borders between side-by-side panes. */
    void frames(Canvas c, Layout l, Model.Tab tab, String focused, java.util.Set<String> activity) {
        for (Layout.Divider d : l.dividers) {
            if (d.horizontal()) {
                for (int r = d.line().y(); r < d.line().y() + d.line().h(); r++) {
                    c.put(d.line().x(), r, "│", 1, theme.border);
                }
            }
        }
        for (Layout.Place p : l.places.values()) {
            boolean f = p.pane().equals(focused);
            long st = f ? theme.headerFocus : theme.header;
            Layout.Rect r = p.all();
            c.fill(r.x(), r.y(), r.w(), 1, Canvas.BLANK, st);
            Model.Pane mp = tab.panes().get(p.pane());
            String label = " " + p.pane() + " " + (mp == null ? "" : mp.label())
                    + (tab.zoomed() && f ? "  [zoom]" : "") + (activity.contains(p.pane()) ? " +" : "");
            int x = r.x();
            if (mp != null && mp.agentState() != null) {
                x += c.text(x, r.y(), " ●", Style.withBg(theme.agent(mp.agentState()), Style.bg(st)), r.w());
            }
            c.text(x, r.y(), Canvas.clip(label, Math.max(0, r.w() - (x - r.x()))), st, r.w() - (x - r.x()));
            hits.add(new Hit(r.x(), r.x() + r.w(), r.y(), "header", p.pane()));
            if (f) {
                // the border beside the focused pane lights up
                for (Layout.Divider d : l.dividers) {
                    if (d.horizontal() && (d.line().x() == r.x() + r.w() || d.line().x() == r.x() - 1)) {
                        for (int y = Math.max(r.y(), d.line().y()); y < Math.min(r.y() + r.h(), d.line().y() + d.line().h()); y++) {
                            c.put(d.line().x(), y, "│", 1, theme.borderFocus);
                        }
                    }
                }
            }
        }
    }

    /**
     * The bottom line: {@code left} (guidance or a prompt) clipped to leave {@code reserve}
     * columns before the version for the bottom-right widget region; returns the column
     * where the version starts.
     */
    int bottom(Canvas c, String left, long leftStyle, String version, boolean offline, int reserve) {
        int y = c.rows - 1;
        c.fill(0, y, c.cols, 1, Canvas.BLANK, theme.bar);
        String right = versionLabel(version, offline);
        int rw = Canvas.width(right);
        int room = Math.max(0, c.cols - rw - 1 - reserve);
        c.text(0, y, Canvas.clip(left, room), leftStyle, room);
        int vx = Math.max(0, c.cols - rw);
        c.text(vx, y, right, offline ? theme.offline : theme.barDim, rw);
        return vx;
    }

    static String versionLabel(String version, boolean offline) {
        return offline ? " server stopped: reconnecting… " : " artuditu " + version + " ";
    }

    /** Toasts stacked up from row {@code bottom}, newest lowest, right-aligned. */
    void toasts(Canvas c, List<App.Toast> toasts, int bottom) {
        int y = bottom;
        for (int i = toasts.size() - 1; i >= 0 && y > 0; i--, y--) {
            String t = " " + Canvas.clip(toasts.get(i).text(), Math.max(4, c.cols / 2)) + " ";
            int w = Canvas.width(t);
            c.text(Math.max(0, c.cols - w - 1), y, t, theme.toast(toasts.get(i).level()), w);
        }
    }

    /** A box in the middle of the screen with {@code lines}. */
    void overlay(Canvas c, String title, List<String> lines) {
        int w = Math.min(c.cols - 2, 4 + Math.max(Canvas.width(title), lines.stream().mapToInt(Canvas::width).max().orElse(0)));
        int h = Math.min(c.rows - 2, lines.size() + 2);
        int x = Math.max(0, (c.cols - w) / 2);
        int y = Math.max(0, (c.rows - h) / 2);
        c.fill(x, y, w, h, Canvas.BLANK, theme.toast);
        c.text(x + 2, y, title, theme.toast | Style.BOLD, w - 4);
        for (int i = 0; i < h - 2; i++) {
            c.text(x + 2, y + 1 + i, lines.get(i), theme.toast, w - 4);
        }
    }
}
