package io.artuditu.pty;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.osgi.annotation.versioning.ProviderType;

/** One child process on its own PTY, owned by the {@link PtyHost} that spawned it. */
@ProviderType
public interface Pty {
    /** Most input bytes queued for a child that is not reading; a write past it is refused. */
    int MAX_PENDING_INPUT = 1 << 20;

    /** Most output bytes retained for {@link #listen}, newest kept. */
    int RETAINED_OUTPUT = 1 << 20;

    /** Stable id ({@code terminal_id}): unique among every server run, never reused. */
    String id();

    /** The child's process id. */
    long pid();

    /** The argv the child was started with. */
    List<String> command();

    /** The directory the child was started in. */
    Path cwd();

    /** The variables the spawn request added (not the whole environment the child got). */
    java.util.Map<String, String> env();

    /**
     * Queues input for the child (as if typed) and returns at once: bytes the PTY cannot
     * take now are written as the child reads. Thread-safe; order is kept across callers.
     *
     * @throws PtyInputException when the child has exited, or when the bytes would push the
     *     queue past {@link #MAX_PENDING_INPUT} (nothing is queued then)
     */
    void write(byte[] buf, int off, int len) throws PtyInputException;

    default void write(byte[] buf) throws PtyInputException {
        write(buf, 0, buf.length);
    }

    /** Input bytes queued and not yet taken by the PTY. */
    int pendingInput();

    /**
     * Makes {@code listener} the one receiver of this PTY's output, replacing the previous
     * one. It is first handed the retained output (at most {@link #RETAINED_OUTPUT} bytes,
     * newest kept) on the calling thread, then live output on the reader thread, with no gap
     * and no duplicate between the two. {@code null} detaches; output is still read and
     * retained. A listener added after the end of output gets the replay and then
     * {@link PtyListener#closed()}.
     */
    void listen(PtyListener listener);

    /** Output bytes read from the child so far. */
    long outputBytes();

    /** Sets the window size; the child receives SIGWINCH. Sizes 1..{@value SpawnRequest#MAX_SIZE}. */
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
     * read to the end (or within 1 s of the exit if something else still holds the PTY open).
     * A child killed by a signal reports {@code 128 + signal}.
     */
    CompletableFuture<Integer> exit();

    /** The exit status once {@link #exit()} completed. */
    OptionalInt exitStatus();

    boolean isAlive();
}
