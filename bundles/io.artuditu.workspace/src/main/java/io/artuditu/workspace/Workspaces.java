package io.artuditu.workspace;

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
    int MAX_PANES = 256;

    /**
     * Creates a pane with a new PTY and publishes {@code pane.created}.
     *
     * @throws IllegalArgumentException for a request that cannot be served (unknown
     *     workspace, missing directory, too many panes); nothing changed
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
}
