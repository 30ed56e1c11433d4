package io.artuditu.themes;

import java.util.List;
import java.util.Map;

/**
 * One checked theme with every colour resolved: {@code colors} holds the terminal's
 * colours ({@link ThemeFormat#TERMINAL_KEYS} then {@link ThemeFormat#PALETTE_KEYS}, in that
 * order), {@code workbench} every {@link ThemeFormat#WORKBENCH_KEYS} entry, given or derived.
 * Colours are 0xRRGGBB. Immutable.
 */
public record Theme(String id, String name, String author, String variant, Map<String, Integer> colors,
        Map<String, Integer> workbench, List<String> warnings) {

    public Theme {
        colors = Map.copyOf(colors);
        workbench = Map.copyOf(workbench);
        warnings = List.copyOf(warnings);
    }

    /** A colour by its key in either table, or -1. */
    public int color(String key) {
        Integer c = colors.get(key);
        if (c == null) {
            c = workbench.get(key);
        }
        return c == null ? -1 : c;
    }
}
