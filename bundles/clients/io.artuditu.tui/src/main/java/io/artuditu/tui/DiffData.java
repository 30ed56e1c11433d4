package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the DIFF viewer reads from the server, in the shapes of the {@code diff} family's
 * results ({@code diff.list}, {@code diff.get {include_patch:true}}, {@code diff.note.list}),
 * parsed leniently: a field the server leaves out reads as null, 0 or empty, never a failure,
 * so a newer server's extra fields and an older one's missing ones both draw.
 */
final class DiffData {
    /** Most files the list keeps (diff.list lists at most 20,000; this bounds what one drawing walks whatever a server sends). */
    static final int MAX_FILES = 20_000;
    /** Most notes read for one file. */
    static final int MAX_NOTES = 2_000;

    private DiffData() {
    }

    /** One row of {@code diff.list}'s {@code files}. */
    record FileEntry(String path, String oldPath, String layer, String status, Integer additions, Integer deletions,
            boolean binary, int unresolvedNotes, String reviewState) {
        static FileEntry parse(JsonNode f) {
            return new FileEntry(text(f, "path"), text(f, "old_path"), text(f, "layer"), text(f, "status"),
                    integer(f, "additions"), integer(f, "deletions"), f.path("binary").asBoolean(false),
                    f.path("unresolved_notes").asInt(0), text(f, "review_state"));
        }

        /** The list row's text: layer mark, path, counts, notes. */
        String label() {
            String counts = binary ? " bin" : (additions == null ? "" : " +" + additions)
                    + (deletions == null ? "" : " -" + deletions);
            return statusMark() + " " + (oldPath != null && !oldPath.equals(path) ? oldPath + " → " : "") + path
                    + counts + (unresolvedNotes > 0 ? " ✎" + unresolvedNotes : "");
        }

        /** One letter for the status, as {@code git status --short} spells it. */
        String statusMark() {
            return switch (status == null ? "" : status) {
                case "added" -> "A";
                case "deleted" -> "D";
                case "renamed" -> "R";
                case "copied" -> "C";
                case "type_changed" -> "T";
                case "unmerged" -> "U";
                case "untracked" -> "?";
                default -> "M";
            };
        }
    }

    /**
     * One line of a hunk: {@code context}, {@code add} or {@code delete}, its source numbers, its
     * sanitized text; {@code cut} when the server cut a long line (its text is not the source's).
     */
    record Line(String kind, Integer oldLine, Integer newLine, String text, boolean cut) {
        Line(String kind, Integer oldLine, Integer newLine, String text) {
            this(kind, oldLine, newLine, text, false);
        }

        boolean add() {
            return "add".equals(kind);
        }

        boolean delete() {
            return "delete".equals(kind);
        }

        /** The source number on {@code side} ("old" or "new"), null when the line has none there. */
        Integer on(String side) {
            return "old".equals(side) ? oldLine : newLine;
        }
    }

    record Hunk(String id, int oldStart, int oldLines, int newStart, int newLines, String header, List<Line> lines) {
    }

    /** {@code diff.get}'s result. */
    record FileDiff(String path, String oldPath, String layer, String status, boolean binary, boolean truncated,
            String truncation, List<Hunk> hunks) {
        static FileDiff parse(JsonNode r) {
            List<Hunk> hunks = new ArrayList<>();
            for (JsonNode h : r.path("hunks")) {
                List<Line> lines = new ArrayList<>();
                for (JsonNode l : h.path("lines")) {
                    lines.add(new Line(l.path("kind").asText("context"), integer(l, "old_line"), integer(l, "new_line"),
                            l.path("text").asText(""), l.path("cut").asBoolean(false)));
                }
                hunks.add(new Hunk(h.path("id").asText("h" + (hunks.size() + 1)), h.path("old_start").asInt(),
                        h.path("old_lines").asInt(), h.path("new_start").asInt(), h.path("new_lines").asInt(),
                        h.path("header").asText(""), lines));
            }
            JsonNode t = r.path("truncation");
            return new FileDiff(text(r, "path"), text(r, "old_path"), text(r, "layer"), text(r, "status"),
                    r.path("binary").asBoolean(false), r.path("truncated").asBoolean(false),
                    t.isObject() ? text(t, "reason") : null, hunks);
        }
    }

    /** A note as the note methods return it (the fields the viewer draws and acts on). */
    record Note(String id, String path, String layer, String side, int line, int endLine, String kind, String body,
            String state, int sent) {
        static Note parse(JsonNode n) {
            int line = n.path("line").asInt();
            return new Note(text(n, "id"), text(n, "path"), text(n, "layer"), n.path("side").asText("new"), line,
                    n.hasNonNull("end_line") ? n.path("end_line").asInt() : line, text(n, "kind"), n.path("body").asText(""),
                    n.path("state").asText("open"), n.path("sent").size());
        }

        boolean open() {
            return "open".equals(state);
        }
    }

    static List<FileEntry> files(JsonNode list) {
        List<FileEntry> out = new ArrayList<>();
        for (JsonNode f : list.path("files")) {
            if (out.size() == MAX_FILES) {
                break;
            }
            out.add(FileEntry.parse(f));
        }
        return out;
    }

    static List<Note> notes(JsonNode list) {
        List<Note> out = new ArrayList<>();
        for (JsonNode n : list.path("notes")) {
            if (out.size() == MAX_NOTES) {
                break;
            }
            out.add(Note.parse(n));
        }
        return out;
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static Integer integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || !v.canConvertToInt() ? null : v.asInt();
    }
}
