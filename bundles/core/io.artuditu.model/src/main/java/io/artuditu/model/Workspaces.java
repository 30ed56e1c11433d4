package io.artuditu.model;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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
     * @throws io.artuditu.uhp.api.UhpException when a topology limit refuses it (too many
     *     panes, tabs in the workspace or workspaces), with the code and details
     *     {@code tab.new} and {@code workspace.open} give; checked before anything spawns,
     *     nothing changed
     * @throws IOException when the process cannot be started; nothing changed
     */
    default PaneInfo open(PaneRequest request) throws IOException {
        return open(request, OptionalLong.empty());
    }

    /**
     * {@link #open(PaneRequest)} that runs only if the state is still the one
     * {@code ifRevision} names (checked on the app loop where the pane is added).
     *
     * @throws io.artuditu.uhp.api.UhpException {@code revision_conflict}; nothing changed
     */
    PaneInfo open(PaneRequest request, OptionalLong ifRevision) throws IOException;

    Optional<PaneInfo> pane(String paneId);

    Optional<PaneInfo> paneOfTerminal(String terminalId);

    /**
     * How a pane that left the model with its process ended (one of the newest 64 such):
     * its terminal, exit status and when; empty for a pane still here, one closed while its
     * process was still running until that process exits, and one never seen.
     */
    default Optional<PaneExit> exited(String paneId) {
        return Optional.empty();
    }

    /**
     * The end of a pane's process.
     *
     * @param terminalId   the PTY it ran on
     * @param status       its exit status (128 + n for signal n)
     * @param exitedMillis when the model learned of it
     */
    record PaneExit(String terminalId, int status, long exitedMillis) {
        /** As {@code not_found} evidence: {@code terminal_id}, {@code state: exited}, {@code exit_status}, {@code exited_at_ms}. */
        public java.util.Map<String, Object> evidence() {
            java.util.Map<String, Object> d = new java.util.LinkedHashMap<>();
            d.put("terminal_id", terminalId);
            d.put("state", "exited");
            d.put("exit_status", status);
            d.put("exited_at_ms", exitedMillis);
            return d;
        }
    }

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

    /** The whole topology at this instant (immutable; reading it never changes focus). */
    io.artuditu.model.topology.Topology topology();

    /**
     * Runs one topology change on the app loop, the topology's one writer, against the state
     * of that instant: the operation validates and returns a
     * {@link io.artuditu.model.topology.Change} (or throws, and nothing changed); the model
     * installs the new state, ends the processes of panes the change removed, publishes the
     * change's events in order and returns its result. A change that adds panes gets their
     * processes from the {@link io.artuditu.model.topology.Spawner}, which starts each PTY
     * with its {@code ARTUDITU_*} identity and shell integration, off the loop: such an
     * operation runs once on the loop to find what it spawns, once more to commit, so it
     * must be a pure function of its arguments (docs/topology.md). One that spawns nothing
     * runs once.
     *
     * @throws io.artuditu.uhp.api.UhpException a refusal (invalid_request / not_found)
     * @throws IOException a pane's process could not be started (nothing changed)
     */
    default <T> T change(Operation<T> operation) throws IOException {
        return change(OptionalLong.empty(), operation);
    }

    /**
     * {@link #change(Operation)} that runs only if the state is still the one
     * {@code ifRevision} names: checked on the app loop right before the operation (and
     * again before a spawning change commits), so no other change comes in between.
     *
     * @throws io.artuditu.uhp.api.UhpException {@code revision_conflict}; nothing changed
     */
    <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException;

    /** One topology change, run on the app loop. */
    @FunctionalInterface
    interface Operation<T> {
        io.artuditu.model.topology.Change<T> apply(io.artuditu.model.topology.Topology current,
                io.artuditu.model.topology.Spawner spawner) throws IOException;
    }
}
