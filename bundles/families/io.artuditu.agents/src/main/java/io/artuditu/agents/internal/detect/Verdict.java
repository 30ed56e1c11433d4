package io.artuditu.agents.internal.detect;

/**
 * What the screen rules of one manifest concluded about one screen.
 *
 * @param status the winning rule's state, or the manifest's fallback when no rule matched
 * @param rule the winning rule's id, null when none matched
 * @param region how the rule's region reads ({@code "last_rows:8"}, {@code "box:6"}, {@code "title"}), null when none matched
 * @param priority the winning rule's priority (0 when none matched)
 * @param confidence the winning rule's confidence, 0 to 1 (0 when none matched)
 * @param evidence the matched text, at most 120 characters, null when none matched
 * @param rowsRead how many screen rows the evaluation read (the detector's real work)
 * @param revision the screen revision it read
 */
public record Verdict(Status status, String rule, String region, int priority, double confidence, String evidence,
        int rowsRead, long revision) {
}
