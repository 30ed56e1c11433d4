package io.artuditu.agents.internal.detect;

import com.google.re2j.Pattern;

/**
 * One screen rule: where to look, what to find (RE2 syntax, linear-time, compiled with
 * {@code MULTILINE} so {@code ^} and {@code $} match at each row), what it means. Higher
 * priority wins; among equal priorities the first in the file.
 *
 * @param unless (format 2) a pattern that, found in the same region, keeps the rule from
 *     matching; null when none
 *
 * @param priority 0 to 1000
 * @param confidence 0 to 1, reported with the verdict
 */
public record Rule(String id, Region region, Pattern pattern, Status status, int priority, double confidence,
        Pattern unless) {
    public Rule(String id, Region region, Pattern pattern, Status status, int priority, double confidence) {
        this(id, region, pattern, status, priority, confidence, null);
    }
}
