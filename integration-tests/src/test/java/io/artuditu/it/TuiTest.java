package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.it.TmuxClient.Screen;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench end to end: {@code ./artu} in a real tmux (the outer terminal), against a
 * real server whose panes run a real bash, read back with {@code capture-pane}. Most tests
 * share one server and open a workspace of their own, which the TUI then shows; the first
 * start and the server stop get a home of their own.
 *
 * <p>Geometry at the default 120 × 32: row 0 the tab bar, rows 1–30 the sidebar (28 columns
 * and a border) and the stage from column 29 (91 wide), row 31 the bottom line. A pane has a
 * header row above its content, so one pane's content is 91 × 29 at (29, 2).
 *
 * <p>With {@code -Dartuditu.tui.screens=DIR} the tests also write the screens docs/tui.md
 * shows into DIR.
 */
class TuiTest {
    static final int W = 120;
    static final int H = 32;
    static final int STAGE_X = 29;
    static final String FOCUSED_HEADER = "bg=i25";
    static final String HEADER = "bg=i237";

    @TempDir
    static Path base;
    static ForegroundServer server;
    static Path userHome;
    private static final AtomicInteger TMUX_SERVERS = new AtomicInteger();
    private final List<TmuxClient> terms = new ArrayList<>();

    /** A workbench in a tmux session: the outer terminal, the workspace it shows, its first pane. */
    record Tui(TmuxClient term, String workspace, String pane) {
    }

    @BeforeAll
    static void startServer() throws Exception {
        userHome = Files.createDirectories(base.resolve("user"));
        // The panes' bash reads this: a prompt the tests can wait for.
        Files.writeString(userHome.resolve(".bashrc"), "PS1='$ '\nunset PROMPT_COMMAND\n");
        server = new ForegroundServer(terminalLook(Files.createDirectories(base.resolve("home"))), paneEnv());
    }

    /**
     * Selects the terminal theme for a server in {@code home} before it starts, so the tests
     * that read the workbench's styles see its built-in palette whatever theme is the default.
     */
    static Path terminalLook(Path home) throws IOException {
        Files.writeString(home.resolve("config.toml"), "[theme]\nid = \"terminal\"\n");
        return home;
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeTerminals() throws Exception {
        for (TmuxClient t : terms) {
            t.close();
        }
        terms.clear();
    }

    /** What the server and so its panes run with: a known shell and home. */
    static Map<String, String> paneEnv() {
        return Map.of("HOME", userHome.toString(), "SHELL", "/bin/bash");
    }

    /** The outer shell's environment for a server in {@code home}. */
    static Map<String, String> outerEnv(Path home) {
        Map<String, String> env = new HashMap<>(paneEnv());
        env.put("ARTUDITU_HOME", home.toString());
        env.put("ARTU_NO_BUILD", "1");
        return env;
    }

    /** A tmux server of its own with one W × H session running a plain bash in {@code cwd}. */
    TmuxClient terminal(Path cwd, Path home) throws Exception {
        return terminal(cwd, home, Map.of());
    }

    /** The same, with {@code extra} in the outer shell's environment. */
    TmuxClient terminal(Path cwd, Path home, Map<String, String> extra) throws Exception {
        Map<String, String> env = outerEnv(home);
        env.putAll(extra);
        TmuxClient t = new TmuxClient(base.resolve("tmux-" + TMUX_SERVERS.incrementAndGet() + ".sock"), "tui", W, H,
                cwd, env);
        terms.add(t);
        t.awaitText("outer$");
        return t;
    }

    /** Opens a workspace in a fresh folder {@code name} (it becomes active) and attaches a TUI to it. */
    Tui open(String name) throws Exception {
        Path dir = Files.createDirectories(base.resolve(name));
        JsonNode ws = ok("workspace.open", "{\"cwd\":\"" + dir + "\"}");
        return attach(dir, ws.get("workspace_id").asText(), ws.get("pane").asText());
    }

    /** Another TUI on the shared server, in its own tmux; waits until it shows {@code pane} ready. */
    Tui attach(Path dir, String workspace, String pane) throws Exception {
        TmuxClient t = terminal(dir, server.home);
        t.line(Cli.ARTU + " attach");
        Tui tui = new Tui(t, workspace, pane);
        String name = dir.getFileName().toString();
        t.await("the workbench of " + name + " with pane " + pane + " at its prompt", s ->
                s.row(0).startsWith(" " + name + " ") && s.cut(1, STAGE_X, W).startsWith(" " + pane + " bash")
                        && s.cut(2, STAGE_X, W).startsWith("$"));
        return tui;
    }

    static JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(server.socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    static String focused() throws IOException {
        return ok("pane.current", "{}").get("pane").asText();
    }

    /** Pane → [cols, rows] of its terminal, from terminal.backend.inventory. */
    static Map<String, List<Integer>> sizes(Path socket) throws IOException {
        JsonNode r = Wire.call(socket, "terminal.backend.inventory", "{}").get("result");
        Map<String, List<Integer>> m = new HashMap<>();
        for (JsonNode t : r.get("terminals")) {
            m.put(t.path("pane").asText(), List.of(t.get("cols").asInt(), t.get("rows").asInt()));
        }
        return m;
    }

    /** A condition on the server: null when it holds, else what was seen instead. */
    interface Check {
        String failure() throws Exception;
    }

    /** Polls the server for at most 10 s until {@code cond}. */
    static void awaitServer(String what, Check cond) throws Exception {
        long deadline = System.currentTimeMillis() + TmuxClient.DEADLINE_MS;
        while (true) {
            String last = cond.failure();
            if (last == null) {
                return;
            }
            assertTrue(System.currentTimeMillis() < deadline, what + " within 10 s: " + last);
            Thread.sleep(40);
        }
    }

    static void awaitSize(String pane, int cols, int rows) throws Exception {
        awaitSize(server.socket, pane, cols, rows);
    }

    static void awaitSize(Path socket, String pane, int cols, int rows) throws Exception {
        awaitServer("pane " + pane + " is " + cols + "×" + rows, () -> {
            List<Integer> s = sizes(socket).get(pane);
            return List.of(cols, rows).equals(s) ? null : "it is " + s;
        });
    }

    /** Waits until the server says {@code pane} has the focus and the TUI paints its header (at x, y) so. */
    static void awaitFocus(TmuxClient t, String pane, int x, int y) throws Exception {
        awaitServer("the server focuses " + pane, () -> {
            String f = focused();
            return f.equals(pane) ? null : "focused: " + f;
        });
        t.await("pane " + pane + "'s header at (" + x + "," + y + ") drawn focused", s ->
                s.cut(y, x, W).startsWith(" " + pane + " ") && s.style(x + 1, y).contains(FOCUSED_HEADER));
    }

    /** Every row of the stage from {@code y0} to {@code y1} has the side-by-side border at column {@code x}. */
    static boolean border(Screen s, int x, int y0, int y1) {
        for (int y = y0; y <= y1; y++) {
            if (!s.at(x, y).equals("│")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until the TUI said it detached and has exited: the outer shell's prompt is the
     * last line again (bash prints it only once its child is gone; keys typed before that
     * would go to the exiting TUI).
     */
    static void awaitDetached(TmuxClient t) throws Exception {
        t.await("the TUI detached and gave the terminal back to the outer shell", x -> {
            String text = x.text().stripTrailing();
            return text.contains("[detached (from session default)]") && text.endsWith("\nouter$");
        });
    }

    static void save(String name, Screen s) throws IOException {
        String dir = System.getProperty("artuditu.tui.screens");
        if (dir != null && !dir.isBlank()) {
            Files.createDirectories(Path.of(dir));
            Files.writeString(Path.of(dir, name), s.text());
        }
    }

    // ------------------------------------------------------------------------------------

    @Test
    void theFirstStartStartsAServerThatOutlivesTheTui() throws Exception {
        Path home = Files.createDirectories(base.resolve("first-home"));
        Path dir = Files.createDirectories(base.resolve("firstrun"));
        Map<String, String> env = outerEnv(home);
        TmuxClient t = terminal(dir, home);
        try {
            assertEquals(3, Cli.run(env, "ping").status(), "no server runs in the fresh home yet");
            t.line(Cli.ARTU.toString());
            Screen s = t.await("a workbench with one workspace and one pane at its prompt", x ->
                    x.row(0).startsWith(" firstrun ") && x.cut(1, STAGE_X, W).matches(" \\S+ bash")
                            && x.cut(2, STAGE_X, W).startsWith("$") && x.row(H - 1).contains("artuditu "));
            assertEquals("WORKSPACES", s.cut(1, 0, 28).strip(), s.text());
            assertEquals("firstrun", s.cut(2, 0, 28).strip().split(" ")[0], "the sidebar lists the workspace:\n" + s.text());
            assertEquals("", s.cut(3, 0, 28), "and only it:\n" + s.text());
            assertTrue(border(s, 28, 1, H - 2), "the sidebar's border runs down column 28:\n" + s.text());

            Path sock = home.resolve("artuditu.sock");
            JsonNode snap = Wire.call(sock, "session.snapshot", "{}").get("result");
            assertEquals(1, snap.get("workspaces").size(), snap.toString());
            JsonNode tabs = snap.at("/workspaces/0/tabs");
            assertEquals(1, tabs.size(), snap.toString());
            assertEquals(1, tabs.at("/0/panes").size(), snap.toString());
            String pane = tabs.at("/0/panes/0/pane").asText();
            assertEquals(" " + pane + " bash", s.cut(1, STAGE_X, W), "the header names the pane and its command");
            assertEquals(List.of(W - STAGE_X, H - 3), sizes(sock).get(pane), "the pane fills the stage under its header");

            t.prefix("d");
            awaitDetached(t);
            Cli.Result ping = Cli.run(env, "ping");
            assertEquals(0, ping.status(), "the server outlives the TUI: " + ping.err());
            JsonNode after = Wire.call(sock, "terminal.backend.inventory", "{}").at("/result/terminals/0");
            assertTrue(after.get("alive").asBoolean(), "and so does its pane: " + after);
        } finally {
            Cli.run(env, "server", "stop");
        }
    }

    @Test
    void splitsBothWaysDrawHeadersAndBordersAndTheArrowsMoveTheFocus() throws Exception {
        Tui tui = open("splits");
        TmuxClient t = tui.term();
        String p1 = tui.pane();
        // Stage 91 wide: 45 | border at 74 | 45.
        t.prefix("%");
        Screen s = t.await("two panes side by side", x -> x.cut(1, 75, 45).matches(" \\S+ bash") && border(x, 74, 1, H - 2));
        String p2 = s.cut(1, 75, 45).strip().split(" ")[0];
        assertTrue(s.cut(1, STAGE_X, 45).equals(" " + p1 + " bash"), "the left header stays:\n" + s.text());
        awaitSize(p1, 45, 29);
        awaitSize(p2, 45, 29);
        awaitFocus(t, p2, 75, 1);
        t.await("the new pane's prompt", x -> x.cut(2, 75, 45).startsWith("$"));
        assertTrue(t.screen().style(STAGE_X + 1, 1).contains(HEADER), "the left header is drawn unfocused");

        // Stacked in the right column: 15 rows each, the lower header on row 16.
        t.prefix("\"");
        s = t.await("the right pane split in two", x -> x.cut(16, 75, 45).matches(" \\S+ bash") && x.cut(1, 75, 45).equals(" " + p2 + " bash"));
        String p3 = s.cut(16, 75, 45).strip().split(" ")[0];
        awaitSize(p2, 45, 14);
        awaitSize(p3, 45, 14);
        awaitSize(p1, 45, 29);
        awaitFocus(t, p3, 75, 16);
        s = t.await("the lower pane's prompt", x -> x.cut(17, 75, 45).startsWith("$"));
        assertTrue(border(s, 74, 1, H - 2), "the border runs the stage's whole height:\n" + s.text());
        assertEquals(" " + p1 + " bash", s.cut(1, STAGE_X, 45));
        save("workbench-split.txt", s);

        t.prefix("Left");
        awaitFocus(t, p1, STAGE_X, 1);
        t.prefix("Right");
        awaitServer("focus goes right", () -> List.of(p2, p3).contains(focused()) ? null : "focused " + focused());
        t.prefix("Up");
        awaitFocus(t, p2, 75, 1);
        assertTrue(t.screen().style(76, 16).contains(HEADER), "the lower header is drawn unfocused");
        t.prefix("Down");
        awaitFocus(t, p3, 75, 16);

        t.prefix("?");
        s = t.await("the help overlay", x -> x.text().contains("keys (after C-b)") && x.text().contains("split the pane, new pane to the right"));
        save("help.txt", s);
        t.keys("q");
        t.await("the overlay closes on a key", x -> !x.text().contains("keys (after C-b)"));
        assertEquals(p3, focused(), "the key that closed the overlay did nothing else");
    }

    /**
     * Keys typed right behind a key that moves the focus go where tmux sends them: to the pane
     * focused after it, not to the one focused before (one write, so the TUI reads them at once).
     */
    @Test
    void keysTypedRightAfterASplitOrAFocusMoveGoToTheNewlyFocusedPane() throws Exception {
        Tui tui = open("typeahead");
        TmuxClient t = tui.term();
        t.keys("C-b", "%", "echo in-the-new-pane", "Enter");
        // the new shell may echo the typed line before its first prompt (the terminal echoes
        // typeahead), so the output's row is not fixed: it must be in the right pane only
        Screen s = t.await("the command in the right pane", x -> rowOf(x, 75, "in-the-new-pane") > 0);
        assertEquals(-1, rowOf(s, STAGE_X, "in-the-new-pane"), "and nothing in the left one:\n" + s.text());
        t.keys("C-b", "Left", "echo back-left", "Enter");
        s = t.await("the command in the left pane", x -> rowOf(x, STAGE_X, "back-left") > 0);
        assertEquals(-1, rowOf(s, 75, "back-left"), "and nothing more in the right one:\n" + s.text());
    }

    /** The first row (2-20) whose 45 cells from {@code x} read exactly {@code text}, or -1. */
    static int rowOf(Screen s, int x, String text) {
        for (int row = 2; row <= 20; row++) {
            if (s.cut(row, x, 45).equals(text)) {
                return row;
            }
        }
        return -1;
    }

    @Test
    void whatIsTypedReachesTheShellAndItsOutputIsDrawn() throws Exception {
        Tui tui = open("typing");
        TmuxClient t = tui.term();
        t.line("echo $((6*7))x; printf 'a\\tb\\n'");
        Screen s = t.await("the output in the pane", x -> x.cut(3, STAGE_X, W).equals("42x"));
        assertEquals("a       b", s.cut(4, STAGE_X, W), "a tab stop is eight columns:\n" + s.text());
        assertEquals("$ echo $((6*7))x; printf 'a\\tb\\n'", s.cut(2, STAGE_X, W), "the echoed command line");
        String screen = ok("pane.read", "{\"pane\":\"" + tui.pane() + "\",\"source\":\"screen\"}").get("text").asText();
        assertTrue(screen.contains("42x"), "the server's screen agrees: " + screen);
    }

    @Test
    void resizingTheOuterTerminalResizesThePanesAndTheDrawing() throws Exception {
        Tui tui = open("resize");
        TmuxClient t = tui.term();
        t.prefix("%");
        Screen s0 = t.await("two panes", x -> x.cut(1, 75, 45).matches(" \\S+ bash"));
        String p1 = tui.pane();
        String p2 = s0.cut(1, 75, 45).strip().split(" ")[0];
        awaitSize(p2, 45, 29);

        // 100 × 30: stage 71 wide (35 | 35), content 27 rows.
        t.resize(100, 30);
        awaitSize(p1, 35, 27);
        awaitSize(p2, 35, 27);
        Screen s = t.await("the drawing at 100 × 30", x -> x.rows() == 30 && x.row(29).endsWith("artuditu 0.1.0-SNAPSHOT")
                && border(x, 64, 1, 28) && x.cut(1, 65, 35).equals(" " + p2 + " bash"));
        for (int y = 0; y < 30; y++) {
            assertTrue(s.chars().get(y).size() <= 100, "row " + y + " fits the new width:\n" + s.text());
        }
        assertTrue(s.cut(1, STAGE_X, 35).equals(" " + p1 + " bash"), s.text());

        // 140 × 40: stage 111 wide (55 | 55), content 37 rows.
        t.resize(140, 40);
        awaitSize(p1, 55, 37);
        awaitSize(p2, 55, 37);
        s = t.await("the drawing at 140 × 40", x -> x.rows() == 40 && x.row(39).endsWith("artuditu 0.1.0-SNAPSHOT")
                && border(x, 84, 1, 38) && x.cut(1, 85, 55).equals(" " + p2 + " bash") && x.cut(2, 85, 55).startsWith("$"));
        for (int y = 1; y < 39; y++) {
            assertTrue(!s.at(64, y).equals("│"), "no border left behind at the old column, row " + y + ":\n" + s.text());
        }
        t.line("tput cols; tput lines");
        t.await("the shell sees its new size", x -> x.cut(3, 85, 55).equals("55") && x.cut(4, 85, 55).equals("37"));
    }

    @Test
    void zoomShowsOnlyTheFocusedPaneAndAgainRestoresTheSplit() throws Exception {
        Tui tui = open("zoom");
        TmuxClient t = tui.term();
        t.prefix("%");
        Screen s0 = t.await("two panes", x -> x.cut(1, 75, 45).matches(" \\S+ bash") && x.cut(2, 75, 45).startsWith("$"));
        String p2 = s0.cut(1, 75, 45).strip().split(" ")[0];
        awaitFocus(t, p2, 75, 1);

        t.prefix("z");
        Screen s = t.await("one pane over the whole stage", x -> x.cut(1, STAGE_X, W).startsWith(" " + p2 + " bash")
                && x.cut(1, STAGE_X, W).contains("[zoom]"));
        awaitSize(p2, 91, 29);
        s = t.await("no border in the stage", x -> {
            for (int y = 1; y < H - 1; y++) {
                if (x.cut(y, STAGE_X, W).contains("│")) {
                    return false;
                }
            }
            return x.cut(2, STAGE_X, W).startsWith("$");
        });
        assertTrue(ok("session.snapshot", "{}").toString().contains("\"zoomed\":true"), "the server's tab is zoomed");
        assertTrue(!s.text().contains(" " + tui.pane() + " bash"), "the other pane is not drawn:\n" + s.text());

        t.prefix("z");
        t.await("both panes again", x -> x.cut(1, STAGE_X, 45).equals(" " + tui.pane() + " bash")
                && x.cut(1, 75, 45).equals(" " + p2 + " bash") && border(x, 74, 1, H - 2));
        awaitSize(p2, 45, 29);
    }

    @Test
    void aProgramStartedBeforeDetachingStillRunsAfterReattaching() throws Exception {
        Tui tui = open("detach");
        TmuxClient t = tui.term();
        t.line("i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.2; done");
        t.awaitText("tick 3");
        t.prefix("d");
        awaitDetached(t);
        int before = lastTick(ok("pane.read", "{\"pane\":\"" + tui.pane() + "\",\"source\":\"screen\"}").get("text").asText());
        awaitServer("the loop goes on while no TUI is attached", () -> {
            int now = lastTick(ok("pane.read", "{\"pane\":\"" + tui.pane() + "\",\"source\":\"screen\"}").get("text").asText());
            return now >= before + 5 ? null : "tick " + now + " after " + before;
        });
        int detached = lastTick(ok("pane.read", "{\"pane\":\"" + tui.pane() + "\",\"source\":\"screen\"}").get("text").asText());

        t.line(Cli.ARTU + " attach");
        Screen s = t.await("the reattached workbench shows ticks past " + detached, x ->
                x.cut(1, STAGE_X, W).startsWith(" " + tui.pane() + " bash") && lastTick(x.region(STAGE_X, 2, 91, 29)) > detached);
        assertTrue(s.region(STAGE_X, 2, 91, 29).contains("tick " + detached), "the output from while detached is there:\n" + s.text());
        t.keys("C-c");
        t.await("the loop stops on C-c", x -> x.region(STAGE_X, 2, 91, 29).stripTrailing().endsWith("$"));
    }

    static int lastTick(String text) {
        Matcher m = Pattern.compile("tick (\\d+)").matcher(text);
        int last = -1;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        return last;
    }

    @Test
    void twoTuisAtOnceSeeEachOthersSplitsAndFocus() throws Exception {
        Tui a = open("two");
        Tui b = attach(base.resolve("two"), a.workspace(), a.pane());
        a.term().prefix("%");
        Screen s = b.term().await("the split made in A, in B", x -> x.cut(1, 75, 45).matches(" \\S+ bash") && border(x, 74, 1, H - 2));
        String p2 = s.cut(1, 75, 45).strip().split(" ")[0];
        awaitFocus(b.term(), p2, 75, 1);
        b.term().prefix("Left");
        awaitFocus(a.term(), a.pane(), STAGE_X, 1);
        awaitFocus(b.term(), a.pane(), STAGE_X, 1);
        b.term().line("echo from-b");
        a.term().await("what B typed, in A's left pane", x -> x.cut(3, STAGE_X, 45).equals("from-b"));
    }

    /** A line of CJK, an emoji, combining marks and Hangul, drawn against tmux's own drawing of it. */
    @Test
    void wideCharactersAndCombiningMarksLandInTheirColumns() throws Exception {
        String line = "ab中文cd😀x e\u0301z n\u0303 한글|end";
        Path file = Files.writeString(base.resolve("wide.txt"), line + "\n|12345\n");
        Tui tui = open("wide");
        TmuxClient t = tui.term();
        t.prefix("%");
        t.await("two panes", x -> x.cut(1, 75, 45).matches(" \\S+ bash") && x.cut(2, 75, 45).startsWith("$"));
        t.prefix("Left");
        awaitFocus(t, tui.pane(), STAGE_X, 1);
        t.line("clear; cat " + file);
        Screen s = t.await("the line in the left pane", x -> x.cut(3, STAGE_X, 45).equals("|12345"));

        TmuxClient ref = t.session("ref", 45, 29, base, Map.of(), "sh", "-c", "clear; cat " + file + "; exec sleep 600");
        Screen r = ref.await("tmux's own drawing", x -> x.row(1).equals("|12345"));
        assertEquals(r.row(0), s.cut(2, STAGE_X, 45), "the text, as tmux draws it in a plain pane");
        List<String> want = r.regionCells(0, 0, 45, 2);
        List<String> got = s.regionCells(STAGE_X, 2, 45, 2);
        assertEquals(String.join("\n", want), String.join("\n", got), "cell for cell");
        int bar = r.column(0, "|end");
        // ab 中文 cd 😀 x ␠ é z ␠ ñ ␠ 한글: the wide ones two columns each, the marks none
        assertEquals(2 + 4 + 2 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 4, bar, "tmux counts the widths as expected");
        assertEquals(STAGE_X + bar, s.column(2, "|end"), "the TUI puts the marker at the same column");
        assertTrue(border(s, 74, 1, H - 2), "and the border beside the line stays put:\n" + s.text());
    }

    /** A full-screen program in the TUI's pane against the same program in a tmux pane of the same size. */
    @Test
    void vimAndLessAreDrawnCellForCellAsTmuxDrawsThem() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= 120; i++) {
            b.append("line ").append(i).append(": ").append("the quick brown fox jumps over the lazy dog ".repeat(i % 4 + 1).strip())
                    .append(i % 7 == 0 ? "\ttabbed\tcolumns" : "").append('\n');
        }
        Path file = Files.writeString(base.resolve("text.txt"), b.toString());
        Tui tui = open("fullscreen");
        TmuxClient t = tui.term();
        Map<String, String> refEnv = Map.of("TERM", "xterm-256color", "LESSHISTFILE", "-", "HOME", userHome.toString());

        t.line("clear; vim -u NONE -i NONE -N -n " + file);
        TmuxClient ref = t.session("vim", 91, 29, base, refEnv, "vim", "-u", "NONE", "-i", "NONE", "-N", "-n", file.toString());
        compare(t, ref, "vim at the top of the file", "line 1:");
        for (String[] k : new String[][] {{"G"}, {":set number", "Enter"}, {"5", "0", "%"}, {"C-f"}}) {
            t.keys(k);
            ref.keys(k);
            compare(t, ref, "vim after " + String.join(" ", k), null);
        }
        t.keys(":q!", "Enter");
        t.await("vim quits", x -> x.region(STAGE_X, 2, 91, 29).stripTrailing().endsWith("$"));

        t.line("clear; env -u LESS LESSHISTFILE=- less " + file);
        ref = t.session("less", 91, 29, base, refEnv, "less", file.toString());
        compare(t, ref, "less at the top of the file", "line 1:");
        for (String k : new String[] {"Space", "/fox jumps over the lazy dog fox", "Enter", "G"}) {
            t.keys(k);
            ref.keys(k);
            if (!k.startsWith("/")) {
                compare(t, ref, "less after " + k, null);
            }
        }
        t.keys("q");
    }

    /**
     * Waits until the TUI's content region of the single pane (91 × 29 at (29, 2)) shows what
     * the reference tmux session shows, text and renditions; {@code first} the reference's
     * first row must start with before comparing (null: any).
     */
    private static void compare(TmuxClient tui, TmuxClient ref, String what, String first) throws Exception {
        Screen r = ref.await(what + " in plain tmux", x -> first == null || x.row(0).startsWith(first));
        long deadline = System.currentTimeMillis() + TmuxClient.DEADLINE_MS;
        Screen s;
        while (true) {
            s = tui.screen();
            if (s.region(STAGE_X, 2, 91, 29).equals(r.region(0, 0, 91, 29))
                    && s.regionCells(STAGE_X, 2, 91, 29).equals(r.regionCells(0, 0, 91, 29))) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(50);
            r = ref.screen();
        }
        assertEquals(r.region(0, 0, 91, 29), s.region(STAGE_X, 2, 91, 29), what + ": the text as tmux draws it");
        List<String> want = r.regionCells(0, 0, 91, 29);
        List<String> got = s.regionCells(STAGE_X, 2, 91, 29);
        for (int i = 0; i < want.size(); i++) {
            assertEquals(want.get(i), got.get(i), what + ": the renditions as tmux draws them, row " + i);
        }
    }

    @Test
    void copyModeSearchesSelectsAndCopiesThroughOsc52() throws Exception {
        Tui tui = open("copy");
        TmuxClient t = tui.term();
        t.tmux("set-option", "-g", "set-clipboard", "on");
        t.line("printf 'alpha\\nthe needle-one here\\nomega\\n'");
        t.await("the output", x -> x.cut(5, STAGE_X, W).equals("omega"));
        t.prefix("[");
        t.await("copy mode in the header", x -> x.cut(1, STAGE_X, W).startsWith(" [copy "));
        t.type("/");
        t.await("the search prompt", x -> x.row(H - 1).startsWith("search up: "));
        t.type("needle");
        t.keys("Enter");
        Screen s = t.await("the term found", x -> x.cut(1, STAGE_X, W).contains("found \"needle\" on line 3"));
        save("copy-mode.txt", s);
        t.keys("Space", "l", "l", "l", "Enter");
        t.await("the copied toast", x -> x.text().contains("copied 4 characters"));
        String buffer = t.tmux("show-buffer");
        assertEquals("need", buffer, "OSC 52 put the selection on the outer terminal's clipboard");
        t.await("copy mode is over", x -> x.cut(1, STAGE_X, W).startsWith(" " + tui.pane() + " bash"));
    }

    @Test
    void theCommandLineRunsAnArtuCommand() throws Exception {
        Tui tui = open("command");
        TmuxClient t = tui.term();
        t.prefix(":");
        t.await("the command line", x -> x.row(H - 1).startsWith(":"));
        t.type("tab new logs");
        t.await("what was typed", x -> x.row(H - 1).startsWith(":tab new logs"));
        t.keys("Enter");
        Screen s = t.await("a tab named logs, active", x -> x.row(0).contains(" 2:logs"));
        assertTrue(s.style(s.column(0, "2:logs"), 0).contains("bg=i33"), "drawn as the active tab:\n" + s.text());
        JsonNode snap = ok("session.snapshot", "{}");
        boolean found = false;
        for (JsonNode w : snap.get("workspaces")) {
            if (w.get("workspace_id").asText().equals(tui.workspace())) {
                assertEquals(2, w.get("tabs").size(), w.toString());
                assertEquals("logs", w.at("/tabs/1/name").asText(), w.toString());
                found = true;
            }
        }
        assertTrue(found, snap.toString());
        t.await("its pane", x -> x.cut(2, STAGE_X, W).startsWith("$") && !x.cut(1, STAGE_X, W).startsWith(" " + tui.pane() + " "));
    }

    /** An SGR mouse report as the outer terminal sends it: button code, 0-based cell, press or release. */
    static String mouse(int code, int x, int y, boolean press) {
        return "\033[<" + code + ";" + (x + 1) + ";" + (y + 1) + (press ? "M" : "m");
    }

    @Test
    void theMouseFocusesDragsBordersAndSwitchesTabsAndTheChromeKeysWork() throws Exception {
        Tui tui = open("mouse");
        TmuxClient t = tui.term();
        String p1 = tui.pane();
        t.prefix("%");
        Screen s = t.await("two panes", x -> x.cut(1, 75, 45).matches(" \\S+ bash"));
        String p2 = s.cut(1, 75, 45).strip().split(" ")[0];
        awaitFocus(t, p2, 75, 1);

        // a click in the left pane focuses it
        t.type(mouse(0, STAGE_X + 5, 8, true) + mouse(0, STAGE_X + 5, 8, false));
        awaitFocus(t, p1, STAGE_X, 1);

        // dragging the border from column 74 to 59 moves the split (stage x 29, 91 wide)
        t.type(mouse(0, 74, 10, true) + mouse(32, 66, 10, true) + mouse(32, 59, 10, true) + mouse(0, 59, 10, false));
        awaitServer("the left pane narrower after the drag", () -> {
            List<Integer> size = sizes(server.socket).get(p1);
            return size != null && size.get(0) < 40 ? null : "left pane " + size;
        });
        t.await("the border drawn at its new column", x -> border(x, 59, 1, H - 2) || border(x, 60, 1, H - 2));

        // the wheel over a pane scrolls its history, without touching the shell
        t.line("seq 1 200");
        t.await("the end of seq", x -> x.text().contains("200"));
        for (int i = 0; i < 5; i++) {
            t.type(mouse(64, STAGE_X + 5, 10, true));
        }
        t.await("an earlier stretch of seq", x -> !x.text().contains("200") && x.text().contains("17"));
        t.keys("q"); // a key snaps the view back to live (and the shell gets a harmless q)
        t.keys("BSpace");
        t.await("live again", x -> x.text().contains("200"));

        // a second tab; a click on the first tab's label goes back to it
        t.prefix("c");
        s = t.await("tab 2", x -> x.row(0).contains(" 2:"));
        int tab1 = s.column(0, "1:");
        t.type(mouse(0, tab1, 0, true) + mouse(0, tab1, 0, false));
        awaitServer("tab 1 focused again", () -> List.of(p1, p2).contains(focused()) ? null : "focused " + focused());

        // , renames the tab
        t.prefix(",");
        t.await("the rename prompt", x -> x.row(H - 1).startsWith("rename tab: "));
        t.keys("C-u");
        t.type("renamed");
        t.keys("Enter");
        t.await("the new name in the tab bar", x -> x.row(0).contains("1:renamed"));

        // x asks first: n keeps the pane, y closes it
        t.prefix("x");
        t.await("the question", x -> x.row(H - 1).contains("close pane " + p1 + "?"));
        t.keys("n");
        t.await("the question gone", x -> !x.row(H - 1).contains("close pane"));
        assertTrue(sizes(server.socket).containsKey(p1), "n kept the pane");
        t.prefix("x");
        t.await("the question again", x -> x.row(H - 1).contains("close pane " + p1 + "?"));
        t.keys("y");
        awaitServer("the pane closed", () -> sizes(server.socket).containsKey(p1) ? "still there" : null);
        t.await("one pane left on the stage", x -> x.cut(1, STAGE_X, W).startsWith(" " + p2 + " ") && !border(x, 59, 2, H - 2)
                && !border(x, 60, 2, H - 2));

        // b hides the sidebar (the stage then starts at column 0) and shows it again
        t.prefix("b");
        t.await("no sidebar", x -> x.cut(1, 0, W).startsWith(" " + p2 + " "));
        t.prefix("b");
        t.await("the sidebar back", x -> x.row(1).startsWith(" WORKSPACES") && x.cut(1, STAGE_X, W).startsWith(" " + p2 + " "));

        // a workspace opened elsewhere becomes active here; a click on "mouse" in the sidebar goes back
        Path other = Files.createDirectories(base.resolve("mouse-other"));
        ok("workspace.open", "{\"cwd\":\"" + other + "\"}");
        s = t.await("the other workspace shown", x -> x.row(0).startsWith(" mouse-other "));
        int row = -1;
        for (int y = 2; y < H - 1; y++) {
            if (s.cut(y, 0, STAGE_X - 1).replaceAll("[·●]", "").strip().replaceFirst("^\\^ ", "").equals("mouse")) {
                row = y;
            }
        }
        assertTrue(row > 0, "mouse in the sidebar:\n" + s.text());
        t.type(mouse(0, 3, row, true) + mouse(0, 3, row, false));
        t.await("the tab bar of mouse again", x -> x.row(0).startsWith(" mouse "));
    }

    /** A script module whose actions append what they were handed to {@code clicks}: action|row|bar|segment|bar value. */
    static Path demoModule(Path parent, Path clicks) throws IOException {
        Path dir = ScriptModules.folder(parent, "demo-module", ScriptModules.head("demo", "[\"extensions\"]") + String.join("\n",
                "[[actions]]", "id = \"open\"", "run = \"act.sh\"",
                "[[actions]]", "id = \"cancel\"", "run = \"act.sh\"",
                "[[docks]]", "id = \"jobs\"", "title = \"JOBS\"",
                "[[docks]]", "id = \"peers\"", "title = \"PEERS\"", "placement = \"right\"",
                "[[bars]]", "id = \"ci\"", "priority = 5",
                "[[bars]]", "id = \"clock\"", "region = \"bottom-right\"", ""));
        ScriptModules.script(dir, "act.sh", "printf '%s|%s|%s|%s|%s\\n' \"$ARTUDITU_MODULE_ACTION_ID\" \"$ARTUDITU_MODULE_ROW_VALUE\""
                + " \"$ARTUDITU_MODULE_BAR_ID\" \"$ARTUDITU_MODULE_BAR_SEGMENT\" \"$ARTUDITU_MODULE_BAR_VALUE\" >> '" + clicks + "'");
        return dir;
    }

    static JsonNode ok(Path socket, String method, String params) throws IOException {
        return ScriptModules.ok(socket, method, params);
    }

    /** Waits until {@code clicks} holds {@code line} (an action ran with what the click handed it). */
    static void awaitClick(Path clicks, String line) throws Exception {
        awaitClicks(clicks, line, 1);
    }

    /** Waits until {@code clicks} holds {@code line} {@code n} times. */
    static void awaitClicks(Path clicks, String line, int n) throws Exception {
        awaitServer("an action run with " + line + " (" + n + ")", () -> {
            List<String> got = Files.exists(clicks) ? Files.readAllLines(clicks) : List.of();
            return got.stream().filter(line::equals).count() >= n ? null : "runs so far: " + got;
        });
    }

    /**
     * What a module shows, on a server of its own (a right dock changes the stage the other
     * tests measure): a widget in each bar region, a dock in each sidebar, a notification and
     * a toast; clicks on a widget's segment, a dock row, a menu entry and a notification run
     * the module's action with the values they carry; disabling the module takes it all away.
     */
    @Test
    void modulesWidgetsDocksAndNotificationsShowAndAClickRunsTheirAction() throws Exception {
        Path home = terminalLook(Files.createDirectories(base.resolve("modules-home")));
        Path dir = Files.createDirectories(base.resolve("modproj"));
        Path clicks = base.resolve("clicks.log");
        Path module = demoModule(base, clicks);
        try (ForegroundServer own = new ForegroundServer(home, paneEnv())) {
            Path sock = own.socket;
            ScriptModules.link(sock, module);
            TmuxClient t = terminal(dir, home);
            t.line(Cli.ARTU + " attach");
            Screen s = t.await("the workbench", x -> x.row(0).startsWith(" modproj ") && x.cut(2, STAGE_X, W).startsWith("$"));
            String pane = s.cut(1, STAGE_X, W).strip().split(" ")[0];

            // a widget at the right end of the tab bar, in its tones; another before the version
            ok(sock, "ui.bar.push", "{\"owner\":\"demo\",\"id\":\"ci\",\"content\":[{\"type\":\"text\",\"text\":\"CI \","
                    + "\"tone\":\"muted\"},{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"},{\"type\":\"spacer\"},"
                    + "{\"type\":\"badge\",\"text\":\"2\",\"tone\":\"error\",\"action\":\"open\",\"value\":\"run-1842\"}],"
                    + "\"compact_content\":[{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"}]}");
            ok(sock, "ui.bar.push", "{\"owner\":\"demo\",\"id\":\"clock\",\"content\":[{\"type\":\"text\",\"text\":\"12:34\","
                    + "\"tone\":\"accent\"}]}");
            s = t.await("both widgets", x -> x.row(0).endsWith("CI ✓  2") && x.row(H - 1).contains(" 12:34  artuditu "));
            int ci = s.column(0, "CI ✓");
            assertEquals(W - 1 - 8, ci, "the widget ends one column before the edge:\n" + s.row(0));
            assertTrue(s.style(ci + 3, 0).contains("fg=i40"), "success is green: " + s.style(ci + 3, 0));
            assertTrue(s.style(ci + 6, 0).contains("bg=i160"), "an error badge: " + s.style(ci + 6, 0));
            t.type(mouse(0, ci + 6, 0, true) + mouse(0, ci + 6, 0, false));
            awaitClick(clicks, "open||ci|3|run-1842");

            // a dock below the workspace list; a click on a row runs its action with its value
            ok(sock, "ui.dock.push", "{\"owner\":\"demo\",\"id\":\"jobs\",\"rows\":[{\"text\":\"build #42\",\"dot\":\"working\","
                    + "\"action\":\"open\",\"value\":\"42\",\"menu\":[{\"title\":\"Open log\",\"action\":\"open\"},"
                    + "{\"title\":\"\",\"action\":\"\"},{\"title\":\"Cancel\",\"action\":\"cancel\",\"value\":\"cancel-42\","
                    + "\"destructive\":true}]},{\"text\":\"deploy\",\"dot\":\"done\"}]}");
            s = t.await("the dock in the left sidebar", x -> x.cut(4, 0, 28).equals(" JOBS") && x.cut(5, 0, 28).equals(" ● build #42")
                    && x.cut(6, 0, 28).equals(" ● deploy"));
            assertEquals("", s.cut(3, 0, 28), "a blank row after the workspaces:\n" + s.text());
            assertTrue(s.style(1, 5).contains("fg=i220"), "a working dot: " + s.style(1, 5));
            t.type(mouse(0, 5, 5, true) + mouse(0, 5, 5, false));
            awaitClick(clicks, "open|42|||");

            // the right dock brings the right sidebar, and the stage gives it its columns
            ok(sock, "ui.dock.push", "{\"owner\":\"demo\",\"id\":\"peers\",\"rows\":[{\"text\":\"alice\",\"dot\":\"idle\"},"
                    + "{\"text\":\"bob\",\"dot\":\"blocked\"}]}");
            t.await("the right sidebar", x -> x.cut(1, W - 32, 32).equals("│ PEERS") && x.cut(3, W - 32, 32).equals("│ ● bob"));
            awaitSize(sock, pane, W - STAGE_X - 32, H - 3);

            // a notification above the bottom-right corner; a click runs its action with its value
            ok(sock, "ui.notification.push", "{\"owner\":\"demo\",\"text\":\"CI passed\",\"level\":\"success\",\"ttl_ms\":60000,"
                    + "\"action\":\"open\",\"value\":\"note-1\"}");
            s = t.await("the notification", x -> x.row(H - 2).endsWith("✓ CI passed ›"));
            int note = s.column(H - 2, "✓ CI passed");
            assertTrue(s.style(note, H - 2).contains("bg=i22"), "success: " + s.style(note, H - 2));

            // a right click opens the row's menu beside it
            t.type(mouse(2, 5, 5, true) + mouse(2, 5, 5, false));
            s = t.await("the menu", x -> x.cut(6, 6, 12).equals("│ Open log │") && x.cut(8, 6, 12).equals("│ Cancel   │"));
            assertEquals("├──────────┤", s.cut(7, 6, 12), "a divider:\n" + s.text());
            assertTrue(s.style(8, 8).contains("fg=i203"), "a destructive entry: " + s.style(8, 8));
            assertTrue(s.style(8, 6).contains("bg=i25"), "the first entry selected: " + s.style(8, 6));
            save("modules.txt", s);
            t.keys("Escape");
            t.await("Escape closes it", x -> !x.text().contains("Open log"));
            // Down skips the divider, Enter runs the entry with its own value
            t.type(mouse(2, 5, 5, true) + mouse(2, 5, 5, false));
            t.await("the menu again", x -> x.text().contains("│ Open log │"));
            t.keys("Down");
            t.await("Cancel selected", x -> x.style(8, 8).contains("bg=i124"));
            t.keys("Enter");
            awaitClick(clicks, "cancel|cancel-42|||");
            t.await("the menu closed", x -> !x.text().contains("Open log"));
            // a click on an entry runs it with the row's value; a click outside only closes
            t.type(mouse(2, 5, 5, true) + mouse(2, 5, 5, false));
            t.await("the menu again", x -> x.text().contains("│ Open log │"));
            t.type(mouse(0, 60, 20, true) + mouse(0, 60, 20, false));
            t.await("a click outside closes it", x -> !x.text().contains("Open log"));
            assertEquals(pane, ok(sock, "pane.current", "{}").get("pane").asText(), "and did nothing else");
            t.type(mouse(2, 5, 5, true) + mouse(2, 5, 5, false));
            t.await("the menu again", x -> x.text().contains("│ Open log │"));
            t.type(mouse(0, 9, 6, true) + mouse(0, 9, 6, false));
            awaitClicks(clicks, "open|42|||", 2); // the row's click before, the entry's now

            t.type(mouse(0, note + 2, H - 2, true) + mouse(0, note + 2, H - 2, false));
            awaitClick(clicks, "open|note-1|||");

            // a short notification goes by itself; a toast comes with the event
            ok(sock, "ui.notification.push", "{\"owner\":\"demo\",\"text\":\"brief\",\"level\":\"warning\",\"ttl_ms\":1000}");
            t.await("the short notification", x -> x.row(H - 2).endsWith("! brief") && x.row(H - 3).endsWith("✓ CI passed ›"));
            t.await("and then not", x -> !x.text().contains("! brief") && x.row(H - 2).endsWith("✓ CI passed ›"));
            ok(sock, "ui.toast", "{\"text\":\"hello from demo\",\"level\":\"error\"}");
            s = t.await("the toast above the notification", x -> x.row(H - 3).endsWith("hello from demo"));
            assertTrue(s.style(W - 3, H - 3).contains("bg=i88"), "an error toast: " + s.style(W - 3, H - 3));

            // disabling the module takes its widgets, docks and notifications away
            ok(sock, "module.disable", "{\"id\":\"demo\"}");
            t.await("nothing of the module left", x -> !x.row(0).contains("CI") && !x.row(H - 1).contains("12:34")
                    && !x.text().contains("JOBS") && !x.text().contains("PEERS") && !x.text().contains("CI passed")
                    && x.cut(1, STAGE_X, W).startsWith(" " + pane + " "));
            awaitSize(sock, pane, W - STAGE_X, H - 3);
        }
    }

    /** A theme file with every required colour; {@code background} is what the test changes. */
    static String themeFile(String id, String background) {
        String[] names = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_black",
            "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "bright_white"};
        String[] colours = {"#000000", "#cc3333", "#33cc33", "#cccc33", "#3333cc", "#cc33cc", "#33cccc", "#cccccc",
            "#666666", "#ff5555", "#55ff55", "#ffff55", "#5555ff", "#ff55ff", "#55ffff", "#ffffff"};
        StringBuilder b = new StringBuilder("id = \"" + id + "\"\nname = \"Mine\"\nvariant = \"dark\"\n[colors]\n"
                + "foreground = \"#c0c0c0\"\nbackground = \"" + background + "\"\n");
        for (int i = 0; i < names.length; i++) {
            b.append(names[i]).append(" = \"").append(colours[i]).append("\"\n");
        }
        return b.toString();
    }

    /** theme.list's entry {@code id}, or null. */
    static JsonNode themeEntry(Path socket, String id) throws IOException {
        JsonNode r = Wire.call(socket, "theme.list", "{}");
        assertTrue(r.has("result"), "theme.list -> " + r);
        for (JsonNode e : r.at("/result/themes")) {
            if (e.path("id").asText().equals(id)) {
                return e;
            }
        }
        return null;
    }

    /** The row of the stage that shows exactly {@code text} (a program's output, not the command that printed it), or -1. */
    static int outputRow(Screen s, String text) {
        for (int y = 2; y < H - 1; y++) {
            if (s.cut(y, STAGE_X, W).equals(text)) {
                return y;
            }
        }
        return -1;
    }

    /** The screen's cell (x, y) has background {@code hex} ({@code #rrggbb}, as the capture normalises it). */
    static boolean background(Screen s, int x, int y, String hex) {
        return (" " + s.style(x, y) + " ").contains(" bg=" + hex + " ");
    }

    @Test
    void aThemeSelectedOrItsFileEditedRepaintsTheRunningWorkbench() throws Exception {
        // A server of its own, so the shared one keeps the terminal's look, and a true-colour
        // outer terminal, so the workbench sends the theme's RGB and the capture shows it.
        Path home = Files.createDirectories(base.resolve("theme-home"));
        Path dir = Files.createDirectories(base.resolve("themed"));
        try (ForegroundServer own = new ForegroundServer(home, paneEnv())) {
            assertTrue(Wire.call(own.socket, "workspace.open", "{\"cwd\":\"" + dir + "\"}").has("result"));
            TmuxClient t = terminal(dir, home, Map.of("COLORTERM", "truecolor"));
            t.line(Cli.ARTU + " attach");
            t.await("the workbench at its prompt", x -> x.row(0).startsWith(" themed ")
                    && x.cut(2, STAGE_X, W).startsWith("$"));
            int blankX = STAGE_X + 40;
            int blankY = 10; // a cell of the pane no program wrote: the pane's default background

            JsonNode used = Wire.call(own.socket, "theme.use", "{\"id\":\"nord\"}");
            assertTrue(used.has("result"), "theme.use nord -> " + used);
            JsonNode nord = themeEntry(own.socket, "nord");
            assertTrue(nord != null && nord.path("active").asBoolean(), "nord is listed and active: " + nord);
            String tabBar = nord.at("/workbench/tab_bar_background").asText();
            String nordBackground = nord.at("/colors/background").asText();
            String nordRed = nord.at("/colors/red").asText();
            Screen s = t.await("the running workbench repainted in nord's colours (tab bar " + tabBar + ", background "
                    + nordBackground + ")", x -> background(x, 0, 0, tabBar) && background(x, blankX, blankY, nordBackground));
            assertTrue(background(s, STAGE_X + 1, 1, nord.at("/workbench/header_focused_background").asText()),
                    "the focused pane's header: " + s.style(STAGE_X + 1, 1));

            t.line("printf '\\033[31mRED\\033[0m\\n'");
            s = t.await("a program's red drawn in nord's red", x -> {
                int y = outputRow(x, "RED");
                return y > 0 && x.style(STAGE_X, y).contains("fg=" + nordRed);
            });
            assertTrue(background(s, STAGE_X, outputRow(s, "RED"), nordBackground), "on nord's background");

            // a theme of one's own in the watched folder, selected, then edited
            Path themes = Files.createDirectories(home.resolve("themes"));
            Files.writeString(themes.resolve("mine.toml"), themeFile("mine", "#101820"));
            awaitServer("the server knows the new theme file and selects it", () -> {
                JsonNode r = Wire.call(own.socket, "theme.use", "{\"id\":\"mine\"}");
                return r.has("result") ? null : r.toString();
            });
            t.await("the workbench in mine's background", x -> background(x, blankX, blankY, "#101820"));

            Path edited = home.resolve("mine.toml.new");
            Files.writeString(edited, themeFile("mine", "#201008"));
            Files.move(edited, themes.resolve("mine.toml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            s = t.await("the workbench repainted with the edited file's background, no restart",
                    x -> background(x, blankX, blankY, "#201008"));
            assertTrue(s.row(0).startsWith(" themed "), "the same workbench:\n" + s.text());
        }
    }

    @Test
    void aStoppedServerIsShownAndTheTuiComesBackWithTheNextOne() throws Exception {
        Path home = Files.createDirectories(base.resolve("stop-home"));
        Path dir = Files.createDirectories(base.resolve("stopping"));
        Map<String, String> env = outerEnv(home);
        try {
            TmuxClient t = terminal(dir, home);
            t.line(Cli.ARTU.toString());
            t.await("the workbench", x -> x.row(0).startsWith(" stopping ") && x.cut(2, STAGE_X, W).startsWith("$"));
            assertEquals(0, Cli.run(env, "server", "stop").status());
            Screen s = t.await("the TUI says the server stopped", x -> x.row(H - 1).contains("server stopped"));
            assertTrue(s.text().contains("the server stopped"), "and a toast says so:\n" + s.text());
            assertTrue(s.style(STAGE_X, 2).contains("dim"), "the last picture stays, dimmed:\n" + s.cut(2, STAGE_X, W));

            Cli.Result start = Cli.run(env, "server", "start");
            assertEquals(0, start.status(), start.err());
            s = t.await("the TUI back on the new server", x -> !x.row(H - 1).contains("server stopped")
                    && x.row(H - 1).contains("artuditu 0.1.0") && x.row(0).startsWith(" stopping ")
                    && x.cut(2, STAGE_X, W).startsWith("$") && !x.style(STAGE_X, 2).contains("dim"));
            t.line("echo back-again");
            t.await("typing reaches the new server's pane", x -> x.cut(3, STAGE_X, W).equals("back-again"));
        } finally {
            Cli.run(env, "server", "stop");
        }
    }
}
