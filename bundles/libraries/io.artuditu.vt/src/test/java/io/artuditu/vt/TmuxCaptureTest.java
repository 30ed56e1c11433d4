package io.artuditu.vt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reader of tmux's {@code capture-pane -e} output, on text tmux 3.3a wrote for a row that
 * sets each attribute in turn (captured once, so this test needs no tmux).
 */
class TmuxCaptureTest {

    static final String E = "\033[";

    static long ul(int style) {
        return (long) style << Style.UNDERLINE_SHIFT;
    }

    @Test
    void eachAttributeAndColourTmuxWritesBecomesTheSameRenditionOurTerminalKeeps() {
        String capture = "A" + E + "1mB" + E + "2mC" + E + "0;3m" + E + "39m" + E + "49mD" + E + "0;4m" + E + "39m" + E
                + "49mE" + E + "0;4:3m" + E + "39m" + E + "49mF" + E + "0;5m" + E + "39m" + E + "49mG" + E + "0;7m" + E
                + "39m" + E + "49mH" + E + "0;8m" + E + "39m" + E + "49mI" + E + "0;9m" + E + "39m" + E + "49mJ" + E + "0m"
                + E + "31m" + E + "42mK" + E + "91m" + E + "102mL" + E + "38;5;200m" + E + "48;5;17mM" + E
                + "38;2;1;2;3m" + E + "48;2;4;5;6mN" + E + "39m" + E + "49m\016lqk\017xy";
        List<TmuxCapture.Glyph> row = TmuxCapture.read(capture, 1).get(0);
        long[] want = {0, Style.BOLD, Style.BOLD | Style.DIM, Style.ITALIC, ul(1), ul(3), Style.BLINK, Style.REVERSE,
            Style.HIDDEN, Style.STRIKE, Style.withBg(Style.withFg(0, Style.indexed(1)), Style.indexed(2)),
            Style.withBg(Style.withFg(0, Style.indexed(9)), Style.indexed(10)),
            Style.withBg(Style.withFg(0, Style.indexed(200)), Style.indexed(17)),
            Style.withBg(Style.withFg(0, Style.rgb(1, 2, 3)), Style.rgb(4, 5, 6))};
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], row.get(i).style(), "glyph " + i + " " + row.get(i).text());
        }
        assertEquals("ABCDEFGHIJKLMN┌─┐xy", TmuxCapture.text(row));
    }

    @Test
    void aRenditionCarriesIntoTheNextRowAndMarksJoinTheirBase() {
        List<List<TmuxCapture.Glyph>> rows = TmuxCapture.read(E + "44m  \n" + E + "49m e\u0301x\n", 3);
        assertEquals(Style.withBg(0, Style.indexed(4)), rows.get(0).get(1).style());
        assertEquals(" ", rows.get(1).get(0).text());
        assertEquals("e\u0301", rows.get(1).get(1).text());
        assertEquals(3, rows.get(1).size());
        assertEquals(List.of(), rows.get(2));
    }

    @Test
    void overlineAndTheUnderlineColourAsTmuxWritesThem() {
        // What tmux 3.3a captured for a\e[53mOV\e[55mb\e[4;58;5;196mU1\e[59mU2\e[58:2::10:20:30mU3\e[0m\e[58:5:9mX
        String capture = "a" + E + "5:3mOV" + E + "0m" + E + "39m" + E + "49mb" + E + "4m" + E + "58;5;196mU1" + E
                + "0;4m" + E + "39m" + E + "49mU2" + E + "58;2;10;20;30mU3" + E + "0m" + E + "39m" + E + "49m" + E
                + "58;5;9mX";
        List<TmuxCapture.Glyph> row = TmuxCapture.read(capture, 1).get(0);
        assertEquals("aOVbU1U2U3X", TmuxCapture.text(row));
        assertEquals(new TmuxCapture.Glyph("a", 0), row.get(0));
        assertEquals(new TmuxCapture.Glyph("O", Style.OVERLINE), row.get(1));
        assertEquals(new TmuxCapture.Glyph("b", 0), row.get(3));
        assertEquals(new TmuxCapture.Glyph("U", ul(1), Style.indexed(196)), row.get(4));
        assertEquals(new TmuxCapture.Glyph("U", ul(1), 0), row.get(6));
        assertEquals(new TmuxCapture.Glyph("U", ul(1), Style.rgb(10, 20, 30)), row.get(8));
        assertEquals(new TmuxCapture.Glyph("X", 0, Style.indexed(9)), row.get(10));
    }

    @Test
    void anythingElseUnknownIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TmuxCapture.sgr(0, "53"));
        assertThrows(IllegalArgumentException.class, () -> TmuxCapture.sgr(0, "6:3"));
        assertThrows(IllegalArgumentException.class, () -> TmuxCapture.read("\033]8;;x\033\\", 1));
    }
}
