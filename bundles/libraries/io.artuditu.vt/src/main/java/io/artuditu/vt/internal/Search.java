package io.artuditu.vt.internal;

import io.artuditu.vt.Match;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the retained text (scrollback, then the screen) for {@link io.artuditu.vt.Terminal}:
 * ranges of scrollback as text and plain-text search. Rows joined by their wrap flags are
 * searched as one logical line; every UTF-16 unit of that line remembers the cell it came
 * from, so a match maps back to (line, column) pairs.
 */
final class Search {
    private final boolean fold;
    private final String needle;
    private final int max;
    private final List<Match> found = new ArrayList<>();

    // The logical line being collected: its text and, per UTF-16 unit, its line and cells.
    private final StringBuilder text = new StringBuilder();
    private int[] unitLine = new int[256];
    private int[] unitCol = new int[256];
    private int[] unitEnd = new int[256];

    // Scratch for a scrollback line's cells.
    private int[] cp = new int[256];
    private long[] st = new long[256];
    private String[] marks = new String[256];

    private Search(String needle, boolean caseSensitive, int max) {
        this.fold = !caseSensitive;
        this.needle = fold ? fold(needle) : needle;
        this.max = max;
    }

    static String historyText(History history, int from, int to, boolean sgr) {
        if (from < 0 || to > history.size() || from > to) {
            throw new IndexOutOfBoundsException("lines " + from + ".." + to + " of " + history.size());
        }
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            if (i > from) {
                sb.append('\n');
            }
            history.get(i).text(sb, sgr);
        }
        return sb.toString();
    }

    static List<Match> find(History history, Line[] screen, String needle, boolean caseSensitive, int max) {
        if (needle == null || needle.isEmpty() || max <= 0) {
            return List.of();
        }
        Search s = new Search(needle, caseSensitive, max);
        int h = history.size();
        for (int i = 0; i < h && s.found.size() < max; i++) {
            HistoryLine l = history.get(i);
            int n = l.length();
            if (n > s.cp.length) {
                s.cp = new int[n];
                s.st = new long[n];
                s.marks = new String[n];
            }
            l.copyTo(s.cp, s.st, s.marks, null, null, 0);
            s.add(i, s.cp, l.hasMarks() ? s.marks : null, n, l.wrapped);
        }
        for (int r = 0; r < screen.length && s.found.size() < max; r++) {
            Line l = screen[r];
            s.add(h + r, l.cp, l.marks, l.length(), l.wrapped && r < screen.length - 1);
        }
        s.flush();
        return List.copyOf(s.found);
    }

    /** Adds {@code n} cells of one row; {@code cells} null means they are all empty. */
    private void add(int line, int[] cells, String[] mk, int n, boolean wrapped) {
        if (cells == null && !wrapped) {
            n = 0;
        }
        if (!wrapped) {
            // Trailing blanks end the logical line; inside a wrapped row they are text.
            while (n > 0 && ((cells[n - 1] & Line.CP_MASK) == 0 || (cells[n - 1] & Line.CP_MASK) == ' ')
                    && (cells[n - 1] & Line.TAIL) == 0) {
                n--;
            }
        }
        for (int c = 0; c < n; c++) {
            int v = cells == null ? 0 : cells[c];
            if ((v & Line.TAIL) != 0) {
                continue;
            }
            int end = (v & Line.WIDE) != 0 ? c + 2 : c + 1;
            int code = v & Line.CP_MASK;
            unit(line, c, end, code == 0 ? ' ' : code);
            if (mk != null && mk[c] != null) {
                String m = mk[c];
                for (int k = 0; k < m.length(); k++) {
                    unit(line, c, end, m.charAt(k));
                }
            }
        }
        if (!wrapped) {
            flush();
        }
    }

    private void unit(int line, int col, int end, int codePoint) {
        int at = text.length();
        text.appendCodePoint(codePoint);
        int units = text.length() - at;
        if (text.length() > unitLine.length) {
            int cap = Math.max(text.length(), unitLine.length * 2);
            unitLine = Arrays.copyOf(unitLine, cap);
            unitCol = Arrays.copyOf(unitCol, cap);
            unitEnd = Arrays.copyOf(unitEnd, cap);
        }
        for (int u = at; u < at + units; u++) {
            unitLine[u] = line;
            unitCol[u] = col;
            unitEnd[u] = end;
        }
    }

    private void flush() {
        if (text.length() >= needle.length()) {
            String hay = fold ? fold(text) : text.toString();
            int from = 0;
            int at;
            while (found.size() < max && (at = hay.indexOf(needle, from)) >= 0) {
                int last = at + needle.length() - 1;
                found.add(new Match(unitLine[at], unitCol[at], unitLine[last], unitEnd[last]));
                from = at + needle.length();
            }
        }
        text.setLength(0);
    }

    /** Case folding that keeps the length, so unit indexes stay valid. */
    private static String fold(CharSequence s) {
        char[] out = new char[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Character.toLowerCase(Character.toUpperCase(s.charAt(i)));
        }
        return new String(out);
    }
}
