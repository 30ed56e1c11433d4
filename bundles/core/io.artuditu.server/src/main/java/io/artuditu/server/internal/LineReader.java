package io.artuditu.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/**
 * Reads the one request line of a connection under a size limit and an absolute
 * deadline (a client trickling one byte every few seconds still runs out of time).
 * Not thread safe: one per connection.
 */
final class LineReader {
    enum Outcome { LINE, TOO_LARGE, TIMEOUT, EOF_EMPTY, EOF_PARTIAL }

    private final int limit;
    private byte[] buf = new byte[512];
    private int len;
    /** Bytes read past the newline (the start of whatever the client sent next). */
    private byte[] leftover = new byte[0];

    LineReader(int limit) {
        this.limit = limit;
    }

    /** Reads until a newline; {@link #length()} then excludes it. */
    Outcome read(Socket socket, long deadlineNanos) throws IOException {
        InputStream in = socket.getInputStream();
        while (true) {
            long leftMillis = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0) {
                return Outcome.TIMEOUT;
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMillis));
            if (len == buf.length) {
                if (buf.length > limit) {
                    return Outcome.TOO_LARGE;
                }
                buf = Arrays.copyOf(buf, Math.min(buf.length * 2, limit + 1));
            }
            int n;
            try {
                n = in.read(buf, len, buf.length - len);
            } catch (SocketTimeoutException e) {
                return Outcome.TIMEOUT;
            }
            if (n < 0) {
                return len == 0 ? Outcome.EOF_EMPTY : Outcome.EOF_PARTIAL;
            }
            for (int i = len; i < len + n; i++) {
                if (buf[i] == '\n') {
                    leftover = Arrays.copyOfRange(buf, i + 1, len + n);
                    len = i;
                    return len > limit ? Outcome.TOO_LARGE : Outcome.LINE;
                }
            }
            len += n;
            if (len > limit) {
                return Outcome.TOO_LARGE;
            }
        }
    }

    /** What followed the request line in the last read, for a connection that reads on. */
    byte[] leftover() {
        return leftover;
    }

    byte[] buffer() {
        return buf;
    }

    /** Bytes read so far (the line's length after {@link Outcome#LINE}). */
    int length() {
        return len;
    }
}
