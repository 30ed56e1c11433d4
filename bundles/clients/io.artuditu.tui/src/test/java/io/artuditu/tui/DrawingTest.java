package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.vt.Style;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrawingTest {
    @Test
    void wideGraphemesTakeTwoCellsAndCuttingOneHalfBlanksTheOther() {
        Canvas c = new Canvas(6, 1);
        assertEquals(6, c.text(0, 0, "日本語", Style.DEFAULT, 6));
        assertEquals("日", c.ch[0]);
        assertEquals(Canvas.CONTINUATION, c.ch[1]);
        c.put(1, 0, "x", 1, Style.DEFAULT); // over the right half of 日
        assertEquals(Canvas.BLANK, c.ch[0]);
        assertEquals("x", c.ch[1]);
        assertEquals(2, c.text(0, 0, "e\u0301e", Style.DEFAULT, 6)); // the combining mark stays with its base
        assertEquals("e\u0301", c.ch[0]);
    }

    @Test
    void aWideGraphemeNeverHangsOverTheEdge() {
        Canvas c = new Canvas(3, 1);
        assertEquals(2, c.text(0, 0, "a日", Style.DEFAULT, 3) - 1);
        c.put(2, 0, "日", 2, Style.DEFAULT);
        assertEquals(Canvas.BLANK, c.ch[2]);
    }

    @Test
    void onlyChangedCellsAreWrittenAndColoursAreReducedToWhatTheTerminalShows() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.COLORS_256);
        Canvas a = new Canvas(10, 2);
        a.text(0, 0, "hello", Style.DEFAULT, 10);
        Canvas b = new Canvas(10, 2);
        b.text(0, 0, "help!", Style.DEFAULT, 10);
        String d = w.diff(a, b, null);
        assertTrue(d.contains("\033[1;4H\033[0mp!"), d);
        assertFalse(d.contains("hel"), d);
        assertEquals("\033[?25l\033[0m", w.diff(b, b, null));

        Canvas rgb = new Canvas(2, 1);
        rgb.put(0, 0, "x", 1, Style.withFg(0, Style.rgb(255, 0, 0)));
        assertTrue(w.diff(null, rgb, null).contains("38;5;196"), "true colour becomes the nearest 256-colour entry");
        assertTrue(new AnsiWriter(AnsiWriter.TRUECOLOR).diff(null, rgb, null).contains("38;2;255;0;0"));
        assertTrue(new AnsiWriter(AnsiWriter.COLORS_16).diff(null, rgb, null).contains(";91m"), "and on 16 colours bright red");
    }

    static final long UL = 1L << Style.UNDERLINE_SHIFT;

    @Test
    void overlineAndTheUnderlineColourAreDrawnAndNeverLeakIntoTheNextCell() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.TRUECOLOR);
        Canvas c = new Canvas(6, 1);
        c.put(0, 0, "a", 1, Style.OVERLINE);
        c.put(1, 0, "b", 1, UL, Style.rgb(1, 2, 3));
        c.put(2, 0, "c", 1, UL);
        c.put(3, 0, "d", 1, UL | Style.OVERLINE, Style.indexed(9));
        c.put(4, 0, "e", 1, Style.DEFAULT);
        String d = w.diff(null, c, null);
        assertTrue(d.contains("\033[0;53ma\033[0;4;58:2::1:2:3mb\033[0;4mc\033[0;4;53;58:5:9md\033[0me"), d);
    }

    @Test
    void anUnderlineColourWithoutAnUnderlineIsNotWritten() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.TRUECOLOR);
        Canvas c = new Canvas(3, 1);
        c.put(0, 0, "a", 1, Style.DEFAULT, Style.indexed(9));
        c.put(1, 0, "b", 1, Style.BOLD, Style.indexed(9));
        c.put(2, 0, "c", 1, UL, Style.indexed(9));
        String d = w.diff(null, c, null);
        assertTrue(d.contains("\033[1;1H\033[0ma\033[0;1mb\033[0;4;58:5:9mc"), "58 only where an underline shows it: " + d);
        Canvas other = c.copy();
        other.put(0, 0, "a", 1, Style.DEFAULT, Style.indexed(10));
        assertEquals("\033[?25l\033[0m", w.diff(c, other, null), "nothing to draw: no underline shows the colour");
    }

    @Test
    void aCellWhoseUnderlineColourAloneChangedIsRedrawn() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.COLORS_256);
        Canvas a = new Canvas(4, 1);
        a.text(0, 0, "abcd", UL, 4);
        Canvas b = a.copy();
        b.put(1, 0, "b", 1, UL, Style.indexed(1));
        String d = w.diff(a, b, null);
        assertTrue(d.contains("\033[1;2H\033[0;4;58:5:1mb"), d);
        assertFalse(d.contains("c"), d);
        assertEquals(Style.indexed(1), b.underlineColor(1));
        assertEquals(0, a.underlineColor(1), "the copy does not share its cells with the original");
    }

    @Test
    void theUnderlineColourIsReducedLikeTheOtherColours() {
        Canvas c = new Canvas(2, 1);
        c.put(0, 0, "x", 1, UL, Style.rgb(255, 0, 0));
        assertTrue(new AnsiWriter(AnsiWriter.TRUECOLOR).diff(null, c, null).contains(";58:2::255:0:0m"));
        assertTrue(new AnsiWriter(AnsiWriter.COLORS_256).diff(null, c, null).contains(";58:5:196m"),
                "true colour becomes the nearest 256-colour entry");
        assertTrue(new AnsiWriter(AnsiWriter.COLORS_16).diff(null, c, null).contains(";58:5:9m"), "and on 16 colours bright red");
        c.put(0, 0, "x", 1, UL, Style.indexed(200));
        String d16 = new AnsiWriter(AnsiWriter.COLORS_16).diff(null, c, null);
        assertTrue(d16.contains(";58:5:13m"), "a 256-colour entry becomes the nearest of the 16: " + d16);
        c.put(0, 0, "x", 1, UL, Style.indexed(1));
        AnsiWriter themed = new AnsiWriter(AnsiWriter.TRUECOLOR);
        themed.theme(ThemeTest.mine());
        String d = themed.diff(null, c, null);
        assertTrue(d.contains(";58:2::191:97:106;"), "ANSI red is the theme's red (#bf616a), as for text: " + d);
    }

    @Test
    void aCellsOnlyRedrawLooksAtTheRowsTheFramesTouched() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.COLORS_256);
        Canvas a = new Canvas(4, 3);
        Canvas b = a.copy();
        b.text(0, 0, "top", Style.DEFAULT, 4);
        b.text(0, 2, "low", Style.DEFAULT, 4);
        String d = w.diff(a, b, new boolean[] {false, false, true});
        assertTrue(d.contains("low") && !d.contains("top"), d);
    }

    @Test
    void synchronizedOutputBracketsTheFrameWhenTheTerminalSaidItCan() {
        AnsiWriter w = new AnsiWriter(AnsiWriter.COLORS_256);
        Canvas c = new Canvas(4, 1);
        c.cursorX = 1;
        c.cursorY = 0;
        c.cursorShape = 6;
        String plain = w.diff(null, c, null);
        assertFalse(plain.contains("2026"));
        assertTrue(plain.endsWith("\033[1;2H\033[6 q\033[?25h"), plain);
        w.synchronizedOutput(true);
        String s = w.diff(null, c, null);
        assertTrue(s.startsWith("\033[?2026h") && s.endsWith("\033[?2026l"), s);
    }

    @Test
    void theSplitTreeCutsTheStageWithHeadersAndBorders() {
        Model.Node tree = new Model.Node(null, true, 0.5, new Model.Node("1", false, 0, null, null),
                new Model.Node(null, false, 0.5, new Model.Node("2", false, 0, null, null), new Model.Node("3", false, 0, null, null)));
        Model.Tab tab = new Model.Tab("t", 1, null, true, "3", false, tree, java.util.Map.of());
        Layout l = Layout.of(tab, new Layout.Rect(0, 1, 81, 20));
        assertEquals(new Layout.Rect(0, 1, 40, 20), l.places.get("1").all());
        assertEquals(new Layout.Rect(0, 2, 40, 19), l.places.get("1").content());
        assertEquals(new Layout.Rect(41, 1, 40, 10), l.places.get("2").all());
        assertEquals(new Layout.Rect(41, 11, 40, 10), l.places.get("3").all());
        assertEquals(List.of(), l.dividerAt(40, 5).path());
        assertEquals(List.of("b"), l.dividerAt(50, 11).path());
        Layout zoomed = Layout.of(new Model.Tab("t", 1, null, true, "3", true, tree, java.util.Map.of()), new Layout.Rect(0, 1, 81, 20));
        assertEquals(List.of("3"), List.copyOf(zoomed.places.keySet()));
    }

    @Test
    void theCommandLineSplitsWordsAsAShellDoes() {
        assertEquals(List.of("tab", "rename", "my logs", "it's"), Prompt.split("tab rename 'my logs' \"it's\""));
        assertEquals(List.of("a b", "c"), Prompt.split("a\\ b  c"));
    }

    @Test
    void copyModeSearchesUpwardsAndCopiesTheSelection() {
        CopyMode m = new CopyMode("1", "alpha\nbeta\ngamma beta\ndelta\n");
        assertEquals(3, m.row);
        assertTrue(m.find("beta", -1));
        assertEquals(2, m.row);
        assertEquals(6, m.col);
        assertEquals(CopyMode.Result.STAY, m.key(Input.Key.ch("n")));
        assertEquals(1, m.row);
        m.key(Input.Key.ch(" "));
        m.key(Input.Key.named("down"));
        m.key(Input.Key.ch("l"));
        assertEquals(CopyMode.Result.COPY, m.key(Input.Key.named("enter")));
        assertEquals("beta\nga", m.selection());
        assertFalse(new CopyMode("1", "x").find("nothing", -1));
    }
}
