package io.artuditu.tui;

import io.artuditu.tui.DiffData.FileEntry;
import io.artuditu.tui.DiffData.Line;
import io.artuditu.tui.DiffModel.Kind;
import io.artuditu.tui.DiffModel.Row;
import io.artuditu.vt.Style;
import java.util.List;

/**
 * Paints a {@link DiffModel} into a {@link Canvas}: the title row, the CHANGES list on the
 * left (files by layer with +/− counts and open-note counts) when the pane is wide enough,
 * the selected file's rows on the right (stacked: old and new numbers then the line; split:
 * old | new), word changes in reverse video, notes in their own colour under their lines,
 * and the bottom line ({@code status}, or the prompt). It keeps the first row shown so the
 * cursor stays in sight.
 */
final class DiffRender {
    static final long ADD = Style.withFg(0, Style.indexed(2));
    static final long DEL = Style.withFg(0, Style.indexed(1));
    static final long HUNK = Style.withFg(0, Style.indexed(6));
    static final long NOTE = Style.withFg(0, Style.indexed(3));
    static final long DIM = Style.DIM;
    static final long TITLE = Style.REVERSE | Style.BOLD;
    static final long SELECTED = Style.REVERSE;
    /** Columns of one line number. */
    static final int NUM = 5;
    /** Below this width the CHANGES list is left out and the diff takes the whole pane. */
    static final int LIST_FROM = 72;

    /** The first diff row shown. */
    int top;

    static int listWidth(int cols) {
        return cols < LIST_FROM ? 0 : Math.min(40, cols / 4);
    }

    void paint(Canvas c, DiffModel m, String status, String prompt, int promptCursor) {
        int cols = c.cols;
        int rows = c.rows;
        FileEntry f = m.file();
        String title = " DIFF  " + (f == null ? "" : f.path() + "  [" + f.layer() + "]  "
                + (f.additions() == null ? "" : "+" + f.additions() + " ") + (f.deletions() == null ? "" : "-" + f.deletions() + " "))
                + " " + (m.split() ? "split" : "stack") + (m.view.equals("auto") ? " (auto)" : "")
                + "   " + m.unresolvedNotes() + " unresolved notes   ? keys";
        c.fill(0, 0, cols, 1, Canvas.BLANK, TITLE);
        c.text(0, 0, Canvas.clip(title, cols), TITLE, cols);
        int lw = listWidth(cols);
        int height = Math.max(0, rows - 2);
        if (lw > 0) {
            list(c, m, 0, 1, lw, height);
            for (int y = 1; y < 1 + height; y++) {
                c.put(lw, y, "│", 1, DIM);
            }
        }
        int x = lw == 0 ? 0 : lw + 1;
        body(c, m, x, 1, cols - x, height);
        c.fill(0, rows - 1, cols, 1, Canvas.BLANK, Style.DEFAULT);
        if (prompt != null) {
            c.text(0, rows - 1, Canvas.clip(prompt, cols), Style.BOLD, cols);
            c.cursorX = Math.min(cols - 1, promptCursor);
            c.cursorY = rows - 1;
        } else {
            c.text(0, rows - 1, Canvas.clip(status == null ? "" : status, cols), DIM, cols);
            c.cursorX = -1;
        }
    }

    /** The CHANGES list: a heading per layer, then its files; the selected one in reverse video. */
    static void list(Canvas c, DiffModel m, int x, int y, int w, int h) {
        List<FileEntry> files = m.files;
        // rows: layer headings and files, scrolled so the selected file shows
        java.util.List<Object> rows = new java.util.ArrayList<>();
        String layer = null;
        int selRow = 0;
        for (int i = 0; i < files.size(); i++) {
            FileEntry f = files.get(i);
            if (!java.util.Objects.equals(f.layer(), layer)) {
                layer = f.layer();
                rows.add(layer == null ? "CHANGES" : layer.toUpperCase(java.util.Locale.ROOT));
            }
            if (i == m.selected) {
                selRow = rows.size();
            }
            rows.add(i);
        }
        if (rows.isEmpty()) {
            c.text(x + 1, y, "CHANGES", Style.BOLD, w - 1);
            c.text(x + 1, y + 1, "(none)", DIM, w - 1);
            return;
        }
        int first = Math.max(0, Math.min(selRow - h / 2, rows.size() - h));
        for (int r = 0; r < h && first + r < rows.size(); r++) {
            Object o = rows.get(first + r);
            if (o instanceof String s) {
                c.text(x + 1, y + r, Canvas.clip(s, w - 1), Style.BOLD, w - 1);
                continue;
            }
            int i = (Integer) o;
            FileEntry f = files.get(i);
            long st = i == m.selected ? SELECTED : Style.DEFAULT;
            c.fill(x, y + r, w, 1, Canvas.BLANK, st);
            c.text(x + 1, y + r, Canvas.clip(f.label(), w - 1), st, w - 1);
        }
    }

    /** The selected file's rows from {@link #top}, scrolled to keep the cursor (and a little after it) in sight. */
    void body(Canvas c, DiffModel m, int x, int y, int w, int h) {
        if (h <= 0 || w <= 0) {
            return;
        }
        List<Row> rows = m.rows;
        if (m.cursor >= 0) {
            if (m.cursor < top) {
                top = Math.max(0, m.cursor - 2);
            } else if (m.cursor >= top + h - 2) {
                top = Math.max(0, Math.min(m.cursor - h + 3, rows.size() - h));
            }
        }
        top = Math.max(0, Math.min(top, Math.max(0, rows.size() - 1)));
        boolean split = m.split();
        int lo = m.mark < 0 ? m.cursor : Math.min(m.mark, m.cursor);
        int hi = m.mark < 0 ? m.cursor : Math.max(m.mark, m.cursor);
        for (int r = 0; r < h && top + r < rows.size(); r++) {
            int i = top + r;
            Row row = rows.get(i);
            int ry = y + r;
            boolean here = i == m.cursor;
            boolean chosen = m.mark >= 0 && i >= lo && i <= hi;
            switch (row.kind()) {
                case INFO -> c.text(x + 1, ry, Canvas.clip(row.text(), w - 1), DIM, w - 1);
                case HUNK -> c.text(x, ry, Canvas.clip(row.text(), w), HUNK, w);
                case NOTE -> {
                    long st = row.note().open() ? NOTE : NOTE | DIM;
                    int indent = split && "new".equals(row.note().side()) ? w / 2 : 0;
                    indent = Math.min(indent, Math.max(0, w - 20));
                    c.text(x + indent + 2, ry, Canvas.clip(row.text(), w - indent - 2), st, w - indent - 2);
                }
                case LINE -> {
                    c.text(x, ry, here ? "▶" : chosen ? "┃" : " ", here ? Style.BOLD : NOTE, 1);
                    if (split) {
                        int half = (w - 1) / 2;
                        side(c, row.left(), row.marks(), true, x + 1, ry, half, here && "old".equals(m.side));
                        c.put(x + 1 + half, ry, "│", 1, DIM);
                        side(c, row.right(), row.marks(), false, x + 2 + half, ry, w - 2 - half, here && "new".equals(m.side));
                    } else {
                        stacked(c, row.line(), row.marks(), x + 1, ry, w - 1, here);
                    }
                }
                default -> { }
            }
        }
    }

    /** One side of a split row: its number, then its text; {@code old} says which side's marks apply. */
    private static void side(Canvas c, Line l, WordDiff.Marks marks, boolean old, int x, int y, int w, boolean cursor) {
        if (l == null || w <= NUM + 1) {
            return;
        }
        Integer n = old ? l.oldLine() : l.newLine();
        c.text(x, y, pad(n), cursor ? SELECTED : DIM, NUM);
        long st = l.add() ? ADD : l.delete() ? DEL : Style.DEFAULT;
        String sign = l.add() ? "+" : l.delete() ? "-" : " ";
        c.text(x + NUM, y, sign, st, 1);
        words(c, l.text(), marks, old, st, x + NUM + 1, y, w - NUM - 1);
    }

    private static void stacked(Canvas c, Line l, WordDiff.Marks marks, int x, int y, int w, boolean cursor) {
        if (w <= 2 * NUM + 1) {
            return;
        }
        long num = cursor ? SELECTED : DIM;
        c.text(x, y, pad(l.oldLine()), num, NUM);
        c.text(x + NUM, y, pad(l.newLine()), num, NUM);
        long st = l.add() ? ADD : l.delete() ? DEL : Style.DEFAULT;
        String sign = l.add() ? "+" : l.delete() ? "-" : " ";
        c.text(x + 2 * NUM, y, " " + sign, st, 2);
        words(c, l.text(), marks, l.delete(), st, x + 2 * NUM + 2, y, w - 2 * NUM - 2);
    }

    /** A line's text with its word changes in reverse video; a tab is drawn as spaces to the next multiple of 4. */
    private static void words(Canvas c, String text, WordDiff.Marks marks, boolean old, long st, int x, int y, int w) {
        int col = 0;
        boolean paired = !marks.old().isEmpty() || !marks.neu().isEmpty();
        for (int i = 0; i < text.length() && col < w; ) {
            int cp = text.codePointAt(i);
            long s = paired && marks.marked(old, i) ? st | Style.REVERSE : st;
            if (cp == '\t') {
                int to = Math.min(w, (col / 4 + 1) * 4);
                while (col < to) {
                    c.put(x + col++, y, " ", 1, s);
                }
            } else {
                col += c.text(x + col, y, new String(Character.toChars(cp)), s, w - col);
            }
            i += Character.charCount(cp);
        }
    }

    private static String pad(Integer n) {
        String s = n == null ? "" : Integer.toString(n);
        return s.length() >= NUM ? s.substring(s.length() - NUM + 1) + " " : " ".repeat(NUM - 1 - s.length()) + s + " ";
    }
}
