package io.artuditu.agents.internal.detect;

import com.google.re2j.Pattern;

/**
 * One screen rule: where to look, what to find (RE2 syntax, linear-time), what it means.
 * Higher priority wins; among equal priorities the first in the file.
 */
public record Rule(String id, Region region, Pattern pattern, Status status, int priority, double confidence) {
}
