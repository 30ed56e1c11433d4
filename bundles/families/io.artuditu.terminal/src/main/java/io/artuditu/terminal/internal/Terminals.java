package io.artuditu.terminal.internal;

import io.artuditu.pty.Pty;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Target resolution for terminal.backend.*, done once per call: a {@code terminal_id}
 * names exactly one live screen or the call fails with evidence. Never falls back to a
 * focused pane. Also answers which pane and workspace show a terminal.
 */
final class Terminals {
    /** The PTY environment variables the workspace model sets (see its Model). */
    static final String PANE_ENV = "ARTUDITU_PANE_ID";
    static final String WORKSPACE_ENV = "ARTUDITU_WORKSPACE_ID";

    private final Screens screens;
    private final Workspaces workspaces;
    private final Supplier<EventBus> bus;

    Terminals(Screens screens, Workspaces workspaces, Supplier<EventBus> bus) {
        this.screens = screens;
        this.workspaces = workspaces;
        this.bus = bus;
    }

    Screens screens() {
        return screens;
    }

    Workspaces workspaces() {
        return workspaces;
    }

    /** The event bus, or null while none runs. */
    EventBus bus() {
        return bus.get();
    }

    /** The event fence: the newest sequence, 0 while no bus runs. */
    long sequence() {
        EventBus b = bus.get();
        return b == null ? 0 : b.sequence();
    }

    /**
     * The live screen the call's declared terminal target names ({@code terminal_id}; the
     * contract makes it required, so it never falls back to the focus), or {@code not_found}
     * with evidence.
     */
    Screen live(Call call) {
        String id = call.params().get(TerminalFamily.CONTRACT.method(call.method()).orElseThrow().target().idField()).textValue();
        return screens.screen(id).orElseThrow(() -> notFound(id));
    }

    /** {@code not_found} for a terminal that is not live: its exit when known, else "unknown". */
    UhpException notFound(String terminalId) {
        Map<String, Object> d = evidence(terminalId);
        String what = "exited".equals(d.get("state")) ? "has exited" : "is not known to this server";
        return new UhpException(ErrorCode.NOT_FOUND, "terminal " + terminalId + " " + what, d);
    }

    /** What is known about a terminal that is not live, as error details. */
    Map<String, Object> evidence(String terminalId) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("terminal_id", terminalId);
        Optional<Screens.Exited> gone = screens.exited(terminalId);
        if (gone.isPresent()) {
            d.put("state", "exited");
            d.put("exit_status", gone.get().status());
            d.put("exited_at_ms", gone.get().exitedMillis());
        } else {
            d.put("state", "unknown");
        }
        return d;
    }

    /** The input was refused because the child exited: not_found with what is known now. */
    UhpException exitedDuringCall(Screen s) {
        Optional<Screens.Exited> gone = screens.exited(s.terminalId());
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("terminal_id", s.terminalId());
        d.put("state", "exited");
        if (gone.isPresent()) {
            d.put("exit_status", gone.get().status());
            d.put("exited_at_ms", gone.get().exitedMillis());
        } else if (s.pty().exitStatus().isPresent()) {
            d.put("exit_status", s.pty().exitStatus().getAsInt());
        }
        return new UhpException(ErrorCode.NOT_FOUND, "terminal " + s.terminalId() + " has exited", d);
    }

    /** The pane showing the PTY: the model's answer, else the id the model put in its environment. */
    String paneOf(Pty pty) {
        Optional<PaneInfo> p = workspaces.paneOfTerminal(pty.id());
        if (p.isPresent()) {
            return p.get().id();
        }
        String env = pty.env().get(PANE_ENV);
        return env != null && env.matches("[1-9][0-9]{0,17}") ? env : null;
    }

    /** The workspace of the pane showing the PTY, or null. */
    String workspaceOf(Pty pty) {
        Optional<PaneInfo> p = workspaces.paneOfTerminal(pty.id());
        if (p.isPresent()) {
            return p.get().workspaceId();
        }
        String env = pty.env().get(WORKSPACE_ENV);
        return env != null && env.length() <= 128 && pty.env().containsKey(PANE_ENV) ? env : null;
    }

    /** argv[0]'s base name: the command without a path and without any argument. */
    static String commandName(Pty pty) {
        if (pty.command().isEmpty()) {
            return "";
        }
        String argv0 = pty.command().get(0);
        int slash = argv0.lastIndexOf('/');
        return slash >= 0 ? argv0.substring(slash + 1) : argv0;
    }
}
