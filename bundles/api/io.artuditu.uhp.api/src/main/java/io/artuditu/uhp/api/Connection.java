package io.artuditu.uhp.api;

/**
 * The client connection a request arrived on, as far as a handler needs it: a way to
 * learn that it is over. Provided by the transport; {@link #NONE} for in-process calls.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Connection {
    /** A connection that never ends on its own (in-process calls, tests). */
    Connection NONE = new Connection() {
        @Override
        public void onClose(Runnable action) {
            // never closes
        }

        @Override
        public boolean closed() {
            return false;
        }
    };

    /**
     * Runs {@code action} once when the connection is over: the client closed its side
     * (end of input), an I/O error, or the server finished with it. Runs at once, on the
     * calling thread, when that already happened. Registering the first action makes the
     * transport watch the socket for end of input, so a client must not half-close a
     * connection whose handler waits (its end of input means it left).
     */
    void onClose(Runnable action);

    /** Whether the connection is already over. */
    boolean closed();

    /**
     * Makes the connection carry client lines after the request (a stream a client also
     * writes to, such as a pane attach): each line, without its newline, goes to
     * {@code lines} in order on one transport thread until the connection ends; a line
     * longer than {@code maxBytes} ends the connection. Call at most once, before
     * {@link #onClose}. Transports without client lines throw
     * {@link UnsupportedOperationException}.
     */
    default void onLines(int maxBytes, java.util.function.Consumer<byte[]> lines) {
        throw new UnsupportedOperationException("this connection carries no client lines");
    }
}
