package io.artuditu.example.gitbar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.sdk.Segment;
import io.artuditu.sdk.Tone;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GitWidgetTest {
    /** The text a person reads: every segment's symbol or text, in order. */
    private static String text(List<Segment> segs) {
        return segs.stream().map(s -> s.toJson().has("symbol") ? s.toJson().get("symbol").asText()
                : s.toJson().get("text").asText()).collect(Collectors.joining());
    }

    @Test
    void aCleanTreeIsTheBranchInSuccessTone() {
        GitStatus clean = new GitStatus("main", "abc", 0, 0, 0, 0, 0);
        assertEquals("⎇ main", text(GitWidget.content(clean)));
        assertEquals("success", GitWidget.content(clean).get(0).toJson().get("tone").asText());
        assertEquals("[{\"type\":\"text\",\"text\":\"main\",\"tone\":\"success\",\"action\":\"refresh\"}]",
                GitWidget.compact(clean).toString());
    }

    @Test
    void aDirtyTreeCountsItsChangesInWarningTone() {
        GitStatus dirty = new GitStatus("main", "abc", 1, 0, 2, 1, 0);
        assertEquals("⎇ main ●3 ↑1", text(GitWidget.content(dirty)));
        assertEquals(Tone.WARNING, GitWidget.tone(dirty));
    }

    @Test
    void conflictsAreAnError() {
        assertEquals(Tone.ERROR, GitWidget.tone(new GitStatus("main", "abc", 0, 0, 0, 0, 1)));
    }

    @Test
    void everySegmentRefreshesWhenClicked() {
        for (Segment s : GitWidget.content(new GitStatus("main", "abc", 0, 3, 1, 0, 0))) {
            assertEquals("refresh", s.toJson().get("action").asText(), s.toString());
        }
    }

    @Test
    void aLongBranchNameIsCut() {
        String label = GitWidget.label(new GitStatus("feature/" + "x".repeat(60), "abc", 0, 0, 0, 0, 0));
        assertEquals(GitWidget.MAX_LABEL, label.codePointCount(0, label.length()));
        assertEquals('…', label.charAt(label.length() - 1));
    }
}
