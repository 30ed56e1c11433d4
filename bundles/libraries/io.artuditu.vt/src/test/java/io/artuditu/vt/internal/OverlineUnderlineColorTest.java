package io.artuditu.vt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Limits;
import io.artuditu.vt.Style;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Overline (SGR 53, reset by 55) and the underline colour (SGR 58 in every form, reset by
 * 59): how each form is read, what resets them, which cells erase and insert leave them on,
 * that saving the cursor, the scrollback, its SGR text and reflow keep them, and that a row
 * without an underline colour pays nothing for the feature.
 */
class OverlineUnderlineColorTest {

    static Emulator term(int cols, int rows, String input) {
        Emulator t = new Emulator(cols, rows, new Limits(1L << 20, 4096));
        feed(t, input);
        return t;
    }

    static void feed(Emulator t, String s) {
        t.feed(s.getBytes(StandardCharsets.UTF_8));
    }

    static final long BLUE_BG = Style.withBg(0, Style.indexed(4));

    @Test
    void sgr53SetsOverlineAnd55ResetsIt() {
        Emulator t = term(10, 1, "a\033[53mbc\033[55md");
        assertEquals(0L, t.style(0, 0));
        assertEquals(Style.OVERLINE, t.style(0, 1));
        assertEquals(Style.OVERLINE, t.style(0, 2));
        assertEquals(0L, t.style(0, 3));
    }

    @Test
    void overlineIsIndependentOfTheOtherAttributes() {
        Emulator t = term(10, 1, "\033[1;4;53;9mA\033[24mB\033[55mC");
        assertEquals(Style.BOLD | Style.STRIKE | Style.OVERLINE | (1L << Style.UNDERLINE_SHIFT), t.style(0, 0));
        assertEquals(Style.BOLD | Style.STRIKE | Style.OVERLINE, t.style(0, 1));
        assertEquals(Style.BOLD | Style.STRIKE, t.style(0, 2));
    }

    @Test
    void sgr58SemicolonIndexed() {
        Emulator t = term(10, 1, "a\033[58;5;196mb");
        assertEquals(0, t.underlineColor(0, 0));
        assertEquals(Style.indexed(196), t.underlineColor(0, 1));
        assertEquals(0L, t.style(0, 1), "the rendition itself is unchanged");
    }

    @Test
    void sgr58SemicolonRgb() {
        Emulator t = term(10, 1, "\033[58;2;1;2;3mb");
        assertEquals(Style.rgb(1, 2, 3), t.underlineColor(0, 0));
        assertEquals(0L, t.style(0, 0));
    }

    @Test
    void sgr58ColonRgbWithAnEmptyColourSpace() {
        Emulator t = term(10, 1, "\033[58:2::10:20:30mb");
        assertEquals(Style.rgb(10, 20, 30), t.underlineColor(0, 0));
        assertEquals(0L, t.style(0, 0));
    }

    @Test
    void sgr58ColonRgbWithoutAColourSpace() {
        Emulator t = term(10, 1, "\033[58:2:40:50:60mb");
        assertEquals(Style.rgb(40, 50, 60), t.underlineColor(0, 0));
    }

    @Test
    void sgr58ColonRgbWithAColourSpaceId() {
        Emulator t = term(10, 1, "\033[58:2:0:70:80:90mb");
        assertEquals(Style.rgb(70, 80, 90), t.underlineColor(0, 0));
    }

    @Test
    void sgr58ColonIndexed() {
        Emulator t = term(10, 1, "\033[58:5:9mb");
        assertEquals(Style.indexed(9), t.underlineColor(0, 0));
        assertEquals(0L, t.style(0, 0));
    }

    @Test
    void parametersAfter58StillApplyAndForegroundAndBackgroundAreLeftAlone() {
        Emulator t = term(10, 1, "\033[31;42m\033[58;5;9;1;53mA\033[4;58:2::1:2:3;39mB\033[58;2;4;5;6;3mC");
        long a = Style.withBg(Style.withFg(Style.BOLD | Style.OVERLINE, Style.indexed(1)), Style.indexed(2));
        assertEquals(a, t.style(0, 0));
        assertEquals(Style.indexed(9), t.underlineColor(0, 0));
        assertEquals(Style.withFg(a, 0) | (1L << Style.UNDERLINE_SHIFT), t.style(0, 1));
        assertEquals(Style.rgb(1, 2, 3), t.underlineColor(0, 1));
        assertEquals(Style.withFg(a, 0) | (1L << Style.UNDERLINE_SHIFT) | Style.ITALIC, t.style(0, 2));
        assertEquals(Style.rgb(4, 5, 6), t.underlineColor(0, 2));
    }

    @Test
    void aMalformedUnderlineColourIsIgnoredAsForForegroundAndBackground() {
        Emulator t = term(10, 1, "\033[58;5;9mA\033[58;5;300mB\033[58:2::1:2:999mC\033[58;7mD");
        for (int c = 0; c < 4; c++) {
            assertEquals(Style.indexed(9), t.underlineColor(0, c), "cell " + c);
        }
    }

    @Test
    void sgr59ResetsTheUnderlineColourOnly() {
        Emulator t = term(10, 1, "\033[4;53;58;5;9mA\033[59mB");
        assertEquals(Style.indexed(9), t.underlineColor(0, 0));
        assertEquals(0, t.underlineColor(0, 1));
        assertEquals(Style.OVERLINE | (1L << Style.UNDERLINE_SHIFT), t.style(0, 1));
    }

    @Test
    void sgr0AndAnEmptySgrResetBoth() {
        Emulator t = term(10, 1, "\033[53;58;5;9mA\033[0mB\033[53;58:2::1:2:3mC\033[mD");
        assertEquals(Style.OVERLINE, t.style(0, 0));
        assertEquals(Style.indexed(9), t.underlineColor(0, 0));
        assertEquals(0L, t.style(0, 1));
        assertEquals(0, t.underlineColor(0, 1));
        assertEquals(Style.rgb(1, 2, 3), t.underlineColor(0, 2));
        assertEquals(0L, t.style(0, 3));
        assertEquals(0, t.underlineColor(0, 3));
    }

    @Test
    void overwritingACellTakesThePensUnderlineColourOrNone() {
        Emulator t = term(10, 1, "\033[58;5;9mabc\033[59m\rX\033[58;5;10mY");
        assertEquals(0, t.underlineColor(0, 0));
        assertEquals(Style.indexed(10), t.underlineColor(0, 1));
        assertEquals(Style.indexed(9), t.underlineColor(0, 2));
        assertEquals(0, t.underlineColor(0, 3));
    }

    @Test
    void aWideCharacterHasItOnBothHalves() {
        Emulator t = term(10, 1, "\033[53;58;5;9m中\033[m文");
        assertEquals(Style.indexed(9), t.underlineColor(0, 0));
        assertEquals(Style.indexed(9), t.underlineColor(0, 1));
        assertEquals(Style.OVERLINE, t.style(0, 1));
        assertEquals(0, t.underlineColor(0, 2));
    }

    @Test
    void nonAsciiAndRepeatedCharactersTakeThem() {
        Emulator t = term(10, 1, "\033[53;58;5;9mé\033[3b");
        for (int c = 0; c < 4; c++) {
            assertEquals(Style.indexed(9), t.underlineColor(0, c));
            assertEquals(Style.OVERLINE, t.style(0, c));
        }
    }

    /** An erase, a cell it blanks and a written cell it leaves (row -1: none). */
    record Erase(String seq, int row, int col, int keptRow, int keptCol) {
    }

    /**
     * Erased cells take the pen's background and nothing else (xterm's rule for every other
     * attribute); cells the erase leaves or moves keep their own.
     */
    @Test
    void eraseLeavesOnlyTheBackground() {
        String text = "\033[58;5;2;53mabcdefgh";
        String pen = "\033[0;53;4;58;5;9;44m";
        Erase[] erases = {new Erase("\033[1;3H\033[K", 0, 2, 0, 1), new Erase("\033[1;3H\033[1K", 0, 0, 0, 3),
            new Erase("\033[1;3H\033[2K", 0, 5, -1, 0), new Erase("\033[1;3H\033[2X", 0, 3, 0, 4),
            new Erase("\033[1;3H\033[J", 1, 0, 0, 1), new Erase("\033[1;3H\033[2J", 0, 4, -1, 0),
            new Erase("\033[1;3H\033[2@", 0, 3, 0, 4), new Erase("\033[1;3H\033[2P", 0, 7, 0, 2),
            new Erase("\033[1;1H\033[L", 0, 1, 1, 0), new Erase("\033[S", 1, 0, -1, 0),
            new Erase("\033[T", 0, 0, 1, 0)};
        for (Erase e : erases) {
            Emulator t = term(8, 2, text + pen + e.seq());
            String what = e.seq().replace("\033", "ESC");
            assertEquals(BLUE_BG, t.style(e.row(), e.col()), what);
            assertEquals(0, t.underlineColor(e.row(), e.col()), what);
            if (e.keptRow() >= 0) {
                assertEquals(Style.OVERLINE, t.style(e.keptRow(), e.keptCol()), what + " kept");
                assertEquals(Style.indexed(2), t.underlineColor(e.keptRow(), e.keptCol()), what + " kept");
            }
        }
    }

    @Test
    void cellsThatInsertAndDeleteMoveKeepTheirUnderlineColour() {
        String text = "";
        for (int i = 0; i < 6; i++) {
            text += "\033[58;5;" + (i + 1) + "m" + (char) ('a' + i);
        }
        Emulator t = term(8, 1, text + "\033[0m\033[1;2H\033[2@");
        assertEquals("a  bcdef", t.rowText(0, false));
        assertEquals(Style.indexed(1), t.underlineColor(0, 0));
        assertEquals(0, t.underlineColor(0, 1));
        assertEquals(0, t.underlineColor(0, 2));
        for (int c = 3; c < 8; c++) {
            assertEquals(Style.indexed(c - 1), t.underlineColor(0, c), "cell " + c);
        }
        feed(t, "\033[1;2H\033[3P");
        assertEquals("acdef", t.rowText(0, false));
        for (int c = 1; c < 5; c++) {
            assertEquals(Style.indexed(c + 2), t.underlineColor(0, c), "cell " + c);
        }
        for (int c = 5; c < 8; c++) {
            assertEquals(0, t.underlineColor(0, c), "cell " + c);
        }
    }

    @Test
    void savingTheCursorKeepsThemAndResetsDropThem() {
        Emulator t = term(10, 2, "\033[1;3H\033[53;58;5;9m\0337\033[0m\033[Hn\0338s\033[!pX");
        assertEquals("n sX", t.rowText(0, false));
        assertEquals(0L, t.style(0, 0));
        assertEquals(0, t.underlineColor(0, 0));
        assertEquals(Style.OVERLINE, t.style(0, 2));
        assertEquals(Style.indexed(9), t.underlineColor(0, 2));
        assertEquals(0L, t.style(0, 3), "DECSTR resets the pen");
        assertEquals(0, t.underlineColor(0, 3));
        feed(t, "\033[53;58;5;9mY\033cZ");
        assertEquals(0L, t.style(0, 0));
        assertEquals(0, t.underlineColor(0, 0), "RIS");
    }

    @Test
    void screenTextWithSgrWritesThemAndReadsBackTheSame() {
        Emulator t = term(30, 1, "\033[53mo\033[55m \033[4:3;58:5:9mu\033[58;2;1;2;3mv\033[24mw\033[0m x");
        String sgr = t.screenText(true);
        assertEquals("\033[0;53mo\033[0m \033[0;4:3;58:5:9mu\033[0;4:3;58:2::1:2:3mv\033[0;58:2::1:2:3mw\033[0m x",
                sgr);
        Emulator u = term(30, 1, sgr);
        for (int c = 0; c < 30; c++) {
            assertEquals(t.style(0, c), u.style(0, c), "cell " + c);
            assertEquals(t.underlineColor(0, c), u.underlineColor(0, c), "cell " + c);
        }
    }

    @Test
    void aTrailingBlankWithOnlyAnUnderlineColourIsKeptInSgrText() {
        Emulator t = term(10, 1, "a\033[58;5;9m \033[m");
        assertEquals("a\033[0;58:5:9m \033[0m", t.screenText(true));
        assertEquals("a", t.screenText(false));
    }

    @Test
    void theScrollbackKeepsThem() {
        Emulator t = term(10, 2, "\033[53;58;5;9mab\033[m\r\nplain\r\n\033[58:2::1:2:3mc\033[m\r\n\r\n");
        assertEquals(3, t.historySize());
        assertEquals("\033[0;53;58:5:9mab\033[0m", t.historyText(0, true));
        assertEquals("plain", t.historyText(1, true));
        assertEquals("\033[0;58:2::1:2:3mc\033[0m", t.historyText(2, true));
        assertEquals(t.historyBytesRecounted(), t.historyBytes());
        assertEquals(HistoryLine.OBJECT_BYTES + HistoryLine.array(2, 1) + HistoryLine.array(2, 4),
                t.historyLineBytes(0), "code points, and one int per kept cell for the colours");
        assertEquals(HistoryLine.OBJECT_BYTES + HistoryLine.array(5, 1), t.historyLineBytes(1),
                "a line without an underline colour holds no array for it");
    }

    @Test
    void reflowKeepsThemOnTheirCells() {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            in.append("\033[0;").append(i % 2 == 0 ? "53;" : "").append("58;5;").append(i + 1).append('m')
                    .append((char) ('a' + i));
        }
        Emulator t = term(10, 4, in + "\033[m");
        t.resize(7, 4);
        t.resize(30, 4);
        assertEquals("abcdefghijklmnopqrstuvwxy", t.rowText(0, false));
        for (int i = 0; i < 25; i++) {
            assertEquals(Style.indexed(i + 1), t.underlineColor(0, i), "cell " + i);
            assertEquals(i % 2 == 0, Style.has(t.style(0, i), Style.OVERLINE), "cell " + i);
        }
        t.resize(4, 2);
        assertTrue(t.historySize() > 0);
        t.resize(30, 4);
        for (int i = 0; i < 25; i++) {
            assertEquals(Style.indexed(i + 1), t.underlineColor(0, i), "cell " + i + " after the scrollback");
        }
    }

    @Test
    void theAlternateScreenErasesThemToo() {
        Emulator t = term(10, 2, "\033[?1049h\033[53;58;5;9mab\033[0;44m\033[2J");
        assertEquals(BLUE_BG, t.style(0, 0));
        assertEquals(0, t.underlineColor(0, 0));
        feed(t, "\033[58;5;9mc");
        assertEquals(Style.indexed(9), t.underlineColor(0, 2));
    }

    @Test
    void onlyRowsWithAnUnderlineColourHoldAnArrayForIt() {
        long bold = term(80, 3, "\033[1mabc").footprint();
        assertEquals(bold, term(80, 3, "\033[53mabc").footprint(), "overline is a bit of the rendition");
        assertEquals(bold, term(80, 3, "\033[1;58;5;9m\033[59mabc").footprint(), "an underline colour reset before writing");
        assertEquals(bold + HistoryLine.array(80, 4), term(80, 3, "\033[1;58;5;9mabc").footprint());
        Emulator t = term(80, 3, "\033[1;58;5;9mabc\033[m\033[2J");
        assertEquals(term(80, 3, "").footprint(), t.footprint(), "erasing the screen gives it back");
    }

    @Test
    void underlineColourAloneCountsInTheRowsLength() {
        Emulator t = term(10, 2, "\033[58;5;9m \033[m\r\n\r\n");
        assertEquals(1, t.historySize());
        assertEquals("\033[0;58:5:9m \033[0m", t.historyText(0, true));
    }
}
