package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import java.io.Closeable;
import java.io.IOException;

/**
 * The workbench's requests as Jackson trees, over the shared client
 * ({@link io.artuditu.uhp.client}): params in, a request's {@code result} out, an error
 * reply as a {@link Failure}. Nothing here touches the socket; nothing is private to the
 * TUI: it speaks exactly what every other client speaks.
 */
final class JsonUhp {
    static final ObjectMapper JSON = new ObjectMapper();

    private final UhpClient client;

    JsonUhp(UhpClient client) {
        this.client = client;
    }

    /** The socket path connected to, which a command run from the workbench inherits. */
    java.nio.file.Path socket() {
        return client.socket();
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
        return result(client.call(method, JSON.writeValueAsString(params)));
    }

    /** Sends the request that opens a stream; read its reply with {@link Stream#reply()}. */
    Stream open(String method, ObjectNode params) throws IOException {
        return new Stream(client.open(method, JSON.writeValueAsString(params)));
    }

    /** A reply line's {@code result}, or its error as a {@link Failure}. */
    static JsonNode result(String reply) throws IOException {
        JsonNode r = JSON.readTree(reply);
        if (r.has("error")) {
            JsonNode e = r.get("error");
            throw new Failure(e.path("code").asText("error"), e.path("message").asText(""));
        }
        return r.path("result");
    }

    /** A stream's connection: its reply first, then one JSON line at a time each way. */
    static final class Stream implements Closeable {
        private final UhpConnection connection;

        Stream(UhpConnection connection) {
            this.connection = connection;
        }

        /** The reply line of the request: its result, or a {@link Failure}. */
        JsonNode reply() throws IOException {
            String s = connection.readLine();
            if (s == null) {
                throw new IOException("the server closed the connection without a reply");
            }
            return result(s);
        }

        /** Writes {@code json} and a newline; safe from any thread. */
        void send(String json) throws IOException {
            connection.send(json);
        }

        /** The next line without its newline, or null at end of input. */
        String readLine() throws IOException {
            return connection.readLine();
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
