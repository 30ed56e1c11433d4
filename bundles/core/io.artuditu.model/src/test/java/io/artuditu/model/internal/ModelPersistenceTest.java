package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.PaneInfo;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.Pty;
import io.artuditu.pty.internal.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Save and restore through the model, with real PTY hosts. */
class ModelPersistenceTest {
    @TempDir
    Path home;

    static Spawner.Launch sleep() {
        return new Spawner.Launch(List.of("sleep", "60"), Map.of(), 80, 24);
    }

    Model model(Host host) {
        return new Model(host, home, home, () -> home.resolve("artuditu.sock"), (e, d) -> { });
    }

    /** A session with two workspaces, a split, names, a purpose, a pin, a dashboard; panes run sleep. */
    static void build(Model m, Path a, Path b) throws Exception {
        String ws1 = m.change((s, sp) -> Edits.openWorkspace(s, a, "alpha", sp.with(sleep())));
        String p1 = m.topology().focusedPane().orElseThrow();
        String p2 = m.change((s, sp) -> Edits.split(s, p1, Direction.RIGHT, true, sp.with(sleep())));
        m.change((s, sp) -> Edits.renamePane(s, p1, "editor"));
        m.change((s, sp) -> Edits.purpose(s, p2, "runs the tests", false));
        m.change((s, sp) -> Edits.newTab(s, ws1, TabKind.GIT, null, sp));
        m.change((s, sp) -> Edits.openWorkspace(s, b, "beta", sp.with(sleep())));
        m.change((s, sp) -> Edits.pin(s, ws1, true));
    }

    /** The topology without what a restart changes (terminal ids, commands, version). */
    static Topology shape(Topology t) {
        Map<String, Pane> panes = new java.util.LinkedHashMap<>();
        t.panes().forEach((k, p) -> panes.put(k, new Pane(p.id(), null, p.cwd(), List.of(), p.name(), p.purpose())));
        return new Topology(t.workspaces(), t.activeWorkspace(), panes, t.nextPane(), 0);
    }

    static Path cwdOf(long pid) throws Exception {
        return Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
    }

    @Test
    void aRestartRestoresTheSameIdsTreeNamesAndPurposesWithShellsInTheSavedFolders() throws Exception {
        Path a = Files.createDirectories(home.resolve("a"));
        Path b = Files.createDirectories(home.resolve("b"));
        Topology before;
        try (Host h1 = new Host(home.resolve("native1"))) {
            Model m1 = model(h1);
            m1.start(new SessionStore(home));
            build(m1, a, b);
            before = m1.topology();
            m1.close(); // server.stop: written synchronously
            assertTrue(Files.exists(home.resolve("session.json")));
        } // the old server's processes end with it
        try (Host h2 = new Host(home.resolve("native2"))) {
            try (Model m2 = model(h2)) {
                m2.start(new SessionStore(home));
                Topology after = m2.topology();
                assertEquals(shape(before), shape(after));
                assertEquals(before.panes().size(), h2.list().size());
                for (Pane p : after.panes().values()) {
                    assertNotNull(p.terminalId());
                    Pty pty = h2.find(p.terminalId()).orElseThrow();
                    assertTrue(pty.isAlive());
                    // the user's shell, not the saved command (sleep)
                    assertNotEquals(List.of("sleep", "60"), p.command(), p.id());
                    assertEquals(p.cwd().toRealPath(), cwdOf(pty.pid()).toRealPath());
                    PaneInfo info = m2.pane(p.id()).orElseThrow();
                    assertEquals(pty.pid(), info.pid());
                }
                assertEquals(b, after.panes().get(before.workspaces().get(1).tabs().get(0).focused()).cwd());
                // new panes continue after the saved ids
                m2.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.DOWN, true,
                        sp.with(sleep())));
                assertEquals(Long.toString(before.nextPane()), m2.topology().focusedPane().orElseThrow());
                for (Pty p : h2.list()) {
                    p.terminate(0);
                }
            }
        }
    }

    @Test
    void runningPanesOfABundleUpdateKeepTheirProcessOverTheFile() throws Exception {
        Path a = Files.createDirectories(home.resolve("a"));
        Path b = Files.createDirectories(home.resolve("b"));
        try (Host h = new Host(home.resolve("native"))) {
            Model m1 = model(h);
            m1.start(new SessionStore(home));
            build(m1, a, b);
            Topology before = m1.topology();
            m1.close();
            try (Model m2 = model(h)) {
                m2.start(new SessionStore(home));
                Topology after = m2.topology();
                assertEquals(shape(before), shape(after));
                for (Pane p : before.panes().values()) {
                    assertEquals(p.terminalId(), after.panes().get(p.id()).terminalId());
                    assertEquals(List.of("sleep", "60"), after.panes().get(p.id()).command());
                }
                assertEquals(before.panes().size(), h.list().size(), "no extra shells");
                for (Pty p : h.list()) {
                    p.terminate(0);
                }
            }
        }
    }

    @Test
    void changesAreSavedWithoutAStopAndExitsAreSavedToo() throws Exception {
        Path a = Files.createDirectories(home.resolve("a"));
        try (Host h = new Host(home.resolve("native"))) {
            Model m = model(h);
            m.start(new SessionStore(home, 50));
            String ws = m.change((s, sp) -> Edits.openWorkspace(s, a, "alpha", sp.with(sleep())));
            String p = m.topology().focusedPane().orElseThrow();
            m.change((s, sp) -> Edits.renameWorkspace(s, ws, "renamed"));
            Topology saved = awaitSaved(t -> t.workspaces().size() == 1 && t.workspaces().get(0).name().equals("renamed"));
            assertEquals(List.of(p), List.copyOf(saved.panes().keySet()));
            m.close(p, 0);
            awaitSaved(t -> t.panes().isEmpty()); // the exit removed the pane, and that was saved
            m.close();
        }
    }

    @Test
    void aCorruptFileIsKeptAsideAndTheModelStartsClean() throws Exception {
        Files.writeString(home.resolve("session.json"), "not json at all");
        try (Host h = new Host(home.resolve("native")); Model m = model(h)) {
            m.start(new SessionStore(home));
            assertTrue(m.topology().workspaces().isEmpty());
            assertTrue(m.topology().panes().isEmpty());
            try (Stream<Path> l = Files.list(home)) {
                assertEquals(1, l.filter(p -> p.getFileName().toString().startsWith("session.json.corrupt-")).count());
            }
        }
    }

    @Test
    void aSavedFolderThatIsGoneFallsBackToTheWorkspaceFolder() throws Exception {
        Path a = Files.createDirectories(home.resolve("a"));
        Path gone = Files.createDirectories(home.resolve("gone"));
        try (Host h1 = new Host(home.resolve("native1"))) {
            Model m1 = model(h1);
            m1.start(new SessionStore(home));
            String ws = m1.change((s, sp) -> Edits.openWorkspace(s, a, "alpha", sp.with(sleep())));
            m1.change((s, sp) -> Edits.newTab(s, ws, TabKind.PANES, null, (id, w, c) -> sp.with(sleep()).spawn(id, w, gone)));
            m1.close();
        }
        Files.delete(gone);
        try (Host h2 = new Host(home.resolve("native2")); Model m2 = model(h2)) {
            m2.start(new SessionStore(home));
            assertEquals(2, m2.topology().panes().size());
            for (Pane p : m2.topology().panes().values()) {
                assertEquals(a, p.cwd());
            }
            for (Pty p : h2.list()) {
                p.terminate(0);
            }
        }
    }

    private Topology awaitSaved(java.util.function.Predicate<Topology> ok) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Topology last = null;
        while (System.nanoTime() < end) {
            if (Files.exists(home.resolve("session.json"))) {
                last = SessionStore.fromJson(new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(home.resolve("session.json").toFile()));
                if (ok.test(last)) {
                    return last;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not saved as expected; last saved: " + last);
    }
}
