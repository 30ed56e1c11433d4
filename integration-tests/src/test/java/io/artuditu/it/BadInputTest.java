package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bad input against the real server: each gets a structured error or a
 * clean close, the server keeps answering ping, and uhp.stats counts it.
 */
class BadInputTest {
    @TempDir
    static Path home;
    static ForegroundServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new ForegroundServer(home);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @AfterEach
    void stillServing() throws Exception {
        assertEquals("pong", Wire.call(server.socket, "ping", "{}").at("/result/type").asText(),
                "the server keeps answering after bad input");
    }

    private static JsonNode stats() throws Exception {
        return Wire.call(server.socket, "uhp.stats", "{}").get("result");
    }

    private static long errors(String code) throws Exception {
        return stats().at("/requests/errors/" + code).asLong(0);
    }

    private static JsonNode raw(String line) throws Exception {
        return Wire.exchange(server.socket, line, null);
    }

    private static void expect(String line, String code, String idOrNull, String messagePart) throws Exception {
        long before = errors(code);
        JsonNode r = raw(line);
        assertEquals(code, Wire.code(r), line + " -> " + r);
        assertEquals(idOrNull == null, r.get("id").isNull(), line + " -> " + r);
        if (idOrNull != null) {
            assertEquals(idOrNull, r.get("id").asText());
        }
        assertTrue(r.at("/error/message").asText().contains(messagePart), r.toString());
        assertEquals(before + 1, errors(code), "uhp.stats counts " + code);
    }

    @Test
    void aLineThatIsNotJson() throws Exception {
        expect("hello there\n", "invalid_request", null, "not valid JSON");
    }

    @Test
    void jsonThatIsNotAnObject() throws Exception {
        expect("[1,2,3]\n", "invalid_request", null, "JSON object");
        expect("42\n", "invalid_request", null, "JSON object");
    }

    @Test
    void missingOrNonStringId() throws Exception {
        expect("{\"method\":\"ping\"}\n", "invalid_request", null, "id");
        expect("{\"id\":7,\"method\":\"ping\"}\n", "invalid_request", null, "id must be a string");
    }

    @Test
    void missingOrNonStringMethod() throws Exception {
        expect("{\"id\":\"a\"}\n", "invalid_request", "a", "method");
        expect("{\"id\":\"a\",\"method\":[\"ping\"]}\n", "invalid_request", "a", "method");
    }

    @Test
    void paramsThatAreNotAnObject() throws Exception {
        expect("{\"id\":\"p\",\"method\":\"ping\",\"params\":[]}\n", "invalid_request", "p", "params must be an object");
    }

    @Test
    void anUnknownMethod() throws Exception {
        expect("{\"id\":\"u\",\"method\":\"pane.teleport\",\"params\":{}}\n", "unknown_method", "u", "pane.teleport");
    }

    @Test
    void aWrongParamTypeNamesTheField() throws Exception {
        expect("{\"id\":\"w\",\"method\":\"server.bundle.install\",\"params\":{\"path\":5}}\n", "invalid_request", "w",
                "params.path: expected string");
        JsonNode r = raw("{\"id\":\"w\",\"method\":\"ping\",\"params\":{\"verbose\":true}}\n");
        assertEquals("verbose", r.at("/error/details/field").asText(), r.toString());
    }

    @Test
    void aLineOverTheSizeLimit() throws Exception {
        long before = errors("request_too_large");
        byte[] big = ("{\"id\":\"big\",\"method\":\"ping\",\"params\":{\"x\":\"" + "y".repeat(Limits.MAX_REQUEST_BYTES)
                + "\"}}\n").getBytes(StandardCharsets.UTF_8);
        JsonNode r = Wire.exchange(server.socket, big, null);
        assertEquals("request_too_large", Wire.code(r));
        assertEquals(before + 1, errors("request_too_large"));
    }

    @Test
    void invalidUtf8() throws Exception {
        long before = errors("invalid_request");
        byte[] line = "{\"id\":\"8\",\"method\":\"ping\",\"params\":{\"s\":\"\u00ff\u00fe\"}}\n".getBytes(StandardCharsets.ISO_8859_1);
        JsonNode r = Wire.exchange(server.socket, line, null);
        assertEquals("invalid_request", Wire.code(r));
        assertTrue(r.at("/error/message").asText().contains("UTF-8"));
        assertEquals(before + 1, errors("invalid_request"));
    }

    @Test
    void aClientThatConnectsAndSendsNothingIsClosedAfterFiveSeconds() throws Exception {
        long before = stats().at("/connections/initial_frame_timeouts").asLong();
        long t0 = System.nanoTime();
        try (UhpConnection ch = Wire.connect(server.socket)) {
            JsonNode r = Wire.validated(Wire.readToEnd(ch), null);
            assertEquals("timeout", Wire.code(r));
        }
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(waited >= Limits.INITIAL_FRAME_TIMEOUT_MS - 100 && waited < Limits.INITIAL_FRAME_TIMEOUT_MS + 5_000,
                "closed at the 5 s deadline, not before or long after: " + waited + " ms");
        assertEquals(before + 1, stats().at("/connections/initial_frame_timeouts").asLong());
    }

    @Test
    void the81stConcurrentConnectionGetsAStructuredRefusal() throws Exception {
        long rejected = stats().at("/connections/rejected").asLong();
        List<UhpConnection> held = new ArrayList<>();
        try {
            for (int i = 0; i < Limits.MAX_CONNECTIONS; i++) {
                held.add(Wire.connect(server.socket));
            }
            // All 80 are accepted once the server reports them active (the stats call itself
            // needs a slot, so watch the refusal instead).
            JsonNode r = null;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (UhpConnection extra = Wire.connect(server.socket)) {
                    Wire.send(extra, "{\"id\":\"81\",\"method\":\"ping\",\"params\":{}}\n".getBytes(StandardCharsets.UTF_8));
                    r = Wire.validated(Wire.readToEnd(extra), "ping");
                }
                if ("too_many_connections".equals(Wire.code(r))) {
                    break;
                }
                Thread.sleep(10);
            }
            assertEquals("too_many_connections", Wire.code(r));
        } finally {
            for (UhpConnection c : held) {
                c.close();
            }
        }
        // The stats call is itself the one active connection; the server may count the one
        // before it for a moment after the client read its reply, so poll the value.
        long deadline = System.nanoTime() + 10_000_000_000L;
        long active;
        while ((active = stats().at("/connections/active").asLong()) > 1 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(1, active, "held connections are released");
        assertTrue(stats().at("/connections/rejected").asLong() >= rejected + 1);
    }

    @Test
    void aClientThatDisconnectsMidRequest() throws Exception {
        long before = stats().at("/connections/client_disconnects").asLong();
        try (UhpConnection ch = Wire.connect(server.socket)) {
            Wire.send(ch, "{\"id\":\"half\",\"method\":\"pi".getBytes(StandardCharsets.UTF_8));
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (stats().at("/connections/client_disconnects").asLong() == before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(before + 1, stats().at("/connections/client_disconnects").asLong());
    }

    @Test
    void anotherUserCannotReachTheSocket() throws Exception {
        boolean root = "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).trim());
        org.junit.jupiter.api.Assumptions.assumeTrue(root && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "needs root and setpriv to act as another user");
        // nobody (65534) tries to connect: the 0700 folder and 0600 socket stop it before
        // the server's peer-credential check (tested in the server bundle) is ever needed.
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "sh", "-c", "printf '%s\\n' '{\"id\":\"1\",\"method\":\"ping\"}' | nc -U -q 2 \"$SOCK\"; echo \"exit=$?\"");
        pb.environment().put("SOCK", server.socket.toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        assertTrue(out.contains("Permission denied") || out.contains("exit=1"), out);
        assertTrue(!out.contains("pong"), out);
    }

    // ---- numbers ----

    /** Numbers no request may carry: past the 64-bit integer range, or nonzero and too small for a double. */
    private static final String[] BEYOND_RANGE = {"1e309", "-1e309", "1e400", "123456789012345678901234567890",
        "9223372036854775808", "1e999999999", "1e9999999999", "1e-400", "-1e-9999999999"};

    @Test
    void aNumberBeyondRangeIsAnInvalidRequestNamingTheField() throws Exception {
        String[][] places = {
            {"pane.status", "{\"pane\":%s}", "pane", "params.pane"},
            {"config.patch", "{\"patch\":{\"layout\":{\"gap\":%s}}}", "gap", "params.patch.layout.gap"},
            {"tab.list", "{\"workspace\":%s}", "workspace", "params.workspace"},
            {"events.wait", "{\"event\":\"x.y\",\"where\":{\"n\":%s},\"timeout_s\":1}", "n", "params.where.n"},
            {"workspace.move_block", "{\"workspaces\":[0,%s],\"to\":0}", "workspaces[1]", "params.workspaces[1]"},
            {"layout.apply", "{\"root\":{\"axis\":\"vertical\",\"ratio\":%s,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}}",
                "ratio", "params.root.ratio"},
            {"ping", "{\"x\":%s}", "x", "params.x"},
        };
        String config = Wire.M.writeValueAsString(Wire.call(server.socket, "config.get", "{}").at("/result/config"));
        for (String number : BEYOND_RANGE) {
            for (String[] p : places) {
                String line = "{\"id\":\"n\",\"method\":\"" + p[0] + "\",\"params\":" + String.format(p[1], number) + "}\n";
                JsonNode r = raw(line);
                assertEquals("invalid_request", Wire.code(r), line + " -> " + r);
                assertEquals("n", r.get("id").asText(), line + " -> " + r);
                assertEquals(p[2], r.at("/error/details/field").asText(), line + " -> " + r);
                assertEquals(p[3], r.at("/error/details/path").asText(), line + " -> " + r);
            }
            JsonNode top = raw("{\"id\":\"n\",\"method\":\"config.patch\",\"if_revision\":" + number
                    + ",\"params\":{\"patch\":{\"layout\":{\"gap\":1}}}}\n");
            assertEquals("invalid_request", Wire.code(top), number + " -> " + top);
            assertEquals("if_revision", top.at("/error/details/field").asText(), number + " -> " + top);
        }
        assertEquals(config, Wire.M.writeValueAsString(Wire.call(server.socket, "config.get", "{}").at("/result/config")),
                "no refused patch changed the config");
    }

    @Test
    void anIntegerMayBeWrittenWithAZeroFractionOrAnExponentAndMinusZeroIsZero() throws Exception {
        // The server starts with no workspace, so index 0 is not_found: every spelling of 0
        // gets that same answer, naming index 0.
        JsonNode atZero = Wire.call(server.socket, "tab.list", "{\"workspace\":0}");
        for (String zero : new String[] {"-0", "0.0", "-0.0", "0e5", "0.000E-3"}) {
            JsonNode r = Wire.call(server.socket, "tab.list", "{\"workspace\":" + zero + "}");
            assertEquals(atZero.get(atZero.has("result") ? "result" : "error"), r.get(atZero.has("result") ? "result" : "error"),
                    zero + " -> " + r);
        }
        JsonNode fraction = Wire.call(server.socket, "tab.list", "{\"workspace\":0.5}");
        assertEquals("workspace", fraction.at("/error/details/field").asText(), fraction.toString());
        try {
            for (String[] gap : new String[][] {{"3.0", "3"}, {"2e0", "2"}, {"400e-2", "4"}, {"-0.0", "0"}}) {
                JsonNode r = Wire.call(server.socket, "config.patch", "{\"patch\":{\"layout\":{\"gap\":" + gap[0] + "}}}");
                assertEquals("config", r.at("/result/type").asText(), gap[0] + " -> " + r);
                JsonNode stored = r.at("/result/config/layout/gap");
                assertTrue(stored.isIntegralNumber(), gap[0] + " is stored as the integer " + stored);
                assertEquals(gap[1], stored.asText(), gap[0]);
            }
        } finally {
            Wire.call(server.socket, "config.patch", "{\"patch\":{\"layout\":null}}");
        }
    }

    // ---- encodings ----

    @Test
    void aRequestInAnyEncodingButUtf8IsRefusedAsNotUtf8Json() throws Exception {
        String ping = "{\"id\":\"e\",\"method\":\"ping\",\"params\":{}}";
        List<byte[]> lines = new ArrayList<>();
        for (String cs : new String[] {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE", "UTF-16"}) {
            java.nio.charset.Charset c = java.nio.charset.Charset.forName(cs);
            lines.add((ping + "\n").getBytes(c));
            lines.add(("\uFEFF" + ping + "\n").getBytes(c));
        }
        lines.add(("\uFEFF" + ping + "\n").getBytes(StandardCharsets.UTF_8));
        for (byte[] line : lines) {
            long before = errors("invalid_request");
            JsonNode r = Wire.exchange(server.socket, line, null);
            String what = java.util.HexFormat.of().formatHex(line, 0, 8) + "… -> " + r;
            assertEquals("invalid_request", Wire.code(r), what);
            assertTrue(r.get("id").isNull(), what);
            assertTrue(r.at("/error/message").asText().contains("not UTF-8 JSON"), what);
            assertEquals("not_utf8", r.at("/error/details/reason").asText(), what);
            assertEquals(before + 1, errors("invalid_request"), "uhp.stats counts it");
        }
        assertEquals("pong", Wire.exchange(server.socket, ping + "\n", "ping").at("/result/type").asText(),
                "the same request in UTF-8 is answered");
    }

    // ---- the connection limit ----

    /**
     * 80 connections held (event subscriptions, which stay open), then 200 more at once: every
     * one of the 200 reads the structured refusal and the connection's end well within 2 s
     * (none is closed without it, none waits behind the others), and the server serves again
     * once the held ones go.
     */
    @Test
    void everyConnectionOfABurstPastTheLimitReadsItsRefusalPromptly() throws Exception {
        long rejected = stats().at("/connections/rejected").asLong();
        List<UhpConnection> held = new ArrayList<>();
        try {
            for (int i = 0; i < Limits.MAX_CONNECTIONS; i++) {
                UhpConnection ch = Wire.connect(server.socket);
                held.add(ch);
                Wire.send(ch, "{\"id\":\"h\",\"method\":\"events.subscribe\",\"params\":{}}\n".getBytes(StandardCharsets.UTF_8));
                assertTrue(ch.readLine().contains("events_subscribed"), "holder " + i + " is served");
            }
            int burst = 200;
            List<String> replies = burst(server.socket, burst, 2_000);
            for (int i = 0; i < burst; i++) {
                JsonNode r = Wire.validated(replies.get(i), null);
                assertEquals("too_many_connections", Wire.code(r), "client " + i + ": " + replies.get(i));
                assertTrue(r.get("id").isNull(), replies.get(i));
            }
        } finally {
            for (UhpConnection c : held) {
                c.close();
            }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        long active;
        while ((active = stats().at("/connections/active").asLong()) > 1 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(1, active, "held connections are released");
        assertEquals(rejected + 200, stats().at("/connections/rejected").asLong());
        assertEquals("pong", Wire.call(server.socket, "ping", "{}").at("/result/type").asText());
    }

    /**
     * Opens {@code n} connections at once, each sending a ping as any client would, then reads
     * each to its end, one after another (what the server already wrote waits in each
     * socket's buffer, so the last end is the time they all took); fails if that is more than
     * {@code boundMillis} after the burst's start. A guard closes every connection at that
     * bound, so a client the server never answers cannot hang the test. Returns what each read.
     */
    private static List<String> burst(Path socket, int n, long boundMillis) throws Exception {
        long start = System.nanoTime();
        UhpClient client = UhpClient.of(socket);
        List<UhpConnection> chans = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread guard = new Thread(() -> {
            try {
                Thread.sleep(boundMillis + 100);
            } catch (InterruptedException done) {
                return;
            }
            chans.forEach(UhpConnection::close);
        }, "burst-guard");
        guard.setDaemon(true);
        guard.start();
        List<String> got = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                chans.add(client.connect());
            }
            for (UhpConnection ch : chans) {
                try {
                    ch.sendBytes("{\"id\":\"b\",\"method\":\"ping\",\"params\":{}}\n".getBytes(StandardCharsets.UTF_8));
                } catch (java.io.IOException refusedFirst) {
                    // the refusal may come before the client has written; it still reads it
                }
            }
            for (UhpConnection ch : chans) {
                StringBuilder all = new StringBuilder();
                try {
                    for (String line; (line = ch.readLine()) != null; ) {
                        all.append(line).append('\n');
                    }
                } catch (java.io.IOException resetOrGuarded) {
                    // the end of this connection; the time check below tells a guarded one apart
                }
                got.add(all.toString());
            }
            long took = (System.nanoTime() - start) / 1_000_000L;
            assertTrue(took <= boundMillis, n + " refused clients took " + took + " ms to read their ends, more than "
                    + boundMillis);
        } finally {
            guard.interrupt();
            chans.forEach(UhpConnection::close);
        }
        return got;
    }
}
