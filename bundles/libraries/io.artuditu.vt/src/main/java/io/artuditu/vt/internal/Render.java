package io.artuditu.vt.internal;

import io.artuditu.vt.Style;

/** Turns cells into text, optionally with the SGR sequences that reproduce their rendition. */
final class Render {
    private Render() {
    }

    /** A screen row, as {@link #row(StringBuilder, int[], long[], long, String[], int, boolean)}. */
    static void row(StringBuilder sb, Line l, boolean sgr) {
        row(sb, l.cp, l.st, l.fill, l.marks, l.cols(), sgr);
    }

    /**
     * Cells [0, n): code points {@code cp} (null: all empty), renditions {@code st} (null: all
     * {@code fill}); trailing blanks are left out, and with {@code sgr} only those with the
     * default rendition.
     */
    static void row(StringBuilder sb, int[] cp, long[] st, long fill, String[] marks, int n, boolean sgr) {
        int end = n;
        while (end > 0) {
            int v = cp == null ? 0 : cp[end - 1];
            int c = v & Line.CP_MASK;
            boolean blank = c == 0 || c == ' ';
            if (!blank || (v & Line.TAIL) != 0 || (sgr && (st == null ? fill : st[end - 1]) != 0)) {
                break;
            }
            end--;
        }
        long cur = 0;
        for (int i = 0; i < end; i++) {
            int c = cp == null ? 0 : cp[i];
            if ((c & Line.TAIL) != 0) {
                continue;
            }
            long s = st == null ? fill : st[i];
            if (sgr && s != cur) {
                cur = s;
                sgr(sb, cur);
            }
            int code = c & Line.CP_MASK;
            sb.appendCodePoint(code == 0 ? ' ' : code);
            if (marks != null && marks[i] != null) {
                sb.append(marks[i]);
            }
        }
        if (sgr && cur != 0) {
            sb.append("\033[0m");
        }
    }

    /** The full SGR for {@code s}, starting from a reset. */
    static void sgr(StringBuilder sb, long s) {
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
