package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.PtyListener;
import io.artuditu.pty.PtyTracker;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pane's process starts off the app loop under a reserved pane id: a spawn that fails
 * leaves the model exactly as it was, and the model answers other changes while a spawn
 * is under way.
 */
class ModelSpawnTest {
    @TempDir
    Path home;

    record Event(String name, ObjectNode data) {
    }

    final List<Event> events = new CopyOnWriteArrayList<>();

    /** The real host, whose spawns can be held at a gate before they start (a slow spawn). */
    static final class GatedHost implements PtyHost {
        final Host real;
        volatile CountDownLatch gate;
        final CountDownLatch entered = new CountDownLatch(1);

        GatedHost(Host real) {
            this.real = real;
        }

        @Override
        public Pty spawn(SpawnRequest request, PtyListener listener) throws IOException {
            CountDownLatch g = gate;
            if (g != null) {
                entered.countDown();
                try {
                    g.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            return real.spawn(request, listener);
        }

        @Override
        public Optional<Pty> find(String id) {
            return real.find(id);
        }

        @Override
        public List<Pty> list() {
            return real.list();
        }

        @Override
        public AutoCloseable track(PtyTracker tracker) {
            return real.track(tracker);
        }
    }

    Model model(PtyHost host) {
        return new Model(host, home, home, () -> home.resolve("artuditu.sock"), (e, d) -> events.add(new Event(e, d)));
    }

    static PaneRequest sleeper() {
        return new PaneRequest(null, List.of("sleep", "30"), null, Map.of(), 80, 24, true);
    }

    static Spawner.Launch launch(String... argv) {
        return new Spawner.Launch(List.of(argv), Map.of(), 80, 24);
    }

    @Test
    void aSpawnThatFailsLeavesTheTopologyTheEventsAndThePaneIdsAsTheyWere() throws Exception {
        try (Host host = new Host(home.resolve("native")); Model m = model(host)) {
            PaneInfo a = m.open(sleeper());
            Topology before = m.topology();
            int published = events.size();
            int ptys = host.list().size();

            IOException split = assertThrows(IOException.class, () -> m.change((s, sp) -> Edits.split(s,
                    a.id(), Direction.RIGHT, true, sp.with(launch("/no/such/program")))));
            assertEquals("cannot start /no/such/program: not found on PATH or not executable", split.getMessage());
            IOException tab = assertThrows(IOException.class, () -> m.change((s, sp) -> Edits.newTab(s,
                    a.workspaceId(), TabKind.PANES, null, sp.with(launch("no-such-program-anywhere")))));
            assertEquals("cannot start no-such-program-anywhere: not found on PATH or not executable", tab.getMessage());
            IOException open = assertThrows(IOException.class, () -> m.open(new PaneRequest(null,
                    List.of("/no/such/program"), null, Map.of(), 80, 24, true)));
            assertEquals(split.getMessage(), open.getMessage());

            assertSame(before, m.topology(), "the state (and its version) is the one before the failed spawns");
            assertEquals(published, events.size(), "no event for a pane whose spawn failed");
            assertEquals(ptys, host.list().size(), "no stray PTY");
            assertEquals(List.of(a), m.panes());

            String b = m.change((s, sp) -> Edits.split(s, a.id(), Direction.RIGHT, true,
                    sp.with(launch("sleep", "30"))));
            assertEquals(Long.parseLong(a.id()) + 1, Long.parseLong(b), "the failed spawns' reserved ids were released");
            PaneInfo pb = m.pane(b).orElseThrow();
            assertTrue(host.find(pb.terminalId()).orElseThrow().isAlive());
            assertEquals(b, host.find(pb.terminalId()).orElseThrow().env().get(Model.PANE_ENV));
            for (PaneInfo p : m.panes()) {
                m.close(p.id(), 100);
            }
        }
    }

    @Test
    void otherChangesAreAnsweredWhileASpawnIsUnderWayAndThePaneArrivesWhenItsProcessIsUp() throws Exception {
        try (Host real = new Host(home.resolve("native"))) {
            GatedHost host = new GatedHost(real);
            try (Model m = model(host)) {
                PaneInfo a = m.open(sleeper());
                CountDownLatch gate = new CountDownLatch(1);
                host.gate = gate;
                CompletableFuture<String> split = CompletableFuture.supplyAsync(() -> {
                    try {
                        return m.change((s, sp) -> Edits.split(s, a.id(), Direction.DOWN, true,
                                sp.with(launch("sleep", "30"))));
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                assertTrue(host.entered.await(10, TimeUnit.SECONDS), "the spawn started");

                // The spawn is held: the loop still answers a change and reads see no half-made pane.
                CompletableFuture.runAsync(() -> {
                    try {
                        m.change((s, sp) -> Edits.renameWorkspace(s, a.workspaceId(), "renamed"));
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }).get(10, TimeUnit.SECONDS);
                assertEquals("renamed", m.topology().workspace(a.workspaceId()).orElseThrow().name());
                assertEquals(1, m.topology().panes().size(), "no pane before its process is up");
                assertTrue(events.stream().noneMatch(e -> e.name().equals("pane.created")
                        && !e.data().path("pane").asText().equals(a.id())));
                // A second spawning change waits for the first's reservation.
                CompletableFuture<PaneInfo> second = CompletableFuture.supplyAsync(() -> {
                    try {
                        return m.open(sleeper());
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                assertFalse(split.isDone());

                host.gate = null;
                gate.countDown();
                String b = split.get(10, TimeUnit.SECONDS);
                PaneInfo c = second.get(10, TimeUnit.SECONDS);
                assertEquals(Long.parseLong(a.id()) + 1, Long.parseLong(b), "the split got the id it reserved");
                assertEquals(Long.parseLong(a.id()) + 2, Long.parseLong(c.id()));
                assertEquals("renamed", m.topology().workspace(a.workspaceId()).orElseThrow().name(),
                        "the change made meanwhile is kept");
                for (String id : List.of(b, c.id())) {
                    PaneInfo p = m.pane(id).orElseThrow();
                    assertEquals(id, real.find(p.terminalId()).orElseThrow().env().get(Model.PANE_ENV));
                    assertEquals(a.workspaceId(), real.find(p.terminalId()).orElseThrow().env().get(Model.WORKSPACE_ENV));
                }
                assertEquals(3, real.list().size(), "no stray PTY");
                for (PaneInfo p : m.panes()) {
                    m.close(p.id(), 100);
                }
            }
        }
    }
}
