package io.artuditu.tui;

import io.artuditu.vt.Style;

/**
 * Turns the difference between two canvases into the bytes for the outer terminal: cursor
 * moves, SGR and text for the cells that changed, nothing else. Colours, the underline colour
 * among them, are reduced to what the outer terminal shows (true colour, 256 or 16). Every
 * SGR starts from a reset, so no attribute of one cell carries into the next. When the
 * terminal answered that it supports synchronized output (mode 2026) the update is bracketed
 * by it, so a frame never shows half drawn.
 *
 * <p>Under a palette {@link Theme} on a true-colour or 256-colour terminal, every cell's
 * default foreground and background and its indexed colours 0–15 are written as the theme's
 * colours (the canvases keep what the panes sent), and the outer cursor takes the theme's
 * cursor colour (OSC 12, put back with {@link #restore()}). A 16-colour terminal cannot show
 * a palette, so there pane colours stay the terminal's own and only the chrome is reduced.
 * The canvases do not record the theme: after a theme change the next diff must be a full
 * one. UI thread only.
 */
final class AnsiWriter {
    static final int TRUECOLOR = 3;
    static final int COLORS_256 = 2;
    static final int COLORS_16 = 1;

    private final int depth;
    private volatile boolean sync;
    private Theme theme = Theme.TERMINAL;
    /** The cursor colour last set with OSC 12, or -1 while the terminal's own shows. */
    private int cursorSet = -1;

    AnsiWriter(int depth) {
        this.depth = depth;
    }

    /** The theme the next diffs write pane colours in. */
    void theme(Theme t) {
        theme = t;
    }

    /** Whether pane colours are written in the theme's colours: a palette theme and a terminal that shows more than 16. */
    private boolean mapping() {
        return theme.mapsPanes() && depth != COLORS_16;
    }

    /** What puts the outer terminal's cursor colour back (OSC 112), or nothing when it was never changed. */
    String restore() {
        return cursorSet >= 0 ? "\033]112\007" : "";
    }

    void synchronizedOutput(boolean on) {
        sync = on;
    }

    /**
     * The bytes that turn {@code prev} (null: unknown, redraw all) into {@code next}, looking
     * only at the rows {@code rows} marks (null: every row).
     */
    String diff(Canvas prev, Canvas next, boolean[] rows) {
        StringBuilder out = new StringBuilder(4096);
        boolean full = prev == null || prev.cols != next.cols || prev.rows != next.rows;
        if (sync) {
            out.append("\033[?2026h");
        }
        out.append("\033[?25l");
        cursorColor(out);
        boolean mapping = mapping();
        if (full) {
            out.append("\033[0m\033[H\033[2J");
        }
        int cx = -1;
        int cy = -1;
        long cur = Long.MIN_VALUE;
        int curColor = 0;
        for (int y = 0; y < next.rows; y++) {
            if (rows != null && !full && !rows[y]) {
                continue;
            }
            for (int x = 0; x < next.cols; x++) {
                int i = y * next.cols + x;
                String g = next.ch[i];
                if (g == Canvas.CONTINUATION) {
                    continue;
                }
                long s = next.st[i];
                int color = shownUnderlineColor(next, i);
                // after a clear a blank default cell already shows, unless the theme colours it
                if (full ? (g.equals(Canvas.BLANK) && s == Style.DEFAULT && !mapping)
                        : (g.equals(prev.ch[i]) && s == prev.st[i] && color == shownUnderlineColor(prev, i)
                                && !(x + 1 < next.cols && wideChanged(prev, next, i + 1)))) {
                    continue;
                }
                if (cy != y || cx != x) {
                    out.append("\033[").append(y + 1).append(';').append(x + 1).append('H');
                }
                if (s != cur || color != curColor) {
                    sgr(out, s, color);
                    cur = s;
                    curColor = color;
                }
                out.append(g);
                boolean wide = x + 1 < next.cols && next.ch[i + 1] == Canvas.CONTINUATION;
                cx = x + (wide ? 2 : 1);
                cy = y;
                if (cx >= next.cols) {
                    cx = -1; // pending wrap: where the cursor is depends on the terminal
                }
            }
        }
        out.append("\033[0m");
        if (next.cursorX >= 0 && next.cursorY >= 0 && next.inside(next.cursorX, next.cursorY)) {
            out.append("\033[").append(next.cursorY + 1).append(';').append(next.cursorX + 1).append('H');
            out.append("\033[").append(next.cursorShape).append(" q");
            out.append("\033[?25h");
        }
        if (sync) {
            out.append("\033[?2026l");
        }
        return out.toString();
    }

    /**
     * The cell's underline colour where it shows: under an underline. Elsewhere it draws
     * nothing, so it is neither written nor a reason to draw the cell again.
     */
    private static int shownUnderlineColor(Canvas c, int i) {
        return Style.underline(c.st[i]) != 0 ? c.underlineColor(i) : 0;
    }

    /** The cell's right neighbour went from or to the right half of a wide grapheme. */
    private static boolean wideChanged(Canvas prev, Canvas next, int j) {
        return (prev.ch[j] == Canvas.CONTINUATION) != (next.ch[j] == Canvas.CONTINUATION);
    }

    private void sgr(StringBuilder out, long s, int underlineColor) {
        out.append("\033[0");
        if (Style.has(s, Style.BOLD)) {
            out.append(";1");
        }
        if (Style.has(s, Style.DIM)) {
            out.append(";2");
        }
        if (Style.has(s, Style.ITALIC)) {
            out.append(";3");
        }
        if (Style.underline(s) != 0) {
            out.append(";4");
        }
        if (Style.has(s, Style.REVERSE)) {
            out.append(";7");
        }
        if (Style.has(s, Style.STRIKE)) {
            out.append(";9");
        }
        if (Style.has(s, Style.OVERLINE)) {
            out.append(";53");
        }
        boolean mapping = mapping();
        if (underlineColor != 0) {
            underlineColor(out, mapping ? theme.paneColor(underlineColor, false) : underlineColor);
        }
        color(out, mapping ? theme.paneColor(Style.fg(s), false) : Style.fg(s), false);
        color(out, mapping ? theme.paneColor(Style.bg(s), true) : Style.bg(s), true);
        out.append('m');
    }

    /** Sets the outer cursor to the theme's colour, or back to the terminal's own, when that changed. */
    private void cursorColor(StringBuilder out) {
        int want = mapping() ? theme.cursor() : -1;
        if (want == cursorSet) {
            return;
        }
        if (want < 0) {
            out.append("\033]112\007");
        } else {
            out.append(String.format(java.util.Locale.ROOT, "\033]12;#%06x\007", want));
        }
        cursorSet = want;
    }

    /**
     * {@code c}, not the default colour, as the outer terminal shows it: RGB only on a
     * true-colour terminal, else a palette index (below 16 on a 16-colour terminal).
     */
    private int reduce(int c) {
        int v = Style.colorValue(c);
        if (Style.colorKind(c) == Style.COLOR_RGB) {
            if (depth == TRUECOLOR) {
                return c;
            }
            v = Palette.nearest256((v >> 16) & 255, (v >> 8) & 255, v & 255);
        }
        if (v >= 16 && depth == COLORS_16) {
            v = Palette.nearest16(v);
        }
        return Style.indexed(v);
    }

    /**
     * SGR 58 in the colon form ({@code 58:5:n}, {@code 58:2::r:g:b}): a terminal that does not
     * know 58 skips the whole colon group, where the semicolon form's numbers would be read as
     * attributes of their own ({@code 2} dim, {@code 5} blink).
     */
    private void underlineColor(StringBuilder out, int c) {
        int r = reduce(c);
        int v = Style.colorValue(r);
        if (Style.colorKind(r) == Style.COLOR_RGB) {
            out.append(";58:2::").append((v >> 16) & 255).append(':').append((v >> 8) & 255).append(':')
                    .append(v & 255);
        } else {
            out.append(";58:5:").append(v);
        }
    }

    private void color(StringBuilder out, int c, boolean bg) {
        if (Style.colorKind(c) == Style.COLOR_DEFAULT) {
            return;
        }
        int r = reduce(c);
        int v = Style.colorValue(r);
        if (Style.colorKind(r) == Style.COLOR_RGB) {
            out.append(bg ? ";48;2;" : ";38;2;").append((v >> 16) & 255).append(';')
                    .append((v >> 8) & 255).append(';').append(v & 255);
            return;
        }
        if (v < 8) {
            out.append(';').append((bg ? 40 : 30) + v);
        } else if (v < 16) {
            out.append(';').append((bg ? 100 : 90) + v - 8);
        } else {
            out.append(bg ? ";48;5;" : ";38;5;").append(v);
        }
    }
}
