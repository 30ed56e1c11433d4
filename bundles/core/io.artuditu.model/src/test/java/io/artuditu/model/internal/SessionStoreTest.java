package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session file alone: format round trip, atomic write, debounce, retries, refusal of bad files, limits. */
class SessionStoreTest {
    @TempDir
    Path home;

    static final String WS = "workspace_00000000000000a1";
    static final String WS2 = "workspace_00000000000000a2";

    /** Two workspaces: a split pane tab, a dashboard; names, purposes, pin, zoom. */
    static Topology sample(Path cwd, long nextPane) {
        Map<String, Pane> panes = new LinkedHashMap<>();
        panes.put("3", new Pane("3", "t3", cwd, List.of("/bin/bash"), "api", "runs the api"));
        panes.put("5", new Pane("5", "t5", cwd.resolve("sub"), List.of("make", "deploy"), null, null));
        panes.put("6", new Pane("6", null, cwd, List.of(), null, "logs"));
        Node tree = new Node.Split(Axis.HORIZONTAL, 0.3, new Node.Leaf("3"), new Node.Leaf("5"));
        Tab t1 = new Tab("tab_00000000000000b1", TabKind.PANES, "main", tree, "5", true);
        Tab t2 = new Tab("tab_00000000000000b2", TabKind.GIT, null, null, null, false);
        Tab t3 = new Tab("tab_00000000000000b3", TabKind.PANES, null, new Node.Leaf("6"), "6", false);
        Workspace w1 = new Workspace(WS, "api", cwd, true, List.of(t1, t2), "tab_00000000000000b2",
                Map.of("branch", "main", "port", 3000L));
        Workspace w2 = new Workspace(WS2, "web", cwd, false, List.of(t3), "tab_00000000000000b3");
        return new Topology(List.of(w1, w2), WS2, panes, nextPane, 7);
    }

    /** The topology as the file keeps it: no terminal ids, no reported metadata, version 0. */
    static Topology persisted(Topology t) {
        Map<String, Pane> panes = new LinkedHashMap<>();
        t.panes().forEach((k, p) -> panes.put(k, new Pane(p.id(), null, p.cwd(), p.command(), p.name(), p.purpose())));
        List<Workspace> ws = t.workspaces().stream()
                .map(w -> new Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(), w.activeTab())).toList();
        return new Topology(ws, t.activeWorkspace(), panes, t.nextPane(), 0);
    }

    @Test
    void writeThenLoadGivesTheSameTopologyWithoutProcessesInAPrivateFile() throws Exception {
        try (SessionStore s = new SessionStore(home)) {
            Topology t = sample(home, 9);
            s.write(t);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(s.path())));
            String text = Files.readString(s.path());
            assertFalse(text.contains("t3"), text); // no terminal ids
            assertFalse(text.contains("\"port\""), text); // reported metadata is a runtime fact (the key: a temp folder may contain 3000)
            assertEquals(Optional.of(persisted(t)), s.load());
        }
    }

    @Test
    void debounceCoalescesABurstIntoFewWritesOfTheLastState() throws Exception {
        try (SessionStore s = new SessionStore(home, 200)) {
            for (int i = 0; i < 200; i++) {
                s.changed(sample(home, 10 + i));
            }
            assertFalse(Files.exists(s.path()), "written before the debounce interval");
            long end = System.nanoTime() + 5_000_000_000L;
            while (s.writes() == 0 && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            Thread.sleep(400);
            assertEquals(1, s.writes());
            assertEquals(209, s.load().orElseThrow().nextPane());
            s.changed(sample(home, 500));
            s.close(); // synchronous: the pending state is written now
            assertEquals(2, s.writes());
            assertEquals(500, new SessionStore(home).load().orElseThrow().nextPane());
            s.changed(sample(home, 600)); // after close: ignored
            Thread.sleep(300);
            assertEquals(2, s.writes());
        }
    }

    @Test
    void aCorruptFileIsMovedAsideAndNothingIsRestored() throws Exception {
        SessionStore s = new SessionStore(home);
        Files.writeString(s.path(), "{\"format\":1,\"next_pane\":");
        assertEquals(Optional.empty(), s.load());
        assertFalse(Files.exists(s.path()));
        assertEquals(1, aside().size());
        assertEquals("{\"format\":1,\"next_pane\":", Files.readString(aside().get(0)));
        s.close();
    }

    @Test
    void semanticallyInvalidFilesAreRefused() throws Exception {
        SessionStore s = new SessionStore(home);
        String good = SessionStore.toJson(sample(home, 9)).toString();
        List<String> bad = List.of(
                good.replace("\"format\":1", "\"format\":2"),
                good.replace("\"next_pane\":9", "\"next_pane\":4"), // pane ids must be below it
                good.replace("{\"pane\":\"5\"}", "{\"pane\":\"3\"}"), // duplicate leaf
                good.replace("{\"pane\":\"6\"}", "{\"pane\":\"3\"}"), // a pane in two tabs
                good.replace("\"ratio\":0.3", "\"ratio\":7"),
                good.replace("workspace_00000000000000a2", "workspace_00000000000000a1"),
                good.replace("\"cwd\":\"" + home, "\"cwd\":\"relative"),
                "[]", "null");
        for (String b : bad) {
            Files.writeString(s.path(), b);
            assertEquals(Optional.empty(), s.load(), b);
            assertFalse(Files.exists(s.path()));
        }
        Files.writeString(s.path(), good);
        assertTrue(s.load().isPresent());
        s.close();
    }

    @Test
    void aFileOverSixteenMebibytesIsRefusedUnread() throws Exception {
        SessionStore s = new SessionStore(home);
        try (RandomAccessFile f = new RandomAccessFile(s.path().toFile(), "rw")) {
            f.setLength(SessionStore.MAX_BYTES + 1);
        }
        assertEquals(Optional.empty(), s.load());
        assertFalse(Files.exists(s.path()));
        assertEquals(1, aside().size());
        s.close();
    }

    @Test
    void aCrashBetweenTempWriteAndRenameLeavesTheOldFile() throws Exception {
        SessionStore s = new SessionStore(home);
        Topology old = sample(home, 9);
        s.write(old);
        // what a crash after writing the temporary file and before the rename leaves behind
        Path stray = home.resolve(".session.json.12345.tmp");
        Files.write(stray, "{\"format\":1,\"next_pane\":99,\"work".getBytes(StandardCharsets.UTF_8));
        assertEquals(Optional.of(persisted(old)), s.load());
        assertTrue(aside().isEmpty());
        s.write(sample(home, 11)); // a stray temp file does not get in the way of the next write
        assertEquals(11, s.load().orElseThrow().nextPane());
        s.close();
    }

    private List<Path> aside() throws Exception {
        try (Stream<Path> l = Files.list(home)) {
            return l.filter(p -> p.getFileName().toString().startsWith("session.json.corrupt-")).toList();
        }
    }

    // ---------------------------------------------------------------- failed writes

    /**
     * A real fault that stops the write even for root (permissions do not: root writes into
     * a read-only folder): {@code session.json} is a non-empty directory, so the temporary
     * file cannot be renamed over it.
     */
    static Path block(SessionStore s) throws IOException {
        if (Files.isRegularFile(s.path())) {
            Files.delete(s.path());
        }
        return Files.createDirectories(s.path().resolve("obstacle"));
    }

    static void unblock(SessionStore s) throws IOException {
        Files.delete(s.path().resolve("obstacle"));
        Files.delete(s.path());
    }

    static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** Records what the store logs, at every level. */
    static final class Captured extends Handler implements AutoCloseable {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();
        final Logger logger = Logger.getLogger(SessionStore.class.getName());
        final Level level = logger.getLevel();

        Captured() {
            setLevel(Level.ALL);
            logger.setLevel(Level.ALL);
            logger.addHandler(this);
        }

        long count(Level l) {
            return records.stream().filter(r -> r.getLevel().equals(l)).count();
        }

        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setLevel(level);
        }
    }

    @Test
    void aFailedWriteIsRetriedWithABoundedBackoffUntilItWorks() throws Exception {
        try (Captured log = new Captured(); SessionStore s = new SessionStore(home, 20, 200)) {
            block(s);
            s.changed(sample(home, 9));
            await(() -> s.failures() >= 3, "three failed attempts");
            int before = s.failures();
            Thread.sleep(1000);
            int during = s.failures() - before;
            // 20, 40, 80, 160, then every 200 ms: about 5 in a second, never a tight loop
            assertTrue(during >= 2 && during <= 12, "attempts in one second: " + during);
            assertEquals(0, s.writes());
            assertEquals(1, log.count(Level.WARNING), "one warning per streak of failures: " + log.records);
            s.changed(sample(home, 12)); // a change during the streak: the retry writes the newest state
            unblock(s); // the fault is gone (space freed, permissions fixed, ...)
            await(() -> s.writes() == 1, "the retry to write");
            assertEquals(Optional.of(persisted(sample(home, 12))), s.load());
            await(() -> log.count(Level.INFO) == 1, "the recovery to be logged");
            assertEquals(1, log.count(Level.WARNING));
            int after = s.failures();
            Thread.sleep(300);
            assertEquals(after, s.failures(), "no attempts once written");
            assertEquals(1, s.writes());
            // a second streak warns again
            block(s);
            s.changed(sample(home, 13));
            await(() -> s.failures() > after, "a failure of the second streak");
            assertEquals(2, log.count(Level.WARNING));
            unblock(s);
            await(() -> s.writes() == 2, "the retry of the second streak");
        }
    }

    /** The review's reproduction: the final write on close tries the state whose write failed. */
    @Test
    void closeWritesAStateWhoseWriteFailed() throws Exception {
        SessionStore s = new SessionStore(home, 60_000); // no debounced attempt during the test
        block(s);
        s.changed(sample(home, 9));
        assertThrows(IOException.class, s::flush);
        assertEquals(0, s.writes());
        unblock(s);
        s.close();
        assertEquals(1, s.writes());
        assertEquals(Optional.of(persisted(sample(home, 9))), new SessionStore(home).load());
    }

    @Test
    void aWriteThatFailsOnCloseIsReportedAndNotRetried() throws Exception {
        SessionStore s = new SessionStore(home, 20, 50);
        block(s);
        s.changed(sample(home, 9));
        await(() -> s.failures() >= 1, "a failure");
        s.close();
        int attempts = s.failures();
        Thread.sleep(200);
        assertEquals(attempts, s.failures(), "a closed store keeps no retry going");
        assertEquals(0, s.writes());
    }

    // ---------------------------------------------------------------- limits

    /** One pane tab holding {@code ids} as a right-leaning chain, focused on the last. */
    static Tab chain(String tabId, List<String> ids) {
        Node n = new Node.Leaf(ids.get(ids.size() - 1));
        for (int i = ids.size() - 2; i >= 0; i--) {
            n = new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf(ids.get(i)), n);
        }
        return new Tab(tabId, TabKind.PANES, null, n, ids.get(ids.size() - 1), false);
    }

    static String id(String prefix, int i) {
        return prefix + String.format("%016x", i);
    }

    List<Path> trimmed() throws IOException {
        try (Stream<Path> l = Files.list(home)) {
            return l.filter(p -> p.getFileName().toString().startsWith("session.json.trimmed-")).toList();
        }
    }

    /**
     * A file with more workspaces and tabs than this server allows (another version, other
     * limits) is not thrown away: what fits is restored, the rest dropped, the file kept aside.
     */
    @Test
    void aSessionOverTheWorkspaceAndTabLimitsIsTrimmedNotDiscarded() throws Exception {
        List<Workspace> ws = new ArrayList<>();
        int tabs = 0;
        for (int w = 0; w < Topology.MAX_WORKSPACES + 3; w++) {
            List<Tab> t = new ArrayList<>();
            int n = w == 0 ? Topology.MAX_TABS + 2 : 1;
            for (int i = 0; i < n; i++) {
                t.add(new Tab(id("tab_", ++tabs), TabKind.GIT, null, null, null, false));
            }
            ws.add(new Workspace(id("workspace_", w + 1), "w" + w, home, false, t, t.get(t.size() - 1).id()));
        }
        Topology big = new Topology(ws, ws.get(ws.size() - 1).id(), Map.of(), 1, 0);
        SessionStore s = new SessionStore(home);
        s.write(big);
        String original = Files.readString(s.path());
        Topology t = s.load().orElseThrow(() -> new AssertionError("the whole session was discarded"));
        assertEquals(ws.subList(0, Topology.MAX_WORKSPACES).stream().map(Workspace::id).toList(),
                t.workspaces().stream().map(Workspace::id).toList());
        Workspace first = t.workspaces().get(0);
        assertEquals(ws.get(0).tabs().subList(0, Topology.MAX_TABS), first.tabs());
        assertEquals(first.tabs().get(Topology.MAX_TABS - 1).id(), first.activeTab(), "a dropped active tab: the last kept");
        assertEquals(t.workspaces().get(Topology.MAX_WORKSPACES - 1).id(), t.activeWorkspace());
        assertEquals(1, trimmed().size());
        assertEquals(original, Files.readString(trimmed().get(0)));
        assertTrue(aside().isEmpty());
        s.write(t); // the trimmed state is one this server keeps
        assertEquals(Optional.of(t), s.load());
        assertEquals(1, trimmed().size());
        s.close();
    }

    @Test
    void aSessionOverThePaneLimitKeepsTheFirstPanesInTreeOrder() throws Exception {
        int total = Topology.MAX_PANES + 10;
        List<Tab> tabs = new ArrayList<>();
        Map<String, Pane> panes = new LinkedHashMap<>();
        List<String> chunk = new ArrayList<>();
        for (int i = 1; i <= total; i++) {
            String p = Integer.toString(i);
            panes.put(p, new Pane(p, null, home, List.of("sh"), null, null));
            chunk.add(p);
            if (chunk.size() == 7 || i == total) {
                tabs.add(chain(id("tab_", tabs.size() + 1), chunk));
                chunk = new ArrayList<>();
            }
        }
        tabs.add(new Tab(id("tab_", 999), TabKind.ORCHESTRATION, null, null, null, false));
        String straddling = tabs.get(Topology.MAX_PANES / 7).id();
        Workspace w = new Workspace(id("workspace_", 1), "w", home, false, tabs, tabs.get(tabs.size() - 2).id());
        SessionStore s = new SessionStore(home);
        s.write(new Topology(List.of(w), w.id(), panes, total + 1, 0));
        Topology t = s.load().orElseThrow(() -> new AssertionError("the whole session was discarded"));
        assertEquals(Topology.MAX_PANES, t.panes().size());
        assertEquals(List.copyOf(panes.keySet()).subList(0, Topology.MAX_PANES), List.copyOf(t.panes().keySet()));
        assertEquals(total + 1, t.nextPane(), "ids are never reused");
        Topology.Location cut = t.locateTab(straddling).orElseThrow();
        assertTrue(Topology.leaves(cut.tab().root()).contains(cut.tab().focused()), "the cut tab's focus is one of its panes");
        Workspace kept = t.workspaces().get(0);
        assertEquals(TabKind.ORCHESTRATION, kept.tabs().get(kept.tabs().size() - 1).kind(), "dashboards hold no panes");
        assertTrue(kept.tabIndex(kept.activeTab()) >= 0);
        assertEquals(1, trimmed().size());
        s.write(t);
        assertEquals(Optional.of(t), s.load());
        s.close();
    }

    @Test
    void loadingRemovesWhatAnInterruptedWriteLeftAndNothingElse() throws Exception {
        Path leftover = Files.writeString(home.resolve(".session.json.904.tmp"), "{\"workspa");
        Path other = Files.writeString(home.resolve(".config.toml.904.tmp"), "not the session's");
        Path mine = Files.writeString(home.resolve("session.json.bak"), "the user's");
        SessionStore s = new SessionStore(home);
        try {
            assertEquals(Optional.empty(), s.load());
            assertFalse(Files.exists(leftover));
            assertTrue(Files.exists(other));
            assertEquals("the user's", Files.readString(mine));
        } finally {
            s.close();
        }
    }
}
