package io.artuditu.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.model.PaneInfo;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Layouts;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.pty.Pty;
import io.artuditu.pty.PtyHost;
import io.artuditu.pty.proc.ProcessEntry;
import io.artuditu.pty.proc.ProcessScan;
import io.artuditu.pty.proc.ProcessTree;
import io.artuditu.topology.internal.rules.WorkspaceOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.TerminalTitles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * {@code session.snapshot} (session.json): the whole session in one read. The event
 * sequence is read <em>before</em> the topology, so a client that subscribes from that
 * sequence and applies later events reconciles to the live state. Reads only the immutable
 * topology, the model's pane records, the PTY host's records, the shared process scan's
 * cached answer and the terminal titles — no file is read; never terminal text, never
 * starts a process, never waits for a scan.
 * See docs/protocol/session.md.
 */
@Component(service = UhpFamily.class)
public final class SessionFamily implements UhpFamily {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /**
     * Executable names that identify a coding agent while the agents family is not running
     * (being updated): status is then always {@code unknown}.
     */
    static final Set<String> AGENT_NAMES = Set.of("claude", "codex", "gemini", "aider", "opencode", "goose", "amp",
            "cursor-agent", "qwen", "copilot");

    private final Workspaces workspaces;
    private final EventBus bus;
    private final ProcessScan scan;
    private final PtyHost host;
    private final FamilyContract contract;
    /** Optional and dynamic: updating the terminal bundle must not restart this family. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile TerminalTitles titles;
    /** Optional and dynamic: each agent's real state while the agents family runs. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile AgentStates agents;

    @Activate
    public SessionFamily(@Reference Workspaces workspaces, @Reference EventBus bus, @Reference ProcessScan scan,
            @Reference PtyHost host) {
        this.workspaces = workspaces;
        this.bus = bus;
        this.scan = scan;
        this.host = host;
        this.contract = FamilyContract.load(SessionFamily.class, "protocol/uhp/v1/session.json")
                .route("session.snapshot", this::snapshot)
                .bind();
    }

    @Override
    public String family() {
        return "session";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    ObjectNode snapshot(Call call) {
        long sequence = bus.sequence();
        Topology s = workspaces.topology();
        Map<String, PaneInfo> infos = new HashMap<>();
        for (PaneInfo p : workspaces.panes()) {
            infos.put(p.id(), p);
        }
        TerminalTitles t = titles;
        ObjectNode o = call.newObject().put("type", "session_snapshot").put("sequence", sequence)
                .put("active_workspace", s.activeWorkspace());
        ArrayNode rows = o.putArray("workspaces");
        ArrayNode views = F.arrayNode();
        List<Integer> display = WorkspaceOps.displayPositions(s);
        for (int i = 0; i < s.workspaces().size(); i++) {
            Workspace w = s.workspaces().get(i);
            ObjectNode wr = rows.addObject().put("workspace_id", w.id()).put("workspace", i).put("name", w.name())
                    .put("cwd", w.cwd().toString()).put("pinned", w.pinned()).put("display_position", display.get(i))
                    .put("active", w.id().equals(s.activeWorkspace())).put("active_tab", w.activeTab());
            wr.set("metadata", Rows.metadata(w));
            ArrayNode tabs = wr.putArray("tabs");
            for (int j = 0; j < w.tabs().size(); j++) {
                Tab tab = w.tabs().get(j);
                ObjectNode tr = tabs.addObject().put("tab_id", tab.id()).put("tab", j + 1).put("kind", tab.kind().wire())
                        .put("name", tab.label()).put("active", tab.id().equals(w.activeTab())).put("focused", tab.focused())
                        .put("zoomed", tab.zoomed());
                ArrayNode panes = F.arrayNode();
                if (tab.root() == null) {
                    tr.putNull("root");
                    views.addObject().put("kind", tab.kind().wire()).put("workspace_id", w.id()).put("tab_id", tab.id());
                } else {
                    tr.set("root", Layouts.toJson(tab.root()));
                    for (String id : Topology.leaves(tab.root())) {
                        pane(panes.addObject(), s.panes().get(id), id, infos.get(id), t);
                    }
                }
                tr.set("panes", panes);
            }
        }
        o.set("views", views);
        return o;
    }

    private void pane(ObjectNode o, Pane p, String id, PaneInfo info, TerminalTitles t) {
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
        // the host's own record (not yet reaped), not ProcessHandle: that reads /proc per call
        o.put("alive", p != null && p.terminalId() != null && host.find(p.terminalId()).map(Pty::isAlive).orElse(false));
        o.put("title", t == null || p == null || p.terminalId() == null ? null : t.title(p.terminalId()).orElse(null));
        ProcessTree tree = pid > 0 ? scan.tree(pid) : ProcessTree.unavailable(0);
        boolean known = tree.scan() == ProcessTree.Status.OK;
        o.put("process", known ? tree.root().name() : null);
        o.put("process_scan", known ? "ok" : "unavailable");
        AgentStates states = agents;
        if (states != null) {
            o.set("agent", states.state(id).<JsonNode>map(a -> F.objectNode().put("name", a.name()).put("status", a.status())
                    .put("source", a.source()).put("pid", a.pid() > 0 ? a.pid() : null)).orElse(F.nullNode()));
        } else {
            o.set("agent", known ? agent(tree) : F.nullNode());
        }
    }

    /** The agent nearest the root of a pane's process tree, or JSON null when none runs there. */
    private static JsonNode agent(ProcessTree tree) {
        List<ProcessEntry> all = new ArrayList<>();
        all.add(tree.root());
        all.addAll(tree.descendants());
        for (ProcessEntry e : all) {
            if (AGENT_NAMES.contains(e.name())) {
                return F.objectNode().put("name", e.name()).put("status", "unknown").put("source", "process")
                        .put("pid", e.pid());
            }
        }
        return F.nullNode();
    }

    static String baseName(List<String> command) {
        if (command == null || command.isEmpty() || command.get(0) == null) {
            return null;
        }
        String a = command.get(0);
        int slash = a.lastIndexOf('/');
        return slash >= 0 ? a.substring(slash + 1) : a;
    }
}
