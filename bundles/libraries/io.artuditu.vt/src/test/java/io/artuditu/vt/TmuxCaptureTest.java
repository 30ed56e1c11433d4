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
    void tmuxsOverlineIsIgnoredButAnythingElseUnknownIsRefused() {
        assertEquals(0, TmuxCapture.sgr(0, "5:3"));
        assertThrows(IllegalArgumentException.class, () -> TmuxCapture.sgr(0, "53"));
        assertThrows(IllegalArgumentException.class, () -> TmuxCapture.read("\033]8;;x\033\\", 1));
    }
}
