package io.artuditu.vt.internal;

import io.artuditu.vt.Style;

/** Turns cells into text, optionally with the SGR sequences that reproduce their rendition. */
final class Render {
    private Render() {
    }

    /** A screen row, as {@link #row(StringBuilder, int[], long[], long, int[], String[], int, boolean)}. */
    static void row(StringBuilder sb, Line l, boolean sgr) {
        row(sb, l.cp, l.st, l.fill, l.ul, l.marks, l.cols(), sgr);
    }

    /**
     * Cells [0, n): code points {@code cp} (null: all empty), renditions {@code st} (null: all
     * {@code fill}), underline colours {@code ul} (null: all default); trailing blanks are left
     * out, and with {@code sgr} only those with the default rendition and underline colour.
     */
    static void row(StringBuilder sb, int[] cp, long[] st, long fill, int[] ul, String[] marks, int n, boolean sgr) {
        int end = n;
        while (end > 0) {
            int v = cp == null ? 0 : cp[end - 1];
            int c = v & Line.CP_MASK;
            boolean blank = c == 0 || c == ' ';
            if (!blank || (v & Line.TAIL) != 0
                    || (sgr && ((st == null ? fill : st[end - 1]) != 0 || (ul != null && ul[end - 1] != 0)))) {
                break;
            }
            end--;
        }
        long cur = 0;
        int curUl = 0;
        for (int i = 0; i < end; i++) {
            int c = cp == null ? 0 : cp[i];
            if ((c & Line.TAIL) != 0) {
                continue;
            }
            long s = st == null ? fill : st[i];
            int u = ul == null ? 0 : ul[i];
            if (sgr && (s != cur || u != curUl)) {
                cur = s;
                curUl = u;
                sgr(sb, cur, curUl);
            }
            int code = c & Line.CP_MASK;
            sb.appendCodePoint(code == 0 ? ' ' : code);
            if (marks != null && marks[i] != null) {
                sb.append(marks[i]);
            }
        }
        if (sgr && (cur != 0 || curUl != 0)) {
            sb.append("\033[0m");
        }
    }

    /**
     * The full SGR for rendition {@code s} and {@code underlineColor}, starting from a
     * reset. The underline colour goes in the colon form ({@code 58:5:n}, {@code 58:2::r:g:b}):
     * a terminal that does not know 58 skips the whole colon group, where the semicolon form's
     * numbers would be read as attributes of their own ({@code 2} dim, {@code 5} blink).
     */
    static void sgr(StringBuilder sb, long s, int underlineColor) {
        sb.append("\033[0");
        if ((s & Style.BOLD) != 0) {
            sb.append(";1");
        }
        if ((s & Style.DIM) != 0) {
            sb.append(";2");
        }
        if ((s & Style.ITALIC) != 0) {
            sb.append(";3");
        }
        int ul = Style.underline(s);
        if (ul == 1) {
            sb.append(";4");
        } else if (ul > 1) {
            sb.append(";4:").append(ul);
        }
        if ((s & Style.BLINK) != 0) {
            sb.append(";5");
        }
        if ((s & Style.REVERSE) != 0) {
            sb.append(";7");
        }
        if ((s & Style.HIDDEN) != 0) {
            sb.append(";8");
        }
        if ((s & Style.STRIKE) != 0) {
            sb.append(";9");
        }
        if ((s & Style.OVERLINE) != 0) {
            sb.append(";53");
        }
        int v = Style.colorValue(underlineColor);
        switch (Style.colorKind(underlineColor)) {
            case Style.COLOR_INDEXED:
                sb.append(";58:5:").append(v);
                break;
            case Style.COLOR_RGB:
                sb.append(";58:2::").append(v >>> 16).append(':').append((v >>> 8) & 0xFF).append(':').append(v & 0xFF);
                break;
            default:
                break;
        }
        color(sb, Style.fg(s), 30, 90, 38);
        color(sb, Style.bg(s), 40, 100, 48);
        sb.append('m');
    }

    private static void color(StringBuilder sb, int color, int base, int bright, int ext) {
        int v = Style.colorValue(color);
        switch (Style.colorKind(color)) {
            case Style.COLOR_INDEXED:
                if (v < 8) {
                    sb.append(';').append(base + v);
                } else if (v < 16) {
                    sb.append(';').append(bright + v - 8);
                } else {
                    sb.append(';').append(ext).append(";5;").append(v);
                }
                break;
            case Style.COLOR_RGB:
                sb.append(';').append(ext).append(";2;").append(v >>> 16).append(';').append((v >>> 8) & 0xFF)
                        .append(';').append(v & 0xFF);
                break;
            default:
                break;
        }
    }
}
