package io.artuditu.vt.internal;

import static io.artuditu.vt.internal.ScreenTest.cursor;
import static io.artuditu.vt.internal.ScreenTest.screen;
import static io.artuditu.vt.internal.ScreenTest.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Hyperlink;
import io.artuditu.vt.Limits;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden screens for resize with reflow on the primary screen. */
class ReflowTest {

    static void feed(Terminal t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Every retained row (scrollback, then screen) with a trailing "+" where it wraps. */
    static List<String> all(Terminal t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.historySize(); i++) {
            out.add(t.historyText(i, false) + (t.historyWrapped(i) ? "+" : ""));
        }
        for (int r = 0; r < t.rows(); r++) {
            out.add(t.rowText(r, false) + (t.wrapped(r) ? "+" : ""));
        }
        return out;
    }

    /**
     * Like {@link #all} with each row's shell marks, exit status and, per cell, the last
     * character of its link's URI ('.' for none).
     */
    static List<String> rich(Terminal t) {
        List<String> out = new ArrayList<>();
        int h = t.historySize();
        for (int i = 0; i < h + t.rows(); i++) {
            boolean hist = i < h;
            int r = i - h;
            StringBuilder sb = new StringBuilder(hist ? t.historyText(i, false) : t.rowText(r, false));
            sb.append((hist ? t.historyWrapped(i) : t.wrapped(r)) ? "+" : "");
            sb.append(" |m").append(hist ? t.historyMarks(i) : t.rowMarks(r));
            sb.append(" s").append(hist ? t.historyExitStatus(i) : t.rowExitStatus(r)).append(" |");
            for (int c = 0; c < t.cols(); c++) {
                Hyperlink l = hist ? t.historyLink(i, c) : t.link(r, c);
                sb.append(l == null ? '.' : l.uri().charAt(l.uri().length() - 1));
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** The characters of all retained cells that carry a link to {@code uri}, in order (ASCII text only). */
    static String linked(Terminal t, String uri) {
        StringBuilder sb = new StringBuilder();
        int h = t.historySize();
        for (int i = 0; i < h + t.rows(); i++) {
            String text = i < h ? t.historyText(i, false) : t.rowText(i - h, false);
            for (int c = 0; c < t.cols(); c++) {
                Hyperlink l = i < h ? t.historyLink(i, c) : t.link(i - h, c);
                if (l != null && l.uri().equals(uri)) {
                    sb.append(c < text.length() ? text.charAt(c) : '?');
                }
            }
        }
        return sb.toString();
    }

    @Test
    void wideningJoinsWrappedRows() {
        Terminal t = term(4, 4, "abcdefghij\r\nxy");
        screen(t, "abcd", "efgh", "ij", "xy");
        cursor(t, 3, 2);
        t.resize(10, 4);
        screen(t, "abcdefghij", "xy", "", "");
        assertFalse(t.wrapped(0));
        cursor(t, 1, 2);
        assertEquals(0, t.historySize());
    }

    @Test
    void narrowingWrapsLongRowsAndPushesIntoHistory() {
        Terminal t = term(10, 3, "abcdefghij\r\n12\r\nxyz");
        t.resize(4, 3);
        assertEquals(List.of("abcd+", "efgh+", "ij", "12", "xyz"), all(t));
        cursor(t, 2, 3);
        assertEquals(2, t.historySize());
    }

    @Test
    void narrowThenWidenRestoresTheOriginal() {
        String input = "The quick brown fox jumps over the lazy dog\r\n"
                + "\033[31mred text that is long enough to wrap\033[m\r\nshort\r\n$ ";
        Terminal t = term(20, 5, input);
        Terminal ref = term(20, 5, input);
        List<String> before = all(t);
        String sgrBefore = t.screenText(true);
        t.resize(7, 5);
        assertTrue(t.historySize() > ref.historySize());
        t.resize(20, 5);
        assertEquals(before, all(t));
        assertEquals(sgrBefore, t.screenText(true));
        assertEquals(ref.cursorRow() + "," + ref.cursorCol(), t.cursorRow() + "," + t.cursorCol());
        assertEquals(ref.historyBytes(), t.historyBytes());
    }

    @Test
    void cursorFollowsItsPlaceInTheText() {
        Terminal t = term(6, 4, "abcdefghijkl\033[2;3H");
        cursor(t, 1, 2); // on the 'i'
        t.resize(4, 4);
        screen(t, "abcd", "efgh", "ijkl", "");
        cursor(t, 2, 0);
        assertEquals("i", t.grapheme(t.cursorRow(), t.cursorCol()));
        t.resize(12, 4);
        cursor(t, 0, 8);
        assertEquals("i", t.grapheme(t.cursorRow(), t.cursorCol()));
    }

    @Test
    void cursorPastTheTextKeepsItsDistanceOnTheSameRow() {
        Terminal t = term(10, 3, "ab\033[6G");
        cursor(t, 0, 5);
        t.resize(4, 3);
        cursor(t, 0, 3);
        t.resize(10, 3);
        cursor(t, 0, 3);
        feed(t, "X");
        screen(t, "ab X", "", "");
    }

    @Test
    void wideCharacterIsNeverSplitAcrossRows() {
        // "ab" + three 2-cell characters, 8 cells, re-wrapped to 5: the second wide character
        // would start in the last column, so it moves to the next row.
        Terminal t = term(8, 3, "ab\u4e00\u4e8c\u4e09");
        t.resize(5, 3);
        screen(t, "ab\u4e00", "\u4e8c\u4e09", "");
        assertTrue(t.wrapped(0));
        assertEquals(0, t.codepoint(0, 4));
        assertEquals(2, t.width(1, 0));
        assertEquals(0, t.width(1, 1));
        t.resize(8, 3);
        screen(t, "ab\u4e00\u4e8c\u4e09", "", "");
        assertFalse(t.wrapped(0));
        // Width 1 cannot show a wide character: it is dropped, the rest stays.
        t.resize(1, 3);
        assertTrue(all(t).stream().noneMatch(s -> s.contains("\u4e00")));
    }

    @Test
    void wrappedLineSpanningHistoryAndScreenIsJoined() {
        // 26 letters at width 5 on 3 rows: the logical line starts in the scrollback.
        Terminal t = term(5, 3, "abcdefghijklmnopqrstuvwxyz");
        assertEquals(3, t.historySize());
        assertTrue(t.historyWrapped(2));
        t.resize(13, 3);
        screen(t, "abcdefghijklm", "nopqrstuvwxyz", "");
        assertEquals(0, t.historySize());
        cursor(t, 1, 12);
        assertEquals(0, t.historyBytes());
    }

    @Test
    void rowsAddedComeBackFromHistoryAndRowsLostGoIntoIt() {
        Terminal t = term(5, 3, "1\r\n2\r\n3\r\n4\r\n5");
        screen(t, "3", "4", "5");
        assertEquals(2, t.historySize());
        t.resize(5, 5);
        screen(t, "1", "2", "3", "4", "5");
        cursor(t, 4, 1);
        assertEquals(0, t.historySize());
        assertEquals(0, t.historyBytes());
        t.resize(5, 2);
        screen(t, "4", "5");
        assertEquals("1\n2\n3", t.historyText(0, 3, false));
        // Rows lost below a cursor near the top are blank rows, not text.
        Terminal u = term(5, 6, "a\r\nb");
        u.resize(5, 3);
        screen(u, "a", "b", "");
        assertEquals(0, u.historySize());
    }

    @Test
    void historyAccountingStaysExactAndWithinBudget() {
        Terminal t = Terminal.create(40, 5, new Limits(4000, 4096));
        for (int i = 0; i < 200; i++) {
            feed(t, "line " + i + " with some text that wraps at narrow widths\r\n");
        }
        for (int w : new int[] {7, 13, 80, 3, 40}) {
            t.resize(w, 5);
            assertTrue(t.historyBytes() <= 4000, "within budget at width " + w);
            // The total must equal the sum recomputed from scratch for each line.
            Emulator e = (Emulator) t;
            assertEquals(e.historyBytesRecounted(), t.historyBytes(), "exact at width " + w);
            assertTrue(t.cursorRow() < t.rows() && t.cursorCol() < t.cols());
        }
    }

    @Test
    void savedCursorIsReflowedToo() {
        Terminal t = term(6, 3, "abcdefgh\033[1;5H\0337\033[3;1H");
        t.resize(12, 3);
        feed(t, "\0338X");
        screen(t, "abcdXfgh", "", "");
    }

    @Test
    void primaryIsReflowedWhileTheAlternateScreenIsShown() {
        Terminal t = term(4, 3, "abcdefgh\033[?1049h\033[HALT");
        t.resize(8, 3);
        screen(t, "ALT", "", "");
        feed(t, "\033[?1049l");
        screen(t, "abcdefgh", "", "");
        cursor(t, 0, 7);
    }

    private static final String LINKED = "see \033]8;;https://x.test/1\007HYPERLINKED\033]8;;\007 and "
            + "\033]8;id=2;https://x.test/2\007another\033]8;;\007 ok\r\n$ ";

    @Test
    void linkedWordKeepsItsLinkOnEveryCellWhenItWrapsDifferently() {
        Terminal t = term(10, 4, LINKED);
        screen(t, "see HYPERL", "INKED and", "another ok", "$");
        t.resize(6, 4);
        assertEquals(List.of("see HY+", "PERLIN+", "KED an+", "d anot+", "her ok", "$"), all(t));
        assertEquals("HYPERLINKED", linked(t, "https://x.test/1"));
        assertEquals("another", linked(t, "https://x.test/2"));
        assertEquals(new Hyperlink("https://x.test/2", "2"), t.link(1, 2));
        t.resize(30, 4);
        screen(t, "see HYPERLINKED and another ok", "$", "", "");
        assertEquals("HYPERLINKED", linked(t, "https://x.test/1"));
        assertEquals("another", linked(t, "https://x.test/2"));
        assertEquals(null, t.link(0, 3));
        assertEquals(null, t.link(0, 15));
    }

    @Test
    void linkedWideCharactersKeepTheirLinkOnBothCells() {
        Terminal t = term(5, 3, "ab\033]8;;u\007\u4e2d\u6587\033]8;;\007");
        t.resize(3, 3);
        screen(t, "ab", "\u4e2d", "\u6587");
        for (int r = 1; r <= 2; r++) {
            assertEquals("u", t.link(r, 0).uri());
            assertEquals("u", t.link(r, 1).uri());
        }
        assertEquals(null, t.link(0, 1));
        t.resize(5, 3);
        screen(t, "ab\u4e2d", "\u6587", "");
        assertEquals(null, t.link(0, 1));
        assertEquals("u", t.link(0, 2).uri());
        assertEquals("u", t.link(0, 3).uri());
        assertEquals("u", t.link(1, 1).uri());
    }

    /** A prompt, a long command, its output and the next prompt with the first one's exit status. */
    private static final String SHELL = "\033]133;A\007$ \033]133;B\007echo a command long enough to wrap\r\n"
            + "\033]133;C\007output\r\n\033]133;D;3\007\033]133;A\007$ \033]133;B\007";

    @Test
    void promptAndExitStatusKeepTheirLinesThroughNarrowAndWiden() {
        Terminal t = term(20, 4, SHELL);
        List<String> before = rich(t);
        assertEquals(List.of("$ echo a command lon+ |m3 s-1 |....................",
                "g enough to wrap |m0 s-1 |....................",
                "output |m4 s-1 |....................",
                "$ |m11 s3 |...................."), before);
        t.resize(8, 4);
        List<String> narrow = rich(t);
        assertEquals(List.of("$ echo a+ |m3 s-1 |........", " command+ |m0 s-1 |........",
                " long en+ |m0 s-1 |........", "ough to+ |m0 s-1 |........", "wrap |m0 s-1 |........",
                "output |m4 s-1 |........", "$ |m11 s3 |........"), narrow.subList(narrow.size() - 7, narrow.size()));
        assertEquals(ShellMarks.PROMPT | ShellMarks.COMMAND, t.historyMarks(0));
        assertEquals(3, t.lastExitStatus());
        t.resize(20, 4);
        assertEquals(before, rich(t));
        assertEquals(1, t.commandsFinished());
    }

    @Test
    void marksOfJoinedRowsAreMergedOntoTheRowHoldingTheirFirstCell() {
        // A prompt that wraps: B lands on its second row.
        Terminal t = term(8, 4, "\033]133;A\007user@host:~$ \033]133;B\007ls");
        assertEquals(ShellMarks.PROMPT, t.rowMarks(0));
        assertEquals(ShellMarks.COMMAND, t.rowMarks(1));
        t.resize(20, 4);
        screen(t, "user@host:~$ ls", "", "", "");
        assertEquals(ShellMarks.PROMPT | ShellMarks.COMMAND, t.rowMarks(0));
        assertEquals(0, t.rowMarks(1));
        t.resize(4, 4);
        // B's row started at cell 0 of the joined line, so it stays on the first row.
        assertEquals(List.of("user+", "@hos+", "t:~$+", " ls"), all(t));
        assertEquals(ShellMarks.PROMPT | ShellMarks.COMMAND, t.rowMarks(0));
        assertEquals(0, t.rowMarks(3));
    }

    @Test
    void narrowThenWidenRestoresLinksAndMarks() {
        String input = SHELL + "cat \033]8;;https://x.test/f\007a-file-with-a-long-name\033]8;;\007\r\n"
                + "\033]133;C\007\033[32mgreen output wrapping around\033[m\r\n\033]133;D;0\007\033]133;A\007$ ";
        Terminal t = term(20, 5, input);
        Terminal ref = term(20, 5, input);
        List<String> before = rich(t);
        String sgrBefore = t.screenText(true);
        t.resize(7, 5);
        assertTrue(t.historySize() > ref.historySize());
        assertEquals("a-file-with-a-long-name", linked(t, "https://x.test/f"));
        t.resize(20, 5);
        assertEquals(before, rich(t));
        assertEquals(sgrBefore, t.screenText(true));
        assertEquals(ref.cursorRow() + "," + ref.cursorCol(), t.cursorRow() + "," + t.cursorCol());
        assertEquals(ref.historyBytes(), t.historyBytes());
        assertEquals(0, t.lastExitStatus());
    }
}
