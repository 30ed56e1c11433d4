package io.artuditu.vt;

/**
 * How many columns a code point takes on the screen, by the emulator's own table: 0 for a
 * combining mark or other zero-width code point, 2 for East Asian wide and most emoji, else 1.
 * A client that draws the emulator's cells (the TUI) measures with this so that it agrees
 * with the server on every column.
 */
public final class Width {
    private Width() {
    }

    public static int of(int codePoint) {
        return io.artuditu.vt.internal.CharWidth.of(codePoint);
    }

    /** The columns of a grapheme or string: the sum of its code points' widths. */
    public static int of(CharSequence text) {
        int w = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = Character.codePointAt(text, i);
            w += of(cp);
            i += Character.charCount(cp);
        }
        return w;
    }
}
