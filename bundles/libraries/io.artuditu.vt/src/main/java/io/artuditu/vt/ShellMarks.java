package io.artuditu.vt;

/**
 * Bits of the shell-integration marks (OSC 133) a line carries, as returned by
 * {@link Terminal#rowMarks} and {@link Terminal#historyMarks}. A mark is recorded on the line
 * the cursor was on when the shell sent it and moves with that line into the scrollback.
 */
public final class ShellMarks {
    /** {@code OSC 133;A}: a prompt starts on this line. */
    public static final int PROMPT = 1;
    /** {@code OSC 133;B}: the prompt ended and the user's command starts here. */
    public static final int COMMAND = 2;
    /** {@code OSC 133;C}: the command was run; its output starts here. */
    public static final int OUTPUT = 4;
    /** {@code OSC 133;D}: a command finished here (its exit status, if given, is on the line too). */
    public static final int FINISHED = 8;

    /** Exit status of a line without a {@link #FINISHED} mark or whose shell gave none. */
    public static final int NO_STATUS = -1;

    private ShellMarks() {
    }
}
