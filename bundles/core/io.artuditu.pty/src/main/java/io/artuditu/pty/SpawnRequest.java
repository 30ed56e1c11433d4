package io.artuditu.pty;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What to run on a new PTY.
 *
 * @param command argv; the first element is looked up on {@code PATH}
 * @param cwd working directory of the child
 * @param env variables added to the host's environment; {@code TERM} and {@code COLORTERM}
 *     are always {@code xterm-256color} and {@code truecolor} and cannot be replaced here
 * @param cols initial columns, 1..{@value #MAX_SIZE}
 * @param rows initial rows, 1..{@value #MAX_SIZE}
 */
public record SpawnRequest(List<String> command, Path cwd, Map<String, String> env, int cols, int rows) {
    /** Largest accepted width or height. */
    public static final int MAX_SIZE = 4096;

    public SpawnRequest {
        command = List.copyOf(command);
        env = Map.copyOf(env);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command is empty");
        }
        if (cwd == null) {
            throw new IllegalArgumentException("cwd is missing");
        }
        checkSize(cols, rows);
    }

    /** Throws when a size is outside 1..{@value #MAX_SIZE}. */
    public static void checkSize(int cols, int rows) {
        if (cols < 1 || rows < 1 || cols > MAX_SIZE || rows > MAX_SIZE) {
            throw new IllegalArgumentException("size " + cols + "x" + rows + " is outside 1.." + MAX_SIZE);
        }
    }
}
