package io.artuditu.tui;

import io.artuditu.tui.DiffData.FileDiff;
import io.artuditu.tui.DiffData.FileEntry;
import io.artuditu.tui.DiffData.Hunk;
import io.artuditu.tui.DiffData.Line;
import io.artuditu.tui.DiffData.Note;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The DIFF viewer's state, free of the terminal and the socket so that tests drive it from
 * JSON: the changed files ({@code diff.list}), the selected file's hunks ({@code diff.get})
 * and notes ({@code diff.note.list}), laid out as rows — stacked (one source line a row) or
 * split (old | new side by side) — a cursor on a source row, an optional visual selection,
 * and the {@code diff.navigate} actions. Nothing here draws ({@link DiffRender}) or talks to
 * the server ({@link DiffView}).
 */
final class DiffModel {
    /** The pane width from which {@code auto} shows old and new side by side. */
    static final int SPLIT_WIDTH = 120;
    /** Body lines of a note drawn under its line; a longer body ends in "…". */
    static final int NOTE_LINES = 6;

    /** Every action {@code diff.navigate} accepts, in the reference's order. */
    static final List<String> ACTIONS = List.of("next", "next_line", "previous", "previous_line", "next_file",
            "previous_file", "next_hunk", "previous_hunk", "next_note", "previous_note", "top", "bottom");

    enum Kind { INFO, HUNK, LINE, NOTE }

    /**
     * A row of the picture. A {@code LINE} row holds, stacked, its {@code line}; split, its old
     * side in {@code left} and new side in {@code right} (one of them null for an unpaired
     * deletion or addition; a context line is both). {@code marks} are the word changes of a
     * deletion/addition pair. A {@code NOTE} row is one line ({@code text}) of {@code note}.
     */
    record Row(Kind kind, int hunk, Line line, Line left, Line right, WordDiff.Marks marks, Note note, String text) {
        /** The source number on {@code side} this row shows, or null. */
        Integer number(String side, boolean split) {
            if (kind != Kind.LINE) {
                return null;
            }
            if (!split) {
                return line.on(side);
            }
            Line l = "old".equals(side) ? left : right;
            return l == null ? null : l.on(side);
        }
    }

    /** Where a new note goes: its side, first and last source line. */
    record Anchor(String side, int line, int endLine) {
    }

    /** What a file change should do once its diff has loaded. */
    enum Land { TOP, BOTTOM, FIRST_NOTE, LAST_NOTE }

    List<FileEntry> files = List.of();
    int selected = -1;
    FileDiff diff;
    List<Note> notes = List.of();
    String view = "auto";
    int width = 80;
    /** The side under the cursor in the split view (h/l move it); stacked, the line's own kind decides. */
    String side = "new";
    List<Row> rows = List.of();
    int cursor = -1;
    /** The other end of the visual selection, or -1. */
    int mark = -1;
    /** Where the cursor goes once the selected file's diff arrives. */
    Land land = Land.TOP;
    /** A diff.list has arrived. */
    boolean listed;

    DiffModel() {
        rebuild();
    }

    boolean split() {
        return switch (view) {
            case "split" -> true;
            case "stack" -> false;
            default -> width >= SPLIT_WIDTH;
        };
    }

    FileEntry file() {
        return selected >= 0 && selected < files.size() ? files.get(selected) : null;
    }

    /**
     * A new {@code diff.list}: keeps the selected file when it is still listed (by path and
     * layer), else selects {@code preferPath} or the first. Returns whether the selection
     * moved to another file (its diff must be loaded).
     */
    boolean setFiles(List<FileEntry> list, String preferPath, String preferLayer) {
        FileEntry before = file();
        boolean first = !listed;
        listed = true;
        files = List.copyOf(list);
        int pick = -1;
        String path = before != null ? before.path() : preferPath;
        String layer = before != null ? before.layer() : preferLayer;
        for (int i = 0; i < files.size() && path != null; i++) {
            FileEntry f = files.get(i);
            if (f.path().equals(path) && (layer == null || layer.equals(f.layer()))) {
                pick = i;
                break;
            }
        }
        if (pick < 0 && !files.isEmpty()) {
            pick = before == null ? 0 : Math.min(selected, files.size() - 1);
        }
        selected = pick;
        FileEntry after = file();
        boolean moved = after == null ? before != null
                : before == null || !after.path().equals(before.path()) || !java.util.Objects.equals(after.layer(), before.layer());
        if (moved) {
            diff = null;
            notes = List.of();
            mark = -1;
        }
        if (moved || first) {
            rebuild();
        }
        return moved;
    }

    /** The selected file's diff (and notes) arrived. */
    void setDiff(FileDiff d, List<Note> n) {
        Integer[] at = cursorLines();
        boolean same = diff != null && d != null && java.util.Objects.equals(diff.path(), d.path());
        diff = d;
        notes = n == null ? List.of() : List.copyOf(n);
        rebuild();
        if (same && at != null) {
            seek(at[0], at[1]);
        } else {
            switch (land) {
                case BOTTOM -> cursor = lastLine();
                case FIRST_NOTE -> { cursor = firstLine(); step("next_note"); }
                case LAST_NOTE -> { cursor = lastLine(); step("previous_note"); }
                default -> cursor = firstLine();
            }
            land = Land.TOP;
        }
    }

    void setNotes(List<Note> n) {
        Integer[] at = cursorLines();
        notes = List.copyOf(n);
        rebuild();
        if (at != null) {
            seek(at[0], at[1]);
        }
    }

    /** The pane is now {@code w} columns wide (or the view mode changed): relayout, the cursor on the same source line. */
    void setWidth(int w) {
        boolean was = split();
        width = w;
        if (was != split()) {
            relayout();
        }
    }

    void setView(String v) {
        view = v;
        relayout();
    }

    private void relayout() {
        Integer[] at = cursorLines();
        rebuild();
        if (at != null) {
            seek(at[0], at[1]);
        }
    }

    /** The cursor row's old and new numbers, or null without a line under it. */
    private Integer[] cursorLines() {
        if (cursor < 0 || cursor >= rows.size() || rows.get(cursor).kind() != Kind.LINE) {
            return null;
        }
        Row r = rows.get(cursor);
        boolean s = split();
        return new Integer[] {r.number("old", s), r.number("new", s)};
    }

    /** The cursor to the row showing new line {@code neu} (else old line {@code old}), else the first line. */
    private void seek(Integer old, Integer neu) {
        boolean s = split();
        for (String side : new String[] {"new", "old"}) {
            Integer want = side.equals("new") ? neu : old;
            if (want == null) {
                continue;
            }
            for (int i = 0; i < rows.size(); i++) {
                if (want.equals(rows.get(i).number(side, s))) {
                    cursor = i;
                    return;
                }
            }
        }
        cursor = firstLine();
    }

    /** Lays the selected file out as rows, notes under the last line of their anchors. */
    void rebuild() {
        List<Row> out = new ArrayList<>();
        boolean s = split();
        Set<String> placed = new HashSet<>();
        if (file() == null) {
            out.add(info(!listed ? "reading the changes…" : files.isEmpty() ? "no changes" : "no file selected"));
        } else if (diff == null) {
            out.add(info("loading " + file().path() + "…"));
        } else {
            if (diff.binary()) {
                out.add(info("binary file: no lines to show"));
            }
            if (diff.truncated()) {
                out.add(info("diff cut at the server's bound" + (diff.truncation() == null ? "" : " (" + diff.truncation() + ")")));
            }
            if (diff.hunks().isEmpty() && !diff.binary()) {
                out.add(info("no hunks"));
            }
            List<Row> body = new ArrayList<>();
            for (int h = 0; h < diff.hunks().size(); h++) {
                hunk(body, h, diff.hunks().get(h), s);
            }
            for (Row r : body) {
                out.add(r);
                if (r.kind() == Kind.LINE) {
                    for (Note n : notes) {
                        if (!placed.contains(n.id()) && anchoredAt(n, r, s)) {
                            placed.add(n.id());
                            noteRows(out, r.hunk(), n);
                        }
                    }
                }
            }
            List<Row> loose = new ArrayList<>();
            for (Note n : notes) {
                if (!placed.contains(n.id())) {
                    noteRows(loose, -1, n);
                }
            }
            if (!loose.isEmpty()) {
                out.add(0, info("notes whose lines are not in this diff:"));
                out.addAll(1, loose);
            }
        }
        rows = out;
        if (cursor >= rows.size() || cursor < 0 || rows.get(cursor).kind() != Kind.LINE) {
            cursor = firstLine();
        }
        if (mark >= rows.size()) {
            mark = -1;
        }
    }

    private static Row info(String text) {
        return new Row(Kind.INFO, -1, null, null, null, WordDiff.Marks.NONE, null, text);
    }

    private static boolean anchoredAt(Note n, Row r, boolean split) {
        Integer at = r.number(n.side(), split);
        return at != null && at == n.endLine();
    }

    private static void noteRows(List<Row> out, int hunk, Note n) {
        String[] body = n.body().split("\n", -1);
        String head = "✎ " + n.id() + " " + (n.kind() == null ? "" : n.kind() + " ") + "[" + n.state() + "]"
                + (n.sent() > 0 ? " sent" : "") + " " + ("old".equals(n.side()) ? "old " : "") + "L" + n.line()
                + (n.endLine() != n.line() ? "–" + n.endLine() : "") + ": ";
        for (int i = 0; i < body.length && i < NOTE_LINES; i++) {
            String t = (i == 0 ? head : "  ") + body[i] + (i == NOTE_LINES - 1 && body.length > NOTE_LINES ? " …" : "");
            out.add(new Row(Kind.NOTE, hunk, null, null, null, WordDiff.Marks.NONE, n, t));
        }
    }

    /** One hunk's rows: its header, then its lines, each run of deletions paired with the additions after it. */
    private static void hunk(List<Row> out, int h, Hunk hunk, boolean split) {
        out.add(new Row(Kind.HUNK, h, null, null, null, WordDiff.Marks.NONE, null, hunk.header()));
        List<Line> lines = hunk.lines();
        int i = 0;
        while (i < lines.size()) {
            Line l = lines.get(i);
            if (!l.add() && !l.delete()) {
                out.add(new Row(Kind.LINE, h, l, l, l, WordDiff.Marks.NONE, null, null));
                i++;
                continue;
            }
            int d0 = i;
            while (i < lines.size() && lines.get(i).delete()) {
                i++;
            }
            int a0 = i;
            while (i < lines.size() && lines.get(i).add()) {
                i++;
            }
            List<Line> dels = lines.subList(d0, a0);
            List<Line> adds = lines.subList(a0, i);
            int pairs = Math.min(dels.size(), adds.size());
            WordDiff.Marks[] marks = new WordDiff.Marks[pairs];
            for (int p = 0; p < pairs; p++) {
                marks[p] = WordDiff.of(dels.get(p).text(), adds.get(p).text());
            }
            if (split) {
                for (int p = 0; p < Math.max(dels.size(), adds.size()); p++) {
                    Line left = p < dels.size() ? dels.get(p) : null;
                    Line right = p < adds.size() ? adds.get(p) : null;
                    out.add(new Row(Kind.LINE, h, left != null ? left : right, left, right,
                            p < pairs ? marks[p] : WordDiff.Marks.NONE, null, null));
                }
            } else {
                for (int p = 0; p < dels.size(); p++) {
                    out.add(new Row(Kind.LINE, h, dels.get(p), dels.get(p), null, p < pairs ? marks[p] : WordDiff.Marks.NONE, null, null));
                }
                for (int p = 0; p < adds.size(); p++) {
                    out.add(new Row(Kind.LINE, h, adds.get(p), null, adds.get(p), p < pairs ? marks[p] : WordDiff.Marks.NONE, null, null));
                }
            }
        }
    }

    int firstLine() {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).kind() == Kind.LINE) {
                return i;
            }
        }
        return -1;
    }

    int lastLine() {
        for (int i = rows.size() - 1; i >= 0; i--) {
            if (rows.get(i).kind() == Kind.LINE) {
                return i;
            }
        }
        return -1;
    }

    /** What an action asks of the caller: nothing more, or to load the newly selected file. */
    enum Effect { NONE, LOAD_FILE, UNKNOWN }

    /** Applies one {@code diff.navigate} action. */
    Effect step(String action) {
        switch (action) {
            case "next", "next_line" -> cursor = nextLine(cursor, 1);
            case "previous", "previous_line" -> cursor = nextLine(cursor, -1);
            case "top" -> cursor = firstLine();
            case "bottom" -> cursor = lastLine();
            case "next_hunk", "previous_hunk" -> {
                int here = cursor < 0 ? -1 : rows.get(cursor).hunk();
                int want = action.equals("next_hunk") ? here + 1 : Math.max(0, hunkStart(here) == cursor ? here - 1 : here);
                int at = hunkStart(want);
                if (at >= 0) {
                    cursor = at;
                }
            }
            case "next_note", "previous_note" -> {
                int dir = action.equals("next_note") ? 1 : -1;
                int at = noteAnchorFrom(cursor, dir);
                if (at >= 0) {
                    cursor = at;
                } else {
                    return otherFileWithNotes(dir);
                }
            }
            case "next_file", "previous_file" -> {
                return selectFile(selected + (action.equals("next_file") ? 1 : -1), Land.TOP);
            }
            default -> {
                return Effect.UNKNOWN;
            }
        }
        return Effect.NONE;
    }

    /** Selects file {@code i} (clamped); LOAD_FILE when that is another file. */
    Effect selectFile(int i, Land then) {
        if (files.isEmpty()) {
            return Effect.NONE;
        }
        int to = Math.max(0, Math.min(files.size() - 1, i));
        if (to == selected) {
            return Effect.NONE;
        }
        selected = to;
        diff = null;
        notes = List.of();
        mark = -1;
        land = then;
        rebuild();
        return Effect.LOAD_FILE;
    }

    private Effect otherFileWithNotes(int dir) {
        for (int i = selected + dir; i >= 0 && i < files.size(); i += dir) {
            if (files.get(i).unresolvedNotes() > 0) {
                return selectFile(i, dir > 0 ? Land.FIRST_NOTE : Land.LAST_NOTE);
            }
        }
        return Effect.NONE;
    }

    private int nextLine(int from, int dir) {
        if (from < 0) {
            return dir > 0 ? firstLine() : lastLine();
        }
        for (int i = from + dir; i >= 0 && i < rows.size(); i += dir) {
            if (rows.get(i).kind() == Kind.LINE) {
                return i;
            }
        }
        return from;
    }

    private int hunkStart(int h) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).kind() == Kind.LINE && rows.get(i).hunk() == h) {
                return i;
            }
        }
        return -1;
    }

    /** The line row a note after {@code from} (before, {@code dir} -1) hangs under, or -1. */
    private int noteAnchorFrom(int from, int dir) {
        int lastLine = -1;
        List<Integer> anchors = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r.kind() == Kind.LINE) {
                lastLine = i;
            } else if (r.kind() == Kind.NOTE && lastLine >= 0 && (anchors.isEmpty() || anchors.get(anchors.size() - 1) != lastLine)
                    && r.hunk() >= 0) {
                anchors.add(lastLine);
            }
        }
        if (dir > 0) {
            for (int a : anchors) {
                if (a > from) {
                    return a;
                }
            }
        } else {
            for (int k = anchors.size() - 1; k >= 0; k--) {
                if (anchors.get(k) < from) {
                    return anchors.get(k);
                }
            }
        }
        return -1;
    }

    /** The side a note made here anchors to: split, the column under the cursor; stacked, old for a deletion. */
    String sideAt(int row) {
        if (split()) {
            return side;
        }
        Row r = rows.get(row);
        return r.line().delete() ? "old" : "new";
    }

    /**
     * Where {@code a} anchors a note: the cursor's line, or the selection's lines on the
     * cursor's side (first to last); null when no line there has a number on that side.
     */
    Anchor anchor() {
        if (cursor < 0 || rows.get(cursor).kind() != Kind.LINE) {
            return null;
        }
        String s = sideAt(cursor);
        int from = mark < 0 ? cursor : Math.min(mark, cursor);
        int to = mark < 0 ? cursor : Math.max(mark, cursor);
        Integer lo = null;
        Integer hi = null;
        boolean sp = split();
        for (int i = from; i <= to; i++) {
            Integer n = rows.get(i).number(s, sp);
            if (n != null) {
                lo = lo == null ? n : Math.min(lo, n);
                hi = hi == null ? n : Math.max(hi, n);
            }
        }
        return lo == null ? null : new Anchor(s, lo, hi);
    }

    /** The note a resolve acts on: one drawn right under the cursor's line, else one whose lines cover it; open ones first. */
    Note noteAtCursor() {
        if (cursor < 0) {
            return null;
        }
        List<Note> here = new ArrayList<>();
        for (int i = cursor + 1; i < rows.size() && rows.get(i).kind() == Kind.NOTE; i++) {
            if (!here.contains(rows.get(i).note())) {
                here.add(rows.get(i).note());
            }
        }
        Row r = rows.get(cursor);
        boolean sp = split();
        for (Note n : notes) {
            Integer at = r.number(n.side(), sp);
            if (at != null && at >= n.line() && at <= n.endLine() && !here.contains(n)) {
                here.add(n);
            }
        }
        for (Note n : here) {
            if (n.open()) {
                return n;
            }
        }
        return here.isEmpty() ? null : here.get(0);
    }

    /** The hunk under the cursor, or null. */
    Hunk hunkAtCursor() {
        if (diff == null || cursor < 0 || rows.get(cursor).hunk() < 0) {
            return null;
        }
        return diff.hunks().get(rows.get(cursor).hunk());
    }

    /** The unresolved notes (open, outdated, orphaned) of the whole change, as the list counts them. */
    int unresolvedNotes() {
        int n = 0;
        for (FileEntry f : files) {
            n += f.unresolvedNotes();
        }
        return n;
    }
}
