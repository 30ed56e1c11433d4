package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.tui.ModuleUi.Dock;
import io.artuditu.tui.ModuleUi.Entry;
import io.artuditu.tui.ModuleUi.Notice;
import io.artuditu.tui.ModuleUi.Row;
import io.artuditu.tui.ModuleUi.Segment;
import io.artuditu.tui.ModuleUi.Spot;
import io.artuditu.tui.ModuleUi.Widget;
import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What modules show, painted into a canvas: bar widgets, docks, notifications, a row's menu, and where clicks land. */
class ModuleDrawingTest {
    static JsonNode json(String s) {
        try {
            return JsonUhp.JSON.readTree(s);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Row {@code y} as text, a wide grapheme once. */
    static String row(Canvas c, int y) {
        StringBuilder b = new StringBuilder();
        for (int x = 0; x < c.cols; x++) {
            b.append(c.ch[y * c.cols + x]);
        }
        return b.toString();
    }

    static int fg(Canvas c, int x, int y) {
        return Style.colorValue(Style.fg(c.st[y * c.cols + x]));
    }

    static int bg(Canvas c, int x, int y) {
        return Style.colorValue(Style.bg(c.st[y * c.cols + x]));
    }

    static Segment text(String t) {
        return new Segment("text", t, null, null, 0, 0, 0, null, null);
    }

    static Widget widget(String id, int priority, String region, List<Segment> content, List<Segment> compact) {
        return new Widget("m/" + id, "m", id, region, priority, content, compact);
    }

    static final String CI = "{\"type\":\"bar_list\",\"widgets\":[{\"key\":\"ci/status\",\"owner\":\"ci\",\"id\":\"status\","
            + "\"region\":\"top-right\",\"priority\":5,\"content\":["
            + "{\"type\":\"text\",\"text\":\"CI \",\"tone\":\"muted\"},"
            + "{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"},{\"type\":\"spacer\"},"
            + "{\"type\":\"state\",\"state\":\"done\",\"label\":\"passing\"},{\"type\":\"spacer\",\"width\":1},"
            + "{\"type\":\"badge\",\"text\":\"2\",\"tone\":\"error\",\"action\":\"details\",\"value\":\"run-1842\"},"
            + "{\"type\":\"spacer\"},{\"type\":\"progress\",\"value\":3,\"total\":7,\"width\":8},"
            + "{\"type\":\"spacer\",\"width\":2},"
            + "{\"type\":\"separator\"},"
            + "{\"type\":\"text\",\"text\":\"x\",\"action\":\"open\",\"value\":\"seven\"}],"
            + "\"compact_content\":[{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\",\"action\":\"details\"}],"
            + "\"width\":31,\"compact_width\":1}]}";

    @Test
    void segmentsDrawSideBySideInTheirTonesAsWideAsTheServerMeasuresThem() {
        List<Widget> ws = ModuleUi.widgets(json(CI));
        List<BarPainter.Placed> placed = BarPainter.fit(ws, "top-right", 100);
        assertEquals(1, placed.size());
        assertFalse(placed.get(0).compact());
        Canvas c = new Canvas(60, 1);
        c.fill(0, 0, 60, 1, Canvas.BLANK, Theme.TERMINAL.bar);
        List<Spot> spots = new ArrayList<>();
        BarPainter.paint(c, Theme.TERMINAL, 0, 0, placed, Theme.TERMINAL.bar, spots);
        // 3/7 of 8 cells: three full blocks and three eighths
        assertEquals("CI ✓ ● passing  2  ███▍      │x", row(c, 0).stripTrailing());
        assertEquals(31, BarPainter.measure(ws.get(0).content()), "the server's width");
        assertEquals(244, fg(c, 0, 0), "muted");
        assertEquals(40, fg(c, 3, 0), "success");
        assertEquals(Style.fg(Theme.TERMINAL.agent("done")), Style.fg(c.st[5]), "a state's dot in its agent colour");
        assertEquals(250, fg(c, 7, 0), "its label in the normal tone");
        assertEquals(160, bg(c, 16, 0), "an error badge: the tone as background");
        assertTrue(Style.has(c.st[16], Style.BOLD));
        assertEquals(238, bg(c, 19, 0), "the progress track");
        assertEquals(236, bg(c, 27, 0), "a spacer keeps the bar's background");
        assertEquals(244, fg(c, 29, 0), "a separator is dim");
    }

    @Test
    void aClickOnASegmentWithAnActionAsksForItWithTheWidgetAndTheSegmentsIndex() {
        List<Widget> ws = ModuleUi.widgets(json(CI));
        Canvas c = new Canvas(60, 1);
        List<Spot> spots = new ArrayList<>();
        BarPainter.paint(c, Theme.TERMINAL, 10, 0, BarPainter.fit(ws, "top-right", 100), Theme.TERMINAL.bar, spots);
        assertNull(ModuleUi.at(spots, 10, 0), "CI has no action");
        Spot badge = ModuleUi.at(spots, 10 + 16, 0);
        assertEquals("{\"id\":\"ci\",\"action\":\"details\",\"bar_id\":\"status\",\"bar_segment\":5,"
                + "\"bar_value\":\"run-1842\",\"wait\":false}", badge.click().params().toString());
        assertEquals(10 + 15, badge.x0(), "the badge's padding is part of it");
        assertEquals(10 + 18, badge.x1());
        assertEquals("{\"id\":\"ci\",\"action\":\"open\",\"bar_id\":\"status\",\"bar_segment\":10,"
                + "\"bar_value\":\"seven\",\"wait\":false}", ModuleUi.at(spots, 10 + 30, 0).click().params().toString());
        assertNull(ModuleUi.at(spots, 10 + 18, 0), "a spacer has no action");

        // in its compact form the index is the compact content's
        spots.clear();
        BarPainter.paint(c, Theme.TERMINAL, 0, 0, BarPainter.fit(ws, "top-right", 5), Theme.TERMINAL.bar, spots);
        assertEquals("{\"id\":\"ci\",\"action\":\"details\",\"bar_id\":\"status\",\"bar_segment\":0,\"wait\":false}",
                ModuleUi.at(spots, 0, 0).click().params().toString());
    }

    @Test
    void compactContentComesFromTheLowestPriorityUpThenTheLowestPriorityWidgetsGo() {
        Widget a = widget("a", 10, "top-right", List.of(text("a".repeat(20))), List.of(text("A".repeat(5))));
        Widget b = widget("b", 1, "top-right", List.of(text("b".repeat(20))), List.of(text("B".repeat(5))));
        Widget off = widget("c", 99, "off", List.of(text("never")), null);
        Widget bottom = widget("d", 99, "bottom-right", List.of(text("below")), null);
        List<Widget> ws = List.of(off, a, b, bottom);
        assertEquals(List.of(false, false), forms(BarPainter.fit(ws, "top-right", 42)));
        assertEquals(List.of(false, true), forms(BarPainter.fit(ws, "top-right", 41)));
        assertEquals(27, BarPainter.width(BarPainter.fit(ws, "top-right", 41)));
        assertEquals(List.of(true, true), forms(BarPainter.fit(ws, "top-right", 26)));
        assertEquals(12, BarPainter.width(BarPainter.fit(ws, "top-right", 20)), "both compact before any is left out");
        // both compact need 12: b, the lower priority, goes
        List<BarPainter.Placed> one = BarPainter.fit(ws, "top-right", 11);
        assertEquals("a", one.get(0).widget().id());
        assertEquals(List.of(true), forms(one));
        assertEquals(List.of(), BarPainter.fit(ws, "top-right", 4));
        assertEquals("d", BarPainter.fit(ws, "bottom-right", 100).get(0).widget().id());
    }

    private static List<Boolean> forms(List<BarPainter.Placed> p) {
        return p.stream().map(BarPainter.Placed::compact).toList();
    }

    @Test
    void aRegionAndAWidgetAreCappedAtAHundredColumns() {
        assertEquals(100, BarPainter.room(400, 20), "whatever the line leaves");
        assertEquals(30, BarPainter.room(120, 200), "a quarter of the line even when the tabs want it all");
        assertEquals(70, BarPainter.room(120, 50));
        Widget wide = widget("w", 5, "top-right", List.of(text("w".repeat(150))), null);
        Widget next = widget("n", 1, "top-right", List.of(text("n".repeat(10))), null);
        List<BarPainter.Placed> p = BarPainter.fit(List.of(wide, next), "top-right", 400);
        assertEquals(1, p.size(), "100 for the first, and the region is full");
        assertEquals(100, BarPainter.width(p));
        Canvas c = new Canvas(120, 1);
        BarPainter.paint(c, Theme.TERMINAL, 0, 0, p, Theme.TERMINAL.bar, new ArrayList<>());
        assertEquals("w".repeat(99) + "…", row(c, 0).substring(0, 100), "a widget cut at 100 columns ends in an ellipsis");
        assertEquals(" ", row(c, 0).substring(100, 101));
        // wide characters count two columns
        Widget cjk = widget("j", 1, "top-right", List.of(text("日本語")), null);
        assertEquals(6, BarPainter.width(BarPainter.fit(List.of(cjk), "top-right", 100)));
        assertEquals(List.of(), BarPainter.fit(List.of(cjk), "top-right", 5));
    }

    @Test
    void theTabBarLeavesTheRegionItsColumnsAndTakesTheWholeBarWithoutWidgets() {
        Model.Tab t1 = new Model.Tab("t1", 1, "first", true, null, false, null, java.util.Map.of());
        Model.Tab t2 = new Model.Tab("t2", 2, "second", false, null, false, null, java.util.Map.of());
        Model.Workspace ws = new Model.Workspace("w", 0, "proj", false, 0, true, "t1", List.of(t1, t2));
        assertEquals(" proj ".length() + " 1:first ".length() + " 2:second ".length(),
                Workbench.tabsWidth(ws, new HashSet<>(), new HashSet<>()));
        Canvas c = new Canvas(30, 1);
        Workbench w = new Workbench();
        w.tabBar(c, ws, new HashSet<>(), new HashSet<>(), 0);
        assertEquals(" proj  1:first  2:second", row(c, 0).stripTrailing());
        c = new Canvas(30, 1);
        w.tabBar(c, ws, new HashSet<>(), new HashSet<>(), 10);
        assertEquals(" proj  1:first  2:se", row(c, 0).stripTrailing(), "20 columns for the tabs");
    }

    static Dock dock(String id, String side, int rows) {
        List<Row> r = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            r.add(new Row("row " + i, i == 0 ? "blocked" : null, "open", "v" + i, List.of()));
        }
        return new Dock(id, side, "m", id.toUpperCase(), r);
    }

    @Test
    void theHeightIsSharedSoShortSectionsGetAllTheyAskFor() {
        assertEquals(List.of(4, 13, 3), box(DockPainter.share(new int[] {4, 30, 3}, 20)));
        assertEquals(List.of(7, 7, 6), box(DockPainter.share(new int[] {30, 30, 30}, 20)));
        assertEquals(List.of(0, 0), box(DockPainter.share(new int[] {5, 5}, 2)), "a section needs two rows");
        // a sidebar: the workspace list (3 rows), two docks, a blank row between each
        int[] h = DockPainter.layout(3, List.of(dock("a", "left", 2), dock("b", "left", 40)), 20);
        assertEquals(List.of(3, 3, 12), box(h));
        assertEquals(List.of(0, 18), box(DockPainter.layout(-1, List.of(dock("r", "right", 40)), 18)));
    }

    private static List<Integer> box(int[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }

    @Test
    void dockRowsShowTheirDotAndTextCutToTheWidthAndTheRestAsNMore() {
        Canvas c = new Canvas(20, 8);
        List<Spot> spots = new ArrayList<>();
        Dock d = new Dock("files", "left", "m", "Files", List.of(
                new Row("a very long row that does not fit", "working", "open", "a", List.of()),
                new Row("plain", null, null, null, List.of()),
                new Row("three", "done", "open", "c", List.of()),
                new Row("four", null, "open", "d", List.of()),
                new Row("five", null, "open", "e", List.of())));
        DockPainter.dock(c, Theme.TERMINAL, d, 0, 1, 20, 5, spots);
        assertEquals(" Files", row(c, 1).stripTrailing());
        assertTrue(Style.has(c.st[20 + 1], Style.BOLD));
        assertEquals(" ● a very long row…", row(c, 2).stripTrailing(), "cut to the width");
        assertEquals(Style.fg(Theme.TERMINAL.agent("working")), Style.fg(c.st[2 * 20 + 1]));
        assertEquals("   plain", row(c, 3).stripTrailing());
        assertEquals(" ● three", row(c, 4).stripTrailing());
        assertEquals("   …2 more", row(c, 5).stripTrailing());
        assertEquals("", row(c, 6).strip());
        assertEquals(2, spots.size(), "a row without an action or a menu is no spot");
        assertEquals("{\"id\":\"m\",\"action\":\"open\",\"row_value\":\"c\",\"wait\":false}",
                ModuleUi.at(spots, 15, 4).click().params().toString());
        assertNull(ModuleUi.at(spots, 5, 3));
        assertNull(ModuleUi.at(spots, 5, 5), "the …more line");
    }

    @Test
    void leftDocksStackBelowTheWorkspacesOneBlankRowApart() {
        Canvas c = new Canvas(24, 12);
        List<Dock> docks = List.of(dock("a", "left", 2), dock("b", "left", 9));
        int[] h = DockPainter.layout(2, docks, 11);
        assertEquals(List.of(2, 3, 4), box(h));
        List<Spot> spots = new ArrayList<>();
        DockPainter.paint(c, Theme.TERMINAL, docks, 0, 1 + h[0], 24, h, true, spots);
        assertEquals("", row(c, 3).strip());
        assertEquals(" A", row(c, 4).stripTrailing());
        assertEquals(" ● row 0", row(c, 5).stripTrailing());
        assertEquals("   row 1", row(c, 6).stripTrailing());
        assertEquals("", row(c, 7).strip());
        assertEquals(" B", row(c, 8).stripTrailing());
        assertEquals(" ● row 0", row(c, 9).stripTrailing());
        assertEquals("   row 1", row(c, 10).stripTrailing());
        assertEquals("   …7 more", row(c, 11).stripTrailing());
    }

    @Test
    void theWorkspaceListIsCutWithNMoreWhenDocksNeedTheRoom() {
        StringBuilder snap = new StringBuilder("{\"sequence\":1,\"active_workspace\":\"w0\",\"workspaces\":[");
        for (int i = 0; i < 6; i++) {
            snap.append(i > 0 ? "," : "").append("{\"workspace_id\":\"w").append(i).append("\",\"workspace\":").append(i)
                    .append(",\"name\":\"ws").append(i).append("\",\"display_position\":").append(i).append(",\"tabs\":[]}");
        }
        Model m = Model.parse(json(snap.append("]}").toString()));
        Canvas c = new Canvas(40, 10);
        new Workbench().sidebar(c, m, 0, 20, 10, 4);
        assertEquals(" WORKSPACES", row(c, 0).substring(0, 20).stripTrailing());
        assertEquals("  ws0", row(c, 1).substring(0, 20).stripTrailing());
        assertEquals("  ws1", row(c, 2).substring(0, 20).stripTrailing());
        assertEquals("  …4 more", row(c, 3).substring(0, 20).stripTrailing());
        assertEquals("", row(c, 4).substring(0, 20).strip());
    }

    @Test
    void theMenuSkipsDividersRunsAnEntryWithItsOwnValueOrTheRowsAndClosesOnEscape() {
        List<Entry> entries = List.of(new Entry("Open", "open", null, false), new Entry("", "", null, false),
                new Entry("Delete", "delete", "x", true));
        Menu m = new Menu("m", entries, "row-7", 5, 2);
        assertEquals(0, m.selected);
        assertEquals(Menu.Result.STAY, m.key(Input.Key.named("down")));
        assertEquals(2, m.selected, "the divider is skipped");
        assertEquals(Menu.Result.STAY, m.key(Input.Key.named("down")));
        assertEquals(0, m.selected, "and it wraps");
        assertEquals(Menu.Result.RUN, m.key(Input.Key.named("enter")));
        assertEquals("{\"id\":\"m\",\"action\":\"open\",\"row_value\":\"row-7\",\"wait\":false}", m.invoke(0).params().toString());
        assertEquals("{\"id\":\"m\",\"action\":\"delete\",\"row_value\":\"x\",\"wait\":false}", m.invoke(2).params().toString());
        assertEquals(Menu.Result.CLOSE, m.key(Input.Key.named("esc")));

        Canvas c = new Canvas(40, 12);
        m.key(Input.Key.named("up"));
        m.paint(c, Theme.TERMINAL);
        assertEquals(6, m.x, "right of where it was opened");
        assertEquals(2, m.y);
        assertEquals("┌────────┐", row(c, 2).substring(6, 16));
        assertEquals("│ Open   │", row(c, 3).substring(6, 16));
        assertEquals("├────────┤", row(c, 4).substring(6, 16));
        assertEquals("│ Delete │", row(c, 5).substring(6, 16));
        assertEquals("└────────┘", row(c, 6).substring(6, 16));
        assertEquals(124, bg(c, 8, 5), "the selected destructive entry");
        assertEquals(252, fg(c, 8, 3));
        assertEquals(0, m.entryAt(9, 3));
        assertEquals(-1, m.entryAt(9, 4), "a divider runs nothing");
        assertEquals(2, m.entryAt(14, 5));
        assertEquals(-1, m.entryAt(6, 5), "nor does the frame");
        assertTrue(m.contains(6, 4));
        assertFalse(m.contains(5, 4));
        m.key(Input.Key.named("down"));
        m.paint(c, Theme.TERMINAL);
        assertEquals(203, fg(c, 8, 5), "a destructive entry in the error colour");

        // opened near the right edge and the bottom, it stays on screen
        Menu edge = new Menu("m", entries, null, 38, 10);
        edge.paint(c, Theme.TERMINAL);
        assertEquals(28, edge.x);
        assertEquals(6, edge.y);
    }

    @Test
    void notificationsStackNewestLowestAtMostFourInTheirLevelsColours() {
        List<Notice> ns = new ArrayList<>();
        String[] levels = {"info", "info", "warning", "error", "success", "info"};
        for (int i = 0; i < 6; i++) {
            ns.add(new Notice("n" + i, "m", "note " + i, levels[i], Long.MAX_VALUE, i == 4 ? "show" : null, i == 4 ? "v4" : null));
        }
        Canvas c = new Canvas(40, 10);
        List<Spot> spots = new ArrayList<>();
        assertEquals(4, NoticePainter.paint(c, Theme.TERMINAL, ns, 8, spots));
        assertEquals(" i note 5 ", row(c, 8).substring(29, 39));
        assertEquals(" ✓ note 4 › ", row(c, 7).substring(27, 39));
        assertEquals(" ✗ note 3 ", row(c, 6).substring(29, 39));
        assertEquals(" ! note 2 ", row(c, 5).substring(29, 39));
        assertEquals("", row(c, 4).strip(), "the oldest two wait");
        assertEquals(88, bg(c, 30, 6));
        assertEquals(22, bg(c, 30, 7));
        assertEquals(130, bg(c, 30, 5));
        assertEquals(1, spots.size());
        assertEquals("{\"id\":\"m\",\"action\":\"show\",\"row_value\":\"v4\",\"wait\":false}",
                ModuleUi.at(spots, 30, 7).click().params().toString());
    }

    @Test
    void theListsAreParsedBoundedAndExpiredNotificationsDropped() {
        StringBuilder many = new StringBuilder("{\"widgets\":[");
        for (int i = 0; i < 100; i++) {
            many.append(i > 0 ? "," : "").append("{\"key\":\"m/w").append(i).append("\",\"owner\":\"m\",\"id\":\"w").append(i)
                    .append("\",\"region\":\"bottom-right\",\"priority\":0,\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}");
        }
        List<Widget> ws = ModuleUi.widgets(json(many.append("]}").toString()));
        assertEquals(ModuleUi.MAX_WIDGETS, ws.size());
        assertEquals("bottom-right", ws.get(0).region());
        assertNull(ws.get(0).compact(), "no compact content");

        List<Dock> docks = ModuleUi.docks(json("{\"type\":\"dock_list\",\"docks\":[{\"id\":\"git\",\"side\":\"right\","
                + "\"owner\":\"g\",\"rows\":[{\"text\":\"main\",\"dot\":\"done\",\"menu\":[{\"title\":\"Checkout\","
                + "\"action\":\"co\",\"value\":\"main\"},{\"title\":\"\",\"action\":\"\"},{\"title\":\"Delete\","
                + "\"action\":\"rm\",\"destructive\":true}]}]},{\"id\":\"bare\",\"side\":\"left\"}]}"));
        assertEquals("right", docks.get(0).side());
        assertEquals("git", docks.get(0).heading(), "no title: its id");
        Row r = docks.get(0).rows().get(0);
        assertEquals("done", r.dot());
        assertNull(r.action());
        assertEquals(3, r.menu().size());
        assertTrue(r.menu().get(1).divider());
        assertTrue(r.menu().get(2).destructive());
        assertEquals(List.of(), docks.get(1).rows());
        assertEquals(1, ModuleUi.side(docks, "left").size());

        long now = 1_000_000;
        List<Notice> ns = ModuleUi.notices(json("{\"type\":\"notifications\",\"notifications\":["
                + "{\"id\":\"old\",\"owner\":null,\"text\":\"gone\",\"level\":\"info\",\"ttl_ms\":500,\"expires_at_ms\":999999},"
                + "{\"id\":\"n\",\"owner\":\"m\",\"text\":\"live\",\"level\":\"warning\",\"ttl_ms\":4000,\"expires_at_ms\":1004000,"
                + "\"action\":\"a\",\"value\":\"v\",\"dedupe_key\":\"k\"},"
                + "{\"id\":\"far\",\"owner\":null,\"text\":\"far\",\"level\":\"info\",\"ttl_ms\":4000,\"expires_at_ms\":9999999999}]}"), now);
        assertEquals(List.of("n", "far"), ns.stream().map(Notice::id).toList());
        assertNull(ns.get(1).owner());
        assertEquals(now + ModuleUi.MAX_NOTICE_MS, ns.get(1).expiresAt(), "never longer than a minute here");
    }
}
