package io.artuditu.git.api;

import java.util.Locale;

/**
 * One operation as a client sees it.
 *
 * @param op       its id, {@code op-<n>}, unique while the engine runs
 * @param kind     what it does ({@link GitOperations#KINDS})
 * @param root     the worktree root it runs in (absolute, real path)
 * @param state    running, succeeded or failed
 * @param exitCode the exit status of the git process that decided the outcome; null while
 *                 running, or when no process ended on its own (killed, not started)
 * @param message  the end of git's output (stdout and stderr merged), control characters
 *                 escaped, at most {@link #MAX_MESSAGE} characters; or why it was killed
 */
public record GitOpResult(String op, String kind, String root, State state, Integer exitCode, String message) {
    /** Longest {@link #message}, in UTF-16 units. */
    public static final int MAX_MESSAGE = 4000;

    /** Where an operation is. */
    public enum State {
        RUNNING, SUCCEEDED, FAILED;

        /** The word on the wire: {@code running}, {@code succeeded}, {@code failed}. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
