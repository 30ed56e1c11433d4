package io.artuditu.pty;

import java.io.IOException;

/** Input a {@link Pty} refused; nothing of it was queued. */
public final class PtyInputException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the input was refused. */
    public enum Reason {
        /** The child has exited. */
        EXITED,
        /** The child is not reading and the queue would exceed {@link Pty#MAX_PENDING_INPUT}. */
        BACKLOG
    }

    private final Reason reason;
    private final int pending;

    public PtyInputException(Reason reason, int pending, String message) {
        super(message);
        this.reason = reason;
        this.pending = pending;
    }

    public Reason reason() {
        return reason;
    }

    /** Bytes already queued when the input was refused. */
    public int pending() {
        return pending;
    }
}
