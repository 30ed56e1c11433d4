package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.artuditu.vt.Limits;
import io.artuditu.vt.Match;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.Style;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rows without arrays ({@link Line}'s lazy {@code cp} and {@code st}) behave exactly like rows
 * with them: a differential check of every {@code Line} operation, then the emulator's
 * features on rows that were never written or were erased in a colour.
 */
class LazyRowTest {
    private static final long BLUE = Style.withBg(0, Style.indexed(4));
    private static final long RED = Style.withBg(0, Style.indexed(1));
    private static final long GREEN = Style.withBg(0, Style.indexed(2));
    private static final long[] STYLES = {0, 0, BLUE, RED, Style.withFg(0, Style.indexed(1)), BLUE | Style.BOLD,
        Style.OVERLINE};
    private static final int[] UNDERLINE_COLORS = {0, Style.indexed(9), Style.rgb(1, 2, 3)};
    private static final long[] FILLS = {0, 0, 0, BLUE, RED};

    private static Emulator emu(int cols, int rows, String input) {
        Emulator t = new Emulator(cols, rows, Limits.DEFAULT);
        feed(t, input);
        return t;
    }

    private static void feed(Emulator t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    private static long blankGrid(int rows) {
        return rows * Line.OBJECT_BYTES + HistoryLine.array(rows, 4);
    }

    private static long rowArrays(int cols, boolean styled) {
        return HistoryLine.array(cols, 4) + (styled ? HistoryLine.array(cols, 8) : 0);
    }

    // ------------------------------------------------------------------ Line, lazy against eager

    /** Gives {@code l} both arrays, as every row had before they were lazy. */
    private static Line eager(Line l) {
        l.cps();
        l.sts();
        return l;
    }

    @Test
    void everyLineOperationMatchesARowThatHoldsItsArrays() {
        for (long seed = 1; seed <= 300; seed++) {
            Random r = new Random(seed);
            int cols = 1 + r.nextInt(12);
            Line lazy = new Line(cols);
            Line full = eager(new Line(cols));
            for (int step = 0; step < 60; step++) {
                String op = apply(r, lazy, full, lazy.cols());
                eager(full);
                same(lazy, full, "seed " + seed + " step " + step + " " + op);
            }
        }
    }

    /** One random operation, done to both lines; returns its description. */
    private static String apply(Random r, Line a, Line b, int cols) {
        int from = r.nextInt(cols);
        int to = from + r.nextInt(cols - from + 1);
        long s = STYLES[r.nextInt(STYLES.length)];
        long fill = FILLS[r.nextInt(FILLS.length)];
        switch (r.nextInt(13)) {
            case 0:
            case 1:
            case 2: {
                // A run of text, as printAscii writes it.
                for (Line l : new Line[] {a, b}) {
                    l.prepare(from, to);
                    for (int i = from; i < to; i++) {
                        l.put(i, 'a' + i, s);
                    }
                }
                return "text " + from + ".." + to + " in " + s;
            }
            case 3: {
                if (cols < 2) {
                    return "none";
                }
                int at = Math.min(from, cols - 2);
                for (Line l : new Line[] {a, b}) {
                    l.prepare(at, at + 2);
                    l.put(at, 0x4E2D | Line.WIDE, s);
                    l.put(at + 1, Line.TAIL, s);
                }
                return "wide at " + at;
            }
            case 4:
                a.erase(from, to, fill);
                b.erase(from, to, fill);
                return "erase " + from + ".." + to + " with " + fill;
            case 5: {
                int n = 1 + r.nextInt(cols);
                a.insert(from, n, fill);
                b.insert(from, n, fill);
                return "insert " + n + " at " + from + " with " + fill;
            }
            case 6: {
                int n = 1 + r.nextInt(cols);
                a.delete(from, n, fill);
                b.delete(from, n, fill);
                return "delete " + n + " at " + from + " with " + fill;
            }
            case 7:
                if (r.nextBoolean()) {
                    a.reset(fill);
                    b.reset(fill);
                    return "reset " + fill;
                }
                a.clear(fill);
                b.clear(fill);
                return "clear " + fill;
            case 8: {
                int n = 1 + r.nextInt(14);
                a.resize(n);
                b.resize(n);
                return "resize " + n;
            }
            case 9: {
                int serial = r.nextInt(3);
                a.link(from, to, serial);
                b.link(from, to, serial);
                return "link " + from + ".." + to + " " + serial;
            }
            case 10:
                // As combine() does: only on a cell with a character.
                if (a.cp(from) != 0 && (a.cp(from) & Line.TAIL) == 0) {
                    a.addMark(from, 0x301);
                    b.addMark(from, 0x301);
                }
                return "mark " + from;
            case 11: {
                int color = UNDERLINE_COLORS[r.nextInt(UNDERLINE_COLORS.length)];
                a.underline(from, to, color);
                b.underline(from, to, color);
                return "underline colour " + from + ".." + to + " " + color;
            }
            default:
                a.wrapped = b.wrapped = r.nextBoolean();
                return "wrapped";
        }
    }

    private static void same(Line lazy, Line full, String what) {
        int cols = full.cols();
        assertEquals(cols, lazy.cols(), what);
        for (int i = 0; i < cols; i++) {
            assertEquals(full.cp(i), lazy.cp(i), what + ": code point of cell " + i);
            assertEquals(full.st(i), lazy.st(i), what + ": rendition of cell " + i);
            assertEquals(full.ul(i), lazy.ul(i), what + ": underline colour of cell " + i);
        }
        assertEquals(full.length(), lazy.length(), what);
        assertArrayEquals(full.marks, lazy.marks, what);
        assertArrayEquals(full.links, lazy.links, what);
        for (boolean sgr : new boolean[] {false, true}) {
            StringBuilder x = new StringBuilder();
            StringBuilder y = new StringBuilder();
            Render.row(x, full, sgr);
            Render.row(y, lazy, sgr);
            assertEquals(x.toString(), y.toString(), what);
        }
        HistoryLine hx = HistoryLine.of(full);
        HistoryLine hy = HistoryLine.of(lazy);
        assertEquals(hx.bytes, hy.bytes, what);
        StringBuilder x = new StringBuilder();
        StringBuilder y = new StringBuilder();
        hx.text(x, true);
        hy.text(y, true);
        assertEquals(x.toString(), y.toString(), what);
        Line back = hy.toLine(cols);
        for (int i = 0; i < cols; i++) {
            assertEquals(full.cp(i), back.cp(i), what + ": back from history, cell " + i);
            assertEquals(full.st(i), back.st(i), what + ": back from history, cell " + i);
            assertEquals(i < full.length() ? full.ul(i) : 0, back.ul(i), what + ": back from history, cell " + i);
        }
    }

    @Test
    void aRowAllocatesOnlyWhatItsCellsNeed() {
        Line l = new Line(10);
        assertNull(l.cp);
        assertNull(l.st);
        l.erase(0, 10, BLUE);
        assertNull(l.st, "a whole-row erase only changes the fill");
        assertEquals(BLUE, l.st(9));
        l.put(3, 'x', BLUE);
        assertNull(l.st, "text in the fill's rendition needs no renditions");
        l.put(4, 'y', 0);
        assertEquals(BLUE, l.st(5));
        assertEquals(0, l.st(4));
        int[] cp = l.cp;
        long[] st = l.st;
        l.reset(0);
        assertEquals(cp, l.cp, "reset keeps the arrays");
        assertEquals(st, l.st);
        l.clear(0);
        assertNull(l.cp, "clear gives them back");
        assertNull(l.st);
        assertEquals(Line.OBJECT_BYTES, l.bytes());
    }

    // ------------------------------------------------------------------ the emulator on lazy rows

    @Test
    void partialEraseInAColourOnANeverWrittenRow() {
        Emulator t = emu(10, 3, "\033[2;5H\033[41m\033[1K\033[0m");
        assertEquals("\033[0;41m     \033[0m", t.rowText(1, true));
        assertEquals(RED, t.style(1, 4));
        assertEquals(0, t.style(1, 5));
        assertEquals(blankGrid(3) + rowArrays(10, true) - HistoryLine.array(10, 4), t.footprint(),
                "renditions, but no code points");
    }

    @Test
    void insertAndDeleteCharactersOnBlankRows() {
        Emulator t = emu(8, 2, "\033[1;3H\033[42m\033[3@\033[0m");
        assertEquals(0, t.style(0, 1));
        assertEquals(GREEN, t.style(0, 2));
        assertEquals(GREEN, t.style(0, 4));
        assertEquals(0, t.style(0, 5));
        // A row erased in blue (fill only, no arrays), then two cells deleted in the default rendition.
        feed(t, "\033[2;1H\033[44m\033[2K\033[0m\033[2P");
        assertEquals(BLUE, t.style(1, 5));
        assertEquals(0, t.style(1, 6));
        assertEquals(0, t.style(1, 7));
        feed(t, "\033[2;1H\033[44m\033[2K\033[2P");
        assertEquals(BLUE, t.style(1, 7), "deleting in the fill's own rendition");
    }

    @Test
    void wideCharactersOnFreshRows() {
        Emulator t = emu(6, 2, "\033[1;3H\u4e2d");
        assertEquals(2, t.width(0, 2));
        assertEquals(0, t.width(0, 3));
        assertEquals("  \u4e2d", t.rowText(0, false));
        feed(t, "\033[1;4Hx");
        assertEquals(0, t.codepoint(0, 2), "the wide character's left half is blanked");
        assertEquals('x', t.codepoint(0, 3));
        // A wide character that does not fit in the last column wraps to a fresh row.
        feed(t, "\033[1;6H\u4e2d");
        assertEquals(0x4E2D, t.codepoint(1, 0));
        assertEquals(true, t.wrapped(0));
    }

    @Test
    void combiningMarkOnAnEmptyCellAllocatesNothing() {
        Emulator t = emu(10, 2, "\u0301");
        assertEquals(blankGrid(2), t.footprint());
        assertEquals("", t.rowText(0, false));
    }

    @Test
    void reflowKeepsRowColoursAndBlankRowsStayWithoutArrays() {
        Emulator t = emu(20, 4, "\033[44m\033[2J\033[0m\033[1;1Hhello");
        t.resize(30, 4);
        assertEquals("hello", t.rowText(0, false));
        assertEquals(BLUE, t.style(0, 19));
        assertEquals(0, t.style(0, 20), "cells gained by widening have the default rendition");
        assertEquals(BLUE, t.style(3, 19));
        assertEquals(0, t.style(3, 20));
        // The blue rows got renditions back from the reflow but no code points.
        assertEquals(blankGrid(4) + rowArrays(30, true) + 3 * HistoryLine.array(30, 8), t.footprint());

        Emulator idle = emu(200, 50, MemoryTest.PROMPT);
        idle.resize(120, 40);
        idle.resize(200, 50);
        assertEquals(emu(200, 50, MemoryTest.PROMPT).footprint(), idle.footprint(),
                "resizing an idle pane leaves its blank rows without arrays");
        assertEquals(emu(200, 50, MemoryTest.PROMPT).screenText(true), idle.screenText(true));
    }

    @Test
    void blankAndColouredRowsGoIntoHistory() {
        Emulator t = emu(10, 2, "\033[44m\033[K\033[0m\r\n\r\n\r\nx");
        assertEquals(2, t.historySize());
        assertEquals("\033[0;44m          \033[0m", t.historyText(0, true));
        assertEquals("", t.historyText(1, true));
        // A blank line holds no array of its own; a line in one rendition no run arrays.
        long blankLine = HistoryLine.OBJECT_BYTES;
        long blueLine = HistoryLine.OBJECT_BYTES + HistoryLine.array(10, 1);
        assertEquals(blankLine + blueLine, t.historyBytes());
    }

    @Test
    void searchSkipsBlankRowsAndCrossesWraps() {
        Emulator t = emu(5, 5, "abcdefg\r\n\r\n\033[44m\033[K\033[0m\r\nx y");
        assertEquals(List.of(new Match(0, 2, 1, 1)), t.search("cdef", true, 10));
        assertEquals(List.of(new Match(4, 1, 4, 2)), t.search(" ", true, 10),
                "blank and erased rows end their line; only the space inside the text matches");
    }

    @Test
    void shellMarksAndLinksOnRowsWithoutText() {
        Emulator t = emu(10, 3, "\033]133;A\007");
        assertEquals(ShellMarks.PROMPT, t.rowMarks(0));
        assertEquals(blankGrid(3), t.footprint(), "a mark needs no cell arrays");
        t.resize(12, 3);
        assertEquals(ShellMarks.PROMPT, t.rowMarks(0));
        feed(t, "\033]8;;https://a/\007ab\033]8;;\007\r\n\r\n\r\n");
        assertEquals(1, t.historySize());
        assertEquals(ShellMarks.PROMPT, t.historyMarks(0));
        assertEquals("https://a/", t.historyLink(0, 1).uri());
        assertNull(t.historyLink(0, 2));
        feed(t, "\033]8;;https://b/\007c\033]8;;\007");
        assertEquals("https://b/", t.link(2, 0).uri());
        assertNull(t.link(2, 1));
        assertNull(t.link(0, 0));
    }

    @Test
    void alignmentPatternFillsLazyRows() {
        Emulator t = emu(4, 2, "\033#8");
        assertEquals("EEEE\nEEEE", t.screenText(false));
        assertEquals(blankGrid(2) + 2 * rowArrays(4, false), t.footprint());
    }

    // ------------------------------------------------------------------ scrolling into history

    @Test
    void aScrolledRowIsBlankPastItsOldTextInEitherFill() {
        // The row that leaves the top is cleared only over its old text when the new fill is
        // the default one; every cell must still come back blank, and all of them in a colour.
        Emulator t = emu(10, 2, "\033[41mab\033[0mcdefgh \033[44m \033[0m\r\033[3C\033[K\r\nx\r\ny");
        assertEquals("x\ny", t.screenText(false));
        for (int c = 0; c < 10; c++) {
            assertEquals(0, t.style(1, c), "cell " + c);
        }
        assertEquals("\033[0;41mab\033[0mc", t.historyText(0, true));
        feed(t, "\033[2;1Hyyyyyyyyy\033[44m\033[K\033[0m\r\n");
        assertEquals("", t.rowText(1, false));
        for (int c = 0; c < 10; c++) {
            assertEquals(0, t.style(1, c), "cell " + c + " after a full row");
        }
        feed(t, "\033[43m\r\n\033[0m");
        for (int c = 0; c < 10; c++) {
            assertEquals(Style.withBg(0, Style.indexed(3)), t.style(1, c), "cell " + c + " in the erase colour");
        }
        assertEquals("x", t.historyText(1, false));
        assertEquals("yyyyyyyyy", t.historyText(2, false));
    }

    @Test
    void historyLinesKeepEveryRunAndShareNothingBetweenLines() {
        Emulator t = emu(12, 1, "plain\r\n\033[44mall blue\033[K\033[0m\r\n\033[1ma\033[0mb\033[31mc\033[0m\r\n");
        assertEquals(3, t.historySize());
        assertEquals("plain", t.historyText(0, true));
        assertEquals("\033[0;44mall blue    \033[0m", t.historyText(1, true));
        assertEquals("\033[0;1ma\033[0mb\033[0;31mc\033[0m", t.historyText(2, true));
        // One run: the object and its characters only; three runs: plus the two run arrays.
        assertEquals(HistoryLine.OBJECT_BYTES + HistoryLine.array(5, 1), t.historyLineBytes(0));
        assertEquals(HistoryLine.OBJECT_BYTES + HistoryLine.array(12, 1), t.historyLineBytes(1));
        assertEquals(HistoryLine.OBJECT_BYTES + HistoryLine.array(3, 1) + HistoryLine.array(3, 4)
                + HistoryLine.array(3, 8), t.historyLineBytes(2));
    }
}
