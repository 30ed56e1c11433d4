package io.artuditu.model;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The workspace model. Every change runs on one writer thread (the app loop), is
 * validated whole before anything changes, publishes its event ({@code pane.created},
 * {@code pane.closed}) and so moves the revision. Reads return immutable records and never
 * change focus.
 */
@ProviderType
public interface Workspaces {
    /** Most panes one server holds; creating one more is refused. */
    int MAX_PANES = 1024;

    /**
     * Creates a pane with a new PTY and publishes {@code pane.created}.
     *
     * @throws IllegalArgumentException for a request that cannot be served (unknown
     *     workspace, missing directory, bad size); nothing changed
     * @throws io.artuditu.model.topology.TopologyException when a topology limit refuses
     *     it (too many panes, tabs in the workspace or workspaces), with the code and details
     *     {@code tab.new} and {@code workspace.open} give; checked before anything spawns,
     *     nothing changed
     * @throws IOException when the process cannot be started; nothing changed
     */
    PaneInfo open(PaneRequest request) throws IOException;

    Optional<PaneInfo> pane(String paneId);

    Optional<PaneInfo> paneOfTerminal(String terminalId);

    /** The pane a request without one means; empty when there is none. */
    Optional<PaneInfo> focusedPane();

    /** Every pane, in creation order. */
    List<PaneInfo> panes();

    List<WorkspaceInfo> workspaces();

    /**
     * Ends a pane's process (SIGHUP, SIGKILL after {@code graceMillis}); the pane leaves the
     * model, with {@code pane.closed}, once the process has exited.
     *
     * @return false when there is no such pane
     */
    boolean close(String paneId, long graceMillis);

    // --- the topology (issue 6): see docs/topology.md ---

    /** The whole topology at this instant (immutable; reading it never changes focus). */
    io.artuditu.model.topology.Topology topology();

    /**
     * Runs one topology operation on the app loop against the current state: the operation
     * validates and returns a {@link io.artuditu.model.topology.Change} (or throws, and
     * nothing changed); the model installs the new state, ends the processes of panes the
     * change removed, publishes the change's events in order and returns its result.
     * Operations that add panes get a {@link io.artuditu.model.topology.Spawner} that
     * starts the pane's PTY with its {@code ARTUDITU_*} identity and shell integration. The
     * PTY starts off the app loop: an operation that spawns is run once on the caller's
     * thread to plan (a spawner that starts nothing), then once more on the loop to commit,
     * so it must be a pure function of its arguments (docs/topology.md).
     *
     * @throws io.artuditu.model.topology.TopologyException a refusal (invalid_request / not_found)
     * @throws IOException a pane's process could not be started (nothing changed)
     */
    <T> T change(Operation<T> operation) throws IOException;

    /** One topology change, run on the app loop. */
    @FunctionalInterface
    interface Operation<T> {
        io.artuditu.model.topology.Change<T> apply(io.artuditu.model.topology.Topology current,
                io.artuditu.model.topology.TopologyOps ops, io.artuditu.model.topology.Spawner spawner)
                throws IOException;
    }
}
