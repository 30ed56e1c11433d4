package io.artuditu.uhp.client;

import java.io.IOException;

/**
 * What went wrong talking to a server, as opposed to what the server answered (an error
 * reply is a line like any other; the caller reads it). One root type with a subclass per
 * cause a caller acts on: only for {@link Unreachable} does the CLI suggest starting a
 * server, and only {@link TimedOut} says the server is there but stuck.
 */
public class UhpClientException extends IOException {
    private static final long serialVersionUID = 1L;

    UhpClientException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Nothing accepted the connection: no socket file, nothing listening, or not within the connect timeout. */
    public static final class Unreachable extends UhpClientException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Connected, but the request was not taken or the line not read within the reply timeout. */
    public static final class TimedOut extends UhpClientException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message) {
            super(message, null);
        }
    }

    /** A line from the server was longer than the client's bound ({@link UhpClient#maxLineBytes()}). */
    public static final class TooLong extends UhpClientException {
        private static final long serialVersionUID = 1L;

        TooLong(String message) {
            super(message, null);
        }
    }

    /** The server closed the connection before a reply, or in the middle of a line. */
    public static final class ClosedEarly extends UhpClientException {
        private static final long serialVersionUID = 1L;

        ClosedEarly(String message) {
            super(message, null);
        }
    }
}
