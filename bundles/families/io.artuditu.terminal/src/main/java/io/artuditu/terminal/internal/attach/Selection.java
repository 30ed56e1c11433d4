package io.artuditu.terminal.internal.attach;

import io.artuditu.vt.Limits;
import io.artuditu.vt.Terminal;

/**
 * The text of a left-button selection on a pane whose program does not read the mouse, taken
 * from the viewport exactly as the client sees it (live, or scrolled back into history): from
 * the press cell to the release cell in reading order, both included. A row that wrapped runs
 * on into the next; any other row ends with a line break and loses its trailing blanks. The
 * right half of a wide character adds nothing. Call under the screen's lock.
 */
final class Selection {
    private Selection() {
    }

    static String text(Terminal term, int scrollOffset, int x0, int y0, int x1, int y1) {
        int cols = term.cols();
        int rows = term.rows();
        int h = term.historySize();
        int offset = Math.min(Math.max(0, scrollOffset), h);
        Terminal view = offset == 0 ? term
                : FrameEncoder.viewport(term, offset, Terminal.create(cols, rows, new Limits(0, 16)));
        if (y1 < y0 || (y1 == y0 && x1 < x0)) {
            int tx = x0;
            int ty = y0;
            x0 = x1;
            y0 = y1;
            x1 = tx;
            y1 = ty;
        }
        y0 = clamp(y0, rows);
        y1 = clamp(y1, rows);
        StringBuilder out = new StringBuilder();
        for (int y = y0; y <= y1; y++) {
            int from = y == y0 ? clamp(x0, cols) : 0;
            int to = y == y1 ? clamp(x1, cols) : cols - 1;
            StringBuilder line = new StringBuilder();
            for (int c = from; c <= to; c++) {
                line.append(view.grapheme(y, c));
            }
            int v = h - offset + y;
            boolean wrapped = y < y1 && to == cols - 1 && (v < h ? v >= 0 && term.historyWrapped(v) : term.wrapped(v - h));
            if (!wrapped) {
                int end = line.length();
                while (end > 0 && line.charAt(end - 1) == ' ') {
                    end--;
                }
                line.setLength(end);
            }
            out.append(line);
            if (y < y1 && !wrapped) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static int clamp(int v, int size) {
        return Math.max(0, Math.min(size - 1, v));
    }
}
