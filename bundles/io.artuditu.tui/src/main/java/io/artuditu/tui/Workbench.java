package io.artuditu.tui;

import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Paints the workbench into a {@link Canvas}: the tab bar (with the top-right widget region),
 * the left sidebar of workspaces, the focused tab's panes with their headers and borders, the
 * right dock region, the bottom line (key guidance, bottom-right widget region, version) and
 * toasts. It only paints: every decision about what to show is made by {@link App}.
 */
final class Workbench {
    // The built-in palette (256-colour indices; AnsiWriter reduces them for 16-colour terminals).
    static final long BAR = Style.withFg(Style.withBg(0, Style.indexed(236)), Style.indexed(250));
    static final long BAR_ACTIVE = Style.withFg(Style.withBg(0, Style.indexed(33)), Style.indexed(231)) | Style.BOLD;
    static final long BAR_DIM = Style.withFg(Style.withBg(0, Style.indexed(236)), Style.indexed(244));
    static final long ACCENT = Style.withFg(Style.withBg(0, Style.indexed(236)), Style.indexed(75)) | Style.BOLD;
    static final long SIDEBAR = Style.withFg(Style.withBg(0, Style.indexed(235)), Style.indexed(250));
    static final long SIDEBAR_ACTIVE = Style.withFg(Style.withBg(0, Style.indexed(238)), Style.indexed(231)) | Style.BOLD;
    static final long BORDER = Style.withFg(0, Style.indexed(240));
    static final long BORDER_FOCUS = Style.withFg(0, Style.indexed(75));
    static final long HEADER = Style.withFg(Style.withBg(0, Style.indexed(237)), Style.indexed(248));
    static final long HEADER_FOCUS = Style.withFg(Style.withBg(0, Style.indexed(25)), Style.indexed(231)) | Style.BOLD;
    static final long TOAST = Style.withFg(Style.withBg(0, Style.indexed(238)), Style.indexed(231));
    static final long TOAST_ERROR = Style.withFg(Style.withBg(0, Style.indexed(88)), Style.indexed(231));
    static final long PREFIX = Style.withFg(Style.withBg(0, Style.indexed(214)), Style.indexed(16)) | Style.BOLD;
    static final long OFFLINE = Style.withFg(Style.withBg(0, Style.indexed(124)), Style.indexed(231)) | Style.BOLD;
    static final long COPY_TEXT = Style.DEFAULT;
    static final long COPY_SELECTION = Style.withFg(Style.withBg(0, Style.indexed(214)), Style.indexed(16));

    /** Where things landed, for the mouse. */
    record Hit(int x0, int x1, int y, String kind, String id) {
    }

    final List<Hit> hits = new ArrayList<>();

    static long agentColor(String state) {
        if (state == null) {
            return Style.withFg(0, Style.indexed(240));
        }
        return switch (state) {
            case "working" -> Style.withFg(0, Style.indexed(220));
            case "blocked" -> Style.withFg(0, Style.indexed(196));
            case "done" -> Style.withFg(0, Style.indexed(40));
            case "idle" -> Style.withFg(0, Style.indexed(75));
            default -> Style.withFg(0, Style.indexed(245));
        };
    }

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

    void tabBar(Canvas c, Model.Workspace ws, java.util.Set<String> activity, java.util.Set<String> bells) {
        c.fill(0, 0, c.cols, 1, Canvas.BLANK, BAR);
        int x = 0;
        String wsName = ws == null ? "artuditu" : ws.name() != null ? ws.name() : "workspace " + ws.index();
        x += c.text(x, 0, " " + Canvas.clip(wsName, 20) + " ", ACCENT, c.cols - x);
        if (ws == null) {
            return;
        }
        // The top-right widget region (filled by bar modules) keeps a quarter of the bar.
        int limit = c.cols - Math.min(100, c.cols / 4);
        for (Model.Tab t : ws.tabs()) {
            if (x >= limit) {
                x += c.text(x, 0, "…", BAR_DIM, limit + 1 - x);
                break;
            }
            boolean active = t.id().equals(ws.activeTab());
            long st = active ? BAR_ACTIVE : BAR;
            int x0 = x;
            x += c.text(x, 0, " ", st, limit - x);
            String state = tabState(t);
            if (state != null) {
                x += c.text(x, 0, "●", Style.withBg(agentColor(state), Style.bg(st)), limit - x);
            }
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
            x += c.text(x, 0, t.position() + ":" + Canvas.clip(t.label(), 24) + mark + " ", st, limit - x);
            hits.add(new Hit(x0, x, 0, "tab", t.id()));
        }
    }

    void sidebar(Canvas c, Model m, int top, int width, int height) {
        c.fill(0, top, width, height, Canvas.BLANK, SIDEBAR);
        c.text(1, top, "WORKSPACES", SIDEBAR | Style.BOLD, width - 2);
        int y = top + 1;
        for (Model.Workspace w : m.displayOrder()) {
            if (y >= top + height) {
                break;
            }
            boolean active = w.id().equals(m.activeWorkspace);
            long st = active ? SIDEBAR_ACTIVE : SIDEBAR;
            c.fill(0, y, width, 1, Canvas.BLANK, st);
            String name = (w.pinned() ? "^ " : "  ") + (w.name() != null ? w.name() : "workspace " + w.index());
            int x = c.text(0, y, Canvas.clip(name, width - 2), st, width - 1) + 1;
            for (Model.Tab t : w.tabs()) {
                for (Model.Pane p : t.panes().values()) {
                    if (x >= width - 1) {
                        break;
                    }
                    String g = p.agentState() == null ? "·" : "●";
                    x += c.text(x, y, g, Style.withBg(agentColor(p.agentState()), Style.bg(st)), width - 1 - x);
                }
            }
            hits.add(new Hit(0, width, y, "workspace", w.id()));
            y++;
        }
        // its border, which the mouse drags to resize
        for (int r = top; r < top + height; r++) {
            c.put(width, r, "│", 1, BORDER);
        }
        hits.add(new Hit(width, width + 1, -1, "sidebar_edge", null));
    }

    void dock(Canvas c, int x, int top, int width, int height) {
        c.fill(x, top, width, height, Canvas.BLANK, SIDEBAR);
        for (int r = top; r < top + height; r++) {
            c.put(x, r, "│", 1, BORDER);
        }
        c.text(x + 2, top, "DOCKS", SIDEBAR | Style.BOLD, width - 3);
        c.text(x + 2, top + 1, "(modules add docks here)", SIDEBAR, width - 3);
    }

    /** Pane headers and the borders between side-by-side panes. */
    void frames(Canvas c, Layout l, Model.Tab tab, String focused, java.util.Set<String> activity) {
        for (Layout.Divider d : l.dividers) {
            if (d.horizontal()) {
                for (int r = d.line().y(); r < d.line().y() + d.line().h(); r++) {
                    c.put(d.line().x(), r, "│", 1, BORDER);
                }
            }
        }
        for (Layout.Place p : l.places.values()) {
            boolean f = p.pane().equals(focused);
            long st = f ? HEADER_FOCUS : HEADER;
            Layout.Rect r = p.all();
            c.fill(r.x(), r.y(), r.w(), 1, Canvas.BLANK, st);
            Model.Pane mp = tab.panes().get(p.pane());
            String label = " " + p.pane() + " " + (mp == null ? "" : mp.label())
                    + (tab.zoomed() && f ? "  [zoom]" : "") + (activity.contains(p.pane()) ? " +" : "");
            int x = r.x();
            if (mp != null && mp.agentState() != null) {
                x += c.text(x, r.y(), " ●", Style.withBg(agentColor(mp.agentState()), Style.bg(st)), r.w());
            }
            c.text(x, r.y(), Canvas.clip(label, Math.max(0, r.w() - (x - r.x()))), st, r.w() - (x - r.x()));
            hits.add(new Hit(r.x(), r.x() + r.w(), r.y(), "header", p.pane()));
            if (f) {
                // the border beside the focused pane lights up
                for (Layout.Divider d : l.dividers) {
                    if (d.horizontal() && (d.line().x() == r.x() + r.w() || d.line().x() == r.x() - 1)) {
                        for (int y = Math.max(r.y(), d.line().y()); y < Math.min(r.y() + r.h(), d.line().y() + d.line().h()); y++) {
                            c.put(d.line().x(), y, "│", 1, BORDER_FOCUS);
                        }
                    }
                }
            }
        }
    }

    void bottom(Canvas c, String left, long leftStyle, String version, boolean offline) {
        int y = c.rows - 1;
        c.fill(0, y, c.cols, 1, Canvas.BLANK, BAR);
        String right = offline ? " server stopped: reconnecting… " : " artuditu " + version + " ";
        int rw = Canvas.width(right);
        int x = c.text(0, y, Canvas.clip(left, Math.max(0, c.cols - rw - 1)), leftStyle, c.cols - rw - 1);
        // the bottom-right widget region sits between the guidance and the version
        c.text(Math.max(x, c.cols - rw), y, right, offline ? OFFLINE : BAR_DIM, rw);
    }

    /** Toasts stacked up from above the bottom line, right-aligned. */
    void toasts(Canvas c, List<Map.Entry<String, Boolean>> toasts) {
        int y = c.rows - 2;
        for (int i = toasts.size() - 1; i >= 0 && y > 0; i--, y--) {
            String t = " " + Canvas.clip(toasts.get(i).getKey(), Math.max(4, c.cols / 2)) + " ";
            int w = Canvas.width(t);
            c.text(Math.max(0, c.cols - w - 1), y, t, toasts.get(i).getValue() ? TOAST_ERROR : TOAST, w);
        }
    }

    /** A box in the middle of the screen with {@code lines}. */
    void overlay(Canvas c, String title, List<String> lines) {
        int w = Math.min(c.cols - 2, 4 + Math.max(Canvas.width(title), lines.stream().mapToInt(Canvas::width).max().orElse(0)));
        int h = Math.min(c.rows - 2, lines.size() + 2);
        int x = Math.max(0, (c.cols - w) / 2);
        int y = Math.max(0, (c.rows - h) / 2);
        c.fill(x, y, w, h, Canvas.BLANK, TOAST);
        c.text(x + 2, y, title, TOAST | Style.BOLD, w - 4);
        for (int i = 0; i < h - 2; i++) {
            c.text(x + 2, y + 1 + i, lines.get(i), TOAST, w - 4);
        }
    }
}
