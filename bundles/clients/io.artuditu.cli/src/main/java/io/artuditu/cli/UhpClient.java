package io.artuditu.cli;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
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

    private String requestLine(String method, String paramsJson) {
        return "{\"id\":\"1\",\"method\":" + MiniJson.quote(method)
                + (token == null ? "" : ",\"auth\":" + MiniJson.quote(token)) + ",\"params\":" + paramsJson + "}\n";
    }

    /** Sends {@code {"id":"1","method":…,"auth":…,"params":…}} and returns the reply line without its newline. */
    String call(String method, String paramsJson) throws IOException {
        String line = requestLine(method, paramsJson);
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

    /** The server took too long: connected, but no whole reply came in time. */
    static final class TimedOut extends IOException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message) {
            super(message);
        }
    }

    /**
     * As {@link #call}, bounded in time for a command that must not hang on a stuck server:
     * the connection within {@code connectMillis} ({@link Unreachable} otherwise, as when
     * nothing listens), the request written and the reply line read within
     * {@code replyMillis} after it ({@link TimedOut} otherwise), the reply at most
     * {@code maxReplyBytes}.
     */
    String call(String method, String paramsJson, long connectMillis, long replyMillis, int maxReplyBytes)
            throws IOException {
        ByteBuffer out = ByteBuffer.wrap(requestLine(method, paramsJson).getBytes(StandardCharsets.UTF_8));
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX); Selector selector = Selector.open()) {
            ch.configureBlocking(false);
            SelectionKey key = ch.register(selector, SelectionKey.OP_CONNECT);
            long deadline = System.nanoTime() + connectMillis * 1_000_000L;
            try {
                boolean connected = ch.connect(UnixDomainSocketAddress.of(location.bind()));
                while (!connected) {
                    if (!await(selector, deadline)) {
                        throw new Unreachable("no server accepted a connection on " + location.logical() + " within "
                                + connectMillis + " ms", null);
                    }
                    connected = ch.finishConnect();
                }
            } catch (Unreachable e) {
                throw e;
            } catch (IOException e) {
                throw new Unreachable("no server is answering on " + location.logical(), e);
            }
            deadline = System.nanoTime() + replyMillis * 1_000_000L;
            key.interestOps(SelectionKey.OP_WRITE);
            while (out.hasRemaining()) {
                if (ch.write(out) == 0 && !await(selector, deadline)) {
                    throw new TimedOut("the server on " + location.logical() + " took no request within " + replyMillis + " ms");
                }
            }
            key.interestOps(SelectionKey.OP_READ);
            ByteArrayOutputStream reply = new ByteArrayOutputStream(512);
            ByteBuffer in = ByteBuffer.allocate(8192);
            while (true) {
                int n = ch.read(in);
                if (n < 0) {
                    throw new IOException("the server closed the connection without a reply");
                }
                if (n == 0) {
                    if (!await(selector, deadline)) {
                        throw new TimedOut("the server on " + location.logical() + " did not answer " + method + " within "
                                + replyMillis + " ms");
                    }
                    continue;
                }
                in.flip();
                while (in.hasRemaining()) {
                    byte b = in.get();
                    if (b == '\n') {
                        return reply.toString(StandardCharsets.UTF_8);
                    }
                    if (reply.size() >= maxReplyBytes) {
                        throw new IOException("the reply exceeded " + maxReplyBytes + " bytes");
                    }
                    reply.write(b);
                }
                in.clear();
            }
        }
    }

    /** Waits for the key's operation until the deadline; false when it passed first. */
    private static boolean await(Selector selector, long deadlineNanos) throws IOException {
        while (true) {
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            if (selector.select(left) > 0) {
                selector.selectedKeys().clear();
                return true;
            }
        }
    }
}
