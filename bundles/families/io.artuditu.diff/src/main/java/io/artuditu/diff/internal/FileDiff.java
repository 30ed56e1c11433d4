package io.artuditu.diff.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.HistogramDiff;
import org.eclipse.jgit.diff.RawTextComparator;

/**
 * One file's line diff (JGit's histogram diff) cut into semantic hunks with three lines of
 * context, bounded: at most {@link #MAX_ROWS} rows and {@link #MAX_PATCH_BYTES} of raw patch
 * (the unified form's bytes) over all hunks; a logical line longer than
 * {@link #MAX_LINE_BYTES} is cut there (the row says {@code cut}). Past a limit the hunks
 * stop and {@code truncation.reason} names it. Binary sides (a NUL in the first 8 KiB) and
 * sides over {@link Sides#MAX_SIDE_BYTES} give no hunks.
 */
final class FileDiff {
    static final int MAX_PATCH_BYTES = 4 * 1024 * 1024;
    static final int MAX_ROWS = 20_000;
    static final int MAX_LINE_BYTES = 16 * 1024;
    static final int CONTEXT = 3;
    /** Bytes looked at for a NUL to call a side binary, as Git does. */
    static final int BINARY_PROBE = 8000;

    record Line(char kind, int oldLine, int newLine, String text, boolean cut) {
    }

    record Hunk(String id, int oldStart, int oldLines, int newStart, int newLines, String header, List<Line> lines) {
    }

    /**
     * @param reason null, {@code binary}, {@code file_bytes}, {@code rows} or {@code patch_bytes}
     * @param oldText the old side's lines as read (for anchoring); null when not text
     */
    record Result(boolean binary, Integer additions, Integer deletions, String reason, long oldSize, long newSize,
            int cutLines, List<Hunk> hunks, Lines oldText, Lines newText) {
        boolean truncated() {
            return reason != null && !reason.equals("binary");
        }

        /** Whether {@code line} of a side ({@code old}) is a row of the loaded hunks. */
        boolean hasLine(boolean old, int line) {
            for (Hunk h : hunks) {
                for (Line l : h.lines()) {
                    if ((old ? l.oldLine() : l.newLine()) == line) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    private FileDiff() {
    }

    static boolean binary(byte[] b) {
        if (b == null) {
            return false;
        }
        int n = Math.min(b.length, BINARY_PROBE);
        for (int i = 0; i < n; i++) {
            if (b[i] == 0) {
                return true;
            }
        }
        return false;
    }

    static Result compute(Sides.Content a, Sides.Content b) {
        if (a.tooBig() || b.tooBig()) {
            return new Result(false, null, null, "file_bytes", a.size(), b.size(), 0, List.of(), null, null);
        }
        byte[] ab = a.bytes() == null ? new byte[0] : a.bytes();
        byte[] bb = b.bytes() == null ? new byte[0] : b.bytes();
        if (binary(ab) || binary(bb)) {
            return new Result(true, null, null, "binary", a.size(), b.size(), 0, List.of(), null, null);
        }
        Lines ra = new Lines(ab);
        Lines rb = new Lines(bb);
        EditList edits = new HistogramDiff().diff(RawTextComparator.DEFAULT, ra, rb);
        int adds = 0;
        int dels = 0;
        for (Edit e : edits) {
            adds += e.getLengthB();
            dels += e.getLengthA();
        }
        List<Hunk> hunks = new ArrayList<>();
        String reason = null;
        int rows = 0;
        long bytes = 0;
        int cut = 0;
        int i = 0;
        outer:
        while (i < edits.size()) {
            int j = i;
            while (j + 1 < edits.size() && edits.get(j + 1).getBeginA() - edits.get(j).getEndA() <= 2 * CONTEXT) {
                j++;
            }
            Edit first = edits.get(i);
            Edit last = edits.get(j);
            int aStart = Math.max(0, first.getBeginA() - CONTEXT);
            int bStart = Math.max(0, first.getBeginB() - CONTEXT);
            int aEnd = Math.min(ra.size(), last.getEndA() + CONTEXT);
            int bEnd = Math.min(rb.size(), last.getEndB() + CONTEXT);
            String header = "@@ -" + range(aStart, aEnd - aStart) + " +" + range(bStart, bEnd - bStart) + " @@";
            List<Line> lines = new ArrayList<>();
            Hunk h = new Hunk("h" + (hunks.size() + 1), aEnd - aStart == 0 ? aStart : aStart + 1, aEnd - aStart,
                    bEnd - bStart == 0 ? bStart : bStart + 1, bEnd - bStart, header, lines);
            hunks.add(h);
            bytes += header.length() + 1;
            int ai = aStart;
            int bi = bStart;
            for (int k = i; k <= j + 1; k++) {
                Edit e = k <= j ? edits.get(k) : null;
                int ctxEndA = e == null ? aEnd : e.getBeginA();
                while (ai < ctxEndA) {
                    Line l = line(' ', ai + 1, bi + 1, ra.line(ai));
                    ai++;
                    bi++;
                    if ((reason = room(rows, bytes, l)) != null) {
                        break outer;
                    }
                    rows++;
                    bytes += lineBytes(l);
                    cut += l.cut() ? 1 : 0;
                    lines.add(l);
                }
                if (e == null) {
                    break;
                }
                for (; ai < e.getEndA(); ai++) {
                    Line l = line('-', ai + 1, 0, ra.line(ai));
                    if ((reason = room(rows, bytes, l)) != null) {
                        break outer;
                    }
                    rows++;
                    bytes += lineBytes(l);
                    cut += l.cut() ? 1 : 0;
                    lines.add(l);
                }
                for (; bi < e.getEndB(); bi++) {
                    Line l = line('+', 0, bi + 1, rb.line(bi));
                    if ((reason = room(rows, bytes, l)) != null) {
                        break outer;
                    }
                    rows++;
                    bytes += lineBytes(l);
                    cut += l.cut() ? 1 : 0;
                    lines.add(l);
                }
            }
            i = j + 1;
        }
        return new Result(false, adds, dels, reason, a.size(), b.size(), cut, hunks, ra, rb);
    }

    private static String room(int rows, long bytes, Line l) {
        if (rows >= MAX_ROWS) {
            return "rows";
        }
        if (bytes + lineBytes(l) > MAX_PATCH_BYTES) {
            return "patch_bytes";
        }
        return null;
    }

    private static long lineBytes(Line l) {
        return l.text().getBytes(StandardCharsets.UTF_8).length + 2L;
    }

    private static String range(int start, int len) {
        int s = len == 0 ? start : start + 1;
        return len == 1 ? Integer.toString(s) : s + "," + len;
    }

    private static Line line(char kind, int oldLine, int newLine, String raw) {
        boolean cut = false;
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_LINE_BYTES) {
            raw = new String(b, 0, MAX_LINE_BYTES, StandardCharsets.UTF_8);
            if (!raw.isEmpty() && raw.charAt(raw.length() - 1) == '\uFFFD') {
                raw = raw.substring(0, raw.length() - 1);
            }
            cut = true;
        }
        return new Line(kind, oldLine, newLine, Text.sanitize(raw), cut);
    }

    /** Adds the diff's fields (and the hunks, with lines when {@code withLines}) to a result. */
    static void into(ObjectNode r, Result d, boolean withLines) {
        r.put("binary", d.binary());
        if (d.additions() == null) {
            r.putNull("additions");
            r.putNull("deletions");
        } else {
            r.put("additions", d.additions()).put("deletions", d.deletions());
        }
        r.put("truncated", d.truncated());
        ObjectNode t = r.putObject("truncation");
        t.put("reason", d.truncated() ? d.reason() : null);
        t.put("max_patch_bytes", MAX_PATCH_BYTES).put("max_rows", MAX_ROWS).put("max_line_bytes", MAX_LINE_BYTES)
                .put("max_file_bytes", Sides.MAX_SIDE_BYTES).put("cut_lines", d.cutLines())
                .put("old_size", d.oldSize()).put("new_size", d.newSize());
        ArrayNode hs = r.putArray("hunks");
        for (Hunk h : d.hunks()) {
            ObjectNode o = hs.addObject().put("id", h.id()).put("old_start", h.oldStart()).put("old_lines", h.oldLines())
                    .put("new_start", h.newStart()).put("new_lines", h.newLines()).put("header", h.header());
            if (!withLines) {
                o.putNull("lines");
                continue;
            }
            ArrayNode ls = o.putArray("lines");
            for (Line l : h.lines()) {
                ObjectNode x = ls.addObject().put("kind", l.kind() == ' ' ? "context" : l.kind() == '+' ? "add" : "delete");
                if (l.oldLine() > 0) {
                    x.put("old_line", l.oldLine());
                } else {
                    x.putNull("old_line");
                }
                if (l.newLine() > 0) {
                    x.put("new_line", l.newLine());
                } else {
                    x.putNull("new_line");
                }
                x.put("text", l.text());
                if (l.cut()) {
                    x.put("cut", true);
                }
            }
        }
    }
}
