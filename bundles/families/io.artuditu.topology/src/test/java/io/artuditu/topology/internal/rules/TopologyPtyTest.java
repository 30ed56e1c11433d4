package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.Pty;
import io.artuditu.pty.SpawnRequest;
import io.artuditu.pty.internal.Host;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Split with the real PTY host as spawner: the leaf and the process arrive together, a failed spawn adds neither. */
class TopologyPtyTest {
    @TempDir
    Path home;

    @Test
    void splitSpawnsARealPtyAndAFailedSpawnChangesNothing() throws Exception {
        try (Host host = new Host(home.resolve("native"))) {
            AtomicLong n = new AtomicLong();
            TopologyOps ops = new TopologyOps(() -> String.format("%016x", n.incrementAndGet()));
            Spawner real = (id, ws, cwd) -> spawn(host, id, cwd, List.of("sleep", "30"));
            Topology s = ops.lifecycle().openWorkspace(Topology.empty(), home, null, real).state();
            Change<String> c = ops.panes().split(s, s.focusedPane().orElseThrow(), Direction.RIGHT, true, real);
            s = c.state();
            Pty pty = host.find(s.panes().get(c.result()).terminalId()).orElseThrow();
            assertTrue(pty.isAlive());
            Topology before = s;
            Spawner broken = (id, ws, cwd) -> spawn(host, id, cwd, List.of("/no/such/program"));
            assertThrows(IOException.class, () -> ops.panes().split(before, before.focusedPane().orElseThrow(), Direction.DOWN, true, broken));
            assertEquals(2, host.list().size(), "no stray PTY");
            for (Pane p : s.panes().values()) {
                Pty q = host.find(p.terminalId()).orElseThrow();
                q.terminate(100);
                q.exit().get(10, TimeUnit.SECONDS);
            }
        }
    }

    static Pane spawn(Host host, String id, Path cwd, List<String> argv) throws IOException {
        Pty p = host.spawn(new SpawnRequest(argv, cwd, Map.of("ARTUDITU_PANE_ID", id), 80, 24), null);
        return new Pane(id, p.id(), cwd, argv, null, null);
    }
}
