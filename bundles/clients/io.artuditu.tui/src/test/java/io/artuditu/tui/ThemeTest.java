package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.tui.ModuleUi.Entry;
import io.artuditu.tui.ModuleUi.Segment;
import io.artuditu.tui.ModuleUi.Widget;
import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The workbench in a theme's colours: the chrome from a theme.list entry, pane colours at output, the terminal's own look. */
class ThemeTest {
    /** A nord-like palette; each colour distinct, so a colour in the wrong place shows. */
    static final Map<String, String> COLORS = new LinkedHashMap<>();
    /** Every workbench key its own colour: #a0 0x10+i 0x30. */
    static final Map<String, String> WORKBENCH = new LinkedHashMap<>();

    static {
        String[] palette = {"#3b4252", "#bf616a", "#a3be8c", "#ebcb8b", "#81a1c1", "#b48ead", "#88c0d0", "#e5e9f0",
            "#4c566a", "#d08770", "#b3ce9c", "#fbdb9b", "#91b1d1", "#c49ebd", "#98d0e0", "#eceff4"};
        COLORS.put("foreground", "#d8dee9");
        COLORS.put("background", "#2e3440");
        COLORS.put("cursor", "#d8dee8");
        COLORS.put("selection_foreground", "#2e3441");
        COLORS.put("selection_background", "#88c0d1");
        for (int i = 0; i < 16; i++) {
            COLORS.put(Theme.ANSI.get(i), palette[i]);
        }
        for (int i = 0; i < Theme.WORKBENCH_KEYS.size(); i++) {
            WORKBENCH.put(Theme.WORKBENCH_KEYS.get(i), String.format("#a0%02x30", 0x10 + i));
        }
        WORKBENCH.put("notification_error", "#bf616a"); // a mid red: neither the theme's foreground nor its background reads on it
        WORKBENCH.put("prefix", "#ebcb8b"); // a light yellow: the theme's dark background reads on it
    }

    static ObjectNode entry(String id, boolean active) {
        ObjectNode e = JsonUhp.JSON.createObjectNode().put("id", id).put("name", id).putNull("author").put("variant", "dark")
                .put("source", "builtin").putNull("path").putNull("module").put("active", active).put("selected", active);
        e.putArray("warnings");
        ObjectNode c = e.putObject("colors");
        COLORS.forEach(c::put);
        ObjectNode w = e.putObject("workbench");
        WORKBENCH.forEach(w::put);
        return e;
    }

    static ObjectNode terminalEntry(boolean active) {
        ObjectNode e = JsonUhp.JSON.createObjectNode().put("id", "terminal").put("name", "Terminal").putNull("author")
                .putNull("variant").put("source", "terminal").putNull("path").putNull("module").put("active", active)
                .put("selected", active);
        e.putArray("warnings");
        e.putNull("colors");
        e.putNull("workbench");
        return e;
    }

    static JsonNode list(String active, JsonNode... entries) {
        ObjectNode l = JsonUhp.JSON.createObjectNode().put("type", "theme_list");
        for (JsonNode e : entries) {
            l.withArray("themes").add(e);
        }
        l.putArray("problems");
        return l.put("configured", active).put("active", active).put("selected_available", true).put("revision", 3);
    }

    static Theme mine() {
        return Theme.fromList(list("mine", entry("default", false), entry("mine", true), terminalEntry(false)));
    }

    static int hex(String s) {
        return Integer.parseInt(s.substring(1), 16);
    }

    static int rgb(String hex) {
        int v = hex(hex);
        return Style.rgb((v >> 16) & 255, (v >> 8) & 255, v & 255);
    }

    static int wb(String key) {
        return rgb(WORKBENCH.get(key));
    }

    static int color(String key) {
        return rgb(COLORS.get(key));
    }

    static int fg(Canvas c, int x, int y) {
        return Style.fg(c.st[y * c.cols + x]);
    }

    static int bg(Canvas c, int x, int y) {
        return Style.bg(c.st[y * c.cols + x]);
    }

    /** The SGR AnsiWriter writes for an RGB foreground and background. */
    static String sgr(String fgHex, String bgHex) {
        int f = hex(fgHex);
        int b = hex(bgHex);
        return "\033[0;38;2;" + (f >> 16) + ";" + ((f >> 8) & 255) + ";" + (f & 255) + ";48;2;" + (b >> 16) + ";"
                + ((b >> 8) & 255) + ";" + (b & 255) + "m";
    }

    @Test
    void theActiveEntrysColoursPaintEveryPartOfTheChrome() throws Exception {
        Theme t = mine();
        assertEquals("mine", t.id);
        assertTrue(t.mapsPanes());
        Model m = Model.parse(JsonUhp.JSON.readTree(CdsTraining.SNAPSHOT)); // tab 1 split three ways, pane 2 focused, pane 1 an agent working
        Model.Tab tab = m.active().activeTabOrFirst();
        Workbench w = new Workbench();
        w.theme = t;
        Canvas c = new Canvas(100, 20);
        w.tabBar(c, m.active(), Set.of(), Set.of(), 0);
        assertEquals(wb("tab_bar_background"), bg(c, 0, 0), "the workspace name on the tab bar");
        assertEquals(wb("bar_accent"), fg(c, 1, 0));
        int tabX = row(c, 0).indexOf("1:");
        assertEquals(wb("tab_active_background"), bg(c, tabX, 0), "the active tab");
        assertEquals(wb("tab_active_foreground"), fg(c, tabX, 0));
        assertEquals(wb("agent_working"), fg(c, tabX - 1, 0), "its agent dot");
        assertEquals(wb("tab_bar_background"), bg(c, 99, 0), "the rest of the bar");

        w.sidebar(c, m, 1, 28, 18, 5);
        assertEquals(wb("sidebar_active_background"), bg(c, 2, 2), "the active workspace");
        assertEquals(wb("sidebar_active_foreground"), fg(c, 2, 2));
        assertEquals(wb("sidebar_background"), bg(c, 2, 5));
        assertEquals(wb("sidebar_foreground"), fg(c, 1, 1), "WORKSPACES");
        assertEquals(wb("border"), fg(c, 28, 3), "the sidebar's border");
        assertEquals(Style.COLOR_DEFAULT, Style.colorKind(bg(c, 28, 3)), "on the pane background, which the writer colours");

        Layout l = Layout.of(tab, new Layout.Rect(29, 1, 71, 18));
        w.frames(c, l, tab, "2", Set.of());
        Layout.Rect focused = l.places.get("2").all();
        Layout.Rect other = l.places.get("1").all();
        assertEquals(wb("header_focused_background"), bg(c, focused.x() + 1, focused.y()));
        assertEquals(wb("header_focused_foreground"), fg(c, focused.x() + 1, focused.y()));
        assertEquals(wb("header_background"), bg(c, other.x() + 3, other.y()));
        assertEquals(wb("header_foreground"), fg(c, other.x() + 3, other.y()));
        assertEquals(wb("border_focused"), fg(c, focused.x() - 1, focused.y() + 2), "the border beside the focused pane");

        w.bottom(c, " guidance", t.bar, "1.0", true, 0);
        assertEquals(wb("tab_bar_background"), bg(c, 1, 19));
        assertEquals(wb("notification_error"), bg(c, 99, 19), "server stopped");

        w.toasts(c, List.of(new App.Toast("failed", "error"), new App.Toast("ok", "success"),
                new App.Toast("hm", "warning"), new App.Toast("fyi", "info")), 18);
        assertEquals(wb("notification_error"), bg(c, 98, 15));
        assertEquals(wb("notification_success"), bg(c, 98, 16));
        assertEquals(wb("notification_warning"), bg(c, 98, 17));
        assertEquals(wb("notification_background"), bg(c, 98, 18));
        assertEquals(wb("notification_foreground"), fg(c, 98, 18));

        Canvas bar = new Canvas(40, 1);
        List<Widget> widgets = List.of(new Widget("m/w", "m", "w", "top-right", 1, List.of(
                new Segment("text", "ok", "success", null, 0, 0, 0, null, null),
                new Segment("badge", "2", "error", null, 0, 0, 0, null, null),
                new Segment("progress", null, null, null, 1, 2, 4, null, null),
                new Segment("state", "x", null, "blocked", 0, 0, 0, null, null)), null));
        BarPainter.paint(bar, t, 0, 0, BarPainter.fit(widgets, "top-right", 40), t.bar, new ArrayList<>());
        assertEquals(wb("bar_success"), fg(bar, 0, 0));
        assertEquals(wb("tab_bar_background"), bg(bar, 0, 0), "a tone keeps the bar's background");
        assertEquals(wb("bar_error"), bg(bar, 2, 0), "a badge: the tone as background");
        assertEquals(wb("bar_accent"), fg(bar, 5, 0), "progress in the accent tone");
        assertEquals(Style.colorKind(t.track), Style.COLOR_RGB);
        assertEquals(t.track, bg(bar, 8, 0), "on its track");
        assertEquals(wb("agent_blocked"), fg(bar, 9, 0));

        Canvas menuCanvas = new Canvas(30, 8);
        Menu menu = new Menu("m", List.of(new Entry("Open", "open", null, false), new Entry("Drop", "drop", null, true)),
                null, 0, 0);
        menu.paint(menuCanvas, t);
        assertEquals(wb("tab_active_background"), bg(menuCanvas, 3, 1), "the selected entry");
        assertEquals(wb("notification_background"), bg(menuCanvas, 3, 2));
        assertEquals(wb("bar_error"), fg(menuCanvas, 3, 2), "a destructive entry");

        Canvas copy = new Canvas(10, 2);
        CopyMode cm = new CopyMode("1", "abc\n");
        cm.key(Input.Key.ch("v"));
        cm.paint(copy, new Layout.Rect(0, 0, 10, 2), t.copyText, t.copySelection);
        assertEquals(color("selection_background"), bg(copy, 0, 0), "the selection in the theme's selection colours");
        assertEquals(color("selection_foreground"), fg(copy, 0, 0));
        assertEquals(Style.DEFAULT, copy.st[1], "the rest in the pane's default, which the writer colours");
    }

    @Test
    void textOnAToastOrTheBarReadsWellAndPrefersTheThemesOwnColours() {
        Theme t = mine();
        for (long s : new long[] {t.toastError, t.toastWarning, t.toastSuccess, t.prefix, t.offline,
            t.badge("normal"), t.badge("warning"), t.badge("error"), t.menuSelectedDestructive}) {
            double k = Theme.contrast(Style.colorValue(Style.fg(s)), Style.colorValue(Style.bg(s)));
            assertTrue(k >= Theme.READABLE || Style.colorValue(Style.fg(s)) == 0 || Style.colorValue(Style.fg(s)) == 0xffffff,
                    "contrast " + k);
        }
        assertEquals(hex("#2e3440"), Style.colorValue(Style.fg(t.prefix)), "the theme's background reads on its yellow");
        assertEquals(0x000000, Style.colorValue(Style.fg(t.toastError)), "on the mid red only black reads");
        assertEquals(hex("#d8dee9"), Theme.readable(0x000000, 0xd8dee9, 0x2e3440), "the theme's foreground first");
    }

    @Test
    void theTerminalEntryAndAServerWithoutOneKeepTheBuiltInIndexedLook() {
        assertSame(Theme.TERMINAL, Theme.fromList(list("terminal", entry("default", false), terminalEntry(true))));
        assertSame(Theme.TERMINAL, Theme.fromList(JsonUhp.JSON.createObjectNode()), "no themes at all");
        assertEquals("mine", Theme.fromList(list("mine", entry("mine", false), terminalEntry(false))).id,
                "no entry marked active: the one the list names");
        Theme t = Theme.TERMINAL;
        assertFalse(t.mapsPanes());
        assertEquals(-1, t.cursor());
        // the built-in palette, exactly as the workbench drew before themes
        assertEquals(on(236, 250), t.bar);
        assertEquals(on(33, 231) | Style.BOLD, t.barActive);
        assertEquals(on(236, 244), t.barDim);
        assertEquals(on(236, 75) | Style.BOLD, t.accent);
        assertEquals(on(235, 250), t.sidebar);
        assertEquals(on(238, 231) | Style.BOLD, t.sidebarActive);
        assertEquals(on(235, 244), t.sidebarDim);
        assertEquals(Style.withFg(0, Style.indexed(240)), t.border);
        assertEquals(Style.withFg(0, Style.indexed(75)), t.borderFocus);
        assertEquals(on(237, 248), t.header);
        assertEquals(on(25, 231) | Style.BOLD, t.headerFocus);
        assertEquals(on(238, 231), t.toast);
        assertEquals(on(88, 231), t.toast("error"));
        assertEquals(on(130, 231), t.toast("warning"));
        assertEquals(on(22, 231), t.toast("success"));
        assertEquals(on(214, 16) | Style.BOLD, t.prefix);
        assertEquals(on(124, 231) | Style.BOLD, t.offline);
        assertEquals(Style.DEFAULT, t.copyText);
        assertEquals(on(214, 16), t.copySelection);
        assertEquals(on(238, 244), t.menuBox);
        assertEquals(on(238, 252), t.menuItem);
        assertEquals(on(238, 203), t.menuDestructive);
        assertEquals(on(25, 231) | Style.BOLD, t.menuSelected);
        assertEquals(on(124, 231) | Style.BOLD, t.menuSelectedDestructive);
        assertEquals(Style.indexed(238), t.track);
        Map<String, Integer> agents = Map.of("working", 220, "blocked", 196, "done", 40, "idle", 75, "someday", 245);
        agents.forEach((s, i) -> assertEquals(Style.withFg(0, Style.indexed(i)), t.agent(s), s));
        assertEquals(Style.withFg(0, Style.indexed(240)), t.agent(null));
        Map<String, Integer> tones = Map.of("normal", 250, "muted", 244, "accent", 75, "success", 40, "warning", 214,
                "error", 196);
        long base = on(236, 250);
        tones.forEach((tone, i) -> assertEquals(Style.withFg(Style.withBg(0, Style.indexed(236)), Style.indexed(i))
                | (tone.equals("accent") || tone.equals("error") ? Style.BOLD : 0), t.tone(base, tone), tone));
        Map<String, Integer> badges = Map.of("normal", 250, "muted", 244, "accent", 75, "success", 40, "warning", 214,
                "error", 160);
        badges.forEach((tone, i) -> assertEquals(on(i, i == 160 ? 231 : 16) | Style.BOLD, t.badge(tone), tone));
    }

    static long on(int bg, int fg) {
        return Style.withFg(Style.withBg(0, Style.indexed(bg)), Style.indexed(fg));
    }

    @Test
    void anEntryWithAColourMissingOrMalformedIsRefusedNamingIt() {
        ObjectNode e = entry("bad", true);
        ((ObjectNode) e.get("workbench")).remove("bar_muted");
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> Theme.of(e));
        assertTrue(x.getMessage().contains("bar_muted"), x.getMessage());
        ObjectNode f = entry("bad", true);
        ((ObjectNode) f.get("colors")).put("red", "red");
        x = assertThrows(IllegalArgumentException.class, () -> Theme.of(f));
        assertTrue(x.getMessage().contains("red"), x.getMessage());
    }

    /** One cell per colour case: default, ANSI red fg, bright red bg, index 100, RGB. */
    static Canvas paneCells() {
        Canvas c = new Canvas(5, 1);
        c.put(0, 0, "a", 1, Style.DEFAULT);
        c.put(1, 0, "b", 1, Style.withFg(0, Style.indexed(1)));
        c.put(2, 0, "c", 1, Style.withBg(0, Style.indexed(9)));
        c.put(3, 0, "d", 1, Style.withFg(0, Style.indexed(100)));
        c.put(4, 0, "e", 1, Style.withFg(0, Style.rgb(1, 2, 3)));
        return c;
    }

    @Test
    void aPaletteThemeShowsDefaultAndAnsiColoursInItsOwnAtTrueColourAnd256() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.TRUECOLOR);
        w.theme(mine());
        String d = w.diff(null, paneCells(), null);
        assertTrue(d.contains(sgr("#d8dee9", "#2e3440") + "a"), "the default colours are the theme's: " + d);
        assertTrue(d.contains(sgr("#bf616a", "#2e3440") + "b"), "red is the theme's red: " + d);
        assertTrue(d.contains(sgr("#d8dee9", "#d08770") + "c"), "bright red is the theme's: " + d);
        assertTrue(d.contains("\033[0;38;5;100;48;2;46;52;64md"), "index 16-255 stays: " + d);
        assertTrue(d.contains("\033[0;38;2;1;2;3;48;2;46;52;64me"), "RGB stays: " + d);

        AnsiWriter w256 = new AnsiWriter(AnsiWriter.COLORS_256);
        w256.theme(mine());
        String e = w256.diff(null, paneCells(), null);
        int fg = Palette.nearest256(0xd8, 0xde, 0xe9);
        int bg = Palette.nearest256(0x2e, 0x34, 0x40);
        int red = Palette.nearest256(0xbf, 0x61, 0x6a);
        assertTrue(e.contains("\033[0;38;5;" + fg + ";48;5;" + bg + "ma"), e);
        assertTrue(e.contains("\033[0;38;5;" + red + ";48;5;" + bg + "mb"), "not ;31, which the terminal's palette shows: " + e);
        assertTrue(e.contains("\033[0;38;5;100;48;5;" + bg + "md"), e);
        assertFalse(e.contains("38;2") || e.contains("48;2"), e);
    }

    @Test
    void sixteenColoursAndTheTerminalThemeLeavePaneColoursAsTheProgramsSentThem() {
        AnsiWriter w16 = new AnsiWriter(AnsiWriter.COLORS_16);
        w16.theme(mine());
        Canvas cells = paneCells();
        cells.put(0, 0, "a", 1, mine().bar); // and the chrome, reduced as before
        String d = w16.diff(null, cells, null);
        assertTrue(d.contains("\033[0;31mb") && d.contains("\033[0;101mc"), d);
        assertFalse(d.contains("38;") || d.contains("48;") || d.contains("\033]12"), d);
        assertTrue(d.contains("\033[0;" + (90 + Palette.nearest16(100) - 8) + "md")
                || d.contains("\033[0;" + (30 + Palette.nearest16(100)) + "md"), d);

        AnsiWriter plain = new AnsiWriter(AnsiWriter.TRUECOLOR);
        String p = plain.diff(null, paneCells(), null);
        assertTrue(p.contains("\033[0ma") && p.contains("\033[0;31mb") && p.contains("\033[0;101mc"), p);
        plain.theme(Theme.TERMINAL);
        assertEquals(p, plain.diff(null, paneCells(), null));
    }

    @Test
    void aFullRedrawPaintsTheThemesBackgroundOnBlankCells() {
        Canvas blank = new Canvas(3, 2);
        AnsiWriter w = new AnsiWriter(AnsiWriter.TRUECOLOR);
        String before = w.diff(null, blank, null);
        assertFalse(before.contains(" "), "the terminal's own background: the clear shows it");
        w.theme(mine());
        String d = w.diff(null, blank, null);
        assertTrue(d.contains(sgr("#d8dee9", "#2e3440") + "   "), "every blank cell in the theme's background: " + d);
        assertEquals(6, d.chars().filter(ch -> ch == ' ').count(), d);
        assertEquals("\033[?25l\033[0m", w.diff(blank, blank.copy(), null), "and then only what changes");
    }

    @Test
    void theCursorTakesTheThemesColourUntilTheTerminalThemeOrTheExitPutsItBack() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.TRUECOLOR);
        Canvas c = new Canvas(2, 1);
        assertEquals("", w.restore(), "never set: nothing to put back");
        w.theme(mine());
        assertTrue(w.diff(null, c, null).contains("\033]12;#d8dee8\007"));
        assertFalse(w.diff(c, c, null).contains("\033]12"), "once");
        assertEquals("\033]112\007", w.restore());
        w.theme(Theme.TERMINAL);
        assertTrue(w.diff(null, c, null).contains("\033]112\007"));
        assertEquals("", w.restore());
    }

    static String row(Canvas c, int y) {
        return ModuleDrawingTest.row(c, y);
    }

    @Test
    void theColoursReadAreExactlyTheOnesTheThemesContractRequires() throws Exception {
        JsonNode contract = JsonUhp.JSON.readTree(java.nio.file.Path.of(
                "../../families/io.artuditu.themes/src/main/resources/protocol/uhp/v1/themes.json").toFile());
        JsonNode entry = contract.at("/methods/theme.list/result/properties/themes/items/properties");
        List<String> colors = new ArrayList<>();
        entry.at("/colors/required").forEach(n -> colors.add(n.asText()));
        List<String> workbench = new ArrayList<>();
        entry.at("/workbench/required").forEach(n -> workbench.add(n.asText()));
        List<String> read = new ArrayList<>(Theme.TERMINAL_KEYS);
        read.addAll(Theme.ANSI);
        assertEquals(colors, read);
        assertEquals(workbench, Theme.WORKBENCH_KEYS);
    }
}
