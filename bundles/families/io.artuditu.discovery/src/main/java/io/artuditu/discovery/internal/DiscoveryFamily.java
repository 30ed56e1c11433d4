package io.artuditu.discovery.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.ServerControl;
import io.artuditu.uhp.platform.StatsContributor;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/** The discovery family: health, the live registry, counters and the clean stop. */
@Component(service = UhpFamily.class)
public final class DiscoveryFamily implements UhpFamily {
    static final String UHP_VERSION = "1.0";

    private final ServerControl server;
    private final UhpDispatcher dispatcher;
    private final List<StatsContributor> contributors = new CopyOnWriteArrayList<>();
    private final FamilyContract contract;
    /** The event bus, when its bundle runs: it owns the sequence. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus bus;

    @Activate
    public DiscoveryFamily(@Reference ServerControl server, @Reference UhpDispatcher dispatcher) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.contract = FamilyContract.load(DiscoveryFamily.class, "protocol/uhp/v1/discovery.json")
                .route("ping", this::ping)
                .route("uhp.capabilities", this::capabilities)
                .route("uhp.stats", this::stats)
                .route("server.stop", this::stop)
                .bind();
    }

    @Reference(service = StatsContributor.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC)
    void addContributor(StatsContributor c) {
        contributors.add(c);
    }

    void removeContributor(StatsContributor c) {
        contributors.remove(c);
    }

    @Override
    public String family() {
        return "discovery";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    ObjectNode ping(Call call) {
        return call.newObject().put("type", "pong").put("version", server.version()).put("session", server.session())
                .put("uhp", UHP_VERSION);
    }

    ObjectNode capabilities(Call call) {
        ObjectNode r = call.newObject().put("type", "capabilities").put("uhp", UHP_VERSION)
                .put("version", server.version()).put("session", server.session());
        ArrayNode ms = r.putArray("methods");
        for (MethodInfo m : dispatcher.methods()) {
            ObjectNode row = ms.addObject().put("name", m.name()).put("family", m.family()).put("scope", m.scope().wire())
                    .put("bundle", m.bundle());
            if (m.params() != null) {
                // what a client needs to build a call to a method it has no contract for (artu's module commands)
                row.set("params", m.params().source());
            }
        }
        ArrayNode cs = r.putArray("conflicts");
        for (ClaimConflict c : dispatcher.conflicts()) {
            cs.addObject().put("method", c.method()).put("winner", c.winnerBundle()).put("loser", c.loserBundle());
        }
        // What bundles meant to offer and the server does not, with the reason (docs/protocol/discovery.md).
        ArrayNode fs = r.putArray("failures");
        for (FamilyFailure f : dispatcher.failures()) {
            ObjectNode row = fs.addObject().put("family", f.family());
            if (f.method() != null) {
                row.put("method", f.method());
            }
            if (f.event() != null) {
                row.put("event", f.event());
            }
            row.put("bundle", f.bundle()).put("reason", f.reason());
        }
        // The event bus owns the sequence; while it is not running no event exists.
        EventBus b = bus;
        r.put("event_sequence", b == null ? 0 : b.sequence());
        ObjectNode id = r.putObject("identity");
        id.put("workspace", "0-based index, or the opaque workspace_id that survives reorder and restart");
        id.put("tab", "1-based position, or the opaque tab_id that survives reorder and restart");
        id.put("pane", "pane id string; a raw request without pane uses the focused pane");
        id.put("terminal_id", "stable for one PTY lifetime across pane and tab moves");
        id.put("terminal_methods", "never inherit the focused pane; require explicit identity");
        ObjectNode lim = r.putObject("limits");
        lim.put("max_connections", Limits.MAX_CONNECTIONS);
        lim.put("initial_frame_timeout_ms", Limits.INITIAL_FRAME_TIMEOUT_MS);
        lim.put("max_request_bytes", Limits.MAX_REQUEST_BYTES);
        lim.put("max_id_bytes", Limits.MAX_ID_BYTES);
        lim.put("replay_max_frames", Limits.REPLAY_MAX_FRAMES);
        lim.put("replay_max_bytes", Limits.REPLAY_MAX_BYTES);
        lim.put("terminal_streams_max", Limits.TERMINAL_STREAMS_MAX);
        lim.put("attach_streams_max", Limits.ATTACH_STREAMS_MAX);
        lim.put("terminal_stream_queue_frames", Limits.TERMINAL_STREAM_QUEUE_FRAMES);
        ObjectNode g = r.putObject("graphics");
        g.put("kitty", false);
        g.put("sixel", false);
        g.put("iterm2", false);
        return r;
    }

    ObjectNode stats(Call call) {
        ObjectNode r = call.newObject().put("type", "stats");
        for (StatsContributor c : contributors) {
            c.contribute(r);
        }
        ObjectNode replay = r.putObject("replay");
        replay.put("max_frames", Limits.REPLAY_MAX_FRAMES);
        replay.put("max_bytes", Limits.REPLAY_MAX_BYTES);
        if (!r.has("terminal_streams")) {
            // No terminal family contributes yet: no stream can be open.
            r.putObject("terminal_streams").put("active", 0).put("capacity", Limits.TERMINAL_STREAMS_MAX);
            r.putObject("attach_streams").put("active", 0).put("capacity", Limits.ATTACH_STREAMS_MAX);
        }
        return r;
    }

    ObjectNode stop(Call call) {
        call.afterReply(() -> server.stop("server.stop from connection " + call.caller().connection()));
        return call.newObject().put("type", "ok").put("stopping", true);
    }
}
