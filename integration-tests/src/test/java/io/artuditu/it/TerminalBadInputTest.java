package io.artuditu.it;

import static io.artuditu.it.Terms.create;
import static io.artuditu.it.Terms.error;
import static io.artuditu.it.Terms.id;
import static io.artuditu.it.Terms.ok;
import static io.artuditu.it.Terms.params;
import static io.artuditu.it.Terms.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Bad input to terminal.backend.*: identities that never existed or exited, text over the
 * limit, bad keys and sizes, a program that never reads, and a program that floods. Each
 * gets a structured answer and the server keeps answering ping, also while it happens.
 */
class TerminalBadInputTest extends OneServerPerClass {
    /** Every method that takes a terminal_id, with the other params it needs. */
    static Map<String, ObjectNode> targeted(String terminalId) {
        return Map.ofEntries(
                Map.entry("snapshot", id(terminalId)),
                Map.entry("processes", id(terminalId)),
                Map.entry("capture", id(terminalId)),
                Map.entry("observe", id(terminalId)),
                Map.entry("control", id(terminalId)),
                Map.entry("type_literal", id(terminalId).put("text", "x")),
                Map.entry("submit_text", id(terminalId).put("text", "x")),
                Map.entry("send_key", id(terminalId).put("key", "enter")),
                Map.entry("set_title", id(terminalId).put("title", "t")),
                Map.entry("notify", id(terminalId).put("body", "b")),
                Map.entry("close", id(terminalId)),
                Map.entry("wait_change", id(terminalId).put("after_revision", 0).put("timeout_s", 1)),
                Map.entry("wait_output", id(terminalId).put("text", "x").put("timeout_s", 1)));
    }

    @Test
    void aTerminalThatNeverExistedIsNotFoundWithStateUnknown() throws Exception {
        String never = "term-abcdef-424242";
        for (Map.Entry<String, ObjectNode> m : targeted(never).entrySet()) {
            JsonNode e = error(sock, m.getKey(), m.getValue(), "not_found");
            assertEquals("unknown", e.at("/details/state").asText(), m.getKey() + ": " + e);
            assertEquals(never, e.at("/details/terminal_id").asText());
        }
        assertEquals("unknown", ok(sock, "validate", id(never)).get("reason").asText(), "validate answers instead");
    }

    @Test
    void aTerminalThatExitedIsNotFoundWithItsExitStatus() throws Exception {
        String gone = create(sock, work, "sh", "-c", "exit 3");
        Terms.await("the terminal exited", () -> ok(sock, "validate", id(gone)).has("exit_status"));
        for (Map.Entry<String, ObjectNode> m : targeted(gone).entrySet()) {
            JsonNode e = error(sock, m.getKey(), m.getValue(), "not_found");
            assertEquals("exited", e.at("/details/state").asText(), m.getKey() + ": " + e);
            assertEquals(3, e.at("/details/exit_status").asInt(), m.getKey());
            assertTrue(e.at("/details/exited_at_ms").asLong() > 0, m.getKey());
        }
        JsonNode v = ok(sock, "validate", id(gone));
        assertEquals("exited", v.get("reason").asText());
        assertEquals(3, v.get("exit_status").asInt());
    }

    @Test
    void malformedIdentitiesAndParamsAreInvalidRequests() throws Exception {
        error(sock, "snapshot", params(), "invalid_request");
        error(sock, "snapshot", id("7"), "invalid_request");
        error(sock, "snapshot", id("term-ABCDEF-1"), "invalid_request");
        error(sock, "snapshot", id("term-abcdef-1").put("pane", "1"), "invalid_request");
        error(sock, "capture", id("term-abcdef-1").put("lines", 10_001), "invalid_request");
        error(sock, "wait_change", id("term-abcdef-1").put("after_revision", 0).put("timeout_s", 0), "invalid_request");
        error(sock, "wait_output", id("term-abcdef-1").put("text", "x").put("timeout_s", 3601), "invalid_request");
        error(sock, "wait_output", id("term-abcdef-1").put("text", "y".repeat(1025)), "invalid_request");
        error(sock, "send_key", id("term-abcdef-1").put("key", "enter").put("repeat", 101), "invalid_request");
        error(sock, "close", id("term-abcdef-1").put("grace_ms", 10_001), "invalid_request");
    }

    @Test
    void textOverSixtyFourKibibytesIsRefusedCountingBytesNotCharacters() throws Exception {
        String t = create(sock, work, "sh", "-c", "stty raw -echo; echo sink; exec cat > /dev/null");
        waitFor(sock, t, "sink");
        error(sock, "type_literal", id(t).put("text", "a".repeat(65_537)), "invalid_request");
        error(sock, "submit_text", id(t).put("text", "a".repeat(65_537)), "invalid_request");
        String euros = "€".repeat(21_846); // 21,846 characters, 65,538 bytes
        error(sock, "type_literal", id(t).put("text", euros), "invalid_request");
        assertEquals(65_536, ok(sock, "type_literal", id(t).put("text", "a".repeat(65_536))).get("bytes").asInt());
        error(sock, "type_literal", id(t).put("text", ""), "invalid_request");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void invalidKeyNamesAreNamedInTheError() throws Exception {
        String t = create(sock, work, "sleep", "60");
        for (String key : List.of("hyper+a", "ctrl+", "f99", "ctrl+ctrl+c", "notakey", "k".repeat(64))) {
            JsonNode e = error(sock, "send_key", id(t).put("key", key), "invalid_request");
            assertEquals(key, e.at("/details/key").asText(), key + ": " + e);
            assertTrue(e.get("message").asText().contains(key.length() > 20 ? key.substring(0, 20) : key), e.toString());
        }
        error(sock, "send_key", id(t).put("key", ""), "invalid_request");
        error(sock, "send_key", id(t).put("key", "k".repeat(65)), "invalid_request");
        ok(sock, "close", id(t).put("grace_ms", 0));
    }

    @Test
    void aProgramThatNeverReadsGetsInputBacklogWithoutBlockingTheServer() throws Exception {
        String t = create(sock, work, "sh", "-c", "stty raw -echo; echo deaf; exec sleep 120");
        waitFor(sock, t, "deaf");
        String chunk = "z".repeat(65_536);
        JsonNode refused = null;
        for (int i = 0; i < 40 && refused == null; i++) {
            long t0 = System.nanoTime();
            JsonNode r = Wire.call(sock, "terminal.backend.type_literal", Terms.json(id(t).put("text", chunk)));
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "a write never waits for the program");
            Terms.ping(sock);
            if (r.has("error")) {
                refused = r.get("error");
            }
        }
        assertTrue(refused != null, "1 MiB of unread input is refused");
        assertEquals("invalid_request", refused.get("code").asText());
        assertEquals("input_backlog", refused.at("/details/reason").asText(), refused.toString());
        assertEquals(1 << 20, refused.at("/details/limit").asInt());
        assertTrue(refused.at("/details/pending_bytes").asInt() > (1 << 20) - 65_536 - 8192, refused.toString());
        JsonNode small = Wire.call(sock, "terminal.backend.send_key", Terms.json(id(t).put("key", "a")));
        assertTrue(small.has("result") || "input_backlog".equals(small.at("/error/details/reason").asText()), small.toString());
        JsonNode closed = ok(sock, "close", id(t).put("grace_ms", 0));
        assertTrue(List.of(129, 137).contains(closed.get("exit_status").asInt()), "SIGHUP or SIGKILL: " + closed);
    }

    @Test
    void aFloodingProgramLeavesTheServerResponsiveAndCaptureBounded() throws Exception {
        String t = create(sock, work, "yes", "flood-line");
        waitFor(sock, t, "flood-line");
        AtomicLong worst = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        long end = System.nanoTime() + 3_000_000_000L;
        List<Thread> pingers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread p = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        Terms.ping(sock);
                        worst.accumulateAndGet(System.nanoTime() - t0, Math::max);
                        Thread.sleep(50);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            p.start();
            pingers.add(p);
        }
        // A stream that does not read for a while: state-based, it must not back up the server.
        try (EventStream lazy = new EventStream(sock, Terms.request("observe", id(t)), false)) {
            JsonNode snap = ok(sock, "snapshot", id(t));
            assertTrue(snap.get("history_rows").asInt() >= 0);
            for (Thread p : pingers) {
                p.join();
            }
            lazy.startReading();
            assertTrue(lazy.next(20).contains("terminal_observe"));
            JsonNode u = Terms.line(lazy.next(20), Terms.OBSERVE_LINE);
            assertEquals("terminal_update", u.get("type").asText());
        }
        if (failed.get() != null) {
            throw new AssertionError("ping failed during the flood", failed.get());
        }
        assertTrue(worst.get() < 2_000_000_000L, "ping answered within 2 s during the flood (worst " + worst.get() / 1_000_000 + " ms)");
        JsonNode all = ok(sock, "capture", id(t).put("start", 0).put("lines", 10_000));
        assertTrue(all.get("lines").asInt() <= 10_000);
        assertTrue(all.get("text").asText().getBytes(StandardCharsets.UTF_8).length <= 4 << 20);
        assertTrue(all.get("history_rows").asInt() > 1000, "the flood filled the scrollback: " + all.get("history_rows"));
        JsonNode everything = ok(sock, "capture", id(t).put("start", 0));
        assertEquals(everything.get("total_lines").asInt() > 10_000, everything.get("truncated").asBoolean(),
                "truncated exactly when more than 10,000 lines were asked for");
        assertFalse(everything.get("text").asText().isEmpty());
        JsonNode closed = ok(sock, "close", id(t));
        assertFalse(closed.get("exiting").asBoolean(), "yes ends on SIGHUP: " + closed);
    }
}
