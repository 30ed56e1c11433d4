package io.artuditu.agents.internal.detect;

import com.google.re2j.Pattern;
import java.util.List;

/**
 * One screen rule: where to look, what to find (RE2 syntax, linear-time, compiled with
 * {@code MULTILINE} so {@code ^} and {@code $} match at each row), what it means. Higher
 * priority wins; among equal priorities the first in the file.
 *
 * @param priority 0 to 1000
 * @param confidence 0 to 1, reported with the verdict
 * @param unless (format 2) a pattern that, found in the same region, keeps the rule from
 *     matching; null when none
 * @param needs (format 2) strings of which the region must hold one before the pattern is
 *     tried (a cheap test the pattern implies: most screens skip the rule without RE2); empty
 *     when none
 */
public record Rule(String id, Region region, Pattern pattern, Status status, int priority, double confidence,
        Pattern unless, List<String> needs) {
    public Rule {
        needs = List.copyOf(needs);
    }

    /** Whether {@code text} holds one of {@link #needs} (or there are none). */
    boolean mayMatch(String text) {
        if (needs.isEmpty()) {
            return true;
        }
        for (String n : needs) {
            if (text.contains(n)) {
                return true;
            }
        }
        return false;
    }
}
