package io.artuditu.terminal.internal;

import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.pty.Pty;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
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

    /** The live screen the call's declared terminal target names, as the dispatcher resolved it. */
    Screen live(Call call) {
        return call.target(Screen.class);
    }

    /** {@code not_found} for a terminal that is not live: its exit when known, else "unknown". */
    UhpException notFound(String terminalId) {
        return screens.notFound(terminalId, "terminal_id");
    }

    /** What is known about a terminal that is not live, as error details. */
    Map<String, Object> evidence(String terminalId) {
        return screens.evidence(terminalId);
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
        return UhpException.notFound("terminal", s.terminalId(), "terminal_id", "terminal " + s.terminalId()
                + " has exited", d);
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
