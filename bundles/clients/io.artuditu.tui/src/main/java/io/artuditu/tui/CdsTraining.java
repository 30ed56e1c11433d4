package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.client.UhpClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

/**
 * The run the launcher archives the workbench's classes from
 * ({@code -XX:ArchiveClassesAtExit}) when it has no class-data archive yet: the JSON of a
 * snapshot, a config and a frame, the layout, the painting and the difference to the
 * terminal, input decoding, and the classes of JLine's native layer and of the UHP client;
 * no terminal and no server needed. An interactive session never writes the archive, so
 * closing a terminal never leaves a process writing one for seconds.
 */
public final class CdsTraining {
    static final String SNAPSHOT = "{\"type\":\"session_snapshot\",\"sequence\":3,\"active_workspace\":\"w1\",\"workspaces\":[{"
            + "\"workspace_id\":\"w1\",\"workspace\":0,\"name\":\"demo\",\"pinned\":true,\"display_position\":0,\"active\":true,"
            + "\"active_tab\":\"t1\",\"tabs\":[{\"tab_id\":\"t1\",\"tab\":1,\"name\":null,\"active\":true,\"focused\":\"2\","
            + "\"zoomed\":false,\"root\":{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"axis\":\"vertical\","
            + "\"ratio\":0.5,\"a\":{\"pane\":\"2\"},\"b\":{\"pane\":\"3\"}}},\"panes\":[{\"pane\":\"1\",\"command\":\"bash\","
            + "\"process\":\"vim\",\"title\":\"t\",\"agent\":{\"name\":\"claude\",\"status\":\"working\"}},{\"pane\":\"2\"},{\"pane\":\"3\"}]}]}]}";
    static final String CONFIG = "{\"prefix\":{\"key\":\"C-b\",\"timeout_ms\":1000},\"keymap\":{\"preset\":\"vim\","
            + "\"bindings\":{\"zoom\":\"z\"}},\"sidebars\":{\"left\":{\"visible\":true,\"width\":28}}}";
    static final String FRAME = "{\"frame\":{\"full\":true,\"cells\":[{\"x\":0,\"y\":0,\"cells\":[{\"ch\":\"$\"},{\"ch\":\"日\","
            + "\"fg\":{\"indexed\":2},\"bg\":{\"rgb\":[1,2,3]},\"mods\":{\"bold\":true,\"underline\":true}}]}],"
            + "\"cursor\":[3,0],\"cursor_shape\":\"bar\",\"wants_mouse\":true}}";

    static final String BARS = "{\"widgets\":[{\"key\":\"m/ci\",\"owner\":\"m\",\"id\":\"ci\",\"region\":\"top-right\","
            + "\"priority\":1,\"content\":[{\"type\":\"text\",\"text\":\"CI\",\"tone\":\"muted\"},{\"type\":\"symbol\","
            + "\"symbol\":\"✓\"},{\"type\":\"state\",\"state\":\"done\",\"label\":\"ok\"},{\"type\":\"badge\",\"text\":\"2\","
            + "\"action\":\"a\",\"value\":\"v\"},{\"type\":\"progress\",\"value\":3,\"total\":7},{\"type\":\"spacer\"},"
            + "{\"type\":\"separator\"}],\"compact_content\":[{\"type\":\"symbol\",\"symbol\":\"✓\"}]}]}";
    static final String DOCKS = "{\"docks\":[{\"id\":\"d\",\"side\":\"left\",\"owner\":\"m\",\"title\":\"D\",\"rows\":["
            + "{\"text\":\"row\",\"dot\":\"working\",\"action\":\"a\",\"value\":\"v\",\"menu\":[{\"title\":\"Open\","
            + "\"action\":\"a\"},{\"title\":\"\",\"action\":\"\"},{\"title\":\"Drop\",\"action\":\"b\",\"destructive\":true}]}]}]}";
    static final String NOTICES = "{\"notifications\":[{\"id\":\"n1\",\"owner\":\"m\",\"text\":\"done\",\"level\":\"success\","
            + "\"ttl_ms\":4000,\"expires_at_ms\":4000,\"action\":\"a\"}]}";

    private CdsTraining() {
    }

    /** A theme.list answer whose active entry has every colour. */
    static JsonNode themeList() {
        com.fasterxml.jackson.databind.node.ObjectNode list = JsonUhp.JSON.createObjectNode().put("active", "t");
        com.fasterxml.jackson.databind.node.ObjectNode e = list.putArray("themes").addObject()
                .put("id", "t").put("source", "builtin").put("active", true);
        com.fasterxml.jackson.databind.node.ObjectNode colors = e.putObject("colors");
        com.fasterxml.jackson.databind.node.ObjectNode wb = e.putObject("workbench");
        Theme.TERMINAL_KEYS.forEach(k -> colors.put(k, "#2e3440"));
        Theme.ANSI.forEach(k -> colors.put(k, "#88c0d0"));
        Theme.WORKBENCH_KEYS.forEach(k -> wb.put(k, "#4c566a"));
        return list;
    }

    public static void main(String[] args) throws IOException {
        Model m = Model.parse(JsonUhp.JSON.readTree(SNAPSHOT));
        JsonNode config = JsonUhp.JSON.readTree(CONFIG);
        Keymap keys = new Keymap();
        keys.apply(config);
        Model.Tab tab = m.active().activeTabOrFirst();
        Layout layout = Layout.of(tab, new Layout.Rect(29, 1, 171, 48));
        Canvas c = new Canvas(200, 50);
        Workbench w = new Workbench();
        List<ModuleUi.Widget> widgets = ModuleUi.widgets(JsonUhp.JSON.readTree(BARS));
        List<ModuleUi.Dock> docks = ModuleUi.docks(JsonUhp.JSON.readTree(DOCKS));
        List<ModuleUi.Spot> spots = new java.util.ArrayList<>();
        List<BarPainter.Placed> top = BarPainter.fit(widgets, "top-right",
                BarPainter.room(200, Workbench.tabsWidth(m.active(), new HashSet<>(), new HashSet<>()) + 2));
        w.tabBar(c, m.active(), new HashSet<>(), new HashSet<>(), BarPainter.width(top) + 2);
        BarPainter.paint(c, Theme.TERMINAL, 150, 0, top, Theme.TERMINAL.bar, spots);
        int[] heights = DockPainter.layout(1 + m.workspaces.size(), docks, 48);
        w.sidebar(c, m, 1, 28, 48, heights[0]);
        DockPainter.paint(c, Theme.TERMINAL, docks, 0, 1 + heights[0], 28, heights, true, spots);
        w.rightSidebar(c, 168, 1, 32, 48, true);
        w.frames(c, layout, tab, "2", new HashSet<>());
        w.bottom(c, " C-b then: % split", Theme.TERMINAL.bar, "0", false, 0);
        w.toasts(c, List.of(new App.Toast("copied", "info")), 48);
        NoticePainter.paint(c, Theme.TERMINAL, ModuleUi.notices(JsonUhp.JSON.readTree(NOTICES), 0), 47, spots);
        Menu menu = new Menu("m", docks.get(0).rows().get(0).menu(), "v", 5, 5);
        menu.key(Input.Key.named("down"));
        menu.paint(c, Theme.TERMINAL);
        menu.invoke(menu.entryAt(7, 6) < 0 ? menu.selected : menu.entryAt(7, 6)).params();
        w.overlay(c, "keys", List.of("a", "b"));
        PaneView v = new PaneView(null, "2", 80, 24, null);
        v.apply(FrameReader.read(FRAME));
        v.paint(c, 30, 2, 80, 24, false);
        boolean[] rows = new boolean[50];
        v.paintDamage(c, 30, 2, 80, 24, true, rows);
        Canvas next = c.copy();
        next.text(0, 0, "é 日本 x", Theme.TERMINAL.accent, 20);
        AnsiWriter writer = new AnsiWriter(AnsiWriter.COLORS_256);
        writer.diff(null, c, null).getBytes(StandardCharsets.UTF_8);
        writer.diff(c, next, rows);
        AnsiWriter themed = new AnsiWriter(AnsiWriter.TRUECOLOR);
        themed.theme(Theme.fromList(themeList()));
        themed.diff(null, c, null);
        InputDecoder d = new InputDecoder();
        String in = "a\r\033[A\033[1;5D\033[<0;10;5M\033[<0;10;5m\033[200~paste\033[201~\033[?2026;2$y\u0002%";
        d.feed(in.toCharArray(), in.length());
        d.feed("\033".toCharArray(), 1);
        d.flush();
        Input.Key.ch("c").withMods(true, false, false).toAttach();
        keys.action(Input.Key.ch("%"));
        new Prompt(":", "tab new 'x y'", s -> { }).key(Input.Key.named("enter"));
        Prompt.split("tab new 'x y'");
        CopyMode copy = new CopyMode("1", "alpha\nbeta\n");
        copy.find("al", -1);
        copy.paint(c, new Layout.Rect(0, 0, 40, 10), Theme.TERMINAL.copyText, Theme.TERMINAL.copySelection);
        // JLine's native layer and the UHP client, as far as they go without a terminal or a server
        try {
            Class.forName("org.jline.terminal.impl.jni.JniTerminalProvider");
            new org.jline.terminal.Attributes().setLocalFlags(java.util.EnumSet.of(
                    org.jline.terminal.Attributes.LocalFlag.ICANON), false);
        } catch (ClassNotFoundException | LinkageError e) {
            // the archive is an optimization: train what can be trained
        }
        Path dir = Files.createTempDirectory("artu-tui-cds");
        try {
            new JsonUhp(UhpClient.of(dir.resolve("none.sock"))).call("ping", JsonUhp.params());
        } catch (IOException e) {
            // nothing listens there: the classes are loaded all the same
        } finally {
            Files.deleteIfExists(dir);
        }
    }
}
