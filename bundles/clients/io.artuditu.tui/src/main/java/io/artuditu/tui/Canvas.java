package io.artuditu.tui;

import io.artuditu.vt.Style;
import io.artuditu.vt.Width;
import java.util.Arrays;

/**
 * A picture of the whole outer terminal: per cell a grapheme, a rendition packed as
 * {@link Style} packs it and an underline colour (kept apart, as the emulator keeps it, and
 * only once a cell has one). A wide grapheme sits in its left cell; its right cell holds
 * {@link #CONTINUATION}. The workbench paints a fresh canvas for each frame and
 * {@link AnsiWriter} sends the difference from the previous one.
 */
final class Canvas {
    static final String BLANK = " ";
    /** The right half of a wide grapheme. */
    static final String CONTINUATION = "";

    final int cols;
    final int rows;
    final String[] ch;
    final long[] st;
    /** Underline colours by cell ({@link Style} colours, 0 the default); null while every cell has the default. */
    private int[] ul;
    /** Where the outer cursor should be, or -1 to hide it; and its DECSCUSR shape. */
    int cursorX = -1;
    int cursorY = -1;
    int cursorShape = 0;

    Canvas(int cols, int rows) {
        this.cols = Math.max(1, cols);
        this.rows = Math.max(1, rows);
        ch = new String[this.cols * this.rows];
        st = new long[this.cols * this.rows];
        Arrays.fill(ch, BLANK);
    }

    /** A copy to paint changes into while this one stays what the terminal shows. */
    Canvas copy() {
        Canvas c = new Canvas(cols, rows);
        System.arraycopy(ch, 0, c.ch, 0, ch.length);
        System.arraycopy(st, 0, c.st, 0, st.length);
        if (ul != null) {
            c.ul = ul.clone();
        }
        c.cursorX = cursorX;
        c.cursorY = cursorY;
        c.cursorShape = cursorShape;
        return c;
    }

    /** Cell {@code i}'s underline colour, 0 for the default. */
    int underlineColor(int i) {
        return ul == null ? 0 : ul[i];
    }

    boolean inside(int x, int y) {
        return x >= 0 && y >= 0 && x < cols && y < rows;
    }

    /**
     * Puts one grapheme of {@code width} columns (1 or 2) at (x, y). A wide grapheme that
     * would hang over the right edge becomes a blank; cutting half of an existing wide
     * grapheme blanks its other half, so the picture never holds a half character.
     */
    void put(int x, int y, String g, int width, long style) {
        put(x, y, g, width, style, 0);
    }

    /** {@link #put(int, int, String, int, long)} with an underline colour: a {@link Style} colour, 0 the default. */
    void put(int x, int y, String g, int width, long style, int underlineColor) {
        if (!inside(x, y)) {
            return;
        }
        if (width == 2 && x + 1 >= cols) {
            g = BLANK;
            width = 1;
        }
        int i = y * cols + x;
        unsplit(x, y);
        if (width == 2) {
            unsplit(x + 1, y);
        }
        ch[i] = g;
        st[i] = style;
        if (underlineColor != 0 && ul == null) {
            ul = new int[ch.length];
        }
        if (ul != null) {
            ul[i] = underlineColor;
        }
        if (width == 2) {
            ch[i + 1] = CONTINUATION;
            st[i + 1] = style;
            if (ul != null) {
                ul[i + 1] = underlineColor;
            }
        }
    }

    /** Before (x, y) is overwritten: blank the other half of a wide grapheme it is part of. */
    private void unsplit(int x, int y) {
        int i = y * cols + x;
        if (ch[i] == CONTINUATION && x > 0) {
            ch[i - 1] = BLANK;
        } else if (x + 1 < cols && ch[i + 1] == CONTINUATION && ch[i] != CONTINUATION) {
            ch[i + 1] = BLANK;
        }
    }

    /** Writes {@code text} from (x, y), at most {@code max} columns; returns the columns used. */
    int text(int x, int y, String text, long style, int max) {
        int used = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int end = i + Character.charCount(cp);
            // keep combining marks with their base
            while (end < text.length()) {
                int next = text.codePointAt(end);
                if (Width.of(next) != 0) {
                    break;
                }
                end += Character.charCount(next);
            }
            String g = text.substring(i, end);
            i = end;
            int w = Math.max(1, Width.of(cp));
            if (cp < 0x20 || cp == 0x7f) {
                g = "?";
                w = 1;
            }
            if (used + w > max) {
                break;
            }
            put(x + used, y, g, w, style);
            used += w;
        }
        return used;
    }

    void fill(int x, int y, int w, int h, String g, long style) {
        for (int r = y; r < y + h; r++) {
            for (int c = x; c < x + w; c++) {
                put(c, r, g, 1, style);
            }
        }
    }

    /** Display columns of a string, measured like {@link #text}. */
    static int width(String s) {
        return Width.of(s);
    }

    /** {@code s} cut to at most {@code max} columns, with an ellipsis when it was cut. */
    static String clip(String s, int max) {
        if (width(s) <= max) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int cw = Width.of(cp);
            if (w + cw > max - 1) {
                break;
            }
            b.appendCodePoint(cp);
            w += cw;
            i += Character.charCount(cp);
        }
        return max > 0 ? b.append('…').toString() : "";
    }
}
