package io.artuditu.vt.internal;

import static io.artuditu.vt.internal.ScreenTest.cursor;
import static io.artuditu.vt.internal.ScreenTest.screen;
import static io.artuditu.vt.internal.ScreenTest.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Limits;
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
}
