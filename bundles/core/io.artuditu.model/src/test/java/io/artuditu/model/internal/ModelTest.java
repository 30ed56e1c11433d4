package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.internal.Host;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model on a real PTY host. */
class ModelTest {
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

    static PaneRequest run(String script) {
        return new PaneRequest(null, List.of("sh", "-c", script), null, Map.of("ARTUDITU_PANE_ID", "999", "X_EXTRA", "1"),
                80, 24, true);
    }

    static String output(Pty pty) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pty.exit().get(10, TimeUnit.SECONDS);
        pty.listen(new PtyListener() {
            @Override
            public synchronized void output(byte[] buf, int off, int len) {
                out.write(buf, off, len);
            }
        });
        return out.toString(StandardCharsets.UTF_8);
    }

    static void awaitOutput(Pty pty, String needle) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            pty.listen((buf, off, len) -> out.write(buf, off, len));
            pty.listen(null);
            if (out.toString(StandardCharsets.UTF_8).contains(needle)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + needle);
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

    @Test
    void aPaneGetsItsIdentityInTheEnvironmentAndLeavesWithItsExitStatus() throws Exception {
        try (Model m = model()) {
            PaneInfo p = m.open(run("printf '%s|%s|%s|%s' \"$ARTUDITU_PANE_ID\" \"$ARTUDITU_WORKSPACE_ID\" "
                    + "\"$ARTUDITU_SOCKET_PATH\" \"$X_EXTRA\"; read x; exit 5"));
            assertTrue(p.id().matches("[1-9][0-9]*"), p.id());
            assertTrue(p.workspaceId().startsWith("workspace_"), p.workspaceId());
            assertEquals(p, m.focusedPane().orElseThrow());
            assertEquals(p, m.paneOfTerminal(p.terminalId()).orElseThrow());
            Pty pty = host.find(p.terminalId()).orElseThrow();
            String expected = p.id() + "|" + p.workspaceId() + "|" + home.resolve("artuditu.sock") + "|1";
            awaitOutput(pty, expected);
            pty.write("\n".getBytes(StandardCharsets.US_ASCII));
            String out = output(pty);
            assertTrue(out.startsWith(expected), out + " / " + expected + ": the model's ARTUDITU_* values win over the request's");
            Event closed = await("pane.closed", p.id());
            assertEquals(5, closed.data().get("exit_status").asInt());
            assertTrue(m.pane(p.id()).isEmpty(), "an exited pane leaves the model");
            assertTrue(m.focusedPane().isEmpty());
            await("pane.created", p.id());
            assertTrue(events.stream().anyMatch(e -> e.name().equals("workspace.created")));
        }
    }

    /**
     * ARTUDITU_PORT (a worktree's port block): the first pane of a workspace gets the one its
     * launch names, later panes the workspace's worktree_port metadata, and a request cannot
     * set a malformed one.
     */
    @Test
    void aWorktreeWorkspaceGivesItsPanesTheirPort() throws Exception {
        try (Model m = model()) {
            io.artuditu.model.topology.Spawner.Launch first = new io.artuditu.model.topology.Spawner.Launch(
                    List.of("sh", "-c", "printf 'port=%s.' \"$ARTUDITU_PORT\"; sleep 30"), Map.of("ARTUDITU_PORT", "41010"),
                    80, 24);
            String ws = m.change((s, sp) -> io.artuditu.model.topology.Lifecycle.of(sp).openWorkspace(s, home, null,
                    sp.with(first)));
            String p1 = m.topology().requireWorkspace(ws).tabs().get(0).focused();
            awaitOutput(host.find(m.pane(p1).orElseThrow().terminalId()).orElseThrow(), "port=41010.");
            m.change((s, sp) -> {
                io.artuditu.model.topology.Workspace w = s.requireWorkspace(ws);
                return new io.artuditu.model.topology.Change<>(s.withWorkspace(s.workspaceIndex(ws),
                        new io.artuditu.model.topology.Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(),
                                w.activeTab(), Map.of("worktree_port", 41020L))), List.of(), null);
            });
            PaneInfo p2 = m.open(new PaneRequest(ws, List.of("sh", "-c", "printf 'port=%s.' \"$ARTUDITU_PORT\"; sleep 30"),
                    null, Map.of("ARTUDITU_PORT", "9"), 80, 24, false));
            awaitOutput(host.find(p2.terminalId()).orElseThrow(), "port=41020.");
            io.artuditu.model.topology.Spawner.Launch bad = new io.artuditu.model.topology.Spawner.Launch(
                    first.command(), Map.of("ARTUDITU_PORT", "1; rm"), 80, 24);
            String ws2 = m.change((s, sp) -> io.artuditu.model.topology.Lifecycle.of(sp).openWorkspace(s, home, "other",
                    sp.with(bad)));
            String p3 = m.topology().requireWorkspace(ws2).tabs().get(0).focused();
            awaitOutput(host.find(m.pane(p3).orElseThrow().terminalId()).orElseThrow(), "port=.");
        }
    }

    @Test
    void paneIdsAreNotReusedAndTheWorkspaceIsShared() throws Exception {
        try (Model m = model()) {
            PaneInfo a = m.open(run("sleep 30"));
            PaneInfo b = m.open(run("sleep 30"));
            assertFalse(a.id().equals(b.id()));
            assertEquals(a.workspaceId(), b.workspaceId());
            assertEquals(1, m.workspaces().size());
            assertEquals(List.of(a, b), m.panes());
            assertTrue(m.close(a.id(), 200));
            await("pane.closed", a.id());
            PaneInfo c = m.open(run("sleep 30"));
            assertEquals(Long.parseLong(b.id()) + 1, Long.parseLong(c.id()));
            m.close(b.id(), 200);
            m.close(c.id(), 200);
            await("pane.closed", c.id());
        }
    }

    @Test
    void badRequestsChangeNothing() throws Exception {
        try (Model m = model()) {
            int before = events.size();
            assertThrows(IllegalArgumentException.class, () -> m.open(new PaneRequest(null, List.of("sh"),
                    home.resolve("missing"), Map.of(), 80, 24, true)));
            assertThrows(IllegalArgumentException.class, () -> m.open(new PaneRequest("workspace_nope", List.of("sh"),
                    null, Map.of(), 80, 24, true)));
            assertThrows(IllegalArgumentException.class, () -> m.open(new PaneRequest(null, List.of("sh"),
                    null, Map.of(), 0, 24, true)));
            assertThrows(java.io.IOException.class, () -> m.open(new PaneRequest(null,
                    List.of("/no/such/program"), null, Map.of(), 80, 24, true)));
            assertTrue(m.panes().isEmpty());
            assertTrue(m.workspaces().isEmpty());
            assertEquals(before, events.size(), "no event for a refused request");
        }
    }

    @Test
    void aNewModelAdoptsTheRunningPanesOfTheOldOne() throws Exception {
        PaneInfo p;
        try (Model first = model()) {
            p = first.open(run("sleep 30"));
        }
        try (Model second = model()) {
            second.adopt();
            PaneInfo back = second.pane(p.id()).orElseThrow();
            assertEquals(p.terminalId(), back.terminalId());
            assertEquals(p.workspaceId(), back.workspaceId());
            assertEquals(p.pid(), back.pid());
            PaneInfo next = second.open(run("sleep 30"));
            assertTrue(Long.parseLong(next.id()) > Long.parseLong(p.id()), "ids continue after the adopted ones");
            second.close(p.id(), 100);
            second.close(next.id(), 100);
            await("pane.closed", next.id());
        }
    }
}
