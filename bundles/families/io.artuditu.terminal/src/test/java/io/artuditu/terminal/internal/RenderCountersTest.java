package io.artuditu.terminal.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import io.artuditu.terminal.internal.RenderCounters.Count;
import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.StreamSink;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.TerminalMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each render_performance counter moves when its work happens: real PTYs and children, real
 * screens, the real notifier and events threads, and a real observe stream whose client can
 * stop reading.
 */
@Timeout(60)
class RenderCountersTest {
    @TempDir
    Path home;
    Host host;
    Screens screens;
    final List<Pty> ptys = new ArrayList<>();
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        host = new Host(home.resolve("native"));
        screens = new Screens(host);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        for (Pty p : ptys) {
            p.terminate(100);
        }
        screens.deactivate();
        host.close();
    }

    Screen spawn(String... command) throws IOException {
        Pty pty = host.spawn(new SpawnRequest(List.of(command), home, Map.of(), 40, 10), null);
        ptys.add(pty);
        return screens.screen(pty.id()).orElseThrow();
    }

    Map<Count, Long> now() {
        Map<Count, Long> m = new EnumMap<>(Count.class);
        for (Count c : Count.values()) {
            m.put(c, screens.counters().get(c));
        }
        return m;
    }

    long grew(Map<Count, Long> before, Count c) {
        return screens.counters().get(c) - before.get(c);
    }

    static void await(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "within 15 s: " + what);
            Thread.sleep(5);
        }
    }

    /** The topology bundle's panes.json, read from its sources beside this module. */
    private static JsonNode topologyPanes() throws IOException {
        Path file = Path.of("../io.artuditu.topology/src/main/resources/protocol/uhp/v1/panes.json");
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            FamilyContract c = FamilyContract.read(file.toString(), in);
            assertEquals(List.of(), c.problems());
            return c.document();
        }
    }

    @Test
    void theWireNamesAreTheContractsInItsOrder() throws IOException {
        // pane.list is the topology bundle's; it reports what this bundle counts.
        JsonNode schema = topologyPanes().at("/methods/pane.list/result/properties/render_performance");
        List<String> required = new ArrayList<>();
        schema.get("required").forEach(n -> required.add(n.asText()));
        assertEquals(required, List.copyOf(screens.counters().values().keySet()));
        List<String> described = new ArrayList<>();
        schema.get("properties").fieldNames().forEachRemaining(described::add);
        assertEquals(required, described);
        screens.counters().values().values().forEach(v -> assertEquals(0L, v, "a new bundle starts at 0"));
    }

    @Test
    void outputResizeScrollTitleAndExitAreRenderCausesAndWakeTheNotifier() throws Exception {
        Map<Count, Long> before = now();
        Screen s = spawn("sh", "-c", "i=0; while [ $i -lt 40 ]; do echo line $i; i=$((i+1)); done; exec cat");
        await("40 lines of output", () -> s.read(t -> t.historySize() >= 30));
        assertTrue(grew(before, Count.RENDER_OUTPUT) >= 1);
        await("the notifier woke for it", () -> grew(before, Count.WAKE_NOTIFY_CHANGE) >= 1);

        s.resize(50, 12);
        s.resize(50, 12); // the same size again: no change, no render
        assertEquals(1, grew(before, Count.RENDER_RESIZE));

        s.scroll(5);
        s.scroll(0); // no move
        s.scroll(-5);
        assertEquals(2, grew(before, Count.RENDER_SCROLL));

        s.titleOverride("build");
        s.titleOverride("build");
        s.titleOverride(null);
        assertEquals(2, grew(before, Count.RENDER_TITLE));

        assertEquals(0, grew(before, Count.RENDER_EXIT));
        s.pty().terminate(100);
        await("the exit", () -> grew(before, Count.RENDER_EXIT) == 1);
    }

    @Test
    void outputThatKeepsComingFindsTheNotifierWindowAlreadyFull() throws Exception {
        Map<Count, Long> before = now();
        // A line every ~2 ms for a second: changes arrive inside the 16 ms windows.
        spawn("sh", "-c", "i=0; while [ $i -lt 500 ]; do echo $i; i=$((i+1)); done; sleep 0.2; "
                + "i=0; while [ $i -lt 200 ]; do echo $i; sleep 0.002; i=$((i+1)); done; exec cat");
        await("windows that ended with changes waiting", () -> grew(before, Count.WAKE_NOTIFY_WINDOW) >= 1);
    }

    @Test
    void theEventsLoopCountsScreenChecksTimersAndExits() throws Exception {
        TerminalEvents events = new TerminalEvents(screens, new NoPanes());
        closing.add(events::deactivate);
        Map<Count, Long> before = now();
        Screen s = spawn("sh", "-c", "echo hello; exec cat");
        await("hello", () -> s.read(t -> t.rowText(0, false).contains("hello")));
        await("a check queued by the change", () -> grew(before, Count.WAKE_EVENTS_CHANGE) >= 1);
        await("the output timer (250 ms)", () -> grew(before, Count.WAKE_EVENTS_TIMER) >= 1);
        assertEquals(0, grew(before, Count.WAKE_EVENTS_EXIT));
        s.pty().terminate(100);
        await("the exit", () -> grew(before, Count.WAKE_EVENTS_EXIT) == 1);
    }

    /** An observe stream's client: lines collected, reading stoppable. */
    static final class Sink implements StreamSink {
        final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
        final Semaphore reading = new Semaphore(Integer.MAX_VALUE);
        volatile int writes;

        @Override
        public void write(byte[] line) throws IOException {
            writes++;
            reading.acquireUninterruptibly();
            reading.release();
            lines.add(new ObjectMapper().readTree(new String(line, StandardCharsets.UTF_8)));
        }

        /** Reads on (again). */
        void read() {
            reading.drainPermits();
            reading.release(Integer.MAX_VALUE);
        }

        @Override
        public void abort() {
        }

        @Override
        public Connection connection() {
            return Connection.NONE;
        }
    }

    @Test
    void anObserveStreamCountsChangedAndUnchangedProjectionsAndCoalescesWhileItsClientStalls() throws Exception {
        Screen s = spawn("cat");
        await("cat started", () -> s.pty().isAlive());
        TerminalStream stream = new TerminalStream(s, screens, false, () -> { });
        assertTrue(s.watch(stream));
        Sink sink = new Sink();
        Map<Count, Long> before = now();
        Thread writer = new Thread(() -> {
            try {
                stream.stream(sink);
            } catch (IOException e) {
                // ended
            }
        }, "test-observe-writer");
        writer.start();
        closing.add(() -> {
            sink.read();
            stream.end();
            writer.join(5000);
        });
        JsonNode first = sink.lines.poll(10, TimeUnit.SECONDS);
        assertEquals("terminal_update", first.get("type").asText());
        assertTrue(grew(before, Count.PROJECTIONS_STREAM) >= 1);
        assertTrue(grew(before, Count.PROJECTIONS_CHANGED) >= 1);

        // A change the client cannot see (an API title, then the same again): a projection that finds nothing new.
        Map<Count, Long> quiet = now();
        s.titleOverride("x");
        assertEquals("x", sink.lines.poll(10, TimeUnit.SECONDS).get("title").asText());
        s.titleOverride(null);
        sink.lines.poll(10, TimeUnit.SECONDS);
        stream.run(); // a wake with nothing new
        await("an unchanged projection", () -> grew(quiet, Count.PROJECTIONS_UNCHANGED) >= 1);
        assertEquals(grew(quiet, Count.PROJECTIONS_STREAM),
                grew(quiet, Count.PROJECTIONS_CHANGED) + grew(quiet, Count.PROJECTIONS_UNCHANGED),
                "every projection is changed or unchanged");

        // The client stops reading: the writer blocks on one update, one more is marked, the rest fold in.
        sink.reading.drainPermits();
        Map<Count, Long> stalled = now();
        int writes = sink.writes;
        s.pty().write("a\n".getBytes(StandardCharsets.UTF_8));
        await("the writer blocked on the client", () -> sink.writes > writes);
        for (int i = 0; i < 5; i++) {
            s.pty().write(("b" + i + "\n").getBytes(StandardCharsets.UTF_8));
            Thread.sleep(40); // past the notifier's 16 ms window: each is its own watcher call
        }
        assertTrue(grew(stalled, Count.FRAMES_COALESCED) >= 3, "coalesced: " + grew(stalled, Count.FRAMES_COALESCED));
        sink.read();
    }

    @Test
    void metricsGiveTheHistoryOfLiveScreensOnly() throws Exception {
        Screen s = spawn("sh", "-c", "i=0; while [ $i -lt 40 ]; do echo line $i; i=$((i+1)); done; exec cat");
        await("history", () -> s.read(t -> t.historySize() >= 30));
        Metrics m = new Metrics(screens, null);
        TerminalMetrics.History h = m.history(s.terminalId()).orElseThrow();
        int rows = s.read(t -> t.historySize());
        assertEquals(rows, h.rows());
        assertEquals(s.historyBudget(), h.budgetBytes());
        assertTrue(h.bytes() > 0 && h.bytes() <= h.budgetBytes());
        assertTrue(h.exact());
        s.scroll(3);
        assertEquals(3, m.history(s.terminalId()).orElseThrow().scrollOffset());
        assertTrue(m.history("term-nope").isEmpty());
        assertTrue(m.history(null).isEmpty());
        assertEquals(screens.counters().values(), m.renderPerformance());
    }

    /** Events need panes only to name them; none here. */
    static final class NoPanes implements Workspaces {
        @Override
        public PaneInfo open(PaneRequest request, java.util.OptionalLong ifRevision) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<PaneInfo> pane(String paneId) {
            return Optional.empty();
        }

        @Override
        public Optional<PaneInfo> paneOfTerminal(String terminalId) {
            return Optional.empty();
        }

        @Override
        public Optional<PaneInfo> focusedPane() {
            return Optional.empty();
        }

        @Override
        public List<PaneInfo> panes() {
            return List.of();
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
        public io.artuditu.model.topology.Topology topology() {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> T change(java.util.OptionalLong ifRevision, Operation<T> operation) {
            throw new UnsupportedOperationException();
        }
    }
}
