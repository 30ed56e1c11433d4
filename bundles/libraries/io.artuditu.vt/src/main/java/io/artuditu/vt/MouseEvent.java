package io.artuditu.vt;

import java.util.Objects;

/**
 * A mouse event over the terminal's cells, for {@link Input#mouse}.
 *
 * @param action what happened
 * @param button the button pressed, released or held for {@link Action#PRESS},
 *     {@link Action#RELEASE} and {@link Action#DRAG}; {@link Button#NONE} for the others
 * @param col 0-based column of the cell under the pointer
 * @param row 0-based row of the cell under the pointer
 * @param ctrl Control held
 * @param alt Alt (Meta) held
 * @param shift Shift held
 */
public record MouseEvent(Action action, Button button, int col, int row, boolean ctrl, boolean alt, boolean shift) {

    /** What the mouse did. */
    public enum Action {
        PRESS, RELEASE,
        /** Motion with a button held. */
        DRAG,
        /** Motion with no button held. */
        MOTION,
        WHEEL_UP, WHEEL_DOWN
    }

    /** A mouse button; {@link #NONE} for events that involve none. */
    public enum Button {
        NONE, LEFT, MIDDLE, RIGHT
    }

    /**
     * Checks the event.
     *
     * @throws IllegalArgumentException for a negative column or row, or a button that does not
     *     fit the action
     */
    public MouseEvent {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(button, "button");
        if (col < 0 || row < 0) {
            throw new IllegalArgumentException("negative mouse position: col " + col + ", row " + row);
        }
        boolean needsButton = action == Action.PRESS || action == Action.RELEASE || action == Action.DRAG;
        if (needsButton == (button == Button.NONE)) {
            throw new IllegalArgumentException(needsButton
                    ? "mouse " + action + " needs a button"
                    : "mouse " + action + " takes Button.NONE, not " + button);
        }
    }

    /** The event with no modifier held. */
    public MouseEvent(Action action, Button button, int col, int row) {
        this(action, button, col, row, false, false, false);
    }
}
