package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Helpers for the terminal.backend.* tests: calls that must succeed or fail with a code,
 * terminals created over the wire, and validation of stream lines and event data against
 * the schemas the contract carries for them.
 */
final class Terms {
    static final String TB = "terminal.backend.";
    static final JsonSchema OBSERVE_LINE = schema("/methods/terminal.backend.observe/stream/server_line");
    static final JsonSchema CONTROL_LINE = schema("/methods/terminal.backend.control/stream/server_line");

    private Terms() {
    }

    private static JsonSchema schema(String pointer) {
        return Installed.schema(pointer);
    }

    /** The schema the contract gives an event's data. */
    static JsonSchema eventSchema(String event) {
        FamilyContract.EventContract e = Installed.CONTRACT.events().get(event);
        assertTrue(e != null && e.family().equals("terminal"), "the terminal family declares " + event);
        return e.data();
    }

    static ObjectNode params() {
        return Wire.M.createObjectNode();
    }

    static ObjectNode id(String terminalId) {
        return params().put("terminal_id", terminalId);
    }

    static String json(JsonNode n) {
        try {
            return Wire.M.writeValueAsString(n);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The result of {@code terminal.backend.<method>}; fails the test on an error reply. */
    static JsonNode ok(Path socket, String method, JsonNode params) throws IOException {
        String name = TB + method;
        JsonNode r = Wire.call(socket, name, json(params));
        assertTrue(r.has("result"), name + " " + json(params) + " -> " + r);
        return r.get("result");
    }

    /** The error of {@code terminal.backend.<method>}, which must carry {@code code}. */
    static JsonNode error(Path socket, String method, JsonNode params, String code) throws IOException {
        JsonNode r = Wire.call(socket, TB + method, json(params));
        assertEquals(code, Wire.code(r), method + " " + clip(json(params)) + " -> " + clip(r.toString()));
        return r.get("error");
    }

    static String clip(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }

    /** Creates a terminal running {@code argv} in {@code cwd}; returns its terminal_id. */
    static String create(Path socket, Path cwd, String... argv) throws IOException {
        ObjectNode p = params().put("cwd", cwd.toString());
        ArrayNode a = p.putArray("command");
        for (String s : argv) {
            a.add(s);
        }
        JsonNode r = ok(socket, "create", p);
        assertEquals("terminal_created", r.get("type").asText());
        return r.get("terminal_id").asText();
    }

    /** Waits (server side) for {@code text} on the terminal; fails when it does not appear in 20 s. */
    static JsonNode waitFor(Path socket, String terminalId, String text) throws IOException {
        JsonNode r = ok(socket, "wait_output", id(terminalId).put("text", text).put("timeout_s", 20));
        assertTrue(r.get("matched").asBoolean(), "'" + text + "' appears: " + r);
        return r;
    }

    static String screen(Path socket, String terminalId) throws IOException {
        return ok(socket, "capture", id(terminalId)).get("text").asText();
    }

    static void ping(Path socket) throws IOException {
        assertEquals("pong", Wire.call(socket, "ping", "{}").at("/result/type").asText(), "the server answers ping");
    }

    /** Polls {@code cond} (client side) for at most 20 s. */
    static void await(String what, Callable<Boolean> cond) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!cond.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within 20 s");
            Thread.sleep(20);
        }
    }

    /** A stream line, parsed and checked against {@code schema}. */
    static JsonNode line(String raw, JsonSchema schema) throws IOException {
        assertTrue(!raw.equals(EventStream.EOF), "the stream is still open");
        JsonNode n = Wire.M.readTree(raw);
        assertEquals("", schema.validate(n, "line").map(Object::toString).orElse(""), "stream line: " + clip(raw));
        return n;
    }

    static String request(String method, JsonNode params) {
        return "{\"id\":\"s\",\"method\":\"" + TB + method + "\",\"params\":" + json(params) + "}";
    }
}
