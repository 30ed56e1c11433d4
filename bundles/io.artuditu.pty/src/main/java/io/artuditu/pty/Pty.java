package io.artuditu.pty;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.osgi.annotation.versioning.ProviderType;

/** One child process on its own PTY, owned by the {@link PtyHost} that spawned it. */
@ProviderType
public interface Pty {
    /** Stable id ({@code terminal_id}), unique for the host's lifetime, never reused. */
    String id();

    /** The child's process id. */
    long pid();

    /** Writes input to the child (as if typed). Thread-safe; blocks while the PTY is full. */
    void write(byte[] buf, int off, int len) throws IOException;

    default void write(byte[] buf) throws IOException {
        write(buf, 0, buf.length);
    }

    /** Sets the window size; the child receives SIGWINCH. */
    void resize(int cols, int rows);

    int cols();

    int rows();

    /** Sends a POSIX signal number (for example 2 = SIGINT, 15 = SIGTERM) to the child. */
    void signal(int signal);

    /**
     * Ends the child: SIGHUP (what a closed terminal sends), then SIGKILL if it is still
     * running after {@code graceMillis}. Returns at once; watch {@link #exit()}.
     */
    void terminate(long graceMillis);

    /**
     * Completes with the exit status once the child has exited and its output has been
     * read to the end (or 1 s after exit if something else still holds the PTY open).
     * A child killed by a signal reports {@code 128 + signal}.
     */
    CompletableFuture<Integer> exit();

    boolean isAlive();
}
