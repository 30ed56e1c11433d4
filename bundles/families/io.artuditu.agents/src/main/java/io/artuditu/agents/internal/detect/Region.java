package io.artuditu.agents.internal.detect;

import com.google.re2j.Pattern;

/**
 * Where on the screen a rule looks ({@link ScreenRegions} has the exact reading and bounds).
 *
 * <ul>
 *   <li>{@code LAST_ROWS}: the last {@code rows} rows of the visible screen, counted up from
 *       the last row with text (blank rows below it skipped), joined by newlines (soft-wrapped
 *       rows without one)
 *   <li>{@code BOX}: the lowest box drawn within those last {@code rows} rows (a frame of
 *       ╭╮╰╯│ or ┌┐└┘), its inner text, lines joined by newlines: a multi-line approval box
 *       matches as a whole
 *   <li>{@code TITLE}: the window title (OSC 0/2)
 *   <li>{@code CURSOR_ROW}: the row the cursor is on, with the rows soft wraps join to it
 *   <li>{@code ABOVE} (format 2): in the last {@code rows} rows, what lies above the last
 *       place the {@code anchor} pattern is found (the live rows above an input box)
 *   <li>{@code BELOW} (format 2): in the last {@code rows} rows, what lies below the last
 *       place the {@code anchor} pattern is found (a footer under an input box)
 * </ul>
 *
 * @param rows for the regions that count rows, 1 to 200; 1 (unused) for the others
 * @param anchor for {@code ABOVE} and {@code BELOW}, the pattern that marks where they part; null for the others
 */
public record Region(Kind kind, int rows, Pattern anchor) {
    public enum Kind { LAST_ROWS, BOX, TITLE, CURSOR_ROW, ABOVE, BELOW;

        /** Whether the region counts rows ({@code rows} applies). */
        boolean counted() {
            return this != TITLE && this != CURSOR_ROW;
        }

        /** Whether the region is cut at an {@code anchor}. */
        boolean anchored() {
            return this == ABOVE || this == BELOW;
        }
    }

    public Region(Kind kind, int rows) {
        this(kind, rows, null);
    }

    /** How {@code agent.explain} names it: {@code last_rows:8}, {@code box:12}, {@code above:24}, {@code title}, {@code cursor_row}. */
    public String describe() {
        String name = kind.name().toLowerCase(java.util.Locale.ROOT);
        return kind.counted() ? name + ":" + rows : name;
    }
}
