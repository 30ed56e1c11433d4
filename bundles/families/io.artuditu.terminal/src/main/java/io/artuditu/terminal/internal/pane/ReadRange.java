package io.artuditu.terminal.internal.pane;

import java.util.Map;

/**
 * Which lines {@code pane.read} returns out of {@code total}: from {@code start} when given,
 * else the newest ones; {@code lines} of them when given, else up to the cap. Truncated when
 * the cap, not the caller, left lines out.
 */
record ReadRange(int first, int count, boolean truncated) {
    static ReadRange of(int total, Integer start, Integer lines, int max) {
        if (start != null) {
            if (start > total) {
                throw PaneFamily.invalid("start " + start + " is past the last line (" + total + " lines)",
                        Map.of("field", "start", "available", total));
            }
            int available = total - start;
            int count = lines != null ? Math.min(lines, available) : Math.min(available, max);
            return new ReadRange(start, count, lines == null && available > max);
        }
        int count = Math.min(lines != null ? lines : max, total);
        return new ReadRange(total - count, count, lines == null && total > max);
    }
}
