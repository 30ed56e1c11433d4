package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.PaneInfo;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Topology;
import io.artuditu.pty.internal.Host;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app loop is the topology's one writer: a change that spawns nothing runs once, on the
 * loop; {@code if_revision} is checked there, right before the change, and a stale one
 * runs nothing and starts no process.
 */
class OneWriterTest {
    @TempDir
    Path home;

    final List<String> events = new CopyOnWriteArrayList<>();
    /** The revision: every published event moves it, as the event bus does. */
    final AtomicLong revision = new AtomicLong();

    Model model(Host host) {
        Model m = new Model(host, home, home, () -> home.resolve("artuditu.sock"), (e, d) -> {
            events.add(e);
            revision.incrementAndGet();
        });
        m.revisions(r -> {
            if (r != revision.get()) {
                throw new UhpException(ErrorCode.REVISION_CONFLICT, "stale", Map.of("revision", revision.get()));
            }
        });
        return m;
    }

    @Test
    void aChangeThatSpawnsNothingRunsOnceAndOnTheLoop() throws Exception {
        try (Host host = new Host(home.resolve("native")); Model m = model(host)) {
            PaneInfo a = m.open(ModelTest.run("sleep 30"));
            List<String> threads = new ArrayList<>();
            m.change((s, sp) -> {
                threads.add(Thread.currentThread().getName());
                return Edits.renameWorkspace(s, a.workspaceId(), "once");
            });
            assertEquals(List.of("app-loop"), threads);
            m.close(a.id(), 100);
        }
    }

    @Test
    void aStaleIfRevisionIsRefusedOnTheLoopAndNothingRunsOrStarts() throws Exception {
        try (Host host = new Host(home.resolve("native")); Model m = model(host)) {
            PaneInfo a = m.open(ModelTest.run("sleep 30"));
            long seen = revision.get();
            m.change(OptionalLong.of(seen), (s, sp) -> Edits.renameWorkspace(s, a.workspaceId(), "current"));
            assertEquals("current", m.topology().workspaces().get(0).name());

            Topology before = m.topology();
            int ptys = host.list().size();
            List<String> ran = new CopyOnWriteArrayList<>();
            Spawner.Launch sleep = new Spawner.Launch(List.of("sleep", "30"), Map.of(), 80, 24);
            UhpException rename = assertThrows(UhpException.class, () -> m.change(OptionalLong.of(seen), (s, sp) -> {
                ran.add("rename");
                return Edits.renameWorkspace(s, a.workspaceId(), "stale");
            }));
            UhpException split = assertThrows(UhpException.class, () -> m.change(OptionalLong.of(seen), (s, sp) -> {
                ran.add("split");
                return Edits.split(s, a.id(), Direction.RIGHT, true, sp.with(sleep));
            }));
            UhpException open = assertThrows(UhpException.class, () -> m.open(ModelTest.run("sleep 30"),
                    OptionalLong.of(seen)));
            for (UhpException e : List.of(rename, split, open)) {
                assertEquals(ErrorCode.REVISION_CONFLICT, e.code());
            }
            assertEquals(List.of(), ran, "a stale change never runs");
            assertSame(before, m.topology());
            assertEquals(ptys, host.list().size(), "no process started for a stale change");

            String b = m.change(OptionalLong.of(revision.get()), (s, sp) -> {
                ran.add("fresh");
                return Edits.split(s, a.id(), Direction.RIGHT, true, sp.with(sleep));
            });
            assertTrue(m.pane(b).isPresent());
            assertEquals(List.of("fresh", "fresh"), ran, "a spawning change runs twice: to find its panes, to commit");
            for (PaneInfo p : m.panes()) {
                m.close(p.id(), 100);
            }
        }
    }
}
