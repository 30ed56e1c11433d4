package io.artuditu.tui;

import java.util.ArrayList;
import java.util.List;

/**
 * The picture. {@link #draw} paints the whole workbench into a {@link Canvas} when the
 * chrome changed (a split, a tab, a toast, a mode), or only the pane rows whose frames
 * changed, and sends the difference to what the terminal shows ({@link AnsiWriter}). It
 * keeps the last picture sent, the theme everything is drawn in, and where the last paint
 * put what a click acts on ({@link Workbench#hits}, the modules' spots). UI thread only.
 */
final class Painter {
    private final App app;
    private final Workbench bench = new Workbench();
    private final AnsiWriter writer;
    /** Where the last paint put what a click acts on: bar segments, dock rows, notifications. */
    private final List<ModuleUi.Spot> spots = new ArrayList<>();
    /** The picture last sent; null when the next one goes whole. */
    private Canvas shown;
    /** The colours everything is drawn in: theme.list's active theme, or the terminal's own. */
    private Theme theme = Theme.TERMINAL;

    Painter(App app, int colorDepth) {
        this.app = app;
        this.writer = new AnsiWriter(colorDepth);
    }

    /** Tabs, workspaces and the sidebar's edge, where the last paint put them. */
    List<Workbench.Hit> hits() {
        return bench.hits;
    }

    /** The spot under (x, y) from the last paint; what was painted last (notifications, over panes and docks) wins. */
    ModuleUi.Spot spotAt(int x, int y) {
        for (int i = spots.size() - 1; i >= 0; i--) {
            if (spots.get(i).contains(x, y)) {
                return spots.get(i);
            }
        }
        return null;
    }

    /** The next picture goes whole (the terminal's size changed). */
    void forgetShown() {
        shown = null;
    }

    /** The terminal answered that it does synchronized output. */
    void synchronizedOutput() {
        writer.synchronizedOutput(true);
    }

    String restoreSequence() {
        return writer.restore();
    }

    /** Shows {@code t}: everything is painted again and sent whole, since the last picture sent does not record colours as shown. */
    void applyTheme(Theme t) {
        if (t == theme) {
            return;
        }
        theme = t;
        bench.theme = t;
        writer.theme(t);
        shown = null;
        app.chrome = true;
    }

    void draw() {
        Panes panes = app.panes;
        int cols = panes.cols;
        int rows = panes.rows;
        if (!app.chrome && shown != null && shown.cols == cols && shown.rows == rows && app.mode != App.Mode.HELP) {
            drawCells();
            return;
        }
        app.chrome = false;
        ServerFeed server = app.server;
        Keymap keys = app.keymap;
        CopyMode copy = app.prompts.copy();
        Canvas c = new Canvas(cols, rows);
        bench.hits.clear();
        spots.clear();
        Model.Workspace ws = server.model.active();
        Model.Tab tab = server.activeTab();
        String focused = server.focusedPane();
        List<BarPainter.Placed> top = BarPainter.fit(app.surfaces.widgets(), "top-right",
                BarPainter.room(cols, Workbench.tabsWidth(ws, server.activity, server.bells) + 2));
        int topWidth = BarPainter.width(top);
        bench.tabBar(c, ws, server.activity, server.bells, topWidth == 0 ? 0 : topWidth + 2);
        BarPainter.paint(c, theme, cols - 1 - topWidth, 0, top, theme.bar, spots);
        int left = panes.sidebarShown();
        if (left > 0) {
            List<ModuleUi.Dock> own = ModuleUi.side(app.surfaces.docks(), "left");
            int[] heights = DockPainter.layout(1 + server.model.workspaces.size(), own, rows - 2);
            bench.sidebar(c, server.model, 1, left, rows - 2, heights[0]);
            DockPainter.paint(c, theme, own, 0, 1 + heights[0], left, heights, true, spots);
        }
        int right = panes.dockShown();
        if (right > 0) {
            List<ModuleUi.Dock> own = new ArrayList<>(ModuleUi.side(app.surfaces.docks(), "right"));
            int[] heights = null;
            int room = 0;
            if (app.files.visible) {
                // the FILES dock first: laid out once for all its rows, then cut to the window it got
                own.add(0, app.files.dock(Integer.MAX_VALUE, app.mode == App.Mode.FILES));
                heights = DockPainter.layout(-1, own, rows - 2);
                room = Math.max(0, heights[1] - 1);
                own.set(0, app.files.dock(room, app.mode == App.Mode.FILES));
            }
            if (heights == null) {
                heights = DockPainter.layout(-1, own, rows - 2);
            }
            bench.rightSidebar(c, cols - right, 1, right, rows - 2, own.isEmpty());
            DockPainter.paint(c, theme, own, cols - right + 1, 1, right - 1, heights, false, spots);
            if (app.files.visible && app.mode == App.Mode.FILES && room > 0 && app.files.error == null) {
                int y = 2 + app.files.cursor - app.files.first(room);
                if (y >= 2 && y < 2 + room && app.files.cursor < app.files.rows.size()) {
                    c.fill(cols - right + 1, y, right - 1, 1, Canvas.BLANK, theme.sidebarActive);
                    c.text(cols - right + 4, y, Canvas.clip(FilesDock.label(app.files.rows.get(app.files.cursor),
                            app.files.marks.get(app.files.rows.get(app.files.cursor).path())), right - 5), theme.sidebarActive, right - 5);
                }
            }
        }
        if (tab != null && tab.git() && ws != null) {
            app.git.paint(c, panes.stage, theme, ws.id());
        } else if (tab != null) {
            bench.frames(c, panes.layout, tab, focused, server.activity);
            for (Layout.Place p : panes.layout.places.values()) {
                Layout.Rect r = p.content();
                if (copy != null && p.pane().equals(copy.pane)) {
                    copy.paint(c, r, theme.copyText, theme.copySelection);
                    c.text(r.x(), p.all().y(), Canvas.clip(" " + copy.header(), r.w()), theme.prefix, r.w());
                    continue;
                }
                PaneView v = panes.view(p.pane());
                if (v != null) {
                    v.paint(c, r.x(), r.y(), r.w(), r.h(), server.offline || v.ended());
                    cursor(c, p, v, focused);
                }
            }
        } else {
            String empty = server.offline ? "waiting for the server…"
                    : ws == null ? "no workspace: " + keys.prefixChord() + " " + keys.chord("new_tab") + " opens one here"
                    : "no tab left: " + keys.prefixChord() + " " + keys.chord("new_tab") + " opens a shell";
            c.text(panes.stage.x() + 2, panes.stage.y() + 1, empty, theme.barDim, panes.stage.w() - 2);
        }
        bottomLine(c);
        overlays(c, spots);
        if (app.mode == App.Mode.HELP) {
            bench.overlay(c, "keys (after " + keys.prefixChord() + ")  — any key closes", helpLines());
            c.cursorX = -1;
        }
        String out = writer.diff(shown, c, null);
        app.outer.write(out);
        shown = c;
    }

    /** Only pane cells changed: repaint the rows the frames touched, and send their difference. */
    private void drawCells() {
        Panes panes = app.panes;
        CopyMode copy = app.prompts.copy();
        Canvas c = shown.copy();
        boolean[] touched = new boolean[panes.rows];
        String focused = app.server.focusedPane();
        c.cursorX = -1;
        for (Layout.Place p : panes.layout.places.values()) {
            PaneView v = panes.view(p.pane());
            if (v == null || copy != null && p.pane().equals(copy.pane)) {
                continue;
            }
            Layout.Rect r = p.content();
            v.paintDamage(c, r.x(), r.y(), r.w(), r.h(), app.server.offline || v.ended(), touched);
            cursor(c, p, v, focused);
        }
        if (copy != null) {
            c.cursorX = shown.cursorX;
            c.cursorY = shown.cursorY;
            c.cursorShape = shown.cursorShape;
        }
        if (!app.toasts.isEmpty() || !app.surfaces.notices().isEmpty() || app.prompts.menu() != null) {
            overlays(c, new ArrayList<>()); // a pane row under a toast must not wipe it out
        }
        if (app.mode == App.Mode.PROMPT) {
            c.cursorX = shown.cursorX;
            c.cursorY = shown.cursorY;
            c.cursorShape = shown.cursorShape;
        }
        app.outer.write(writer.diff(shown, c, touched));
        shown = c;
    }

    private void cursor(Canvas c, Layout.Place p, PaneView v, String focused) {
        Layout.Rect r = p.content();
        if (p.pane().equals(focused) && !app.server.offline && app.mode != App.Mode.PROMPT && v.cursorX() >= 0
                && v.cursorX() < r.w() && v.cursorY() < r.h()) {
            c.cursorX = r.x() + v.cursorX();
            c.cursorY = r.y() + v.cursorY();
            c.cursorShape = v.cursorShape();
        }
    }

    /** Notifications above the bottom line, toasts above them, then an open menu: what lies over the panes. */
    private void overlays(Canvas c, List<ModuleUi.Spot> into) {
        int used = NoticePainter.paint(c, theme, app.surfaces.notices(), app.panes.rows - 2, into);
        bench.toasts(c, app.toasts.shown(), app.panes.rows - 2 - used);
        Menu menu = app.prompts.menu();
        if (menu != null) {
            menu.paint(c, theme);
        }
    }

    private void bottomLine(Canvas c) {
        Keymap keys = app.keymap;
        Prompt prompt = app.prompts.prompt();
        String p = keys.prefixChord();
        String text;
        long style = theme.prefix;
        switch (app.mode) {
            case PROMPT -> {
                text = prompt.label + prompt.text();
                style = theme.bar;
            }
            case CONFIRM -> text = app.prompts.question() + " (y/n)";
            case PREFIX -> text = " " + p + "  " + keys.chord("split_right") + " split right  "
                    + keys.chord("split_down") + " split down  arrows focus  C-arrows resize  "
                    + keys.chord("zoom") + " zoom  " + keys.chord("new_tab") + " tab  "
                    + keys.chord("copy_mode") + " copy  " + keys.chord("command") + " command  "
                    + keys.chord("detach") + " detach  " + keys.chord("help") + " help";
            case COPY -> text = " copy mode: arrows/hjkl move  / ? search  n N again  space select  enter copy  q quit";
            case MENU -> text = " menu: Up/Down choose  Enter run  Esc close";
            case FILES -> text = " FILES: Up/Down move  Enter/Right open  Left close  r refresh  Esc back to the pane  "
                    + p + " " + keys.chord("files") + " hide";
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
        boolean widgetsShow = app.mode != App.Mode.PROMPT && app.mode != App.Mode.CONFIRM;
        boolean offline = app.server.offline;
        String version = Workbench.versionLabel(app.server.version, offline);
        int cols = app.panes.cols;
        List<BarPainter.Placed> placed = widgetsShow ? BarPainter.fit(app.surfaces.widgets(), "bottom-right",
                BarPainter.room(cols, Canvas.width(text) + Canvas.width(version) + 2)) : List.of();
        int w = BarPainter.width(placed);
        int vx = bench.bottom(c, text, style, app.server.version, offline, w == 0 ? 0 : w + 1);
        BarPainter.paint(c, theme, vx - 1 - w, app.panes.rows - 1, placed, theme.bar, spots);
        if (app.mode == App.Mode.PROMPT) {
            c.cursorX = Math.min(c.cols - 1, Canvas.width(prompt.label) + Canvas.width(prompt.beforeCursor()));
            c.cursorY = c.rows - 1;
            c.cursorShape = 6;
        } else if (app.mode == App.Mode.CONFIRM) {
            c.cursorX = -1;
        }
    }

    private List<String> helpLines() {
        Keymap keys = app.keymap;
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
}
