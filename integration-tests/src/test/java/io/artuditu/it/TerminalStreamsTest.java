package io.artuditu.it;

import static io.artuditu.it.Terms.create;
import static io.artuditu.it.Terms.error;
import static io.artuditu.it.Terms.id;
import static io.artuditu.it.Terms.ok;
import static io.artuditu.it.Terms.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * terminal.backend.observe and control over the real socket: the acknowledgment, a full
 * first update, row diffs, terminal_exited and EOF; control lines good and bad; the
 * server-wide cap of eight streams. Every stream line is checked against the contract.
 */
class TerminalStreamsTest extends OneServerPerClass {
    @AfterEach
    void streamSlotsAreBack() throws Exception {
        Terms.await("every stream slot is back", () -> activeStreams() == 0);
    }

    static int activeStreams() throws Exception {
        return Wire.call(sock, "uhp.stats", "{}").at("/result/terminal_streams/active").asInt();
    }

    /** Applies updates to a copy of the screen, as a client would; returns the copy's rows. */
    static final class Copy {
        final Map<Integer, String> rows = new HashMap<>();
        int cols;
        int height;

        void apply(JsonNode u) {
            if (u.get("full").asBoolean()) {
                rows.clear();
            }
            cols = u.get("cols").asInt();
            height = u.get("rows").asInt();
            for (JsonNode l : u.get("lines")) {
                rows.put(l.get("row").asInt(), l.get("text").asText());
            }
        }

        String row(int r) {
            return rows.getOrDefault(r, "");
        }
    }

    /** Reads updates into {@code copy} until one of its rows equals {@code text}; returns the last update. */
    static JsonNode until(EventStream s, JsonSchema schema, Copy copy, String text) throws Exception {
        while (true) {
            JsonNode u = Terms.line(s.next(20), schema);
            if (u.get("type").asText().equals("terminal_update")) {
                copy.apply(u);
                if (copy.rows.containsValue(text)) {
                    return u;
                }
            }
        }
    }

    @Test
    void observeSendsAFullUpdateThenChangedRowsThenTheExit() throws Exception {
        String t = create(sock, work, "sh", "-c", "echo first; read line; echo \"got $line\"; read again; exit 5");
        waitFor(sock, t, "first");
        try (EventStream s = new EventStream(sock, Terms.request("observe", id(t)), true)) {
            JsonNode ack = Wire.validated(s.next(20) + "\n", "terminal.backend.observe").get("result");
            assertEquals("terminal_observe", ack.get("type").asText());
            assertEquals(2, ack.get("queue_capacity").asInt());
            assertEquals(t, ack.get("terminal_id").asText());
            JsonNode first = Terms.line(s.next(20), Terms.OBSERVE_LINE);
            assertTrue(first.get("full").asBoolean(), "the first update is full: " + first);
            assertTrue(first.get("revision").asLong() >= ack.get("revision").asLong());
            Copy copy = new Copy();
            copy.apply(first);
            assertEquals("first", copy.row(0));
            assertEquals(80, copy.cols);

            ok(sock, "submit_text", id(t).put("text", "hello"));
            JsonNode diff = until(s, Terms.OBSERVE_LINE, copy, "got hello");
            assertFalse(diff.get("full").asBoolean());
            assertTrue(diff.get("lines").size() < 24, "only changed rows: " + diff);
            assertEquals(List.of("first", "hello", "got hello"), List.of(copy.row(0), copy.row(1), copy.row(2)));

            ok(sock, "submit_text", id(t).put("text", "bye"));
            JsonNode last;
            do {
                last = Terms.line(s.next(20), Terms.OBSERVE_LINE);
            } while (last.get("type").asText().equals("terminal_update"));
            assertEquals("terminal_exited", last.get("type").asText());
            assertEquals(5, last.get("exit_status").asInt());
            assertEquals(EventStream.EOF, s.next(20), "the server closes after terminal_exited");
        }
    }

    @Test
    void controlRunsEachClientLineAndAnswersBadOnesWithoutEndingTheStream() throws Exception {
        String t = create(sock, work, "sh", "-c", "stty -echo; echo ready; while read l; do echo \"[$l]\"; done");
        waitFor(sock, t, "ready");
        try (EventStream s = new EventStream(sock, Terms.request("control", id(t)), true)) {
            JsonNode ack = Wire.validated(s.next(20) + "\n", "terminal.backend.control").get("result");
            assertEquals("terminal_control", ack.get("type").asText());
            assertEquals(1 << 20, ack.get("client_line_max_bytes").asInt());
            Copy copy = new Copy();
            copy.apply(Terms.line(s.next(20), Terms.CONTROL_LINE));

            String big = "x".repeat(65_537);
            List<String> bad = List.of(
                    "not json",
                    "[1,2]",
                    "{\"id\":\"two\",\"type_literal\":\"a\",\"send_key\":\"b\"}",
                    "{\"id\":\"none\"}",
                    "{\"id\":\"k\",\"send_key\":\"ctrl+nokey\"}",
                    "{\"id\":\"z\",\"resize\":{\"cols\":0,\"rows\":10}}",
                    "{\"id\":\"w\",\"resize\":{\"cols\":5000,\"rows\":10}}",
                    "{\"id\":\"h\",\"resize\":{\"cols\":80,\"rows\":501}}",
                    "{\"id\":\"big\",\"type_literal\":\"" + big + "\"}",
                    "{\"id\":\"x\",\"submit_text\":\"a\",\"unknown\":1}");
            for (String l : bad) {
                Wire.send(s.ch, (l + "\n").getBytes(StandardCharsets.UTF_8));
            }
            Wire.send(s.ch, "{\"id\":\"good\",\"submit_text\":\"hello\"}\n".getBytes(StandardCharsets.UTF_8));
            List<JsonNode> answers = new ArrayList<>();
            boolean echoed = false;
            while (answers.size() < bad.size() + 1 || !echoed) {
                JsonNode l = Terms.line(s.next(20), Terms.CONTROL_LINE);
                switch (l.get("type").asText()) {
                    case "terminal_update" -> {
                        copy.apply(l);
                        echoed |= copy.rows.containsValue("[hello]");
                    }
                    case "control_ack", "control_error" -> answers.add(l);
                    default -> throw new AssertionError("unexpected line " + l);
                }
            }
            for (int i = 0; i < bad.size(); i++) {
                assertEquals("control_error", answers.get(i).get("type").asText(), bad.get(i) + " -> " + answers.get(i));
                assertEquals("invalid_request", answers.get(i).at("/error/code").asText());
            }
            assertEquals("ctrl+nokey", answers.get(4).at("/error/details/key").asText(), "the bad key is named");
            assertEquals("k", answers.get(4).get("id").asText(), "the line's id is echoed");
            assertEquals("resize.cols", answers.get(5).at("/error/details/field").asText());
            assertEquals("resize.cols", answers.get(6).at("/error/details/field").asText());
            assertEquals("resize.rows", answers.get(7).at("/error/details/field").asText());
            JsonNode good = answers.get(bad.size());
            assertEquals("control_ack", good.get("type").asText(), good.toString());
            assertEquals("good", good.get("id").asText());
            assertEquals("submit_text", good.get("action").asText());

            Wire.send(s.ch, "{\"resize\":{\"cols\":40,\"rows\":10}}\n".getBytes(StandardCharsets.UTF_8));
            Wire.send(s.ch, "{\"send_key\":\"ctrl+d\"}\n".getBytes(StandardCharsets.UTF_8));
            JsonNode l;
            boolean resized = false;
            do {
                l = Terms.line(s.next(20), Terms.CONTROL_LINE);
                if (l.get("type").asText().equals("terminal_update") && l.get("cols").asInt() == 40) {
                    resized = true;
                    assertTrue(l.get("full").asBoolean(), "a resize brings a full update");
                    assertEquals(10, l.get("rows").asInt());
                }
            } while (!l.get("type").asText().equals("terminal_exited"));
            assertTrue(resized, "the resize reached the stream");
            assertEquals(0, l.get("exit_status").asInt(), "ctrl+d ended read's loop");
        }
    }

    @Test
    void eightStreamsAtOnceAndTheNinthIsRefusedUntilOneCloses() throws Exception {
        String t = create(sock, work, "sleep", "120");
        List<EventStream> open = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                EventStream s = new EventStream(sock, Terms.request(i % 2 == 0 ? "observe" : "control", id(t)), true);
                open.add(s);
                assertTrue(s.next(20).contains("\"result\""), "stream " + (i + 1) + " is accepted");
            }
            assertEquals(8, activeStreams());
            JsonNode refused = error(sock, "observe", id(t), "too_many_connections");
            assertEquals(8, refused.at("/details/limit").asInt());
            assertEquals("terminal_stream", refused.at("/details/kind").asText());
            error(sock, "control", id(t), "too_many_connections");
            Terms.ping(sock);
            assertTrue(ok(sock, "capture", id(t)).has("text"), "other methods still answer");

            open.remove(0).close();
            Terms.await("the closed stream's slot is back", () -> activeStreams() == 7);
            try (EventStream ninth = new EventStream(sock, Terms.request("observe", id(t)), true)) {
                assertTrue(ninth.next(20).contains("\"terminal_observe\""), "the ninth succeeds after one closed");
                assertTrue(Terms.line(ninth.next(20), Terms.OBSERVE_LINE).get("full").asBoolean());
            }
        } finally {
            for (EventStream s : open) {
                s.close();
            }
            ok(sock, "close", id(t).put("grace_ms", 0));
        }
    }

    @Test
    void aStreamOnAnUnknownOrExitedTerminalIsRefusedAndTakesNoSlot() throws Exception {
        assertEquals("unknown", error(sock, "observe", id("term-000000-7"), "not_found").at("/details/state").asText());
        String t = create(sock, work, "true");
        Terms.await("true exited", () -> ok(sock, "validate", id(t)).has("exit_status"));
        JsonNode e = error(sock, "control", id(t), "not_found");
        assertEquals("exited", e.at("/details/state").asText());
        assertEquals(0, e.at("/details/exit_status").asInt());
        assertEquals(0, activeStreams());
    }
}
