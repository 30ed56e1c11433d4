package io.artuditu.pty;

import org.osgi.annotation.versioning.ConsumerType;

/** Learns about every PTY of a host: the ones alive when it registers, then each new one. */
@ConsumerType
public interface PtyTracker {
    /** A PTY exists; called before {@link PtyHost#spawn} returns it. Must not block. */
    void added(Pty pty);

    /** The child exited and its output ended; {@link Pty#exitStatus()} is set and {@link Pty#exit()} completes right after. */
    default void exited(Pty pty, int status) {
    }
}
