package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.CursorShape;
import io.artuditu.vt.Limits;
import io.artuditu.vt.Mode;
import io.artuditu.vt.Style;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Golden screens: bytes in, expected text, renditions and cursor out. */
class ScreenTest {

    static Terminal term(int cols, int rows, String input) {
        Terminal t = Terminal.create(cols, rows, Limits.DEFAULT);
        t.feed(input.getBytes(StandardCharsets.UTF_8));
        return t;
    }

    static void screen(Terminal t, String... rows) {
        assertEquals(String.join("\n", rows), t.screenText(false));
    }

    static void cursor(Terminal t, int row, int col) {
        assertEquals(row + "," + col, t.cursorRow() + "," + t.cursorCol(), "cursor");
    }

    @Test
    void printsAndWrapsWithPendingWrap() {
        Terminal t = term(5, 3, "abcde");
        screen(t, "abcde", "", "");
        cursor(t, 0, 4);
        t.feed("f".getBytes(StandardCharsets.US_ASCII));
        screen(t, "abcde", "f", "");
        assertTrue(t.wrapped(0));
        assertFalse(t.wrapped(1));
        cursor(t, 1, 1);
    }

    @Test
    void pendingWrapIsCancelledByCarriageReturn() {
        Terminal t = term(5, 3, "abcde\rX");
        screen(t, "Xbcde", "", "");
    }

    @Test
    void noAutowrapOverwritesLastColumn() {
        Terminal t = term(5, 2, "\033[?7labcdefgh");
        screen(t, "abcdh", "");
        cursor(t, 0, 4);
        Terminal u = term(5, 2, "\033[?7labcd\u00e9\u00e8");
        screen(u, "abcd\u00e8", "");
    }

    @Test
    void controlCharacters() {
        Terminal t = term(20, 3, "ab\bX\tY\r\nZ");
        screen(t, "aX      Y", "Z", "");
        Terminal u = term(10, 3, "abc\033[20hd\ne");
        screen(u, "abcd", "e", "");
    }

    @Test
    void scrollsIntoHistory() {
        Terminal t = term(10, 2, "one\r\ntwo\r\nthree\r\nfour");
        screen(t, "three", "four");
        assertEquals(2, t.historySize());
        assertEquals("one", t.historyText(0, false));
        assertEquals("two", t.historyText(1, false));
        assertTrue(t.historyBytes() > 0);
    }

    @Test
    void cursorMovement() {
        Terminal t = term(10, 5, "\033[3;4HX\033[AY\033[2BZ\033[5DW\033[2CV");
        screen(t, "", "    Y", "   X", " W  VZ", "");
        Terminal u = term(10, 5, "\033[2;2H\033[2EA\033[FB\033[7GC\033[4dD\033[1`E\033[5;5fF");
        screen(u, "", "", "B     C", "E      D", "    F");
        Terminal v = term(10, 3, "\033[99;99HX\033[99AY\033[99DZ");
        screen(v, "Z        Y", "", "         X");
    }

    @Test
    void eraseInDisplayAndLine() {
        String fill = "aaaaa\r\nbbbbb\r\nccccc\033[2;3H";
        screen(term(5, 3, fill + "\033[J"), "aaaaa", "bb", "");
        screen(term(5, 3, fill + "\033[1J"), "", "   bb", "ccccc");
        screen(term(5, 3, fill + "\033[2J"), "", "", "");
        screen(term(5, 3, fill + "\033[K"), "aaaaa", "bb", "ccccc");
        screen(term(5, 3, fill + "\033[1K"), "aaaaa", "   bb", "ccccc");
        screen(term(5, 3, fill + "\033[2K"), "aaaaa", "", "ccccc");
        Terminal t = term(5, 1, "a\r\nb\r\nc\033[3J");
        assertEquals(0, t.historySize());
        screen(t, "c");
    }

    @Test
    void insertDeleteEraseCharacters() {
        screen(term(8, 1, "abcdef\033[1;3H\033[2@"), "ab  cdef");
        screen(term(8, 1, "abcdef\033[1;3H\033[2P"), "abef");
        screen(term(8, 1, "abcdef\033[1;3H\033[2X"), "ab  ef");
        screen(term(4, 1, "abcd\033[1;2H\033[9@"), "a");
        screen(term(8, 1, "abcdef\033[4h\033[1;3HXY"), "abXYcdef");
    }

    @Test
    void insertDeleteLinesInsideRegion() {
        String fill = "1\r\n2\r\n3\r\n4\r\n5";
        screen(term(3, 5, fill + "\033[2;4r\033[3;1H\033[L"), "1", "2", "", "3", "5");
        screen(term(3, 5, fill + "\033[2;4r\033[2;1H\033[2M"), "1", "4", "", "", "5");
        screen(term(3, 5, fill + "\033[2;4r\033[5;1H\033[L"), "1", "2", "3", "4", "5");
    }

    @Test
    void scrollRegionKeepsOutsideRowsAndHistory() {
        Terminal t = term(3, 4, "1\r\n2\r\n3\r\n4\033[2;3r\033[3;1H\r\nX\r\nY");
        screen(t, "1", "X", "Y", "4");
        assertEquals(0, t.historySize(), "a region not at the top keeps no history");
        Terminal u = term(3, 4, "a\r\nb\r\nc\r\nd\033[1;2r\033[2;1H\nX");
        screen(u, "b", "X", "c", "d");
        assertEquals(1, u.historySize());
    }

    @Test
    void scrollUpDownAndReverseIndex() {
        screen(term(3, 3, "1\r\n2\r\n3\033[S"), "2", "3", "");
        screen(term(3, 3, "1\r\n2\r\n3\033[T"), "", "1", "2");
        screen(term(3, 3, "1\r\n2\r\n3\033[H\033M"), "", "1", "2");
        screen(term(3, 3, "1\r\n2\r\n3\033D\033EZ"), "3", "", "Z");
    }

    @Test
    void originMode() {
        Terminal t = term(5, 5, "\033[2;4r\033[?6h\033[HA\033[9;1HB\033[6n");
        screen(t, "", "A", "", "B", "");
        assertEquals("\033[3;2R", new String(t.takeReplies(), StandardCharsets.US_ASCII));
        assertTrue(t.mode(Mode.ORIGIN));
    }

    @Test
    void tabStops() {
        screen(term(20, 1, "\033[3g\033[1;4H\033H\033[1;1H\tX"), "   X");
        screen(term(20, 1, "\tA\033[Z\033[ZB"), "B       A");
        screen(term(20, 1, "\033[2IC"), "                C");
        screen(term(20, 1, "\033[1;9H\033[g\033[1;1H\tD"), "                D");
    }

    @Test
    void saveRestoreCursor() {
        Terminal t = term(10, 3, "\033[2;3H\033[1m\0337\033[H\033[0mA\0338B\033[1;5H\033[sC\033[3;1H\033[uD");
        screen(t, "A   D", "  B", "");
        assertTrue(Style.has(t.style(1, 2), Style.BOLD));
        assertFalse(Style.has(t.style(0, 0), Style.BOLD));
    }

    @Test
    void sgrAttributesAndColours() {
        Terminal t = term(20, 1, "\033[1;2;3;4;5;7;8;9mA\033[22;23;24;25;27;28;29mB"
                + "\033[31;42mC\033[93;104mD\033[38;5;200;48;5;17mE\033[38;2;1;2;3mF\033[48:2::4:5:6mG"
                + "\033[38:5:9mH\033[4:3mI\033[21mJ\033[39;49;0mK");
        long a = t.style(0, 0);
        for (long f : new long[] {Style.BOLD, Style.DIM, Style.ITALIC, Style.BLINK, Style.REVERSE, Style.HIDDEN, Style.STRIKE}) {
            assertTrue(Style.has(a, f));
        }
        assertEquals(1, Style.underline(a));
        assertEquals(0L, t.style(0, 1));
        assertEquals(Style.indexed(1), Style.fg(t.style(0, 2)));
        assertEquals(Style.indexed(2), Style.bg(t.style(0, 2)));
        assertEquals(Style.indexed(11), Style.fg(t.style(0, 3)));
        assertEquals(Style.indexed(12), Style.bg(t.style(0, 3)));
        assertEquals(Style.indexed(200), Style.fg(t.style(0, 4)));
        assertEquals(Style.indexed(17), Style.bg(t.style(0, 4)));
        assertEquals(Style.rgb(1, 2, 3), Style.fg(t.style(0, 5)));
        assertEquals(Style.rgb(4, 5, 6), Style.bg(t.style(0, 6)));
        assertEquals(Style.rgb(1, 2, 3), Style.fg(t.style(0, 6)), "colon form leaves fg alone");
        assertEquals(Style.indexed(9), Style.fg(t.style(0, 7)));
        assertEquals(3, Style.underline(t.style(0, 8)));
        assertEquals(2, Style.underline(t.style(0, 9)));
        assertEquals(0L, t.style(0, 10));
        assertEquals(Style.COLOR_RGB, Style.colorKind(Style.fg(t.style(0, 5))));
    }

    @Test
    void sgrTextRoundTrips() {
        String in = "\033[1;31mred\033[0m plain \033[4:3;38;2;10;20;30;48;5;100mx\033[m";
        Terminal t = term(30, 1, in);
        String withSgr = t.screenText(true);
        assertEquals("\033[0;1;31mred\033[0m plain \033[0;4:3;38;2;10;20;30;48;5;100mx\033[0m", withSgr);
        Terminal u = term(30, 1, withSgr);
        for (int c = 0; c < 30; c++) {
            assertEquals(t.style(0, c), u.style(0, c));
        }
        assertEquals("red plain x", t.screenText(false));
    }

    @Test
    void eraseUsesBackgroundColour() {
        Terminal t = term(4, 1, "ab\033[44m\033[1;2H\033[K");
        assertEquals(Style.indexed(4), Style.bg(t.style(0, 3)));
        assertEquals(0, Style.fg(t.style(0, 3)));
        assertEquals("a", t.screenText(false));
    }

    @Test
    void decSpecialGraphics() {
        Terminal t = term(10, 1, "\033(0lqk\033(Bq\016x\017x\033)0\016x\017");
        screen(t, "\u250C\u2500\u2510qxx\u2502");
    }

    @Test
    void wideCharacters() {
        Terminal t = term(6, 2, "a\u4e2d\u6587b\ud83d\ude00");
        screen(t, "a\u4e2d\u6587b", "\ud83d\ude00");
        assertEquals(2, t.width(0, 1));
        assertEquals(0, t.width(0, 2));
        assertEquals("", t.grapheme(0, 2));
        assertEquals(0x4e2d, t.codepoint(0, 1));
        assertTrue(t.wrapped(0));
        cursor(t, 1, 2);
        // A wide character that does not fit in the last column wraps whole.
        Terminal u = term(4, 2, "abc\u4e2d");
        screen(u, "abc", "\u4e2d");
        // Overwriting half of a wide character blanks the other half.
        Terminal v = term(6, 1, "\u4e2d\u6587\033[1;2HX\033[1;3HY");
        screen(v, " XY");
        assertEquals(1, v.width(0, 0));
    }

    @Test
    void combiningMarksJoinThePreviousCell() {
        Terminal t = term(5, 1, "e\u0301x\u4e2d\u0308");
        assertEquals("e\u0301", t.grapheme(0, 0));
        assertEquals("\u4e2d\u0308", t.grapheme(0, 2));
        assertEquals("e\u0301x\u4e2d\u0308", t.screenText(false));
        cursor(t, 0, 4);
        Terminal u = term(2, 1, "ab\u0301");
        assertEquals("b\u0301", u.grapheme(0, 1));
    }

    @Test
    void invalidUtf8BecomesReplacement() {
        Terminal t = Terminal.create(10, 1);
        t.feed(new byte[] {'a', (byte) 0xFF, 'b', (byte) 0xC3, 'c', (byte) 0xE2, (byte) 0x82, (byte) 0xC0, (byte) 0x80, (byte) 0xED, (byte) 0xA0, (byte) 0x80});
        assertEquals("a\uFFFDb\uFFFDc\uFFFD\uFFFD\uFFFD\uFFFD", t.screenText(false));
    }

    @Test
    void alternateScreen() {
        Terminal t = term(5, 2, "main\033[1;3H\033[?1049hALT");
        screen(t, "  ALT", "");
        assertTrue(t.mode(Mode.ALTERNATE_SCREEN));
        t.feed("\033[?1049l".getBytes(StandardCharsets.US_ASCII));
        screen(t, "main", "");
        cursor(t, 0, 2);
        assertFalse(t.mode(Mode.ALTERNATE_SCREEN));
        Terminal u = term(5, 2, "\033[?1049h1\r\n2\r\n3\r\n4");
        assertEquals(0, u.historySize(), "the alternate screen keeps no history");
    }

    @Test
    void modesAndMouse() {
        Terminal t = term(5, 2, "\033[?1h\033=\033[?2004h\033[?1004h\033[?1006h\033[?25l");
        assertTrue(t.mode(Mode.APPLICATION_CURSOR_KEYS));
        assertTrue(t.mode(Mode.APPLICATION_KEYPAD));
        assertTrue(t.mode(Mode.BRACKETED_PASTE));
        assertTrue(t.mode(Mode.FOCUS_EVENTS));
        assertTrue(t.mode(Mode.MOUSE_SGR));
        assertFalse(t.cursorVisible());
        assertFalse(t.wantsMouse());
        for (int m : new int[] {1000, 1002, 1003}) {
            t.feed(("\033[?" + m + "h").getBytes(StandardCharsets.US_ASCII));
            assertTrue(t.wantsMouse());
            t.feed(("\033[?" + m + "l").getBytes(StandardCharsets.US_ASCII));
            assertFalse(t.wantsMouse());
        }
        t.feed("\033[?1;2004l\033>\033[?25h".getBytes(StandardCharsets.US_ASCII));
        assertFalse(t.mode(Mode.APPLICATION_CURSOR_KEYS));
        assertFalse(t.mode(Mode.BRACKETED_PASTE));
        assertFalse(t.mode(Mode.APPLICATION_KEYPAD));
        assertTrue(t.cursorVisible());
    }

    @Test
    void cursorShape() {
        assertEquals(CursorShape.DEFAULT, term(5, 1, "").cursorShape());
        assertEquals(CursorShape.STEADY_BAR, term(5, 1, "\033[6 q").cursorShape());
        assertEquals(CursorShape.BLINKING_UNDERLINE, term(5, 1, "\033[3 q").cursorShape());
        assertEquals(CursorShape.DEFAULT, term(5, 1, "\033[2 q\033[0 q").cursorShape());
    }

    @Test
    void titles() {
        assertEquals("hello", term(5, 1, "\033]0;hello\007").title());
        assertEquals("w\u00e9rld", term(5, 1, "\033]2;w\u00e9rld\033\\").title());
        assertEquals("", term(5, 1, "\033]1;icon\007").title());
        assertEquals("", term(5, 1, "\033]2;cancelled\030").title());
    }

    @Test
    void replies() {
        Terminal t = term(10, 5, "\033[5n\033[2;3H\033[6n\033[c\033[>c");
        assertEquals("\033[0n\033[2;3R\033[?62;22c\033[>1;10;0c", new String(t.takeReplies(), StandardCharsets.US_ASCII));
        assertArrayEquals(new byte[0], t.takeReplies());
    }

    @Test
    void repeatAndAlignment() {
        screen(term(6, 1, "ab\033[3b"), "abbbb");
        screen(term(3, 2, "\033#8"), "EEE", "EEE");
    }

    @Test
    void resetsAndSoftReset() {
        Terminal t = term(5, 2, "\033[1mab\033[?25l\033]2;t\007\033c");
        screen(t, "", "");
        assertEquals("", t.title());
        assertTrue(t.cursorVisible());
        Terminal u = term(5, 2, "\033[?25l\033[4h\033[1m\033[!pX");
        assertTrue(u.cursorVisible());
        assertFalse(u.mode(Mode.INSERT));
        assertEquals(0L, u.style(0, 0));
    }

    @Test
    void unknownSequencesAreIgnored() {
        screen(term(10, 1, "a\033[?999;5zb\033P1$qm\033\\c\033_apc\033\\d\033X\033^pm\033\\e\033[1;2;3$|f\033%Gg"), "abcdefg");
    }

    @Test
    void revisionAndDirtyRows() {
        Terminal t = term(5, 3, "");
        long r0 = t.revision();
        t.feed("\033[2;1Hx".getBytes(StandardCharsets.US_ASCII));
        long r1 = t.revision();
        assertTrue(r1 > r0);
        assertEquals("{1}", t.rowsChangedSince(r0).toString());
        assertTrue(t.rowsChangedSince(r1).isEmpty());
        t.feed("\033[3;1Hy".getBytes(StandardCharsets.US_ASCII));
        assertEquals("{2}", t.rowsChangedSince(r1).toString());
        assertEquals("{1, 2}", t.rowsChangedSince(r0).toString());
        t.feed(new byte[0]);
        assertEquals(t.revision(), t.revision());
        t.resize(6, 3);
        assertEquals("{0, 1, 2}", t.rowsChangedSince(r1 + 1).toString());
    }

    @Test
    void alternateScreenIsCutNotReflowed() {
        Terminal t = term(6, 3, "\033[?1049habcdef\r\n12\r\nxyz");
        t.resize(4, 3);
        screen(t, "abcd", "12", "xyz");
        cursor(t, 2, 3);
        t.resize(4, 2);
        screen(t, "12", "xyz");
        assertEquals(0, t.historySize());
        cursor(t, 1, 3);
        t.resize(8, 4);
        screen(t, "12", "xyz", "", "");
        t.feed("\tZ".getBytes(StandardCharsets.US_ASCII));
        screen(t, "12", "xyz    Z", "", "");
        assertEquals(0, Terminal.create(0, -5).cols() - 1);
    }
}
