package io.artuditu.vt;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads tmux's {@code capture-pane -p -e -N} output into per-row glyphs, each with the
 * rendition tmux gave it, without going through our parser: the differential test's
 * rendition check must not share our SGR decoding, or an attribute we drop would be dropped
 * on both sides.
 *
 * <p>The grammar is what tmux 3.3a writes, not the whole of ECMA-48: text, {@code ESC [ ... m}
 * with {@code ;}-separated parameters (tmux writes underline styles as {@code 4:2}..{@code 4:5}
 * and overline, SGR 53, as {@code 5:3}: it splits every code above 9 into tens and units; the
 * underline colour as {@code 58;5;n} or {@code 58;2;r;g;b}, and its reset only as a full
 * reset {@code 0}), and SO/SI around cells drawn from the DEC special graphics
 * set (tmux keeps those cells as ASCII with a charset flag). One stream for the whole screen:
 * a rendition set on one row carries into the next, as tmux writes it. A glyph is one base
 * character with its combining marks; a wide character is one glyph, so glyph i is not
 * always cell i.
 */
final class TmuxCapture {

    /** One glyph: its text, its rendition and its underline colour ({@link Terminal#underlineColor}). */
    record Glyph(String text, long style, int underlineColor) {
        Glyph(String text, long style) {
            this(text, style, 0);
        }

        /** Whether the two render alike: rendition and underline colour, not text. */
        boolean sameRendition(Glyph o) {
            return style == o.style && underlineColor == o.underlineColor;
        }

        String rendition() {
            return Long.toHexString(style) + (underlineColor == 0 ? "" : "/58:" + Integer.toHexString(underlineColor));
        }
    }

    /** The rendition a capture is at: what the SGR read so far set. */
    static final class Pen {
        long style;
        int underlineColor;
    }

    /** DEC special graphics for 0x5F..0x7E, as xterm shows them (written out for this reader). */
    static final String DEC = "\u00a0\u25c6\u2592\u2409\u240c\u240d\u240a\u00b0\u00b1\u2424\u240b\u2518\u2510\u250c"
            + "\u2514\u253c\u23ba\u23bb\u2500\u23bc\u23bd\u251c\u2524\u2534\u252c\u2502\u2264\u2265\u03c0\u2260\u00a3\u00b7";

    private TmuxCapture() {
    }

    static List<List<Glyph>> read(String capture, int rows) {
        List<List<Glyph>> out = new ArrayList<>();
        List<Glyph> row = new ArrayList<>();
        Pen pen = new Pen();
        boolean graphics = false;
        int i = 0;
        int n = capture.length();
        while (i < n && out.size() < rows) {
            char ch = capture.charAt(i);
            if (ch == '\n') {
                out.add(row);
                row = new ArrayList<>();
                i++;
            } else if (ch == 0x1b) {
                if (i + 1 >= n || capture.charAt(i + 1) != '[') {
                    throw new IllegalArgumentException("unexpected escape at " + i + ": " + excerpt(capture, i));
                }
                int end = i + 2;
                while (end < n && (Character.isDigit(capture.charAt(end)) || capture.charAt(end) == ';'
                        || capture.charAt(end) == ':')) {
                    end++;
                }
                if (end >= n || capture.charAt(end) != 'm') {
                    throw new IllegalArgumentException("not an SGR at " + i + ": " + excerpt(capture, i));
                }
                sgr(pen, capture.substring(i + 2, end));
                i = end + 1;
            } else if (ch == 0x0e) {
                graphics = true;
                i++;
            } else if (ch == 0x0f) {
                graphics = false;
                i++;
            } else {
                int cp = capture.codePointAt(i);
                i += Character.charCount(cp);
                if (isMark(cp) && !row.isEmpty()) {
                    Glyph last = row.remove(row.size() - 1);
                    row.add(new Glyph(last.text() + Character.toString(cp), last.style(), last.underlineColor()));
                    continue;
                }
                if (graphics && cp >= 0x5f && cp <= 0x7e) {
                    cp = DEC.charAt(cp - 0x5f);
                }
                row.add(new Glyph(Character.toString(cp), pen.style, pen.underlineColor));
            }
        }
        if (!row.isEmpty() && out.size() < rows) {
            out.add(row);
        }
        while (out.size() < rows) {
            out.add(new ArrayList<>());
        }
        return out;
    }

    static boolean isMark(int cp) {
        int t = Character.getType(cp);
        return t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK || cp == 0x200d;
    }

    /** The rendition after one SGR with {@code params} (as tmux writes them) from {@code s}. */
    static long sgr(long s, String params) {
        Pen pen = new Pen();
        pen.style = s;
        sgr(pen, params);
        return pen.style;
    }

    /** Applies one SGR's parameters (as tmux writes them) to {@code pen}. */
    static void sgr(Pen pen, String params) {
        String[] p = params.isEmpty() ? new String[] {"0"} : params.split(";", -1);
        long s = pen.style;
        for (int k = 0; k < p.length; k++) {
            String a = p[k];
            if (a.indexOf(':') >= 0) {
                String[] sub = a.split(":");
                if (sub[0].equals("4")) {
                    int ul = Integer.parseInt(sub[1]);
                    s = (s & ~Style.UNDERLINE_MASK) | ((long) ul << Style.UNDERLINE_SHIFT);
                } else if (a.equals("5:3")) {
                    s |= Style.OVERLINE;
                } else {
                    throw new IllegalArgumentException("unexpected SGR part " + a);
                }
                continue;
            }
            int v = a.isEmpty() ? 0 : Integer.parseInt(a);
            switch (v) {
                case 0 -> {
                    s = 0;
                    pen.underlineColor = 0;
                }
                case 1 -> s |= Style.BOLD;
                case 2 -> s |= Style.DIM;
                case 3 -> s |= Style.ITALIC;
                case 4 -> s = (s & ~Style.UNDERLINE_MASK) | (1L << Style.UNDERLINE_SHIFT);
                case 5 -> s |= Style.BLINK;
                case 7 -> s |= Style.REVERSE;
                case 8 -> s |= Style.HIDDEN;
                case 9 -> s |= Style.STRIKE;
                case 39 -> s = Style.withFg(s, 0);
                case 49 -> s = Style.withBg(s, 0);
                case 38, 48, 58 -> {
                    int color;
                    if (p[k + 1].equals("5")) {
                        color = Style.indexed(Integer.parseInt(p[k + 2]));
                        k += 2;
                    } else if (p[k + 1].equals("2")) {
                        color = Style.rgb(Integer.parseInt(p[k + 2]), Integer.parseInt(p[k + 3]),
                                Integer.parseInt(p[k + 4]));
                        k += 4;
                    } else {
                        throw new IllegalArgumentException("unexpected colour in " + params);
                    }
                    if (v == 58) {
                        pen.underlineColor = color;
                    } else {
                        s = v == 38 ? Style.withFg(s, color) : Style.withBg(s, color);
                    }
                }
                default -> {
                    if (v >= 30 && v <= 37) {
                        s = Style.withFg(s, Style.indexed(v - 30));
                    } else if (v >= 40 && v <= 47) {
                        s = Style.withBg(s, Style.indexed(v - 40));
                    } else if (v >= 90 && v <= 97) {
                        s = Style.withFg(s, Style.indexed(v - 90 + 8));
                    } else if (v >= 100 && v <= 107) {
                        s = Style.withBg(s, Style.indexed(v - 100 + 8));
                    } else {
                        throw new IllegalArgumentException("unexpected SGR " + v + " in " + params);
                    }
                }
            }
        }
        pen.style = s;
    }

    /** A row's text: its glyphs joined, trailing blanks removed. */
    static String text(List<Glyph> row) {
        StringBuilder sb = new StringBuilder();
        for (Glyph g : row) {
            sb.append(g.text());
        }
        return sb.toString().stripTrailing();
    }

    private static String excerpt(String s, int at) {
        return s.substring(at, Math.min(s.length(), at + 20)).replace("\033", "ESC");
    }
}
