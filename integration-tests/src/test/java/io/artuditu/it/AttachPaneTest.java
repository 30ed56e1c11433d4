package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.schema.JsonSchema;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * attach.pane over the real socket, with real PTYs: panes are made with
 * terminal.backend.create, the stream is read as a client of the protocol reads it (frames
 * applied to a grid, advancing by display width) and every server line is checked against
 * the contract's stream schema.
 */
class AttachPaneTest {
    static JsonSchema serverLine;

    @TempDir
    static Path home;
    static ForegroundServer server;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Installed.CONTRACT.describes("terminal.backend.create"),
                "panes are created with terminal.backend.create, which this tree does not have yet");
        serverLine = Installed.schema("/methods/attach.pane/stream/server_line");
        server = new ForegroundServer(home);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** A new pane running {@code command}; its pane id. */
    static String pane(ForegroundServer s, int cols, int rows, String... command) throws Exception {
        JsonNode r = Wire.call(s.socket, "terminal.backend.create", "{\"command\":" + Wire.M.writeValueAsString(command)
                + ",\"cols\":" + cols + ",\"rows\":" + rows + "}");
        assertEquals("terminal_created", r.at("/result/type").asText(), r.toString());
        return r.at("/result/pane").asText();
    }

    /** One attach.pane connection: its reply, the client's picture, the other lines, and when each line came. */
    static final class Attached implements AutoCloseable {
        final UhpConnection ch;
        final BlockingQueue<Object[]> lines = new LinkedBlockingQueue<>(); // {nanoTime, JsonNode or EOF}
        final List<JsonNode> others = new ArrayList<>();
        final JsonNode reply;
        final Thread reader;
        volatile boolean paused;
        String[][] cells;
        int cols;
        int rows;
        int[] cursor;
        boolean wantsMouse;
        int frames;
        int fullFrames;
        long lastFrameNanos;
        boolean ended;
        /** The size a resize asked for, taken on by the next full frame. */
        int[] pending;

        Attached(ForegroundServer s, String pane, int cols, int rows) throws Exception {
            this(s, pane, cols, rows, true);
        }

        Attached(ForegroundServer s, String pane, int cols, int rows, boolean expectOk) throws Exception {
            ch = Wire.connect(s.socket);
            String params = "{" + (pane == null ? "" : "\"pane\":\"" + pane + "\",") + "\"cols\":" + cols + ",\"rows\":"
                    + rows + "}";
            Wire.send(ch, ("{\"id\":\"a\",\"method\":\"attach.pane\",\"params\":" + params + "}\n")
                    .getBytes(StandardCharsets.UTF_8));
            reader = new Thread(this::readLoop, "attach-test-reader");
            reader.setDaemon(true);
            reader.start();
            Object[] first = lines.poll(20, TimeUnit.SECONDS);
            assertNotNull(first, "a reply within 20 s");
            assertTrue(first[1] instanceof JsonNode, "a reply line, not the end");
            reply = Wire.validated(Wire.M.writeValueAsString(first[1]) + "\n", "attach.pane");
            if (expectOk) {
                assertEquals("pane_attach", reply.at("/result/type").asText(), reply.toString());
            }
            resize(cols, rows);
        }

        private void resize(int c, int r) {
            cols = c;
            rows = r;
            cells = new String[r][c];
            for (String[] row : cells) {
                Arrays.fill(row, " ");
            }
        }

        private void readLoop() {
            try {
                while (true) {
                    while (paused) {
                        Thread.sleep(5);
                    }
                    String line = ch.readLine();
                    if (line == null) {
                        break;
                    }
                    lines.add(new Object[] {System.nanoTime(), Wire.M.readTree(line)});
                }
            } catch (IOException | InterruptedException e) {
                // closed: report the end
            }
            lines.add(new Object[] {System.nanoTime(), "EOF"});
        }

        void send(String line) throws IOException {
            Wire.send(ch, (line + "\n").getBytes(StandardCharsets.UTF_8));
        }

        void key(String ch) throws IOException {
            send("{\"input\":{\"key\":{\"code\":{\"char\":" + Wire.M.writeValueAsString(ch) + "}}}}");
        }

        /** Takes one line: applies a frame, keeps any other line; false at the end of the stream. */
        private boolean take(double seconds, String what) throws Exception {
            Object[] l = lines.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
            assertNotNull(l, "within " + seconds + " s: " + what + "; the client shows:\n" + text());
            if (l[1] instanceof String) {
                ended = true;
                return false;
            }
            JsonNode n = (JsonNode) l[1];
            assertEquals("", serverLine.validate(n, "line").map(Object::toString).orElse(""), n.toString());
            if (n.has("frame")) {
                apply(n.get("frame"));
                lastFrameNanos = (Long) l[0];
            } else {
                others.add(n);
            }
            return true;
        }

        private void apply(JsonNode f) {
            frames++;
            if (f.get("full").asBoolean()) {
                fullFrames++;
                if (pending != null) {
                    cols = pending[0];
                    rows = pending[1];
                    pending = null;
                }
                resize(cols, rows);
            }
            for (JsonNode run : f.get("cells")) {
                int x = run.get("x").asInt();
                int y = run.get("y").asInt();
                for (JsonNode cell : run.get("cells")) {
                    String g = cell.get("ch").asText();
                    int w = width(g);
                    if (y < rows && x < cols) {
                        cells[y][x] = g;
                        if (w == 2 && x + 1 < cols) {
                            cells[y][x + 1] = "";
                        }
                    }
                    x += w;
                }
            }
            JsonNode c = f.get("cursor");
            cursor = c.isNull() ? null : new int[] {c.get(0).asInt(), c.get(1).asInt()};
            wantsMouse = f.path("wants_mouse").asBoolean(false);
        }

        /** Display width as a simple client computes it: East Asian wide ranges are 2. */
        static int width(String g) {
            int cp = g.codePointAt(0);
            boolean wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
                    || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
                    || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6)
                    || (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF)
                    || (cp >= 0x20000 && cp <= 0x3FFFD);
            return wide ? 2 : 1;
        }

        String row(int r) {
            return String.join("", cells[r]).stripTrailing();
        }

        String text() {
            StringBuilder sb = new StringBuilder();
            for (int r = 0; r < rows; r++) {
                sb.append(row(r)).append('\n');
            }
            return sb.toString();
        }

        boolean shows(String s) {
            return text().contains(s);
        }

        /** Reads until the client's picture satisfies {@code want}. */
        void until(String what, Predicate<Attached> want) throws Exception {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!want.test(this)) {
                double left = (deadline - System.nanoTime()) / 1e9;
                assertTrue(left > 0 && take(left, what), what + "; the client shows:\n" + text());
            }
        }

        /** The next line that is not a frame (frames on the way are applied). */
        JsonNode nextOther(String what) throws Exception {
            int seen = others.size();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (others.size() == seen) {
                double left = (deadline - System.nanoTime()) / 1e9;
                assertTrue(left > 0 && take(left, what), what + ": the stream ended; the client shows:\n" + text());
            }
            return others.get(seen);
        }

        void awaitEnd(String what) throws Exception {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!ended) {
                double left = (deadline - System.nanoTime()) / 1e9;
                assertTrue(left > 0, what);
                take(left, what);
            }
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    @Test
    void typedKeysAndPastesComeBackAsFramesAndTheKeystrokeLatencyIsMeasured() throws Exception {
        String cat = pane(server, 80, 24, "cat");
        try (Attached a = new Attached(server, cat, 80, 24)) {
            assertEquals(cat, a.reply.at("/result/pane").asText());
            assertTrue(a.reply.at("/result/terminal_id").asText().startsWith("term-"));
            a.until("the first frame", x -> x.frames == 1);
            assertEquals(1, a.fullFrames, "the first frame is full");
            assertEquals(0, a.cursor[0]);

            List<Long> latencies = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                if (i > 0 && i % 40 == 0) {
                    int row = a.cursor[1];
                    a.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
                    a.until("cat's copy of the line", x -> x.cursor != null && x.cursor[1] == row + 2 && x.cursor[0] == 0);
                }
                String c = String.valueOf((char) ('a' + i % 26));
                int x0 = a.cursor[0];
                int y0 = a.cursor[1];
                // Keys 40 ms apart, a fast typist's pace: a pane's frames are at most one per
                // 16 ms, so keys sent back to back would measure that window, not the path.
                Thread.sleep(40);
                long sent = System.nanoTime();
                a.key(c);
                a.until("key " + i + " echoed", x -> c.equals(x.cells[y0][x0]) && x.cursor[0] == x0 + 1);
                latencies.add(a.lastFrameNanos - sent);
            }
            latencies.sort(null);
            System.out.printf("attach.pane keystroke -> frame latency over %d keys into cat: p50 %.2f ms, p90 %.2f ms, max %.2f ms%n",
                    latencies.size(), latencies.get(latencies.size() / 2) / 1e6,
                    latencies.get(latencies.size() * 9 / 10) / 1e6, latencies.get(latencies.size() - 1) / 1e6);

            a.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
            a.send("{\"input\":{\"paste\":\"pasted 日本語\\n\"}}");
            a.until("the paste, echoed and then cat's copy", x -> x.text().split("pasted 日本語", -1).length == 3);
        }
    }

    /** pane.list of the tab holding {@code pane}. */
    static JsonNode paneList(String pane) throws Exception {
        JsonNode got = Wire.call(server.socket, "pane.get", "{\"pane\":\"" + pane + "\"}");
        JsonNode r = Wire.call(server.socket, "pane.list", "{\"tab_id\":\"" + got.at("/result/tab_id").asText() + "\"}");
        assertTrue(r.has("result"), r.toString());
        return r.get("result");
    }

    static long counter(JsonNode list, String object, String name) {
        JsonNode v = list.path(object).path(name);
        assertTrue(v.isIntegralNumber(), object + "." + name + " in " + list);
        return v.longValue();
    }

    @Test
    void paneListCarriesHistoryAndCountersThatGrowWithOutputAndAnAttachedClient() throws Exception {
        String p = pane(server, 40, 10, "sh", "-c", "seq 1 60; exec cat");
        Terms.await("the 60 lines scrolled into history",
                () -> paneRow(paneList(p), p).path("history_rows").asInt() >= 50);
        JsonNode before = paneList(p); // Wire.call checked it against the contract's result schema
        JsonNode row = paneRow(before, p);
        assertEquals(0, row.get("scroll_offset").asInt());
        assertTrue(row.get("history_budget_bytes").asLong() > 0);
        assertTrue(row.get("history_bytes").asLong() > 0);
        assertTrue(row.get("history_exact").asBoolean());
        JsonNode status = Wire.call(server.socket, "pane.status", "{\"pane\":\"" + p + "\"}").get("result");
        for (String f : List.of("scroll_offset", "history_rows", "history_budget_bytes", "history_bytes", "history_exact")) {
            assertEquals(status.get(f), row.get(f), "pane.list and pane.status agree on " + f);
        }
        onlyCounts(before);
        assertEquals(before.at("/detection_performance/detection_extractions"), before.get("detection_extractions"));
        assertEquals(before.at("/detection_performance/detection_skips"), before.get("detection_skips"));

        long output = counter(before, "render_performance", "render_output");
        long attach = counter(before, "render_performance", "projections_attach");
        long considered = counter(before, "detection_performance", "panes_considered");
        try (Attached a = new Attached(server, p, 40, 10)) {
            a.until("the first frame", x -> x.shows("60"));
            a.key("x");
            a.until("x echoed", x -> x.shows("x"));
            a.send("{\"command\":{\"scroll_page\":-1}}");
            a.nextOther("the scroll_page ok");
            Terms.await("the viewport scrolled back", () -> paneRow(paneList(p), p).path("scroll_offset").asInt() > 0);
        }
        Wire.call(server.socket, "pane.processes", "{\"pane\":\"" + p + "\"}");
        JsonNode after = paneList(p);
        assertTrue(counter(after, "render_performance", "render_output") > output, "output in the pane was rendered");
        assertTrue(counter(after, "render_performance", "projections_attach") > attach, "the attach client got frames");
        assertTrue(counter(after, "render_performance", "render_scroll") >= 1);
        assertTrue(counter(after, "detection_performance", "panes_considered") > considered, "pane.processes asked the scan");
        onlyCounts(after);
    }

    /** Both objects hold counts and nothing else: no text, path, command or client id can hide in an integer. */
    static void onlyCounts(JsonNode list) {
        for (String object : List.of("render_performance", "detection_performance")) {
            JsonNode o = list.get(object);
            assertTrue(o.isObject() && o.size() > 0, object);
            o.fields().forEachRemaining(e -> assertTrue(e.getValue().isIntegralNumber() && e.getValue().longValue() >= 0,
                    object + "." + e.getKey() + " is a count, nothing else: " + e.getValue()));
        }
    }

    static JsonNode paneRow(JsonNode list, String pane) {
        for (JsonNode r : list.get("panes")) {
            if (r.get("pane").asText().equals(pane)) {
                return r;
            }
        }
        throw new AssertionError("no row for pane " + pane + " in " + list);
    }

    @Test
    void aPaneWhoseProcessExitedIsReportedExitedWithItsStatusToTheNextAttach() throws Exception {
        String p = pane(server, 40, 6, "sh", "-c", "read x; exit 3");
        try (Attached a = new Attached(server, p, 40, 6)) {
            a.send("{\"input\":{\"paste\":\"bye\\n\"}}");
            a.awaitEnd("the stream ends when the pane's process exits");
        }
        // The model closed the pane with its process; attaching again names the exit, not "unknown".
        JsonNode again = Wire.call(server.socket, "attach.pane", "{\"pane\":\"" + p + "\",\"cols\":40,\"rows\":6}");
        assertEquals("not_found", again.at("/error/code").asText(), again.toString());
        assertEquals("exited", again.at("/error/details/state").asText(), again.toString());
        assertEquals(3, again.at("/error/details/exit_status").asInt(), again.toString());
    }

    @Test
    void resizeIsAFullFrameAndABadSizeIsAnErrorLine() throws Exception {
        String p = pane(server, 80, 24, "sh", "-c", "printf 'hello'; exec cat");
        try (Attached a = new Attached(server, p, 40, 10)) {
            a.until("hello", x -> x.shows("hello"));
            a.pending = new int[] {60, 12};
            a.send("{\"resize\":{\"cols\":60,\"rows\":12}}");
            a.until("a full frame", x -> x.fullFrames == 2 && x.shows("hello"));
            a.send("{\"resize\":{\"cols\":0,\"rows\":12}}");
            assertTrue(a.nextOther("an error line").get("error").asText().contains("1..1000"));
            a.key("k");
            a.until("the stream goes on", x -> x.row(0).equals("hellok"));
        }
    }

    @Test
    void watchMovesToAnotherPaneAndAMissingPaneKeepsTheStream() throws Exception {
        String one = pane(server, 80, 24, "sh", "-c", "printf 'pane one'; exec cat");
        String two = pane(server, 80, 24, "sh", "-c", "printf 'pane two'; exec cat");
        try (Attached a = new Attached(server, one, 40, 8)) {
            a.until("pane one", x -> x.shows("pane one"));
            a.send("{\"watch\":{\"pane\":" + two + "}}");
            a.until("pane two, full", x -> x.fullFrames == 2 && x.shows("pane two") && !x.shows("pane one"));
            a.send("{\"watch\":{\"pane\":\"987654\"}}");
            assertEquals("{\"error\":\"no such pane: 987654\"}", a.nextOther("the refusal").toString());
            a.key("!");
            a.until("still streaming pane two", x -> x.row(0).equals("pane two!"));
        }
    }

    @Test
    void aWheelNotchScrollsTheScrollbackOrReachesAProgramThatAskedForTheMouse() throws Exception {
        String lines = pane(server, 30, 6, "sh", "-c", "seq 1 50; exec cat");
        try (Attached a = new Attached(server, lines, 30, 6)) {
            a.until("the last lines", x -> x.shows("50"));
            a.send("{\"input\":{\"scroll_up\":{\"x\":1,\"y\":1}}}");
            a.until("three lines back", x -> x.row(0).equals("43") && x.cursor == null);
            a.send("{\"command\":{\"scroll_page\":-1}}");
            assertEquals("\"ok\"", a.nextOther("ok").toString());
            a.until("a page further back", x -> x.row(0).equals("38"));
        }
        String mouse = pane(server, 60, 6, "sh", "-c", "printf '\\033[?1000h\\033[?1006hready\\n'; exec cat -v");
        try (Attached a = new Attached(server, mouse, 60, 6)) {
            a.until("the program is ready", x -> x.shows("ready") && x.wantsMouse);
            a.send("{\"input\":{\"scroll_up\":{\"x\":10,\"y\":4}}}");
            a.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
            a.until("the SGR wheel report reaches cat -v", x -> x.shows("^[[<64;11;5M"));
        }
    }

    @Test
    void aClientThatStopsReadingDuringAFloodGetsFewFramesNotABacklog() throws Exception {
        // Random 240-column lines: every frame of the flood repaints nearly every cell (about
        // 200 KiB), so the socket's own buffers hold only a frame or two of a stalled client.
        String flood = pane(server, 250, 80, "sh", "-c", "read go; for i in $(seq 1 30); do "
                + "head -c 150000 /dev/urandom | base64 -w 240; sleep 0.05; done; echo flood-done; exec cat");
        try (Attached reading = new Attached(server, flood, 250, 80);
                Attached stalled = new Attached(server, flood, 250, 80)) {
            reading.until("the first frame", x -> x.frames == 1);
            stalled.until("the first frame", x -> x.frames == 1);
            stalled.paused = true;
            Thread.sleep(100);
            long start = System.nanoTime();
            reading.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
            reading.until("the end of the flood", x -> x.shows("flood-done"));
            double seconds = (System.nanoTime() - start) / 1e9;
            Thread.sleep(500);
            stalled.paused = false;
            stalled.until("the end of the flood, late", x -> x.shows("flood-done"));
            System.out.printf("attach.pane flood of %.1f s: a reading client got %d frames, one that stopped reading "
                    + "got %d%n", seconds, reading.frames, stalled.frames);
            assertTrue(stalled.frames <= 10, "a stalled client gets a few frames, not a backlog: " + stalled.frames);
            assertTrue(reading.frames > 2 * stalled.frames, "the reading client got the flood as it went: "
                    + reading.frames + " frames");
        }
    }

    @Test
    void detachAndPaneExitEndTheStreamWithTheirReason() throws Exception {
        String cat = pane(server, 80, 24, "cat");
        try (Attached a = new Attached(server, cat, 40, 8)) {
            a.until("the first frame", x -> x.frames == 1);
            a.send("\"detach\"");
            assertEquals("{\"detached\":{\"reason\":\"detached\"}}", a.nextOther("detached").toString());
            a.awaitEnd("the server closes after detached");
        }
        String quits = pane(server, 80, 24, "sh", "-c", "read x; exit 4");
        try (Attached a = new Attached(server, quits, 40, 8)) {
            a.until("the first frame", x -> x.frames == 1);
            a.send("{\"input\":{\"paste\":\"bye\\n\"}}");
            assertEquals("{\"detached\":{\"reason\":\"pane closed\"}}", a.nextOther("pane closed").toString());
            a.awaitEnd("the server closes after pane closed");
        }
        JsonNode gone = Wire.call(server.socket, "attach.pane", "{\"pane\":\"" + quits + "\",\"cols\":40,\"rows\":8}");
        assertEquals("not_found", Wire.code(gone), gone.toString());
    }

    @Test
    void theStreamPastTheAttachLimitIsRefused(@TempDir Path own) throws Exception {
        try (ForegroundServer s = new ForegroundServer(own)) {
            String cat = pane(s, 80, 24, "cat");
            List<Attached> open = new ArrayList<>();
            try {
                for (int i = 0; i < 48; i++) {
                    open.add(new Attached(s, cat, 40, 8));
                }
                JsonNode over = Wire.call(s.socket, "attach.pane", "{\"pane\":\"" + cat + "\",\"cols\":40,\"rows\":8}");
                assertEquals("too_many_connections", Wire.code(over), over.toString());
                assertEquals(48, over.at("/error/details/limit").asInt());
                assertEquals("attach_stream", over.at("/error/details/kind").asText());
                open.get(0).send("{\"detach\":null}");
                open.get(0).awaitEnd("the first one detaches");
                long deadline = System.nanoTime() + 10_000_000_000L;
                Attached again = null;
                while (again == null) {
                    assertTrue(System.nanoTime() < deadline, "a slot is free again within 10 s");
                    Attached t = new Attached(s, cat, 40, 8, false);
                    if (t.reply.has("result")) {
                        again = t;
                    } else {
                        t.close();
                        Thread.sleep(50);
                    }
                }
                open.add(again);
            } finally {
                for (Attached a : open) {
                    a.close();
                }
            }
            assertFalse(s.log().contains("Exception"), s.log());
        }
    }
}
