package io.artuditu.diff.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a note's lines are now. A note keeps its anchored lines and up to {@link #CONTEXT}
 * lines either side as they were read; given the side's current lines:
 * <ul>
 * <li>the anchored lines at the same place: {@code open}, unmoved;</li>
 * <li>elsewhere (next to their context, or anywhere when they occur once and are not blank):
 *     {@code open}, moved to the nearest such place;</li>
 * <li>not found, but some of the context is: {@code outdated} (the lines changed);</li>
 * <li>neither (or the file is gone): {@code orphaned}.</li>
 * </ul>
 */
final class Anchor {
    static final int CONTEXT = 3;
    /** Longest range a note may anchor (lines); the stored context is bounded by it. */
    static final int MAX_RANGE = 200;
    /** Longest stored line, in chars; longer lines are compared by their first part. */
    static final int MAX_STORED_LINE = 1024;

    record Where(String state, int line, int endLine) {
    }

    private Anchor() {
    }

    static String stored(String line) {
        return line.length() > MAX_STORED_LINE ? line.substring(0, MAX_STORED_LINE) : line;
    }

    /** The anchored lines of {@code text} (0-based list of its lines) from {@code line} to {@code end} (1-based). */
    static List<String> slice(List<String> text, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = Math.max(1, from); i <= Math.min(text.size(), to); i++) {
            out.add(stored(text.get(i - 1)));
        }
        return out;
    }

    /** Re-anchors; {@code text} null means the file (that side) is gone. */
    static Where locate(List<String> text, List<String> anchor, List<String> before, List<String> after, int line,
            int endLine) {
        if (text == null || anchor.isEmpty()) {
            return new Where("orphaned", line, endLine);
        }
        int n = anchor.size();
        if (matches(text, anchor, line - 1)) {
            return new Where("open", line, endLine);
        }
        boolean distinctive = anchor.stream().anyMatch(s -> !s.isBlank());
        int best = -1;
        int bestScore = -1;
        int count = 0;
        for (int at = 0; at + n <= text.size(); at++) {
            if (!matches(text, anchor, at)) {
                continue;
            }
            count++;
            int score = (!before.isEmpty() && matches(text, before, at - before.size()) ? 2 : 0)
                    + (!after.isEmpty() && matches(text, after, at + n) ? 2 : 0);
            if (score > bestScore || (score == bestScore && Math.abs(at - (line - 1)) < Math.abs(best - (line - 1)))) {
                best = at;
                bestScore = score;
            }
        }
        if (best >= 0 && (bestScore > 0 || (count == 1 && distinctive))) {
            return new Where("open", best + 1, best + n);
        }
        int ctx = find(text, before, line - 1 - before.size());
        if (ctx >= 0 && !before.isEmpty()) {
            int start = ctx + before.size() + 1;
            return new Where("outdated", start, start + n - 1);
        }
        int aft = find(text, after, line - 1 + n);
        if (aft >= 0 && !after.isEmpty()) {
            int start = Math.max(1, aft + 1 - n);
            return new Where("outdated", start, start + n - 1);
        }
        return new Where("orphaned", line, endLine);
    }

    private static boolean matches(List<String> text, List<String> seq, int at) {
        if (at < 0 || at + seq.size() > text.size()) {
            return false;
        }
        for (int i = 0; i < seq.size(); i++) {
            if (!stored(text.get(at + i)).equals(seq.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Where {@code seq} (non-empty, not all blank) occurs nearest to {@code near}; -1 when nowhere. */
    private static int find(List<String> text, List<String> seq, int near) {
        if (seq.isEmpty() || seq.stream().allMatch(String::isBlank)) {
            return -1;
        }
        int best = -1;
        for (int at = 0; at + seq.size() <= text.size(); at++) {
            if (matches(text, seq, at) && (best < 0 || Math.abs(at - near) < Math.abs(best - near))) {
                best = at;
            }
        }
        return best;
    }
}
