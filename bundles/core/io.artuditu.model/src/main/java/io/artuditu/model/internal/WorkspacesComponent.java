package io.artuditu.model.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.PaneRequest;
import io.artuditu.model.WorkspaceInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.pty.PtyHost;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.TargetSpec;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.uhp.platform.TargetResolver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The {@link Workspaces} service, and the {@link TargetResolver} of workspace, tab and pane
 * targets ({@link Targets}). Only the PTY host is a static reference (without it
 * there are no panes); the event bus and the server are dynamic, so updating them does
 * not drop the model. On activation it restores {@code <home>/session.json} with its ids and
 * adopts the panes of PTYs a previous instance spawned (their ids travel in the PTY's
 * environment); on deactivation it writes the session synchronously.
 */
@Component(service = {Workspaces.class, TargetResolver.class}, immediate = true)
public final class WorkspacesComponent implements Workspaces, TargetResolver {
    private static final Set<TargetSpec.Kind> KINDS = Set.of(TargetSpec.Kind.WORKSPACE, TargetSpec.Kind.TAB,
            TargetSpec.Kind.PANE);
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
        model.revisions(this::checkRevision);
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

    /** An if_revision against the bus's revision; without a bus only 0 is current. */
    private void checkRevision(long ifRevision) {
        EventBus b = bus;
        if (b != null) {
            b.checkRevision(ifRevision);
        } else if (ifRevision != 0) {
            throw new UhpException(ErrorCode.REVISION_CONFLICT, "if_revision " + ifRevision
                    + " is newer than the current revision 0; nothing ran", Map.of("revision", 0));
        }
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
    public PaneInfo open(PaneRequest request, OptionalLong ifRevision) throws IOException {
        return model.open(request, ifRevision);
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
    public Optional<PaneExit> exited(String paneId) {
        return model.exited(paneId);
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
    public <T> T change(OptionalLong ifRevision, Operation<T> operation) throws IOException {
        return model.change(ifRevision, operation);
    }

    // ---------------------------------------------------------------- targets

    @Override
    public Set<TargetSpec.Kind> kinds() {
        return KINDS;
    }

    @Override
    public Object resolve(TargetSpec spec, ObjectNode params) {
        return Targets.resolve(model.topology(), spec, params, null, model::exitEvidence);
    }

    @Override
    public Object resolve(TargetSpec spec, ObjectNode params, Object primary) {
        return Targets.resolve(model.topology(), spec, params, primary instanceof Target t ? t : null, model::exitEvidence);
    }
}
