package io.artuditu.terminal.internal.pane;

import io.artuditu.terminal.internal.Utf8;
import io.artuditu.vt.Mode;
import io.artuditu.vt.ShellMarks;
import io.artuditu.vt.Terminal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Reads the shell-integration marks (OSC 133) a terminal recorded: whether the shell sits at
 * a prompt, and the output and exit status of a command that finished. Pure functions of a
 * {@link Terminal}; the caller holds the screen's lock.
 *
 * <p>Lines are numbered over the scrollback and the screen together: {@code 0 ..
 * historySize()-1} are the scrollback (oldest first), then the screen's rows. A row carries
 * the marks the shell sent while the cursor was on it, without their order; with our shell
 * scripts the order on one row is always C, D, A, B (a command without output finishes on
 * the row it started on, and the finished mark is always written at column 0).
 */
final class CommandMarks {
    /** Where the shell is, as far as the marks tell. */
    enum ShellState {
        /** No mark at all yet: the shell has not drawn its first prompt (or has no integration). */
        NO_MARKS,
        /** The newest mark is a prompt or a finished command: the shell reads a command line. */
        AT_PROMPT,
        /** A command was started and has not finished, or a full-screen program owns the screen. */
        RUNNING
    }

    /**
     * A finished command as the screen shows it.
     *
     * @param exitStatus its status, or null when the shell gave none
     * @param output the text between its output mark and its finished mark, trailing blanks trimmed
     * @param truncated the output was longer than asked for (its end is kept), or its start
     *     already left the scrollback
     */
    record Finished(Integer exitStatus, String output, boolean truncated) {
    }

    private CommandMarks() {
    }

    static int lines(Terminal t) {
        return t.historySize() + t.rows();
    }

    static int marks(Terminal t, int line) {
        int h = t.historySize();
        return line < h ? t.historyMarks(line) : t.rowMarks(line - h);
    }

    static int exitStatus(Terminal t, int line) {
        int h = t.historySize();
        return line < h ? t.historyExitStatus(line) : t.rowExitStatus(line - h);
    }

    static String text(Terminal t, int line, boolean withSgr) {
        int h = t.historySize();
        return line < h ? t.historyText(line, withSgr) : t.rowText(line - h, withSgr);
    }

    static boolean wrapped(Terminal t, int line) {
        int h = t.historySize();
        return line < h ? t.historyWrapped(line) : t.wrapped(line - h);
    }

    static ShellState state(Terminal t) {
        if (t.mode(Mode.ALTERNATE_SCREEN)) {
            return ShellState.RUNNING;
        }
        for (int line = lines(t) - 1; line >= 0; line--) {
            int m = marks(t, line);
            if (m != 0) {
                return (m & ShellMarks.OUTPUT) != 0 && (m & ShellMarks.FINISHED) == 0 ? ShellState.RUNNING
                        : ShellState.AT_PROMPT;
            }
        }
        // Marks came once but none is left: a command's output pushed them all out.
        return t.commandsFinished() > 0 ? ShellState.RUNNING : ShellState.NO_MARKS;
    }

    /**
     * The command that finished first after the terminal had counted {@code finishedBefore}
     * finished marks ({@link Terminal#commandsFinished()} must be larger by now).
     *
     * @param maxBytes most UTF-8 bytes of output to return; the end is kept
     */
    static Finished finished(Terminal t, long finishedBefore, int maxBytes) {
        long newer = t.commandsFinished() - finishedBefore;
        if (newer < 1) {
            throw new IllegalStateException("no command finished since " + finishedBefore);
        }
        // Ours is the newer-th finished mark counted from the bottom.
        int done = -1;
        long seen = 0;
        for (int line = lines(t) - 1; line >= 0; line--) {
            if ((marks(t, line) & ShellMarks.FINISHED) != 0 && ++seen == newer) {
                done = line;
                break;
            }
        }
        if (done < 0) {
            Integer status = newer == 1 ? status(t.lastExitStatus()) : null;
            return new Finished(status, "", true);
        }
        Integer status = status(exitStatus(t, done));
        // The output starts at the first output mark after the prompt the command was typed at.
        // A multi-line command line gives one output mark per line and one finished mark; a
        // command without output has its output mark on the finished row.
        int start = (marks(t, done) & ShellMarks.OUTPUT) != 0 ? done : -1;
        int line = done - 1;
        for (; line >= 0; line--) {
            int m = marks(t, line);
            if ((m & (ShellMarks.PROMPT | ShellMarks.COMMAND | ShellMarks.FINISHED)) != 0) {
                break;
            }
            if ((m & ShellMarks.OUTPUT) != 0) {
                start = line;
            }
        }
        boolean lost = line < 0; // the prompt already left the scrollback
        if (start < 0) {
            return lost ? collect(t, 0, done, maxBytes, status, true) : new Finished(status, "", false);
        }
        return collect(t, start, done, maxBytes, status, false);
    }

    /** Lines {@code from} to {@code to} (exclusive) as text; a wrapped line runs on into the next. */
    private static Finished collect(Terminal t, int from, int to, int maxBytes, Integer status, boolean lost) {
        // Backwards from the end, so a huge output costs only what is kept.
        Deque<String> parts = new ArrayDeque<>();
        long bytes = 0;
        boolean cut = false;
        boolean trailing = true;
        for (int line = to - 1; line >= from; line--) {
            String s = text(t, line, false);
            boolean joins = line < to - 1 && wrapped(t, line);
            String piece = joins || line == to - 1 ? s : s + "\n";
            if (trailing) {
                // Trailing blank lines and blanks are not output.
                piece = stripTrailing(piece);
                if (piece.isEmpty()) {
                    continue;
                }
                trailing = false;
            }
            int n = Utf8.length(piece);
            if (bytes + n > maxBytes) {
                parts.addFirst(tail(piece, (int) (maxBytes - bytes)));
                cut = true;
                break;
            }
            bytes += n;
            parts.addFirst(piece);
        }
        return new Finished(status, String.join("", parts), cut || lost);
    }

    private static Integer status(int s) {
        return s == ShellMarks.NO_STATUS ? null : s;
    }

    private static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && Character.isWhitespace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end);
    }

    /** The longest end of {@code s} that fits in {@code maxBytes} UTF-8 bytes, never splitting a character. */
    static String tail(String s, int maxBytes) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length <= maxBytes) {
            return s;
        }
        int from = b.length - maxBytes;
        while (from < b.length && (b[from] & 0xC0) == 0x80) {
            from++; // a continuation byte: start at the next character
        }
        return new String(b, from, b.length - from, StandardCharsets.UTF_8);
    }
}
