package io.artuditu.pty;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Receives a PTY's output. Both methods run on that PTY's reader thread, one call at a
 * time. The reader does not read on while {@link #output} runs: a slow listener slows the
 * child (the kernel's PTY buffer fills and the child's writes block), it never makes the
 * host buffer more. The array is reused after the call returns; copy what you keep.
 */
@ConsumerType
public interface PtyListener {
    /** Bytes the child wrote, {@code len > 0}. */
    void output(byte[] buf, int off, int len);

    /** The master reached end of output (the child and everything holding the PTY are gone). */
    default void closed() {
    }
}
