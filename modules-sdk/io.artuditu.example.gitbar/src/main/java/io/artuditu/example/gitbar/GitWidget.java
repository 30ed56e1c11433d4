package io.artuditu.example.gitbar;

import io.artuditu.sdk.Segment;
import io.artuditu.sdk.Tone;
import java.util.ArrayList;
import java.util.List;

/** The widget's segments for a git state: pure functions, so tests need no server. */
final class GitWidget {
    /** Longest branch label shown; longer names end in an ellipsis. */
    static final int MAX_LABEL = 32;

    private GitWidget() {
    }

    /** Conflicts are an error, any other change a warning, a clean tree a success. */
    static Tone tone(GitStatus s) {
        return s.conflicts() > 0 ? Tone.ERROR : s.dirty() > 0 ? Tone.WARNING : Tone.SUCCESS;
    }

    /** The branch, or {@code @} and the short commit when HEAD is detached. */
    static String label(GitStatus s) {
        String l = s.branch() != null ? s.branch() : s.oid() != null ? "@" + s.oid().substring(0, Math.min(7, s.oid().length()))
                : "@(none)";
        return l.codePointCount(0, l.length()) <= MAX_LABEL ? l
                : l.substring(0, l.offsetByCodePoints(0, MAX_LABEL - 1)) + "…";
    }

    /** For example {@code ⎇ main ●3 ↑1}: every segment runs {@code refresh} when clicked. */
    static List<Segment> content(GitStatus s) {
        Tone tone = tone(s);
        List<Segment> out = new ArrayList<>();
        out.add(Segment.symbol("⎇", tone));
        out.add(Segment.text(" " + label(s)));
        if (s.dirty() > 0) {
            out.add(Segment.text(" ●" + s.dirty(), tone));
        }
        if (s.ahead() > 0 || s.behind() > 0) {
            out.add(Segment.text(" " + (s.ahead() > 0 ? "↑" + s.ahead() : "") + (s.behind() > 0 ? "↓" + s.behind() : ""),
                    Tone.MUTED));
        }
        return clickable(out);
    }

    /** Where the bar is short of room: the branch alone, in the state's tone. */
    static List<Segment> compact(GitStatus s) {
        return clickable(List.of(Segment.text(label(s), tone(s))));
    }

    private static List<Segment> clickable(List<Segment> segments) {
        return segments.stream().map(x -> x.withAction(GitBar.REFRESH, null)).toList();
    }
}
