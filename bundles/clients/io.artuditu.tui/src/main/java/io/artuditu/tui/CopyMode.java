package io.artuditu.tui;

import io.artuditu.vt.Style;
import java.util.ArrayList;
import java.util.List;

/**
 * Copy mode over a pane's text (its scrollback and screen, from {@code pane.read}): move a
 * cursor, search backwards with {@code /} (forwards with {@code ?}), {@code n}/{@code N}
 * to repeat, {@code Space} or {@code v} to start a selection and {@code Enter} or {@code y}
 * to copy it; {@code q} or {@code Escape} leaves.
 */
final class CopyMode {
    /** What a key did. */
    enum Result { STAY, EXIT, COPY, SEARCH }

    final String pane;
    final List<String> lines;
    int row;
    int col;
    int top;
    int anchorRow = -1;
    int anchorCol = -1;
    String search;
    String status = "";
    private int height = 1;

    CopyMode(String pane, String text) {
        this.pane = pane;
        List<String> l = new ArrayList<>(List.of(text.split("\n", -1)));
        while (l.size() > 1 && l.get(l.size() - 1).isEmpty()) {
            l.remove(l.size() - 1);
        }
        lines = l;
        row = lines.size() - 1;
        col = 0;
    }

    Result key(Input.Key k) {
        String c = k.name().equals("char") && !k.ctrl() && !k.alt() ? k.ch() : null;
        if (c != null) {
            switch (c) {
                case "q" -> { return Result.EXIT; }
                case "k" -> move(-1, 0);
                case "j" -> move(1, 0);
                case "h" -> move(0, -1);
                case "l" -> move(0, 1);
                case "g" -> { row = 0; col = 0; }
                case "G" -> { row = lines.size() - 1; col = 0; }
                case "0" -> col = 0;
                case "$" -> col = Math.max(0, lines.get(row).length() - 1);
                case " ", "v" -> { anchorRow = row; anchorCol = col; status = "selecting"; }
                case "y" -> { return anchorRow >= 0 ? Result.COPY : Result.STAY; }
                case "/", "?" -> { status = c; return Result.SEARCH; }
                case "n" -> find(search, !"?".equals(status) ? -1 : 1);
                case "N" -> find(search, !"?".equals(status) ? 1 : -1);
                default -> { }
            }
            return Result.STAY;
        }
        if (k.ctrl() && k.name().equals("char")) {
            switch (k.ch()) {
                case "b", "u" -> move(-Math.max(1, height - 1), 0);
                case "f", "d" -> move(Math.max(1, height - 1), 0);
                case "c" -> { return Result.EXIT; }
                default -> { }
            }
            return Result.STAY;
        }
        switch (k.name()) {
            case "esc" -> { return Result.EXIT; }
            case "up" -> move(-1, 0);
            case "down" -> move(1, 0);
            case "left" -> move(0, -1);
            case "right" -> move(0, 1);
            case "page_up" -> move(-Math.max(1, height - 1), 0);
            case "page_down" -> move(Math.max(1, height - 1), 0);
            case "home" -> col = 0;
            case "end" -> col = Math.max(0, lines.get(row).length() - 1);
            case "enter" -> { return anchorRow >= 0 ? Result.COPY : Result.EXIT; }
            default -> { }
        }
        return Result.STAY;
    }

    private void move(int dr, int dc) {
        row = Math.max(0, Math.min(lines.size() - 1, row + dr));
        col = Math.max(0, col + dc);
    }

    /** Searches {@code term} from the cursor: {@code dir} -1 towards older lines, 1 newer. */
    boolean find(String term, int dir) {
        if (term == null || term.isEmpty()) {
            return false;
        }
        search = term;
        int n = lines.size();
        for (int step = 1; step <= n; step++) {
            int r = Math.floorMod(row + dir * step, n);
            int at = lines.get(r).indexOf(term);
            if (at >= 0) {
                row = r;
                col = at;
                status = "found \"" + term + "\" on line " + (r + 1);
                return true;
            }
        }
        // the cursor's own line, past the cursor
        status = "\"" + term + "\" not found";
        return false;
    }

    /** The selected text: anchor to cursor in reading order, both included. */
    String selection() {
        int r1 = anchorRow;
        int c1 = anchorCol;
        int r2 = row;
        int c2 = col;
        if (r1 > r2 || (r1 == r2 && c1 > c2)) {
            int t = r1; r1 = r2; r2 = t;
            t = c1; c1 = c2; c2 = t;
        }
        StringBuilder b = new StringBuilder();
        for (int r = r1; r <= r2; r++) {
            String l = lines.get(r);
            int from = r == r1 ? Math.min(c1, l.length()) : 0;
            int to = r == r2 ? Math.min(c2 + 1, l.length()) : l.length();
            b.append(l, from, Math.max(from, to));
            if (r < r2) {
                b.append('\n');
            }
        }
        return b.toString();
    }

    private boolean selected(int r, int c) {
        if (anchorRow < 0) {
            return false;
        }
        long a = (long) anchorRow << 32 | anchorCol;
        long z = (long) row << 32 | col;
        long p = (long) r << 32 | c;
        return p >= Math.min(a, z) && p <= Math.max(a, z);
    }

    void paint(Canvas canvas, Layout.Rect r, long text, long highlight) {
        height = r.h();
        if (row < top) {
            top = row;
        }
        if (row >= top + r.h()) {
            top = row - r.h() + 1;
        }
        canvas.fill(r.x(), r.y(), r.w(), r.h(), Canvas.BLANK, text);
        for (int i = 0; i < r.h() && top + i < lines.size(); i++) {
            int lr = top + i;
            String l = lines.get(lr);
            int x = 0;
            for (int ci = 0; ci < l.length() && x < r.w(); ci++) {
                char c = l.charAt(ci);
                long s = selected(lr, ci) ? highlight : text;
                if (search != null && !search.isEmpty() && matchAt(l, ci)) {
                    s = s | Style.BOLD | Style.UNDERLINE_MASK & (1L << Style.UNDERLINE_SHIFT);
                }
                if (Character.isHighSurrogate(c) && ci + 1 < l.length()) {
                    String g = l.substring(ci, ci + 2);
                    int w = Math.max(1, Canvas.width(g));
                    canvas.put(r.x() + x, r.y() + i, g, w, s);
                    x += w;
                    ci++;
                    continue;
                }
                int w = Math.max(1, Canvas.width(String.valueOf(c)));
                canvas.put(r.x() + x, r.y() + i, String.valueOf(c), w, s);
                x += w;
            }
            if (selected(lr, l.length()) && lr != row && x < r.w()) {
                canvas.put(r.x() + x, r.y() + i, Canvas.BLANK, 1, highlight);
            }
        }
        int cy = r.y() + row - top;
        int cx = r.x() + Math.min(Canvas.width(lines.get(row).substring(0, Math.min(col, lines.get(row).length()))), r.w() - 1);
        canvas.cursorX = cx;
        canvas.cursorY = cy;
        canvas.cursorShape = 2;
    }

    private boolean matchAt(String l, int ci) {
        int from = Math.max(0, ci - search.length() + 1);
        int at = l.indexOf(search, from);
        return at >= 0 && at <= ci && ci < at + search.length();
    }

    String header() {
        return "[copy " + (row + 1) + "/" + lines.size() + "] " + status;
    }
}
