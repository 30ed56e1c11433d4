package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Regions as the rules see them, rule order, evidence, fallback and how much is read. */
class ScreenRulesTest {
    static AgentManifest manifest(String rules) throws ManifestReader.Invalid {
        return ManifestReader.parse(("name = \"t\"\nfallback = \"unknown\"\n[process]\nnames = [\"t\"]\n[launch]\n"
                + "command = [\"t\"]\n" + rules).getBytes(StandardCharsets.UTF_8), "user", "t.toml");
    }

    static String rule(String id, String region, int rows, String pattern, String status, int priority) {
        return "[[rules]]\nid = \"" + id + "\"\nregion = \"" + region + "\"\n" + (rows > 0 ? "rows = " + rows + "\n" : "")
                + "pattern = '''" + pattern + "'''\nstatus = \"" + status + "\"\npriority = " + priority
                + "\nconfidence = 0.5\n";
    }

    static Terminal screen(int cols, int rows, String text) {
        Terminal t = Terminal.create(cols, rows);
        t.feed(text.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
        return t;
    }

    @Test
    void lastRowsCountUpFromTheLastRowWithText() throws Exception {
        AgentManifest m = manifest(rule("two", "last_rows", 2, "\\Aone\\ntwo\\z", "idle", 1));
        Terminal t = screen(20, 10, "zero\none\ntwo\n\n");

        Verdict v = ScreenRules.evaluate(m, t, 7);

        assertEquals("two", v.rule());
        assertEquals(Status.IDLE, v.status());
        assertEquals(7, v.revision());
        // rows 9..3 are blank (7 rows) before "two" on row 2; then one more row, "one".
        assertEquals(9, v.rowsRead());
        assertEquals("one\ntwo", v.evidence());
        assertEquals("last_rows:2", v.region());
    }

    @Test
    void blankRowsInsideTheWindowStayAsEmptyLines() throws Exception {
        AgentManifest m = manifest(rule("gap", "last_rows", 3, "\\Aa\\n\\nb\\z", "idle", 1));
        assertEquals("gap", ScreenRules.evaluate(m, screen(10, 5, "a\n\nb"), 0).rule());
    }

    @Test
    void aSoftWrappedLineReadsAsOneLine() throws Exception {
        AgentManifest m = manifest(rule("joined", "last_rows", 4, "^esc to interrupt\\)$", "working", 1));
        // 10 columns: "esc to interrupt)" wraps after "esc to int" and the space at column 10.
        Terminal t = screen(10, 5, "x\nesc to interrupt)");
        assertTrue(t.wrapped(1));
        assertEquals("joined", ScreenRules.evaluate(m, t, 0).rule());
        AgentManifest spaced = manifest(rule("space", "last_rows", 4, "^say hello world$", "idle", 1));
        assertEquals("space", ScreenRules.evaluate(spaced, screen(10, 5, "say hello world"), 0).rule(),
                "the blank at the wrap is kept");
    }

    @Test
    void theLowestFrameIsTheBoxAndItsInnerTextIsMatched() throws Exception {
        AgentManifest m = manifest(rule("box", "box", 12, "\\A Allow\\?\\n ❯ 1\\. Yes\\z", "blocked", 1));
        Terminal t = screen(30, 12, """
                ╭────────╮
                │ old    │
                ╰────────╯
                ┌────────────┐
                │ Allow?     │
                │ ❯ 1. Yes   │
                └────────────┘
                  footer""");

        Verdict v = ScreenRules.evaluate(m, t, 0);

        assertEquals("box", v.rule());
        assertEquals("Allow?\n ❯ 1. Yes", v.evidence(), "stripped at its ends");
    }

    @Test
    void aFrameTallerThanTheRegionCountsFromTheRegionsFirstRow() throws Exception {
        AgentManifest m = manifest(rule("tail", "box", 4, "\\Aline 8\\nline 9\\nQuestion\\?\\z", "blocked", 1));
        StringBuilder s = new StringBuilder("╭──────────╮\n");
        for (int i = 0; i < 10; i++) {
            s.append(String.format("│line %d    │%n", i));
        }
        s.append("│Question? │\n╰──────────╯");
        Terminal t = screen(20, 20, s.toString().replace("\r\n", "\n"));
        Verdict v = ScreenRules.evaluate(m, t, 0);
        assertEquals("tail", v.rule(), String.valueOf(v));
    }

    @Test
    void aBrokenFrameIsNoBox() throws Exception {
        AgentManifest m = manifest(rule("box", "box", 10, ".", "blocked", 1));
        Terminal t = screen(30, 10, "╭──────╮\n│ a    │\n  b\n│ c    │\n╰──────╯");
        Verdict v = ScreenRules.evaluate(m, t, 0);
        assertNull(v.rule(), "the left edge is interrupted by \"  b\"");
        assertEquals(Status.UNKNOWN, v.status());
        assertEquals(0, v.priority());
        assertNull(v.evidence());
    }

    @Test
    void titleAndCursorRow() throws Exception {
        AgentManifest m = manifest(rule("title", "title", 0, "^⠋ Working", "working", 5)
                + rule("prompt", "cursor_row", 0, "^> ", "idle", 1));
        Terminal t = screen(40, 6, "\u001b]0;⠋ Working — proj\u0007history\n> fix it");
        assertEquals("title", ScreenRules.evaluate(m, t, 0).rule());
        Terminal u = screen(40, 6, "history\n> fix it\nstatus line\u001b[2;8H");
        Verdict v = ScreenRules.evaluate(m, u, 0);
        assertEquals("prompt", v.rule());
        assertEquals("cursor_row", v.region());
        assertEquals(1, v.rowsRead(), "the title is no row; the cursor's row is one");
    }

    @Test
    void theCursorRowIncludesTheRowsItsLineWrappedOnto() throws Exception {
        AgentManifest m = manifest(rule("prompt", "cursor_row", 0, "^> fix the parser and the tests$", "idle", 1));
        Terminal t = screen(12, 6, "> fix the parser and the tests");
        assertEquals("prompt", ScreenRules.evaluate(m, t, 0).rule());
    }

    @Test
    void higherPriorityWinsThenFileOrder() throws Exception {
        String screenText = "✻ Working (esc to interrupt)\n> ";
        AgentManifest m = manifest(rule("idle-first", "last_rows", 3, "^>", "idle", 10)
                + rule("spinner", "last_rows", 3, "esc to interrupt", "working", 80)
                + rule("spinner-twin", "last_rows", 3, "Working", "blocked", 80));
        assertEquals("spinner", ScreenRules.evaluate(m, screen(40, 4, screenText), 0).rule());
        assertEquals(80, ScreenRules.evaluate(m, screen(40, 4, screenText), 0).priority());
        assertEquals("idle-first", ScreenRules.evaluate(m, screen(40, 4, "> "), 0).rule());
    }

    @Test
    void evidenceIsAtMost120Characters() throws Exception {
        AgentManifest m = manifest(rule("long", "last_rows", 1, "x+", "working", 1));
        Verdict v = ScreenRules.evaluate(m, screen(300, 2, "x".repeat(300)), 0);
        assertEquals(ScreenRules.MAX_EVIDENCE, v.evidence().length());
        assertTrue(v.evidence().endsWith("…"));
    }

    @Test
    void onlyTheRowsTheRulesNeedAreRead() throws Exception {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            s.append("row ").append(i).append('\n');
        }
        Terminal t = screen(40, 101, s.toString());
        assertEquals(3, ScreenRules.evaluate(manifest(rule("a", "last_rows", 2, "nothing", "idle", 1)), t, 0).rowsRead(),
                "a blank last row, then two");
        assertEquals(0, ScreenRules.evaluate(manifest(rule("t", "title", 0, "nothing", "idle", 1)), t, 0).rowsRead());
        assertEquals(201, ScreenRules.evaluate(manifest(rule("all", "last_rows", 200, "nothing", "idle", 1)),
                Terminal.create(40, 300), 0).rowsRead(), "a blank screen: 200 blank rows skipped, and the one that ends it");
    }

    @Test
    void aRowIsReadAsAtMostTwiceTheWidth() throws Exception {
        AgentManifest m = manifest(rule("len", "last_rows", 1, "\\A.{21}", "idle", 1));
        // Ten cells, each a letter with four combining marks: 50 UTF-16 units on a 10-column row.
        String marks = "a\u0301\u0302\u0303\u0304".repeat(10);
        Verdict v = ScreenRules.evaluate(m, screen(10, 2, marks), 0);
        assertNull(v.rule(), "cut to 20 units");
    }

    @Test
    void aManifestWithoutRulesGivesItsFallback() throws Exception {
        AgentManifest m = ManifestReader.parse(("name = \"t\"\nfallback = \"working\"\n[process]\nnames = [\"t\"]\n"
                + "[launch]\ncommand = [\"t\"]\n").getBytes(StandardCharsets.UTF_8), "user", "t.toml");
        Verdict v = ScreenRules.evaluate(m, screen(10, 3, "x"), 3);
        assertEquals(Status.WORKING, v.status());
        assertNull(v.rule());
        assertEquals(0, v.rowsRead());
    }

    static AgentManifest manifest2(String rules) throws ManifestReader.Invalid {
        return ManifestReader.parse(("format = 2\nname = \"t\"\n[process]\nnames = [\"t\"]\n[launch]\n"
                + "command = [\"t\"]\n" + rules).getBytes(StandardCharsets.UTF_8), "user", "t.toml");
    }

    static String anchored(String id, String region, String anchor, String pattern, String status, int priority) {
        return rule(id, region, 20, pattern, status, priority).replace("rows = 20\n",
                "rows = 20\nanchor = '''" + anchor + "'''\n");
    }

    /** above: what lies over the anchor's last match, \\z right above it; below: under it. */
    @Test
    void aboveAndBelowPartTheRowsAtTheAnchorsLastMatch() throws Exception {
        String text = """
                > old prompt
                * Thinking (esc)
                answer
                * Spinning (esc)
                > 
                footer: esc to interrupt""";
        AgentManifest live = manifest2(anchored("live", "above", "^>(?: |$)", "^\\* [^\\n]*\\z", "working", 10));
        Verdict v = ScreenRules.evaluate(live, screen(30, 8, text), 0);
        assertEquals("live", v.rule());
        assertEquals("* Spinning (esc)", v.evidence(), "the spinner right above the last anchor");
        assertEquals("above:20", v.region());

        AgentManifest stale = manifest2(anchored("stale", "above", "^>(?: |$)", "^\\* Thinking[^\\n]*\\z", "working", 10));
        assertNull(ScreenRules.evaluate(stale, screen(30, 8, text), 0).rule(), "a spinner with rows under it is history");

        AgentManifest below = manifest2(anchored("below", "below", "^>(?: |$)", "\\Afooter: esc to interrupt\\z", "working", 10));
        assertEquals("below", ScreenRules.evaluate(below, screen(30, 8, text), 0).rule());

        AgentManifest none = manifest2(anchored("none", "above", "^\\$ ", ".", "working", 10));
        assertNull(ScreenRules.evaluate(none, screen(30, 8, text), 0).rule(), "no anchor: the region is absent");
    }

    /** unless: found in the same region, the rule does not match, and the next rule decides. */
    @Test
    void unlessKeepsARuleFromMatching() throws Exception {
        AgentManifest m = manifest2(rule("footer", "last_rows", 3, "for shortcuts", "idle", 20)
                .replace("confidence = 0.5\n", "confidence = 0.5\nunless = 'esc to interrupt'\n")
                + rule("busy", "last_rows", 3, "esc to interrupt", "working", 10));
        assertEquals("busy", ScreenRules.evaluate(m, screen(40, 4, "? for shortcuts · esc to interrupt"), 0).rule());
        assertEquals("footer", ScreenRules.evaluate(m, screen(40, 4, "? for shortcuts"), 0).rule());
    }

    /** needs: a region holding none of them skips the rule; one of them lets the pattern decide. */
    @Test
    void needsSkipARuleWhoseRegionHoldsNoneOfThem() throws Exception {
        AgentManifest m = manifest2(rule("gated", "last_rows", 3, "for \\w+", "idle", 20)
                .replace("confidence = 0.5\n", "confidence = 0.5\nneeds = ['shortcuts', 'help']\n"));
        assertEquals("gated", ScreenRules.evaluate(m, screen(40, 4, "? for shortcuts"), 0).rule());
        assertNull(ScreenRules.evaluate(m, screen(40, 4, "waiting for input"), 0).rule(), "no need met: skipped");
        assertNull(ScreenRules.evaluate(m, screen(40, 4, "help is at hand"), 0).rule(), "a need met, the pattern not");
    }
}
