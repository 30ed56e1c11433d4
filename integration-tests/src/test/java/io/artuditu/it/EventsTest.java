package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event bus over the real socket: events.subscribe streams, events.wait, and
 * if_revision. Events are published with the example module's example.publish,
 * installed over UHP as an operator would.
 */
class EventsTest {
    static final Path EXAMPLE = Reactor.jar("io.artuditu.example.echo");

    @TempDir
    Path home;

    static ForegroundServer start(Path home) throws Exception {
        ForegroundServer s = new ForegroundServer(home);
        JsonNode installed = Wire.call(s.socket, "server.bundle.install",
                "{\"path\":" + Wire.M.writeValueAsString(EXAMPLE.toString()) + "}");
        assertEquals("bundle_installed", installed.at("/result/type").asText(), installed.toString());
        // The server's own subscribers (the checkpoints family listens for agent turns) are there
        // once the families answer; the tests count the subscribers of their clients above them.
        await("the families are up", () -> { // any answer of the family's own, even a refusal without a workspace
            JsonNode r = Wire.call(s.socket, "checkpoint.list", "{}");
            return r.has("result") || !List.of("unknown_method", "method_unavailable").contains(Wire.code(r));
        });
        INTERNAL.put(s, events(s).get("subscribers").asInt());
        return s;
    }

    /** Subscribers the server holds for itself, per server. */
    static final java.util.Map<ForegroundServer, Integer> INTERNAL = new java.util.concurrent.ConcurrentHashMap<>();

    /** The clients' subscribers: the bus's count less the server's own. */
    static int subscribers(ForegroundServer s) throws Exception {
        return events(s).get("subscribers").asInt() - INTERNAL.getOrDefault(s, 0);
    }

    static long publish(ForegroundServer s, String event, String data) throws Exception {
        JsonNode r = Wire.call(s.socket, "example.publish", "{\"event\":\"" + event + "\",\"data\":" + data + "}");
        assertEquals("published", r.at("/result/type").asText(), r.toString());
        return r.at("/result/sequence").asLong();
    }

    static JsonNode events(ForegroundServer s) throws Exception {
        return Wire.call(s.socket, "uhp.stats", "{}").at("/result/events");
    }

    static void await(String what, Callable<Boolean> cond) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!cond.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within 20 s");
            Thread.sleep(20);
        }
    }

    static String subscribe(String params) {
        return "{\"id\":\"sub\",\"method\":\"events.subscribe\",\"params\":" + params + "}";
    }

    @Test
    void subscribeAcknowledgesReplaysAndStreamsLive() throws Exception {
        try (ForegroundServer s = start(home)) {
            assertEquals(0, Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/event_sequence").asLong());
            long first = publish(s, "task.added", "{\"task\":\"t1\"}");
            assertEquals(1, first);
            try (EventStream all = new EventStream(s.socket, subscribe("{\"after_sequence\":0}"), true);
                    EventStream gates = new EventStream(s.socket, subscribe("{\"events\":[\"task.gate_passed\"]}"), true)) {
                JsonNode ack = all.nextJson(10);
                Wire.validated(Wire.M.writeValueAsString(ack) + "\n", "events.subscribe");
                assertEquals("events_subscribed", ack.at("/result/type").asText(), ack.toString());
                assertEquals("resync_required_then_close", ack.at("/result/loss_behavior").asText());
                assertEquals(1, ack.at("/result/sequence").asLong());
                assertTrue(ack.at("/result/queue_capacity").asInt() > 0);
                JsonNode replayed = all.nextJson(10);
                assertEquals(1, replayed.get("sequence").asLong(), replayed.toString());
                assertEquals("task.added", replayed.get("event").asText());
                assertEquals("t1", replayed.at("/data/task").asText());
                assertEquals("events_subscribed", gates.nextJson(10).at("/result/type").asText());

                publish(s, "lease.acquired", "{\"lease\":\"L2\"}");
                publish(s, "task.gate_passed", "{\"task\":\"t1\"}");
                assertEquals(2, all.nextJson(10).get("sequence").asLong());
                JsonNode gate = all.nextJson(10);
                assertEquals(3, gate.get("sequence").asLong());
                JsonNode filtered = gates.nextJson(10);
                assertEquals("task.gate_passed", filtered.get("event").asText(), "the filter drops other events");
                assertEquals(3, filtered.get("sequence").asLong());
                assertEquals(2, subscribers(s));
                assertEquals(3, Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/event_sequence").asLong());
            }
            await("closed subscribers are reclaimed", () -> subscribers(s) == 0);
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "events.subscribe", "{\"after_sequence\":4}")),
                    "a sequence from the future");
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "events.subscribe",
                    "{\"events\":[\"Not A Name\"]}")));
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "example.publish",
                    "{\"event\":\"events.resync_required\"}")), "the bus's own names are reserved");
        }
    }

    @Test
    void aSequenceOlderThanTheWindowNeedsResync() throws Exception {
        try (ForegroundServer s = start(home)) {
            for (int i = 0; i < 300; i++) {
                publish(s, "task.added", "{\"n\":" + i + "}");
            }
            assertEquals(256, events(s).get("retained_frames").asInt(), "the window keeps 256 frames");
            JsonNode old = Wire.call(s.socket, "events.subscribe", "{\"after_sequence\":10}");
            assertEquals("resync_required", Wire.code(old), old.toString());
            assertEquals("resync_required", Wire.code(Wire.call(s.socket, "events.wait",
                    "{\"event\":\"task.added\",\"after_sequence\":0}")));
            // The oldest retained is 45: after_sequence 44 replays all 256 of them.
            try (EventStream st = new EventStream(s.socket, subscribe("{\"after_sequence\":44}"), true)) {
                assertEquals(300, st.nextJson(10).at("/result/sequence").asLong());
                for (long seq = 45; seq <= 300; seq++) {
                    assertEquals(seq, st.nextJson(10).get("sequence").asLong());
                }
            }
        }
    }

    @Test
    void aSubscriberThatDoesNotReadIsCutWhileOthersGetEverything() throws Exception {
        String pad = "x".repeat(2000);
        int total = 1600;
        try (ForegroundServer s = start(home);
                EventStream slow = new EventStream(s.socket, subscribe("{}"), false);
                EventStream fast = new EventStream(s.socket, subscribe("{}"), true)) {
            assertEquals("events_subscribed", fast.nextJson(10).at("/result/type").asText());
            await("both subscribed", () -> subscribers(s) == 2);
            CompletableFuture<Void> publisher = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < total; i++) {
                        publish(s, "pane.agent_status_changed", "{\"pane\":\"" + i + "\",\"pad\":\"" + pad + "\"}");
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            for (long seq = 1; seq <= total; seq++) {
                JsonNode e = fast.nextJson(20);
                assertEquals(seq, e.get("sequence").asLong(), "the fast subscriber loses nothing");
                assertEquals("pane.agent_status_changed", e.get("event").asText());
            }
            publisher.get();
            assertEquals(1, subscribers(s), "the slow subscriber left the bus");
            assertTrue(events(s).get("subscribers_cut").asInt() >= 1);
            // The slow one's connection is closed within the resync grace; what it holds is
            // the ack, a gapless prefix, and at most one resync line.
            slow.startReading();
            JsonNode ack = slow.nextJson(20);
            assertEquals("events_subscribed", ack.at("/result/type").asText());
            long expect = 1;
            int resyncs = 0;
            for (String line = slow.next(20); !line.equals(EventStream.EOF); line = slow.next(20)) {
                JsonNode e = Wire.M.readTree(line);
                if (e.get("event").asText().equals("events.resync_required")) {
                    resyncs++;
                    assertEquals("queue_full", e.at("/data/reason").asText());
                } else {
                    assertEquals(0, resyncs, "nothing follows the resync line");
                    assertEquals(expect++, e.get("sequence").asLong(), "no gap before the cut");
                }
            }
            assertTrue(resyncs <= 1);
            assertTrue(expect - 1 < total, "the slow subscriber did not get everything");
            await("the cut connection is gone",
                    () -> Wire.call(s.socket, "uhp.stats", "{}").at("/result/connections/streaming").asInt() == 1);
        }
    }

    static CompletableFuture<JsonNode> waitAsync(ForegroundServer s, String params) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Wire.call(s.socket, "events.wait", params);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void waitMatchesTimesOutAndConsumesRetainedEvents() throws Exception {
        try (ForegroundServer s = start(home)) {
            publish(s, "task.added", "{\"task\":\"t0\"}");
            CompletableFuture<JsonNode> waiting = waitAsync(s,
                    "{\"event\":\"pane.agent_status_changed\",\"where\":{\"pane\":\"7\"},\"timeout_s\":30}");
            await("the waiter is registered", () -> events(s).get("waiters").asInt() == 1);
            publish(s, "pane.agent_status_changed", "{\"pane\":\"8\",\"status\":\"done\"}");
            publish(s, "task.added", "{\"pane\":\"7\"}");
            assertFalse(waiting.isDone(), "neither another pane nor another event matches");
            long seq = publish(s, "pane.agent_status_changed", "{\"pane\":\"7\",\"status\":\"done\"}");
            JsonNode r = waiting.get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals("event_wait", r.at("/result/type").asText(), r.toString());
            assertTrue(r.at("/result/matched").asBoolean());
            assertEquals(1, r.at("/result/sequence").asLong(), "the fence is the sequence at registration");
            assertEquals(seq, r.at("/result/event/sequence").asLong());
            assertEquals("done", r.at("/result/event/data/status").asText());
            assertEquals(0, events(s).get("waiters").asInt());

            long t0 = System.nanoTime();
            JsonNode none = Wire.call(s.socket, "events.wait", "{\"event\":\"task.done\",\"timeout_s\":1}");
            assertFalse(none.at("/result/matched").asBoolean(), none.toString());
            assertFalse(none.at("/result").has("event"));
            assertEquals(seq, none.at("/result/sequence").asLong());
            assertTrue(System.nanoTime() - t0 >= 900_000_000L, "waited the timeout");

            JsonNode retained = Wire.call(s.socket, "events.wait",
                    "{\"event\":\"pane.agent_status_changed\",\"where\":{\"pane\":\"8\"},\"after_sequence\":0,\"timeout_s\":1}");
            assertTrue(retained.at("/result/matched").asBoolean(), retained.toString());
            assertEquals(2, retained.at("/result/event/sequence").asLong(), "the retained event after 0 matched");

            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "events.wait",
                    "{\"event\":\"task.done\",\"timeout_s\":0}")));
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "events.wait",
                    "{\"event\":\"task.done\",\"timeout_s\":3601}")));
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "events.wait",
                    "{\"event\":\"task.done\",\"where\":{\"a\":{\"b\":1}}}")), "where is flat");
        }
    }

    @Test
    void aClientThatLeavesReclaimsItsWaiter() throws Exception {
        try (ForegroundServer s = start(home)) {
            try (EventStream w = new EventStream(s.socket,
                    "{\"id\":\"w\",\"method\":\"events.wait\",\"params\":{\"event\":\"task.done\",\"timeout_s\":3600}}", true)) {
                await("the waiter is registered", () -> events(s).get("waiters").asInt() == 1);
            }
            await("the waiter is reclaimed", () -> events(s).get("waiters").asInt() == 0);
            await("its connection is released",
                    () -> Wire.call(s.socket, "uhp.stats", "{}").at("/result/connections/active").asInt() == 1);
        }
    }

    @Test
    void ifRevisionConflictRunsNothing() throws Exception {
        try (ForegroundServer s = start(home)) {
            long seq = publish(s, "task.added", "{}");
            JsonNode stale = Wire.exchange(s.socket, "{\"id\":\"r\",\"method\":\"example.publish\",\"if_revision\":"
                    + (seq - 1) + ",\"params\":{\"event\":\"task.done\"}}\n", "example.publish");
            assertEquals("revision_conflict", Wire.code(stale), stale.toString());
            assertEquals(seq, stale.at("/error/details/revision").asLong());
            assertEquals(seq, Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/event_sequence").asLong(),
                    "nothing was published");
            JsonNode ok = Wire.exchange(s.socket, "{\"id\":\"r\",\"method\":\"example.publish\",\"if_revision\":"
                    + seq + ",\"params\":{\"event\":\"task.done\"}}\n", "example.publish");
            assertEquals(seq + 1, ok.at("/result/sequence").asLong(), ok.toString());
            assertEquals(seq + 1, ok.at("/result/revision").asLong(), "the result carries the new revision");
            assertEquals("invalid_request", Wire.code(Wire.exchange(s.socket,
                    "{\"id\":\"r\",\"method\":\"ping\",\"if_revision\":0}\n", "ping")), "ping changes nothing");
            assertEquals("invalid_request", Wire.code(Wire.exchange(s.socket,
                    "{\"id\":\"r\",\"method\":\"example.publish\",\"if_revision\":-1,\"params\":{\"event\":\"task.done\"}}\n",
                    "example.publish")));
        }
    }

    @Test
    void theCliStreamsAndWaits() throws Exception {
        try (ForegroundServer s = start(home)) {
            long seq = publish(s, "task.added", "{\"task\":\"t1\",\"n\":2}");
            Cli.Result timedOut = Cli.run(s.env, "wait", "event", "task.done", "--timeout", "1");
            assertEquals(EXIT_TIMED_OUT, timedOut.status(), timedOut.err());
            assertTrue(timedOut.out().contains("\"matched\":false"), timedOut.out());
            Cli.Result matched = Cli.run(s.env, "wait", "event", "task.added", "--after", "0", "--where", "task=t1",
                    "--where", "n:=2", "--timeout", "5");
            assertEquals(0, matched.status(), matched.err());
            assertEquals(seq, Wire.M.readTree(matched.out()).at("/event/sequence").asLong(), matched.out());
            assertEquals(2, Cli.run(s.env, "wait", "event").status(), "usage");

            Process events = Cli.builder(s.env, "events", "--after", "0", "--event", "task.done").start();
            try {
                java.io.BufferedReader lines = new java.io.BufferedReader(
                        new java.io.InputStreamReader(events.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
                await("the CLI subscribed", () -> subscribers(s) == 1);
                long done = publish(s, "task.done", "{\"task\":\"t1\"}");
                JsonNode line = Wire.M.readTree(lines.readLine());
                assertEquals("task.done", line.get("event").asText(), line.toString());
                assertEquals(done, line.get("sequence").asLong());
            } finally {
                // ./artu may run java as its child: end the whole tree, as Ctrl-C would.
                events.descendants().forEach(ProcessHandle::destroy);
                events.destroy();
                events.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            await("the CLI's subscription is reclaimed", () -> subscribers(s) == 0);
        }
    }

    /** artu wait event's status when the wait ends unmatched. */
    static final int EXIT_TIMED_OUT = 4;
}
