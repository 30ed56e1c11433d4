package io.artuditu.cli;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/** One UHP exchange over the JDK's own Unix socket channel: connect, one line out, one line in. */
final class UhpClient {
    /** The server could not be reached at all (nothing listening, no socket file). */
    static final class Unreachable extends IOException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Longest reply line read (pane.read and capture answers can be large; nothing is unbounded). */
    static final int MAX_REPLY_BYTES = 64 << 20;

    private final SocketLocation location;
    private final String token;

    UhpClient(SocketLocation location) {
        this(location, null);
    }

    /** A client whose every request carries {@code token} as {@code auth}; null or empty for none. */
    UhpClient(SocketLocation location, String token) {
        this.location = location;
        this.token = token == null || token.isEmpty() ? null : token;
    }

    SocketLocation location() {
        return location;
    }

    String token() {
        return token;
    }

    /** A connected channel to the server, or {@link Unreachable}. */
    SocketChannel connect() throws Unreachable {
        try {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.connect(UnixDomainSocketAddress.of(location.bind()));
            } catch (IOException e) {
                ch.close();
                throw e;
            }
            return ch;
        } catch (IOException e) {
            throw new Unreachable("no server is answering on " + location.logical(), e);
        }
    }

    /** Sends {@code {"id":"1","method":…,"auth":…,"params":…}} and returns the reply line without its newline. */
    String call(String method, String paramsJson) throws IOException {
        String line = "{\"id\":\"1\",\"method\":" + MiniJson.quote(method)
                + (token == null ? "" : ",\"auth\":" + MiniJson.quote(token)) + ",\"params\":" + paramsJson + "}\n";
        SocketChannel ch = connect();
        try (ch) {
            ByteBuffer out = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                ch.write(out);
            }
            ByteArrayOutputStream reply = new ByteArrayOutputStream(512);
            ByteBuffer in = ByteBuffer.allocate(8192);
            while (ch.read(in) >= 0) {
                in.flip();
                while (in.hasRemaining()) {
                    byte b = in.get();
                    if (b == '\n') {
                        return reply.toString(StandardCharsets.UTF_8);
                    }
                    if (reply.size() >= MAX_REPLY_BYTES) {
                        throw new IOException("the reply exceeded " + MAX_REPLY_BYTES + " bytes");
                    }
                    reply.write(b);
                }
                in.clear();
            }
            throw new IOException("the server closed the connection without a reply");
        }
    }
}
