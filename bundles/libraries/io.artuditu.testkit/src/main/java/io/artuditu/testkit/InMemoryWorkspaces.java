package io.artuditu.testkit;

import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The model as a family's unit tests need it: {@code change} applies the operation to an
 * in-memory {@link Topology} with a spawner that starts nothing (it records the launches it
 * was asked for, ids counted from 1; or fails, with {@link #failSpawn}), and keeps the events
 * the changes published. What a
 * family test does not need (live panes, closing) is unsupported.
 */
public class InMemoryWorkspaces implements Workspaces {
    private final AtomicLong ids = new AtomicLong();
    /** The topology now; tests may set it. */
    public Topology state = Topology.empty();
    /** Every event the changes published, in order. */
    public final List<TopologyEvent> published = new ArrayList<>();
    /** Every launch a change asked the spawner for, in order. */
    public final List<Spawner.Launch> launches = new ArrayList<>();
    /** When set, the spawner fails as a program that cannot start would. */
    public boolean failSpawn;

    /** Opens a workspace on {@code folder} (one pane tab, active); returns its id. */
    public String workspace(Path folder) throws IOException {
        return change(OptionalLong.empty(), (s, sp) -> Lifecycle.of(sp).openWorkspace(s, folder, null, sp));
    }

    @Override
    public Topology topology() {
        return state;
    }

    @Override
    public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
        Change<T> c = operation.apply(state, spawner());
        state = c.state();
        published.addAll(c.events());
        return c.result();
    }

    private Spawner spawner() {
        return new Spawner() {
            private Spawner.Launch launch = Spawner.Launch.shell();

            @Override
            public Pane spawn(String id, String ws, Path cwd) throws IOException {
                if (failSpawn) {
                    throw new IOException("no such program: " + launch.command());
                }
                launches.add(launch);
                return new Pane(id, "term_" + id, cwd, launch.command(), null, null);
            }

            @Override
            public String newId() {
                return String.format("%016x", ids.incrementAndGet());
            }

            @Override
            public Spawner with(Spawner.Launch l) {
                launch = l;
                return this;
            }
        };
    }

    @Override
    public PaneInfo open(PaneRequest request, OptionalLong ifRevision) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> paneOfTerminal(String terminalId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PaneInfo> focusedPane() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<PaneInfo> panes() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<WorkspaceInfo> workspaces() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean close(String paneId, long graceMillis) {
        throw new UnsupportedOperationException();
    }
}
