package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.PaneInfo;
import io.artuditu.workspace.Workspaces;
import io.artuditu.workspace.topology.Layouts;
import io.artuditu.workspace.topology.Pane;
import io.artuditu.workspace.topology.Tab;
import io.artuditu.workspace.topology.Topology;
import io.artuditu.workspace.topology.TopologyOps;
import io.artuditu.workspace.topology.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code session.snapshot} (session.json): the whole session in one read. The event
 * sequence is read <em>before</em> the topology, so a client that subscribes from that
 * sequence and applies later events reconciles to the live state. Reads only the immutable
 * topology, the model's pane records and each root process's {@code /proc/<pid>/comm};
 * never terminal text, never starts a process. See docs/protocol/session.md.
 */
@Component(service = UhpFamily.class)
public final class SessionFamily implements UhpFamily {
    private final Workspaces workspaces;
    private final EventBus bus;
    private final List<UhpMethod> methods;

    @Activate
    public SessionFamily(@Reference Workspaces workspaces, @Reference EventBus bus) {
        this.workspaces = workspaces;
        this.bus = bus;
        this.methods = List.of(UhpMethod.of(UhpContract.standard().method("session.snapshot"), this::snapshot));
    }

    @Override
    public String family() {
        return "session";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }

    ObjectNode snapshot(Call call) {
        long sequence = bus.sequence();
        Topology s = workspaces.topology();
        Map<String, PaneInfo> infos = new HashMap<>();
        for (PaneInfo p : workspaces.panes()) {
            infos.put(p.id(), p);
        }
        ObjectNode o = call.newObject().put("type", "session_snapshot").put("sequence", sequence)
                .put("active_workspace", s.activeWorkspace());
        ArrayNode rows = o.putArray("workspaces");
        List<Integer> display = TopologyOps.displayPositions(s);
        for (int i = 0; i < s.workspaces().size(); i++) {
            Workspace w = s.workspaces().get(i);
            ObjectNode wr = rows.addObject().put("workspace_id", w.id()).put("workspace", i).put("name", w.name())
                    .put("cwd", w.cwd().toString()).put("pinned", w.pinned()).put("display_position", display.get(i))
                    .put("active", w.id().equals(s.activeWorkspace())).put("active_tab", w.activeTab());
            ArrayNode tabs = wr.putArray("tabs");
            for (int j = 0; j < w.tabs().size(); j++) {
                Tab t = w.tabs().get(j);
                ObjectNode tr = tabs.addObject().put("tab_id", t.id()).put("tab", j + 1).put("kind", t.kind().wire())
                        .put("name", t.label()).put("active", t.id().equals(w.activeTab())).put("focused", t.focused())
                        .put("zoomed", t.zoomed());
                if (t.root() == null) {
                    tr.putNull("root");
                } else {
                    tr.set("root", Layouts.toJson(t.root()));
                }
                ArrayNode panes = tr.putArray("panes");
                if (t.root() != null) {
                    for (String id : Topology.leaves(t.root())) {
                        pane(panes.addObject(), s.panes().get(id), id, infos.get(id));
                    }
                }
            }
        }
        return o;
    }

    private static void pane(ObjectNode o, Pane p, String id, PaneInfo info) {
        o.put("pane", id);
        if (p == null) {
            o.putNull("terminal_id").putNull("name").putNull("purpose").put("cwd", "").putNull("command");
        } else {
            o.put("terminal_id", p.terminalId()).put("name", p.name()).put("purpose", p.purpose())
                    .put("cwd", p.cwd().toString()).put("command", baseName(p.command()));
        }
        long pid = info == null ? 0 : info.pid();
        if (pid > 0) {
            o.put("pid", pid);
        } else {
            o.putNull("pid");
        }
        o.put("alive", pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        o.putNull("title");
        o.put("process", pid > 0 ? comm(pid) : null);
    }

    static String baseName(List<String> command) {
        if (command == null || command.isEmpty() || command.get(0) == null) {
            return null;
        }
        String a = command.get(0);
        int slash = a.lastIndexOf('/');
        return slash >= 0 ? a.substring(slash + 1) : a;
    }

    /** The kernel's name for the process (at most 15 bytes), control characters as '?'; null when unreadable. */
    private static String comm(long pid) {
        try {
            String c = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "comm")), StandardCharsets.UTF_8)
                    .strip();
            StringBuilder b = new StringBuilder(c.length());
            c.codePoints().forEach(cp -> b.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
            return b.toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
