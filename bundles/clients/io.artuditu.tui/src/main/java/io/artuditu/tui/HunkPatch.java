package io.artuditu.tui;

import io.artuditu.tui.DiffData.Hunk;
import io.artuditu.tui.DiffData.Line;

/**
 * A unified diff of one hunk, built from the lines {@code diff.get} returned, for
 * {@code git.stage {patch}} (and {@code git.unstage} on the staged layer): the
 * {@code diff --git}, {@code ---} and {@code +++} headers, then the hunk with its header
 * recounted from its lines and its new start set as if this hunk alone were applied (the
 * other hunks of the file stay where they are). {@code git apply --cached} checks it
 * against the current index: a view gone stale is refused there, nothing changes.
 *
 * <p>The lines carry no "no newline at end of file" marker; a hunk touching a last line
 * without a newline therefore does not apply, and the server says so.
 */
final class HunkPatch {
    private HunkPatch() {
    }

    /** Whether the hunk's lines are the source's own: none was cut by the server's line bound. */
    static boolean whole(Hunk h) {
        return h.lines().stream().noneMatch(DiffData.Line::cut);
    }

    static String of(String path, String oldPath, String status, Hunk h) {
        String from = oldPath != null && !"renamed".equals(status) && !"copied".equals(status) ? oldPath : path;
        int oldCount = 0;
        int newCount = 0;
        StringBuilder body = new StringBuilder();
        for (Line l : h.lines()) {
            char mark = l.add() ? '+' : l.delete() ? '-' : ' ';
            if (mark != '+') {
                oldCount++;
            }
            if (mark != '-') {
                newCount++;
            }
            body.append(mark).append(l.text()).append('\n');
        }
        int oldStart = oldCount == 0 ? h.oldStart() : Math.max(1, h.oldStart());
        // alone, the hunk moves nothing before it: the new side starts where the old one does
        int newStart = oldCount == 0 ? oldStart + 1 : oldStart;
        if (newCount == 0) {
            newStart = oldStart - 1;
        }
        boolean added = "added".equals(status) || "untracked".equals(status);
        boolean deleted = "deleted".equals(status);
        StringBuilder b = new StringBuilder();
        b.append("diff --git ").append(quote("a/" + from)).append(' ').append(quote("b/" + path)).append('\n');
        b.append("--- ").append(added ? "/dev/null" : quote("a/" + from)).append('\n');
        b.append("+++ ").append(deleted ? "/dev/null" : quote("b/" + path)).append('\n');
        b.append("@@ -").append(range(oldStart, oldCount)).append(" +").append(range(newStart, newCount)).append(" @@\n");
        return b.append(body).toString();
    }

    private static String range(int start, int count) {
        return count == 1 ? Integer.toString(start) : start + "," + count;
    }

    /** A path as git writes it in a patch: C-quoted when it holds a quote, a backslash or a control character. */
    static String quote(String p) {
        boolean plain = true;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
                plain = false;
                break;
            }
        }
        if (plain) {
            return p;
        }
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\%03o", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
