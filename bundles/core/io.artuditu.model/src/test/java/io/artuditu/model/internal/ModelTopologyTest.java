package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.Pty;
import io.artuditu.pty.internal.Host;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Workspaces.change} on a real PTY host: state, spawned processes, ended processes and events together. */
class ModelTopologyTest {
    @TempDir
    static Path home;
    static Host host;

    @BeforeAll
    static void start() throws Exception {
        host = new Host(home.resolve("native"));
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    record Event(String name, ObjectNode data) {
    }

    final List<Event> events = new CopyOnWriteArrayList<>();

    Model model() {
        return new Model(host, home, home, () -> home.resolve("artuditu.sock"), (e, d) -> events.add(new Event(e, d)));
    }

    static Spawner.Launch sleep() {
        return new Spawner.Launch(List.of("sleep", "30"), Map.of(), 80, 24);
    }

    /** Opens a workspace whose first pane sleeps; returns its id. */
    static String workspace(Model m) throws IOException {
        return m.change((s, sp) -> Edits.openWorkspace(s, home, "w", sp.with(sleep())));
    }

    Event await(String name, String pane) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            for (Event e : events) {
                if (e.name().equals(name) && pane.equals(e.data().path("pane").asText())) {
                    return e;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + name + " for pane " + pane + " in " + events);
    }

    static void endAll(Model m) throws Exception {
        for (PaneInfo p : m.panes()) {
            m.close(p.id(), 100);
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!m.panes().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertTrue(m.panes().isEmpty(), "panes left: " + m.panes());
    }

    @Test
    void aChangeInstallsItsStateAndPublishesItsEventsInOrder() throws Exception {
        try (Model m = model()) {
            String ws = workspace(m);
            Topology t = m.topology();
            assertEquals(1, t.version());
            assertEquals(ws, t.activeWorkspace());
            String pane = t.focusedPane().orElseThrow();
            assertEquals(List.of("workspace.created", "tab.created", "pane.created"),
                    events.stream().map(Event::name).toList());
            ObjectNode created = events.get(2).data();
            String tab = t.workspaces().get(0).activeTab();
            assertEquals(pane, created.get("pane").asText());
            assertEquals(ws, created.get("workspace_id").asText());
            assertEquals(tab, created.get("tab_id").asText());
            assertEquals(t.panes().get(pane).terminalId(), created.get("terminal_id").asText());
            assertEquals(home.toString(), events.get(0).data().get("cwd").asText());
            PaneInfo info = m.pane(pane).orElseThrow();
            assertEquals(info, m.focusedPane().orElseThrow());
            assertEquals(ws, info.workspaceId());
            assertEquals(List.of("sleep", "30"), info.command());
            assertEquals(host.find(info.terminalId()).orElseThrow().pid(), info.pid());
            assertEquals(List.of(ws), m.workspaces().stream().map(w -> w.id()).toList());
            // Workspaces.open adds a pane tab to the focused workspace and focuses it
            PaneInfo opened = m.open(ModelTest.run("sleep 30"));
            assertEquals(ws, opened.workspaceId());
            assertEquals(2, m.topology().workspaces().get(0).tabs().size());
            assertEquals(opened, m.focusedPane().orElseThrow());
            endAll(m);
        }
    }

    @Test
    void aRefusedOperationChangesNothingAndPublishesNothing() throws Exception {
        try (Model m = model()) {
            workspace(m);
            Topology before = m.topology();
            int published = events.size();
            int ptys = host.list().size();
            UhpException e = assertThrows(UhpException.class,
                    () -> m.change((s, sp) -> Edits.renameWorkspace(s, "workspace_0000000000000000", "x")));
            assertEquals("not_found", e.code().wire());
            assertThrows(UhpException.class, () -> m.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.UP,
                    true, sp.with(new Spawner.Launch(List.of("sleep", "30"), Map.of(), 0, 24)))));
            // An operation that spawns and then fails leaves no process behind.
            assertThrows(IllegalStateException.class, () -> m.change((s, sp) -> {
                Edits.split(s, s.focusedPane().orElseThrow(), Direction.DOWN, true, sp.with(sleep()));
                throw new IllegalStateException("changed my mind");
            }));
            assertThrows(IOException.class, () -> m.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.DOWN, true,
                    sp.with(new Spawner.Launch(List.of("/no/such/program"), Map.of(), 80, 24)))));
            assertSame(before, m.topology());
            assertEquals(published, events.size(), "no event for a refused change");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (host.list().stream().filter(Pty::isAlive).count() > ptys && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            assertEquals(ptys, host.list().stream().filter(Pty::isAlive).count(), "no stray PTY");
            Thread.sleep(100); // the discarded PTY's exit reaches the loop: still nothing published
            assertEquals(published, events.size());
            endAll(m);
        }
    }

    @Test
    void aSplitSpawnsARealPtyThatKnowsItsPaneId() throws Exception {
        try (Model m = model()) {
            String ws = workspace(m);
            String first = m.topology().focusedPane().orElseThrow();
            String id = m.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.RIGHT, true, sp.with(new Spawner.Launch(
                    List.of("sh", "-c", "printf 'pane=%s ws=%s' \"$ARTUDITU_PANE_ID\" \"$ARTUDITU_WORKSPACE_ID\"; sleep 30"),
                    Map.of("ARTUDITU_PANE_ID", "999"), 100, 30))));
            assertEquals(Long.parseLong(first) + 1, Long.parseLong(id));
            PaneInfo p = m.pane(id).orElseThrow();
            assertEquals(ws, p.workspaceId());
            Pty pty = host.find(p.terminalId()).orElseThrow();
            assertEquals(id, pty.env().get(Model.PANE_ENV));
            assertEquals(100, pty.cols());
            ModelTest.awaitOutput(pty, "pane=" + id + " ws=" + ws);
            Node root = m.topology().workspaces().get(0).tabs().get(0).root();
            assertEquals(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf(first), new Node.Leaf(id)), root);
            assertEquals(p, m.focusedPane().orElseThrow());
            assertEquals("pane.created", events.get(events.size() - 1).name());
            endAll(m);
        }
    }

    @Test
    void closingATabEndsItsProcessesAndPublishesPaneClosedForEach() throws Exception {
        try (Model m = model()) {
            String ws = workspace(m);
            String a = m.topology().focusedPane().orElseThrow();
            String b = m.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.RIGHT, true, sp.with(sleep())));
            String c = m.change((s, sp) -> Edits.split(s, s.focusedPane().orElseThrow(), Direction.DOWN, true, sp.with(sleep())));
            List<Pty> ptys = m.panes().stream().map(p -> host.find(p.terminalId()).orElseThrow()).toList();
            String tab = m.topology().workspaces().get(0).activeTab();
            List<String> gone = m.change((s, sp) -> Edits.closeTab(s, tab));
            assertEquals(List.of(a, b, c), gone);
            assertTrue(m.panes().isEmpty(), "the panes leave the model with their tab");
            assertTrue(m.topology().workspaces().get(0).tabs().isEmpty());
            assertTrue(m.focusedPane().isEmpty());
            for (String id : gone) {
                Event closed = await("pane.closed", id);
                assertEquals(ws, closed.data().get("workspace_id").asText());
                assertTrue(closed.data().has("exit_status"));
                assertFalse(closed.data().get("terminal_id").asText().isEmpty());
            }
            for (Pty p : ptys) {
                p.exit().get(5, TimeUnit.SECONDS);
            }
            List<String> names = events.stream().map(Event::name).toList();
            assertTrue(names.indexOf("tab.closed") < names.indexOf("pane.closed"), names.toString());
            assertEquals(3, names.stream().filter("pane.closed"::equals).count(), "one pane.closed each: " + names);
        }
    }

    @Test
    void anExitingProcessRemovesItsLeafAndItsSiblingTakesTheParentsPlace() throws Exception {
        try (Model m = model()) {
            workspace(m);
            String a = m.topology().focusedPane().orElseThrow();
            String b = m.change((s, sp) -> Edits.split(s, a, Direction.RIGHT, false, sp.with(sleep())));
            String c = m.change((s, sp) -> Edits.split(s, a, Direction.DOWN, true, sp.with(new Spawner.Launch(
                    List.of("sh", "-c", "read x; exit 3"), Map.of(), 80, 24))));
            Node before = m.topology().workspaces().get(0).tabs().get(0).root();
            assertEquals(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Split(Axis.VERTICAL, 0.5, new Node.Leaf(a),
                    new Node.Leaf(c)), new Node.Leaf(b)), before);
            assertEquals(c, m.focusedPane().orElseThrow().id());
            host.find(m.pane(c).orElseThrow().terminalId()).orElseThrow().write("\n".getBytes(StandardCharsets.US_ASCII));
            Event closed = await("pane.closed", c);
            assertEquals(3, closed.data().get("exit_status").asInt());
            Node after = m.topology().workspaces().get(0).tabs().get(0).root();
            assertEquals(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf(a), new Node.Leaf(b)), after);
            assertEquals(a, m.focusedPane().orElseThrow().id(), "the focus passes to the pane that took its place");
            assertTrue(m.pane(c).isEmpty());
            endAll(m);
        }
    }

    /**
     * terminal.backend.create's path (Workspaces.open) into a workspace that already has
     * MAX_TABS tabs: refused the way tab.new refuses, before a process starts, so the server
     * never holds a state its session file could not restore.
     */
    @Test
    void openingAPaneInAFullWorkspaceIsRefusedBeforeItSpawns() throws Exception {
        try (Model m = model()) {
            String ws = workspace(m);
            while (m.topology().workspace(ws).orElseThrow().tabs().size() < Topology.MAX_TABS) {
                m.change((s, sp) -> Edits.newTab(s, ws, TabKind.GIT, null, sp));
            }
            int ptys = host.list().size();
            int published = events.size();
            Topology before = m.topology();
            UhpException e = assertThrows(UhpException.class, () -> m.open(new PaneRequest(ws,
                    List.of("sleep", "30"), null, Map.of(), 80, 24, true)));
            assertEquals(ErrorCode.INVALID_REQUEST, e.code());
            assertEquals(Map.of("field", "tab", "reason", "too_many"), e.details());
            assertSame(before, m.topology());
            assertEquals(ptys, host.list().size(), "a process was started for a refused pane");
            assertEquals(published, events.size());
            endAll(m);
        }
    }

    /** The first pane opened in a folder with an 80-character name makes a workspace named within the limit. */
    @Test
    void aPaneOpenedInALongFolderGetsAWorkspaceNameRenameAccepts() throws Exception {
        Path longDir = Files.createDirectories(home.resolve("f".repeat(80)));
        try (Model m = model()) {
            PaneInfo p = m.open(new PaneRequest(null, List.of("sleep", "30"), longDir, Map.of(), 80, 24, false));
            String name = m.topology().workspace(p.workspaceId()).orElseThrow().name();
            assertEquals("f".repeat(Topology.MAX_NAME), name);
            assertEquals(longDir, m.topology().workspace(p.workspaceId()).orElseThrow().cwd());
            m.change((s, sp) -> Edits.renameWorkspace(s, p.workspaceId(), name));
            endAll(m);
        }
    }
}
