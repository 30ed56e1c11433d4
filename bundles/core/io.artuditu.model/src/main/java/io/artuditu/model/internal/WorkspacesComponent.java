package io.artuditu.model.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.pty.PtyHost;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The {@link Workspaces} service. Only the PTY host is a static reference (without it
 * there are no panes); the event bus and the server are dynamic, so updating them does
 * not drop the model. On activation it restores {@code <home>/session.json} with its ids and
 * adopts the panes of PTYs a previous instance spawned (their ids travel in the PTY's
 * environment); on deactivation it writes the session synchronously.
 */
@Component(service = Workspaces.class, immediate = true)
public final class WorkspacesComponent implements Workspaces {
    private final Model model;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile EventBus bus;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerControl server;

    @Activate
    public WorkspacesComponent(BundleContext context, @Reference PtyHost host) throws Exception {
        Path home = SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv());
        ShellIntegration.removeLeftovers(home);
        this.model = new Model(host, home, Path.of(System.getProperty("user.home")), this::socketPath, this::publish);
        model.start(new SessionStore(home));
        // A standalone server ends with System.exit (server.stop, SIGTERM) and the framework
        // is not always stopped before the JVM halts: save the last state from a hook too.
        Runtime.getRuntime().addShutdownHook(saveOnExit);
    }

    private final Thread saveOnExit = new Thread(this::saveNow, "artuditu-session-save");

    private void saveNow() {
        model.saveNow();
    }

    private Path socketPath() {
        ServerControl s = server;
        return s == null ? null : s.socketPath();
    }

    private void publish(String event, ObjectNode data) {
        EventBus b = bus;
        if (b != null) {
            b.publish(event, data);
        }
    }

    @Deactivate
    void deactivate() {
        try {
            Runtime.getRuntime().removeShutdownHook(saveOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) anyway
        }
        model.close();
    }

    @Override
    public PaneInfo open(PaneRequest request) throws IOException {
        return model.open(request);
    }

    @Override
    public Optional<PaneInfo> pane(String paneId) {
        return model.pane(paneId);
    }

    @Override
    public Optional<PaneInfo> paneOfTerminal(String terminalId) {
        return model.paneOfTerminal(terminalId);
    }

    @Override
    public Optional<PaneInfo> focusedPane() {
        return model.focusedPane();
    }

    @Override
    public List<PaneInfo> panes() {
        return model.panes();
    }

    @Override
    public List<WorkspaceInfo> workspaces() {
        return model.workspaces();
    }

    @Override
    public boolean close(String paneId, long graceMillis) {
        return model.close(paneId, graceMillis);
    }

    @Override
    public io.artuditu.model.topology.Topology topology() {
        return model.topology();
    }

    @Override
    public <T> T change(Operation<T> operation) throws IOException {
        return model.change(operation);
    }
}
