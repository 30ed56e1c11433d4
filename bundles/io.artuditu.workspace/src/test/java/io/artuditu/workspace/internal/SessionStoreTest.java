package io.artuditu.workspace.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.workspace.topology.Axis;
import io.artuditu.workspace.topology.Node;
import io.artuditu.workspace.topology.Pane;
import io.artuditu.workspace.topology.Tab;
import io.artuditu.workspace.topology.TabKind;
import io.artuditu.workspace.topology.Topology;
import io.artuditu.workspace.topology.Workspace;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session file alone: format round trip, atomic write, debounce, refusal of bad files. */
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
            assertFalse(text.contains("3000"), text); // reported metadata is a runtime fact
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
}
