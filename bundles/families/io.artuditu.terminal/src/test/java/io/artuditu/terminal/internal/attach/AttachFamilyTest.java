package io.artuditu.terminal.internal.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import io.artuditu.terminal.internal.RenderCounters.Count;
import io.artuditu.terminal.internal.RenderCounters;
import io.artuditu.terminal.internal.Screens;
import io.artuditu.terminal.internal.TerminalStreams;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.StreamSink;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.platform.BasicCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * attach.pane in process: the real PTY host, real screens and real children, with the
 * transport played by a connection that hands lines in and a sink that collects lines out
 * (and can stop reading, as a slow client does).
 */
class AttachFamilyTest {
    @TempDir
    static Path home;
    static Host host;
    static Screens screens;

    final Panes panes = new Panes();
    final TerminalStreams slots = new TerminalStreams();
    final AttachFamily family = new AttachFamily(screens, panes, slots, home.resolve("scratch"));
    /** attach.pane's declared target: a pane, the focused one when omitted. */
    static final TargetSpec TARGET = new TargetSpec(TargetSpec.Kind.PANE, "pane", null, TargetSpec.Omitted.FOCUSED);
    final List<Client> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        host = new Host(home.resolve("native"));
        screens = new Screens(host);
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    @AfterEach
    void closeClients() {
        for (Client c : clients) {
            c.connection.close();
        }
        for (PaneInfo p : panes.panes()) {
            host.find(p.terminalId()).ifPresent(pty -> pty.terminate(100));
        }
    }

    /**
     * The workspace model reduced to what attach asks of it: panes by id, and a real topology
     * (built with the core's own operations, one pane tab per pane, the newest focused) for
     * the shared target resolver.
     */
    static final class Panes implements Workspaces {
        static final String WORKSPACE = "workspace_0000000000000001";
        final Map<String, PaneInfo> byId = new ConcurrentHashMap<>();
        final AtomicLong next = new AtomicLong();
        final Lifecycle ops = new Lifecycle(() -> String.format("%016x", next.get()));
        volatile Topology state = Topology.empty();

        synchronized PaneInfo spawn(String... command) throws IOException {
            Pty pty = host.spawn(new SpawnRequest(List.of(command), home, Map.of(), 40, 10), null);
            String id = Long.toString(next.incrementAndGet());
            PaneInfo p = new PaneInfo(id, pty.id(), WORKSPACE, List.of(command), home, null, null, pty.pid(),
                    System.currentTimeMillis());
            state = ops.addPaneTab(state, WORKSPACE, "w", home, new Pane(id, pty.id(), home, List.of(command), null, null),
                    true).state();
            byId.put(id, p);
            return p;
        }

        @Override
        public PaneInfo open(PaneRequest request, java.util.OptionalLong ifRevision) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<PaneInfo> pane(String paneId) {
            return Optional.ofNullable(byId.get(paneId));
        }

        @Override
        public Optional<PaneInfo> paneOfTerminal(String terminalId) {
            return byId.values().stream().filter(p -> p.terminalId().equals(terminalId)).findFirst();
        }

        @Override
        public Optional<PaneInfo> focusedPane() {
            return state.focusedPane().flatMap(this::pane);
        }

        @Override
        public List<PaneInfo> panes() {
            return List.copyOf(byId.values());
        }

        @Override
        public List<WorkspaceInfo> workspaces() {
            return List.of();
        }

        @Override
        public boolean close(String paneId, long graceMillis) {
            return false;
        }

        @Override
        public Topology topology() {
            return state;
        }

        @Override
        public <T> T change(java.util.OptionalLong ifRevision, Operation<T> operation) {
            throw new UnsupportedOperationException("attach needs no topology");
        }
    }

    /** The transport's side of one connection. */
    static final class TestConnection implements Connection {
        final List<Runnable> actions = new ArrayList<>();
        Consumer<byte[]> lines;
        boolean closed;

        @Override
        public synchronized void onLines(int maxBytes, Consumer<byte[]> handler) {
            assertEquals(AttachStream.MAX_LINE_BYTES, maxBytes);
            lines = handler;
        }

        @Override
        public void onClose(Runnable action) {
            boolean now;
            synchronized (this) {
                now = closed;
                if (!now) {
                    actions.add(action);
                }
            }
            if (now) {
                action.run();
            }
        }

        @Override
        public synchronized boolean closed() {
            return closed;
        }

        void close() {
            List<Runnable> run;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                run = new ArrayList<>(actions);
            }
            run.forEach(Runnable::run);
        }
    }

    /** One attached client: its reply, its screen as frames drew it, the other lines it got. */
    final class Client implements StreamSink {
        final TestConnection connection = new TestConnection();
        final BlockingQueue<JsonNode> in = new LinkedBlockingQueue<>();
        final List<JsonNode> others = new ArrayList<>();
        final Semaphore reading = new Semaphore(Integer.MAX_VALUE);
        final Thread writer;
        ObjectNode reply;
        ClientScreen screen;
        /** The last frame applied to {@link #screen}, by {@link #until} or {@link #nextOther}. */
        JsonNode lastFrame;
        volatile boolean aborted;

        Client(String pane, int cols, int rows) {
            ObjectNode params = ClientScreen.M.createObjectNode().put("cols", cols).put("rows", rows);
            if (pane != null) {
                params.put("pane", pane);
            }
            BasicCall call = new BasicCall("1", "attach.pane", params, new Caller(1, 0, 0),
                    ClientScreen.M.getNodeFactory(), Set.of(), connection);
            // the declared target, resolved as the dispatcher does before the handler runs
            call.resolved(Targets.resolve(panes.state, TARGET, params, null, id -> Map.of()), Map.of());
            reply = family.attach(call);
            screen = new ClientScreen(cols, rows);
            clients.add(this);
            writer = new Thread(() -> {
                try {
                    call.streamHandler().stream(this);
                } catch (IOException e) {
                    // the client went away
                } finally {
                    connection.close(); // as the server does when a stream returns
                }
            }, "test-attach-writer");
            writer.start();
        }

        @Override
        public void write(byte[] line) throws IOException {
            reading.acquireUninterruptibly();
            reading.release();
            if (aborted) {
                throw new IOException("aborted");
            }
            assertEquals('\n', line[line.length - 1]);
            in.add(ClientScreen.M.readTree(line));
        }

        @Override
        public void abort() {
            aborted = true;
            connection.close();
        }

        @Override
        public Connection connection() {
            return connection;
        }

        void send(String line) {
            connection.lines.accept(line.getBytes(StandardCharsets.UTF_8));
        }

        void key(char c) {
            send("{\"input\":{\"key\":{\"code\":{\"char\":\"" + c + "\"}}}}");
        }

        /** The next line that is not a frame (frames on the way are applied). */
        JsonNode nextOther(double seconds) throws InterruptedException {
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            while (true) {
                JsonNode l = in.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertNotNull(l, "a line within " + seconds + " s");
                if (!l.has("frame")) {
                    others.add(l);
                    return l;
                }
                apply(l);
            }
        }

        private void apply(JsonNode frameLine) {
            screen.apply(frameLine);
            lastFrame = frameLine;
        }

        /**
         * Applies frames until the screen satisfies {@code want}; returns the frame that did it.
         * A frame {@link #nextOther} already applied counts: the screen is checked first.
         */
        JsonNode until(String what, Predicate<ClientScreen> want) throws InterruptedException {
            if (lastFrame != null && want.test(screen)) {
                return lastFrame.get("frame");
            }
            long deadline = System.nanoTime() + 15_000_000_000L;
            while (true) {
                JsonNode l = in.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertNotNull(l, "within 15 s: " + what + "; client shows:\n" + text());
                if (!l.has("frame")) {
                    others.add(l);
                    continue;
                }
                apply(l);
                if (want.test(screen)) {
                    return l.get("frame");
                }
            }
        }

        String text() {
            return screen.text();
        }
    }

    Client attach(PaneInfo p, int cols, int rows) {
        return new Client(p.id(), cols, rows);
    }

    @Test
    void attachRepliesThenAFullFrameAndTypedKeysComeBackAsFrames() throws Exception {
        PaneInfo cat = panes.spawn("cat");
        Client c = new Client(null, 30, 6);
        assertEquals("pane_attach", c.reply.get("type").asText());
        assertEquals(cat.id(), c.reply.get("pane").asText(), "no pane: the focused one");
        assertEquals(cat.terminalId(), c.reply.get("terminal_id").asText());
        assertEquals(30, host.find(cat.terminalId()).orElseThrow().cols(), "the pane takes the client's size");
        JsonNode first = c.until("the first frame", s -> true);
        assertTrue(first.get("full").asBoolean());
        assertEquals("[0,0]", first.get("cursor").toString());
        c.key('h');
        c.key('i');
        JsonNode f = c.until("hi echoed", s -> s.row(0).equals("hi"));
        assertFalse(f.get("full").asBoolean());
        assertEquals("[2,0]", c.screen.cursor == null ? null : "[" + c.screen.cursor[0] + "," + c.screen.cursor[1] + "]");
        c.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
        c.until("cat's own copy of the line", s -> s.row(1).equals("hi"));
        c.send("{\"input\":{\"paste\":\"pasted 日本\\n\"}}");
        c.until("the paste echoed, then cat's copy", s -> s.row(2).equals("pasted 日本") && s.row(3).equals("pasted 日本"));
        assertEquals(1, slots.activeAttach());
    }

    @Test
    void aBellIsOneBellLineAndBellsBeforeTheAttachAreNotReplayed() throws Exception {
        PaneInfo p = panes.spawn("sh", "-c", "printf 'old\\a'; read x; printf 'new\\a\\a\\a'; exec cat");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!screens.screen(p.terminalId()).orElseThrow().read(t -> t.bells() == 1)) {
            assertTrue(System.nanoTime() < deadline, "the first bell within 10 s");
            Thread.sleep(10);
        }
        Client c = attach(p, 30, 6);
        c.until("the first frame", s -> s.shows("old"));
        c.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
        assertEquals("\"bell\"", c.nextOther(5).toString(), "three bells at once ring once");
        if (!c.screen.shows("new")) {
            c.until("the text after them", s -> s.shows("new"));
        }
        Thread.sleep(300);
        while (c.in.peek() != null) {
            JsonNode l = c.in.poll();
            assertTrue(l.has("frame"), "no second bell: " + l);
        }
    }

    @Test
    void resizeIsAFullFrameAtTheNewSizeAndBadSizesAreAnErrorLine() throws Exception {
        PaneInfo cat = panes.spawn("cat");
        Client c = attach(cat, 30, 6);
        c.until("the first frame", s -> true);
        c.send("{\"resize\":{\"cols\":50,\"rows\":12}}");
        JsonNode f = c.until("a full frame", s -> s.fullFrames == 2);
        assertTrue(f.get("full").asBoolean());
        assertEquals(50, host.find(cat.terminalId()).orElseThrow().cols());
        assertEquals(12, host.find(cat.terminalId()).orElseThrow().rows());
        c.send("{\"resize\":{\"cols\":1001,\"rows\":12}}");
        assertTrue(c.nextOther(5).get("error").asText().contains("1..1000"));
        c.key('k');
        c.until("the stream goes on", s -> s.row(0).equals("k"));
    }

    @Test
    void watchRepointsToAnotherPaneAndAMissingPaneKeepsTheStream() throws Exception {
        PaneInfo one = panes.spawn("cat");
        PaneInfo two = panes.spawn("sh", "-c", "printf 'pane two here'; exec cat");
        Client c = attach(one, 30, 6);
        c.until("the first frame", s -> true);
        c.send("{\"watch\":{\"pane\":" + two.id() + "}}");
        c.until("pane two after a full frame", s -> s.fullFrames == 2 && s.shows("pane two here"));
        assertEquals(30, host.find(two.terminalId()).orElseThrow().cols(), "watched as if attached: sized to the client");
        c.send("{\"watch\":{\"pane\":\"999\"}}");
        assertEquals("{\"error\":\"no such pane: 999\"}", c.nextOther(5).toString());
        c.key('z');
        c.until("keys still go to pane two", s -> s.row(0).equals("pane two herez"));
        c.send("{\"watch\":{\"pane\":\"" + one.id() + "\"}}");
        c.until("back on pane one", s -> s.fullFrames == 3 && !s.shows("pane two"));
    }

    @Test
    void aWheelNotchScrollsBackUnlessTheProgramAskedForTheMouse() throws Exception {
        PaneInfo lines = panes.spawn("sh", "-c", "i=1; while [ $i -le 40 ]; do echo line$i; i=$((i+1)); done; exec cat");
        Client c = attach(lines, 30, 6);
        c.until("the last lines", s -> s.shows("line40"));
        c.send("{\"input\":{\"scroll_up\":{\"x\":3,\"y\":2}}}");
        JsonNode back = c.until("three lines back", s -> s.row(0).equals("line33"));
        assertTrue(back.get("cursor").isNull(), "no cursor while scrolled back");
        c.send("{\"command\":{\"scroll_page\":-1}}");
        assertEquals("\"ok\"", c.nextOther(5).toString());
        c.until("a page (rows - 1) further back", s -> s.row(0).equals("line28"));
        c.send("{\"input\":{\"scroll_down\":{\"x\":3,\"y\":2}}}");
        c.until("three lines forward", s -> s.row(0).equals("line31"));
        c.key('q');
        c.until("typing snaps back to live", s -> s.cursor != null && s.row(5).equals("q"));

        PaneInfo mouse = panes.spawn("sh", "-c", "stty -echo; printf '\\033[?1000h\\033[?1006hready\\n'; exec cat -v");
        Client m = attach(mouse, 60, 6);
        JsonNode ready = m.until("the program is ready", s -> s.shows("ready"));
        assertTrue(ready.get("wants_mouse").asBoolean());
        m.send("{\"input\":{\"scroll_up\":{\"x\":10,\"y\":4}}}");
        m.send("{\"input\":{\"mouse_down\":{\"x\":1,\"y\":2}}}");
        m.send("{\"input\":{\"mouse_up\":{\"x\":1,\"y\":2}}}");
        m.send("{\"input\":{\"key\":{\"code\":\"enter\"}}}");
        m.until("the SGR reports reach the program", s -> s.shows("^[[<64;11;5M^[[<0;2;3M^[[<0;2;3m"));
    }

    @Test
    void everyFrameComputedIsAnAttachProjectionChangedOrUnchanged() throws Exception {
        PaneInfo cat = panes.spawn("cat");
        RenderCounters n = screens.counters();
        long attach = n.get(Count.PROJECTIONS_ATTACH);
        long changed = n.get(Count.PROJECTIONS_CHANGED);
        long unchanged = n.get(Count.PROJECTIONS_UNCHANGED);
        Client c = attach(cat, 30, 6);
        c.until("the first frame", s -> true);
        assertTrue(n.get(Count.PROJECTIONS_ATTACH) - attach >= 1);
        assertTrue(n.get(Count.PROJECTIONS_CHANGED) - changed >= 1);
        long unchangedNow = n.get(Count.PROJECTIONS_UNCHANGED);
        // A page forward at live output moves nothing: the frame it asks for finds nothing new.
        c.send("{\"command\":{\"scroll_page\":1}}");
        assertEquals("\"ok\"", c.nextOther(5).toString());
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (n.get(Count.PROJECTIONS_UNCHANGED) == unchangedNow) {
            assertTrue(System.nanoTime() < deadline, "an unchanged projection within 10 s");
            Thread.sleep(5);
        }
        c.key('z');
        c.until("z echoed", s -> s.row(0).equals("z"));
        assertTrue(n.get(Count.PROJECTIONS_CHANGED) - changed >= 2);
        assertTrue(n.get(Count.PROJECTIONS_UNCHANGED) - unchanged >= 1);
    }

    @Test
    void aSlowClientGetsOneDiffNotABacklog() throws Exception {
        PaneInfo cat = panes.spawn("cat");
        Client c = attach(cat, 40, 10);
        c.until("the first frame", s -> true);
        Pty pty = host.find(cat.terminalId()).orElseThrow();
        c.reading.acquire(Integer.MAX_VALUE); // the client stops reading
        long coalesced = screens.counters().get(Count.FRAMES_COALESCED);
        long before = c.in.size();
        for (int i = 1; i <= 3000; i++) {
            pty.write(("flood " + i + "\r").getBytes(StandardCharsets.US_ASCII));
            if (i % 100 == 0) {
                Thread.sleep(20);
            }
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!screens.screen(cat.terminalId()).orElseThrow().read(t -> t.screenText(false).contains("flood 3000"))) {
            assertTrue(System.nanoTime() < deadline, "the pane has the whole flood within 20 s");
            Thread.sleep(20);
        }
        assertTrue(c.in.size() - before <= 1, "nothing reaches a client that does not read");
        assertTrue(screens.counters().get(Count.FRAMES_COALESCED) - coalesced >= 5,
                "the changes folded into the pending frame are counted as frame backpressure");
        c.reading.release(Integer.MAX_VALUE);
        c.until("the last line", s -> s.shows("flood 3000"));
        Thread.sleep(300);
        while (c.in.peek() != null) {
            c.screen.apply(c.in.poll());
        }
        int frames = c.screen.frames;
        System.out.println("attach, in process: a client that stalled through 3000 lines got " + frames + " frames");
        assertTrue(frames <= 5, "a stalled client gets a few diffs, not one per change: " + frames);
    }

    @Test
    void detachEndsTheStreamWithItsReasonAndFreesTheSlot() throws Exception {
        Client c = attach(panes.spawn("cat"), 30, 6);
        c.until("the first frame", s -> true);
        assertEquals(1, slots.activeAttach());
        c.send("\"detach\"");
        assertEquals("{\"detached\":{\"reason\":\"detached\"}}", c.nextOther(5).toString());
        c.writer.join(5000);
        assertFalse(c.writer.isAlive());
        assertEquals(0, slots.activeAttach());
    }

    @Test
    void whenThePaneExitsTheStreamEndsWithPaneClosed() throws Exception {
        Client c = attach(panes.spawn("sh", "-c", "read x; exit 3"), 30, 6);
        c.until("the first frame", s -> true);
        c.send("{\"input\":{\"paste\":\"bye\\n\"}}");
        assertEquals("{\"detached\":{\"reason\":\"pane closed\"}}", c.nextOther(10).toString());
        c.writer.join(5000);
        assertEquals(0, slots.activeAttach());
        UhpException gone = assertThrows(UhpException.class, () -> attach(panes.byId.get(c.reply.get("pane").asText()), 30, 6));
        assertEquals(ErrorCode.NOT_FOUND, gone.code());
        assertEquals("exited", gone.details().get("state"));
        assertEquals(3, gone.details().get("exit_status"));
    }

    @Test
    void theStreamPastTheAttachLimitIsRefusedAndAMissingPaneIsNotFound() throws Exception {
        PaneInfo cat = panes.spawn("cat");
        for (int i = 0; i < TerminalStreams.ATTACH_LIMIT; i++) {
            attach(cat, 30, 6);
        }
        UhpException over = assertThrows(UhpException.class, () -> attach(cat, 30, 6));
        assertEquals(ErrorCode.TOO_MANY_CONNECTIONS, over.code());
        assertEquals(Map.of("limit", TerminalStreams.ATTACH_LIMIT, "kind", "attach_stream"), over.details());
        clients.get(0).send("{\"detach\":null}");
        clients.get(0).writer.join(5000);
        attach(cat, 30, 6);

        UhpException missing = assertThrows(UhpException.class, () -> new Client("77", 30, 6));
        assertEquals(ErrorCode.NOT_FOUND, missing.code());
        assertEquals(Map.of("kind", "pane", "id", "77", "field", "pane", "pane", "77", "reason", "not_found", "state",
                "unknown"), missing.details());
    }

    @Test
    void sixteenUndecodableLinesInARowEndTheConnectionAndUnknownKindsAreIgnored() throws Exception {
        Client c = attach(panes.spawn("cat"), 30, 6);
        c.until("the first frame", s -> true);
        for (int i = 0; i < 15; i++) {
            c.send("garbage " + i);
        }
        c.send("{\"notice\":\"something only the client knows\"}"); // decodes: the count starts again
        assertEquals("something only the client knows", c.nextOther(5).get("error").asText(),
                "undecodable lines are skipped without a reply; a notice comes back where the client shows errors");
        for (int i = 0; i < 15; i++) {
            c.send("{\"input\":");
        }
        assertFalse(c.connection.closed(), "15 in a row are tolerated");
        c.send("}");
        assertTrue(c.nextOther(5).get("error").asText().contains("16 undecodable lines in a row"));
        c.writer.join(5000);
        assertFalse(c.writer.isAlive(), "the stream ended");
        assertTrue(c.in.isEmpty(), "no detached line: the client broke the stream");
    }

    @Test
    void aDragWithoutMouseReportingSelectsAndTheClientGetsTheTextAsSetClipboard() throws Exception {
        Client c = attach(panes.spawn("sh", "-c", "printf 'hello world\\nsecond line  \\n'; exec cat"), 30, 6);
        c.until("the text", s -> s.text().contains("second line"));
        c.send("{\"input\":{\"mouse_down\":{\"x\":0,\"y\":0}}}");
        c.send("{\"input\":{\"mouse_drag\":{\"x\":3,\"y\":0}}}");
        c.send("{\"input\":{\"mouse_up\":{\"x\":4,\"y\":0}}}");
        assertEquals("hello", c.nextOther(5).get("set_clipboard").asText());
        // backwards, across a line end: reading order, trailing blanks dropped
        c.send("{\"input\":{\"mouse_down\":{\"x\":12,\"y\":1}}}");
        c.send("{\"input\":{\"mouse_up\":{\"x\":6,\"y\":0}}}");
        assertEquals("world\nsecond line", c.nextOther(5).get("set_clipboard").asText());
        // a click selects nothing: the next line is the answer to the scroll_page after it
        c.send("{\"input\":{\"mouse_down\":{\"x\":2,\"y\":0}}}");
        c.send("{\"input\":{\"mouse_up\":{\"x\":2,\"y\":0}}}");
        c.send("{\"command\":{\"scroll_page\":0}}");
        assertEquals("ok", c.nextOther(5).asText());
        // a right press is the client's own menu, never a selection
        c.send("{\"input\":{\"mouse_down\":{\"x\":0,\"y\":0,\"button\":\"right\"}}}");
        c.send("{\"input\":{\"mouse_up\":{\"x\":4,\"y\":0}}}");
        c.send("{\"command\":{\"scroll_page\":0}}");
        assertEquals("ok", c.nextOther(5).asText(), "a release with no press anchored selects nothing");
    }

    @Test
    void aProgramThatReadsTheMouseGetsTheDragInsteadOfASelection() throws Exception {
        Client c = attach(panes.spawn("sh", "-c", "printf 'hello\\033[?1000h\\033[?1006h'; exec cat -v"), 30, 6);
        c.until("mouse reporting", s -> s.text().contains("hello"));
        c.send("{\"input\":{\"mouse_down\":{\"x\":0,\"y\":0}}}");
        c.send("{\"input\":{\"mouse_up\":{\"x\":4,\"y\":0}}}");
        c.until("the press reaches the program (cat -v shows its report)", s -> s.text().contains("[<0;1;1M"));
        c.send("{\"command\":{\"scroll_page\":0}}");
        assertEquals("ok", c.nextOther(5).asText(), "no set_clipboard");
    }

    @Test
    void pasteImageAsksForTheClipboardAndPutFileStoresTheFileAndPastesItsPath() throws Exception {
        // wide enough that the pasted path (temp folder, workspace id, file) stays on one row
        Client c = attach(panes.spawn("cat"), 160, 6);
        c.until("the first frame", s -> true);
        c.send("{\"command\":\"paste_image\"}");
        assertEquals("read_clipboard_image", c.nextOther(5).asText());

        Path dir = home.resolve("scratch").resolve(Panes.WORKSPACE);
        String png = java.util.Base64.getEncoder().withoutPadding().encodeToString(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        c.send("{\"command\":{\"put_file\":{\"name\":\"../clip board.png\",\"data\":\"" + png + "\"}}}");
        JsonNode put = c.nextOther(5);
        Path file = dir.resolve("000001-clip-board.png");
        assertEquals(file.toAbsolutePath().toString(), put.at("/file_put/path").asText(), put.toString());
        assertEquals(4, java.nio.file.Files.size(file));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(dir)));
        // the path is longer than the pane is wide: where it wraps depends on the temp folder's name
        c.until("the path is pasted into the pane (cat echoes it)",
                s -> s.text().replace("\n", "").contains("000001-clip-board.png"));

        for (int i = 2; i <= Scratch.KEEP + 3; i++) {
            c.send("{\"command\":{\"put_file\":{\"name\":\"n.txt\",\"data\":\"eA\"}}}");
            assertEquals(String.format("%06d-n.txt", i), Path.of(c.nextOther(5).at("/file_put/path").asText()).getFileName().toString());
        }
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(dir)) {
            List<String> kept = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(Scratch.KEEP, kept.size(), "the newest 32 are kept: " + kept);
            assertEquals(String.format("%06d-n.txt", 4), kept.get(0));
        }

        c.send("{\"command\":{\"put_file\":{\"data\":\"***\"}}}");
        assertTrue(c.nextOther(5).get("error").asText().startsWith("put_file: data is not base64"));
    }

    @Test
    void deactivationTellsEveryStreamTheServerIsShuttingDown() throws Exception {
        Client c = attach(panes.spawn("cat"), 30, 6);
        c.until("the first frame", s -> true);
        family.deactivate();
        assertEquals("{\"detached\":{\"reason\":\"server shutting down\"}}", c.nextOther(5).toString());
        assertEquals(0, slots.activeAttach());
    }
}
