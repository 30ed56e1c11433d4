package io.artuditu.agents.internal.detect;

import io.artuditu.vt.Terminal;

/**
 * The text of a screen's regions for one evaluation, each read at most once.
 *
 * <ul>
 *   <li>The bottom window: from the last row of the visible screen upward, blank rows are
 *       skipped (at most {@value #MAX_BLANK} of them) to the last row with text; the window
 *       is that row and the rows above it, as many as the largest {@code last_rows} or
 *       {@code box} region needs (at most {@link ManifestReader#MAX_ROWS}, the manifest format's bound). Blank rows inside it
 *       stay, as empty lines.
 *   <li>{@code last_rows:N}: the window's last N rows, joined by {@code \n}, except that a row
 *       the terminal soft-wrapped (the text ran past the last column) runs on into the next
 *       without one: a pattern sees the line the program wrote, wherever the pane's width
 *       cut it.
 *   <li>{@code box:N}: in the window's last N rows, the lowest frame whose bottom row has
 *       a left corner ({@code ╰} or {@code └}) and a right corner ({@code ╯} or {@code ┘})
 *       after it, and whose left edge ({@code │ ┃ ║ ├}) runs up to a top corner ({@code ╭}
 *       or {@code ┌}); a frame whose top lies above the N rows counts from the first of
 *       them (a tall approval box keeps its question, which is near its bottom). Its text
 *       is each inner row's cells between the two edges, trailing blanks dropped, joined
 *       by {@code \n}. No frame: the region is absent and its rules do not match.
 *   <li>{@code above:N} and {@code below:N} (format 2): the text of {@code last_rows:N} before
 *       the start, or after the end, of the anchor pattern's last match in it (looked for in
 *       the last rows first: a match must start a row's text or lie within the rows after
 *       its start), without the newline between (so {@code \z} in a rule is the row just above the anchor, {@code \A}
 *       the row just below it). No match: the region is absent and its rules do not match.
 *   <li>{@code title}: the window title, at most {@value #MAX_TITLE} characters.
 *   <li>{@code cursor_row}: the cursor's row, with the rows soft wraps join to it (its
 *       logical line, at most {@value #MAX_CURSOR_LINE} rows): a prompt whose input wrapped
 *       is still read from its start.
 * </ul>
 *
 * <p>A row's text is cut to twice the terminal's width in UTF-16 units (every cell holds
 * at most a surrogate pair once combining marks are set aside), so a row costs at most
 * that much whatever the program drew. {@link #rowsRead()} counts each screen row read
 * once, blank rows skipped included.
 */
final class ScreenRegions {
    /** Most trailing blank rows skipped looking for the last row with text. */
    static final int MAX_BLANK = 200;
    /** Longest title looked at. */
    static final int MAX_TITLE = 512;
    /** Most rows the cursor's logical line spans in {@code cursor_row}. */
    static final int MAX_CURSOR_LINE = 8;

    private final Terminal t;
    private final int window;
    private String[] rows;
    /** The screen row of {@code rows[0]}. */
    private int top;
    private String joined;
    /** Where each window row starts in {@link #joined}. */
    private int[] starts;
    private int rowsRead;
    private String cursorText;
    private int boxRows = -1;
    private String box;
    /** The last anchored region read, and its text: the rules of one manifest share a few. */
    private Region partedRegion;
    private String partedText;

    /** {@code window}: how many rows the largest row-counted region needs (0: none). */
    ScreenRegions(Terminal t, int window) {
        this.t = t;
        this.window = Math.min(window, ManifestReader.MAX_ROWS);
    }

    /** The region's text, or null when it is absent (no frame for a box region). */
    String text(Region r) {
        return switch (r.kind()) {
            case LAST_ROWS -> lastRows(r.rows());
            case BOX -> box(r.rows());
            case ABOVE, BELOW -> parted(r);
            case TITLE -> cut(t.title(), MAX_TITLE);
            case CURSOR_ROW -> cursorRow();
        };
    }

    int rowsRead() {
        return rowsRead;
    }

    private String row(int r) {
        rowsRead++;
        String s = cut(t.rowText(r, false), 2 * t.cols());
        if (t.wrapped(r)) {
            // The text ran on past the last column; rowText trimmed a blank there, which is
            // the space between two words of the line.
            int last = t.codepoint(r, t.cols() - 1);
            if (last == 0 || last == ' ') {
                s += ' ';
            }
        }
        return s;
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private void readWindow() {
        if (rows != null) {
            return;
        }
        int r = t.rows() - 1;
        String last = null;
        for (int blanks = 0; r >= 0 && blanks <= MAX_BLANK; r--, blanks++) {
            String s = row(r);
            if (!s.isEmpty()) {
                last = s;
                break;
            }
        }
        if (last == null || window == 0) {
            rows = new String[0];
            top = Math.max(r, 0);
            joined = "";
            starts = new int[0];
            return;
        }
        int n = Math.min(window, r + 1);
        rows = new String[n];
        top = r - n + 1;
        rows[n - 1] = last;
        for (int i = n - 2; i >= 0; i--) {
            rows[i] = row(top + i);
        }
        starts = new int[n];
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0 && !t.wrapped(top + i - 1)) {
                b.append('\n');
            }
            starts[i] = b.length();
            b.append(rows[i]);
        }
        joined = b.toString();
    }

    private String lastRows(int n) {
        readWindow();
        if (rows.length == 0) {
            return "";
        }
        int first = Math.max(0, rows.length - n);
        return first == 0 ? joined : joined.substring(starts[first]);
    }

    /** The part of {@code last_rows:N} above or below the anchor's last match; null without one. */
    private String parted(Region r) {
        if (partedRegion != null && partedRegion.kind() == r.kind() && partedRegion.rows() == r.rows()
                && partedRegion.anchor().pattern().equals(r.anchor().pattern())) {
            return partedText;
        }
        partedRegion = r;
        partedText = cut(r);
        return partedText;
    }

    /**
     * The anchor's last match, looked for in the last 8 rows of the region, then 16, 32…
     * (it is usually near the bottom, and RE2's cost is the text's length): the first tail
     * with a match holds the last one.
     */
    private String cut(Region r) {
        String text = lastRows(r.rows());
        for (int tail = 8;; tail *= 2) {
            int start = text.length();
            for (int n = 0; n < tail && start > 0; n++) {
                start = text.lastIndexOf('\n', start - 1);
                if (start < 0) {
                    start = 0;
                }
            }
            if (start > 0) {
                start++; // the row after the newline
            }
            String part = text.substring(start);
            com.google.re2j.Matcher m = r.anchor().matcher(part);
            int first = -1;
            int last = -1;
            int from = 0;
            while (from <= part.length() && m.find(from)) {
                first = start + m.start();
                last = start + m.end();
                from = m.end() > m.start() ? m.end() : m.end() + 1;
            }
            if (first >= 0) {
                if (r.kind() == Region.Kind.ABOVE) {
                    return text.substring(0, first > 0 && text.charAt(first - 1) == '\n' ? first - 1 : first);
                }
                return text.substring(last < text.length() && text.charAt(last) == '\n' ? last + 1 : last);
            }
            if (start == 0) {
                return null;
            }
        }
    }

    private String cursorRow() {
        if (cursorText == null) {
            int c = t.cursorRow();
            int first = c;
            while (first > 0 && c - first < MAX_CURSOR_LINE - 1 && t.wrapped(first - 1)) {
                first--;
            }
            int last = c;
            while (last < t.rows() - 1 && last - first < MAX_CURSOR_LINE - 1 && t.wrapped(last)) {
                last++;
            }
            StringBuilder b = new StringBuilder();
            for (int r = first; r <= last; r++) {
                b.append(rows != null && r >= top && r < top + rows.length ? rows[r - top] : row(r));
            }
            cursorText = b.toString();
        }
        return cursorText;
    }

    private String box(int n) {
        if (boxRows == n) {
            return box;
        }
        readWindow();
        boxRows = n;
        box = findBox(n);
        return box;
    }

    private String findBox(int n) {
        int first = Math.max(0, rows.length - n);
        for (int i = rows.length - 1; i > first; i--) {
            String text = rows[i];
            if (text.indexOf('╰') < 0 && text.indexOf('└') < 0) {
                continue;
            }
            int screenRow = top + i;
            int left = -1;
            int right = -1;
            for (int c = 0; c < t.cols(); c++) {
                int cp = t.codepoint(screenRow, c);
                if (left < 0 && (cp == '╰' || cp == '└')) {
                    left = c;
                } else if (left >= 0 && (cp == '╯' || cp == '┘')) {
                    right = c;
                    break;
                }
            }
            if (right < 0) {
                continue;
            }
            int upper = upperEdge(i, first, left);
            if (upper == Integer.MIN_VALUE) {
                continue;
            }
            StringBuilder b = new StringBuilder();
            for (int k = upper + 1; k < i; k++) {
                if (k > upper + 1) {
                    b.append('\n');
                }
                int at = b.length();
                for (int c = left + 1; c < right; c++) {
                    b.append(t.grapheme(top + k, c));
                }
                int end = b.length();
                while (end > at && b.charAt(end - 1) == ' ') {
                    end--;
                }
                b.setLength(end);
            }
            return b.toString();
        }
        return null;
    }

    /**
     * The window index of the frame's top row above bottom row {@code bottom}: the row with
     * a top corner at {@code col}, or {@code first - 1} when the left edge runs to the top of
     * the region; {@link Integer#MIN_VALUE} when something else interrupts the edge.
     */
    private int upperEdge(int bottom, int first, int col) {
        for (int k = bottom - 1; k >= first; k--) {
            int cp = t.codepoint(top + k, col);
            if (cp == '╭' || cp == '┌') {
                return k;
            }
            if (cp != '│' && cp != '┃' && cp != '║' && cp != '├') {
                return Integer.MIN_VALUE;
            }
        }
        return first - 1;
    }
}
