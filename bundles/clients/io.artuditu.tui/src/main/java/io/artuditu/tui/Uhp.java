package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The TUI's side of UHP: one-shot requests and line streams over the server's Unix socket.
 * Nothing here is private to the TUI: it speaks exactly what every other client speaks.
 */
final class Uhp {
    static final ObjectMapper JSON = new ObjectMapper();
    /** A server line longer than this ends the stream (a full frame of a 1000×500 pane fits). */
    static final int MAX_LINE = 64 << 20;
    private static final AtomicLong IDS = new AtomicLong();

    private final Path socket;

    Uhp(Path socket) {
        this.socket = socket;
    }

    Path socket() {
        return socket;
    }

    static ObjectNode params() {
        return JSON.createObjectNode();
    }

    /** The server answered with an error. */
    static final class Failure extends IOException {
        private static final long serialVersionUID = 1L;
        final String code;

        Failure(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    /** One request on its own connection; returns {@code result}. */
    JsonNode call(String method, ObjectNode params) throws IOException {
        try (Line line = open(method, params)) {
            return line.reply();
        }
    }

    /** Sends the request that opens a stream; read its reply with {@link Line#reply()}. */
    Line open(String method, ObjectNode params) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        Line line = new Line(ch);
        ObjectNode req = JSON.createObjectNode();
        req.put("id", "t" + IDS.incrementAndGet()).put("method", method).set("params", params);
        line.send(JSON.writeValueAsString(req));
        return line;
    }

    /** A connection read and written one JSON line at a time. */
    static final class Line implements Closeable {
        private final SocketChannel ch;
        private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        private final ByteArrayOutputStream acc = new ByteArrayOutputStream(4096);

        Line(SocketChannel ch) {
            this.ch = ch;
            in.flip();
        }

        /** The reply line of the request: its result, or a {@link Failure}. */
        JsonNode reply() throws IOException {
            String s = readLine();
            if (s == null) {
                throw new IOException("the server closed the connection without a reply");
            }
            JsonNode r = JSON.readTree(s);
            if (r.has("error")) {
                JsonNode e = r.get("error");
                throw new Failure(e.path("code").asText("error"), e.path("message").asText(""));
            }
            return r.path("result");
        }

        /** Writes {@code json} and a newline; safe from any thread. */
        synchronized void send(String json) throws IOException {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(bytes.length + 1).put(bytes).put((byte) '\n').flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }

        /** The next line without its newline, or null at end of input. */
        String readLine() throws IOException {
            acc.reset();
            while (true) {
                while (in.hasRemaining()) {
                    byte b = in.get();
                    if (b == '\n') {
                        return acc.toString(StandardCharsets.UTF_8);
                    }
                    acc.write(b);
                }
                if (acc.size() > MAX_LINE) {
                    throw new IOException("a server line is longer than " + MAX_LINE + " bytes");
                }
                in.clear();
                int n = ch.read(in);
                in.flip();
                if (n < 0) {
                    return null;
                }
            }
        }

        @Override
        public void close() {
            try {
                ch.close();
            } catch (IOException e) {
                // closing is best effort
            }
        }
    }
}
