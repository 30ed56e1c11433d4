package io.artuditu.agents.internal.detect;

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
 * </ul>
 *
 * @param rows for {@code LAST_ROWS} and {@code BOX}, 1 to 200; 1 (unused) for the others
 */
public record Region(Kind kind, int rows) {
    public enum Kind { LAST_ROWS, BOX, TITLE, CURSOR_ROW }

    /** How {@code agent.explain} names it: {@code last_rows:8}, {@code box:12}, {@code title}, {@code cursor_row}. */
    public String describe() {
        return switch (kind) {
            case LAST_ROWS -> "last_rows:" + rows;
            case BOX -> "box:" + rows;
            case TITLE -> "title";
            case CURSOR_ROW -> "cursor_row";
        };
    }
}
