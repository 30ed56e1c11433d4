package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The tests' UHP helpers over the shared client ({@link io.artuditu.uhp.client}): raw
 * bytes out, and every reply read is checked: one line, valid against the envelope schema
 * and, for a method the contract describes, against that method's result schema.
 */
final class Wire {
    static final ObjectMapper M = new ObjectMapper();
    private static final JsonSchema REPLY = JsonSchema.compile(Installed.CONTRACT.document().at("/envelope/reply"));

    private Wire() {
    }

    /** An open connection with nothing sent. */
    static UhpConnection connect(Path socket) throws IOException {
        return UhpClient.of(socket).connect();
    }

    static void send(UhpConnection c, byte[] bytes) throws IOException {
        c.sendBytes(bytes);
    }

    /** Every line until the server closes the connection, each with its newline. */
    static String readToEnd(UhpConnection c) throws IOException {
        StringBuilder all = new StringBuilder();
        for (String line; (line = c.readLine()) != null; ) {
            all.append(line).append('\n');
        }
        return all.toString();
    }

    /** Sends raw bytes on a fresh connection and returns the one validated reply. */
    static JsonNode exchange(Path socket, byte[] request, String method) throws IOException {
        try (UhpConnection c = connect(socket)) {
            try {
                send(c, request);
            } catch (IOException closedEarly) {
                // the server may answer and close before taking every byte (size limit)
            }
            return validated(readToEnd(c), method);
        }
    }

    static JsonNode exchange(Path socket, String request, String method) throws IOException {
        return exchange(socket, request.getBytes(StandardCharsets.UTF_8), method);
    }

    static JsonNode call(Path socket, String method, String params) throws IOException {
        return exchange(socket, "{\"id\":\"t\",\"method\":\"" + method + "\",\"params\":" + params + "}\n", method);
    }

    /** One reply line, conforming to the envelope and (when known) to the method's result schema. */
    static JsonNode validated(String all, String method) throws IOException {
        assertEquals(1, all.chars().filter(c -> c == '\n').count(), "exactly one reply line: " + all);
        assertEquals('\n', all.charAt(all.length() - 1), "the reply ends with its newline");
        JsonNode reply = M.readTree(all);
        assertEquals("", REPLY.validate(reply, "reply").map(Object::toString).orElse(""), "envelope: " + all);
        if (reply.has("result") && method != null && Installed.CONTRACT.describes(method)) {
            JsonSchema result = Installed.CONTRACT.method(method).result();
            assertEquals("", result.validate(reply.get("result"), "result").map(Object::toString).orElse(""),
                    method + " result: " + all);
        }
        if (reply.at("/result/event").isObject()) {
            event(reply.at("/result/event"), all);
        }
        return reply;
    }

    /**
     * Checks an event line's data against the schema its family declares, when one does
     * (events a test publishes through example.publish are declared by nobody).
     */
    static void event(JsonNode event, String context) {
        var declared = Installed.CONTRACT.events().get(event.path("event").asText());
        if (declared != null) {
            assertEquals("", declared.data().validate(event.path("data"), "data").map(Object::toString).orElse(""),
                    event.path("event").asText() + " data: " + context);
        }
    }

    static String code(JsonNode reply) {
        return reply.path("error").path("code").asText("(no error)");
    }
}
