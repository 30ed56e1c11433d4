package io.artuditu.terminal.internal.attach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Targets;
import io.artuditu.terminal.internal.Screen;
import io.artuditu.terminal.internal.Screens;
import io.artuditu.terminal.internal.TerminalStreams;
import io.artuditu.terminal.internal.attach.AttachStream.Target;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.MethodContract;
import io.artuditu.uhp.api.schema.TargetSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The attach family: {@code attach.pane}, one pane's screen streamed as cell diffs with
 * the client's keys, pastes, mouse, resizes and {@code watch} coming back on the same
 * connection (docs/protocol/attach.md). Each attach takes one of the server's
 * {@value TerminalStreams#ATTACH_LIMIT} attach slots until its connection ends.
 *
 * <p>On deactivation (the bundle stops or is updated, the server stops) every open
 * stream gets {@code {"detached":{"reason":"server shutting down"}}}: the pane itself is
 * untouched and can be attached again.
 */
@Component(service = UhpFamily.class)
public final class AttachFamily implements UhpFamily {
    /** The family's contract, in this bundle. */
    private static final FamilyContract CONTRACT = FamilyContract.load(AttachFamily.class, "protocol/uhp/v1/attach.json");
    /** attach.pane's target as its contract declares it: a pane, the focused one when omitted. */
    private static final TargetSpec TARGET = CONTRACT.method("attach.pane").map(MethodContract::target).orElse(null);
    /** How long deactivation waits for the streams to send their last line before closing them. */
    static final long SHUTDOWN_GRACE_MS = 1_000;

    private final Screens screens;
    private final Scratch scratch;
    private final Workspaces workspaces;
    private final TerminalStreams slots;
    private final FamilyContract contract;
    private final Set<AttachStream> open = ConcurrentHashMap.newKeySet();

    @Activate
    public AttachFamily(@Reference Screens screens, @Reference Workspaces workspaces,
            @Reference TerminalStreams slots, BundleContext context) {
        this(screens, workspaces, slots, SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY),
                System.getenv()).resolve("scratch"));
    }

    /** @param scratch the folder {@code put_file} writes into, one subfolder per workspace */
    AttachFamily(Screens screens, Workspaces workspaces, TerminalStreams slots, Path scratch) {
        this.scratch = new Scratch(scratch);
        this.screens = screens;
        this.workspaces = workspaces;
        this.slots = slots;
        this.contract = CONTRACT.route("attach.pane", this::attach).bind();
    }

    @Override
    public String family() {
        return "attach";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        for (AttachStream s : open) {
            s.shutdown();
        }
        long deadline = System.nanoTime() + SHUTDOWN_GRACE_MS * 1_000_000L;
        while (open.stream().anyMatch(s -> !s.ended()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        for (AttachStream s : open) {
            s.abort();
        }
    }

    ObjectNode attach(Call call) {
        JsonNode p = call.params();
        int cols = p.get("cols").intValue();
        int rows = p.get("rows").intValue();
        Target target = live(call.target(io.artuditu.model.topology.Target.class).pane());
        if (!slots.tryAcquireAttach()) {
            throw new UhpException(ErrorCode.TOO_MANY_CONNECTIONS, "the server already streams "
                    + TerminalStreams.ATTACH_LIMIT + " attached panes; end one (detach) and retry",
                    Map.of("limit", TerminalStreams.ATTACH_LIMIT, "kind", "attach_stream"));
        }
        AttachStream[] self = new AttachStream[1];
        AttachStream stream = new AttachStream(target, cols, rows, this::resolve, this::store, this::running, () -> {
            open.remove(self[0]);
            slots.releaseAttach();
        });
        self[0] = stream;
        if (!stream.start()) {
            stream.end();
            throw new UhpException(ErrorCode.TOO_MANY_CONNECTIONS, "pane " + target.pane() + " already has "
                    + Screen.MAX_WATCHERS + " watchers", Map.of("limit", Screen.MAX_WATCHERS, "kind", "screen_watchers"));
        }
        try {
            call.connection().onLines(AttachStream.MAX_LINE_BYTES, stream::accept);
        } catch (UnsupportedOperationException e) {
            stream.end();
            throw UhpException.invalid("attach.pane needs a connection that carries client lines (the server's socket)");
        } catch (RuntimeException e) {
            stream.end();
            throw e;
        }
        open.add(stream);
        call.connection().onClose(stream::end);
        call.streamAfterReply(stream);
        return call.newObject().put("type", "pane_attach").put("pane", target.pane())
                .put("terminal_id", target.terminalId()).put("cols", cols).put("rows", rows);
    }

    /**
     * The pane {@code pane} names (null: the focused one) with its live screen: what a
     * {@code watch} line switches to, resolved by the model's one rule ({@link Targets}), as
     * the dispatcher resolved attach.pane's own target.
     */
    Target resolve(String pane) {
        ObjectNode named = JsonNodeFactory.instance.objectNode();
        if (pane != null) {
            named.put("pane", pane);
        }
        return live(Targets.resolve(workspaces.topology(), TARGET, named, null,
                id -> workspaces.exited(id).map(Workspaces.PaneExit::evidence).orElse(Map.of())).pane());
    }

    /** Pane {@code id} with its live screen; {@code not_found} with what is known when it is gone. */
    private Target live(String id) {
        Optional<PaneInfo> info = workspaces.pane(id);
        if (info.isEmpty()) {
            throw gone(id, "no such pane: " + id);
        }
        PaneInfo p = info.get();
        Optional<Screen> screen = screens.screen(p.terminalId());
        if (screen.isPresent() && screen.get().ended()) {
            awaitExitRecord(screen.get());
        }
        if (screen.isEmpty() || screen.get().ended()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("pane", p.id());
            details.put("terminal_id", p.terminalId());
            Optional<Screens.Exited> gone = screens.exited(p.terminalId());
            if (gone.isPresent()) {
                details.put("state", "exited");
                details.put("exit_status", gone.get().status());
                details.put("exited_at_ms", gone.get().exitedMillis());
            } else {
                details.put("state", "unknown");
            }
            throw UhpException.notFound("pane", p.id(), "pane", "pane " + p.id() + " has exited", details);
        }
        return new Target(p.id(), p.terminalId(), screen.get());
    }

    /** A put_file into the scratch folder of the pane's workspace. */
    private Path store(Target t, String name, byte[] data) throws IOException {
        return scratch.put(workspaces.pane(t.pane()).map(PaneInfo::workspaceId).orElse(null), name, data);
    }

    /**
     * Whether the target's pane is still open: its screen is the live one. A screen leaves the
     * live set when its child's exit is recorded, which comes a moment after its output ended
     * (the PTY reader reaps without waiting), so a stream ends with "pane closed" only once a
     * client that asks next is told the exit status, not "unknown".
     */
    private boolean running(Target t) {
        return screens.screen(t.terminalId()).orElse(null) == t.screen();
    }

    /**
     * {@code not_found} for a pane the model no longer (or never) had: its process's exit
     * when the pane left with it (the workspace model closes a pane whose process exited),
     * else "unknown".
     */
    private UhpException gone(String pane, String unknownMessage) {
        Optional<Workspaces.PaneExit> e = workspaces.exited(pane);
        if (e.isEmpty()) {
            return UhpException.notFound("pane", pane, "pane", unknownMessage, Map.of("pane", pane, "state", "unknown"));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pane", pane);
        details.putAll(e.get().evidence());
        return UhpException.notFound("pane", pane, "pane", "pane " + pane + " has exited", details);
    }

    /** Up to this long {@link #resolve} waits for an ended screen's exit to be recorded. */
    static final long EXIT_RECORD_WAIT_MILLIS = 1000;

    /** An ended screen's child is being reaped: wait (bounded) until its exit is on record. */
    private static void awaitExitRecord(Screen s) {
        try {
            s.pty().exit().get(EXIT_RECORD_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // not reaped in time: the caller reports what is known now
        }
    }
}
