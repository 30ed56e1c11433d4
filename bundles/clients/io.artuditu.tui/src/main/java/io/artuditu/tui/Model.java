package io.artuditu.tui;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The session as {@code session.snapshot} last described it, in the shapes the TUI draws. */
final class Model {
    record Pane(String id, String name, String title, String command, String process, String agentState, boolean alive) {
        /** Its name, else its foreground process as the server last scanned it, else its command. */
        String base() {
            return name != null ? name : process != null ? process : command != null ? command : "pane";
        }

        /** What the pane's header shows. */
        String label() {
            String base = base();
            return title != null && !title.isBlank() && !title.equals(base) ? base + " — " + title : base;
        }
    }

    /** A split tree: a leaf has {@code pane}; a split has an axis, a ratio and two sides. */
    record Node(String pane, boolean horizontal, double ratio, Node a, Node b) {
        static Node parse(JsonNode n) {
            if (n == null || n.isNull() || n.isMissingNode()) {
                return null;
            }
            if (n.has("pane")) {
                return new Node(n.get("pane").asText(), false, 0, null, null);
            }
            return new Node(null, "horizontal".equals(n.path("axis").asText()), n.path("ratio").asDouble(0.5),
                    parse(n.get("a")), parse(n.get("b")));
        }
    }

    /** {@code kind} is the server's tab kind: {@code panes}, or a dashboard ({@code git}, …) that holds no pane. */
    record Tab(String id, int position, String name, boolean active, String focused, boolean zoomed,
            Node root, Map<String, Pane> panes, String kind) {
        Tab(String id, int position, String name, boolean active, String focused, boolean zoomed, Node root,
                Map<String, Pane> panes) {
            this(id, position, name, active, focused, zoomed, root, panes, "panes");
        }

        boolean git() {
            return "git".equals(kind);
        }

        String label() {
            if (name != null) {
                return name;
            }
            if (git()) {
                return "git";
            }
            Pane p = focused == null ? null : panes.get(focused);
            return p == null ? "tab" : p.base();
        }
    }

    record Workspace(String id, int index, String name, boolean pinned, int displayPosition, boolean active,
            String activeTab, List<Tab> tabs) {
        Tab activeTabOrFirst() {
            for (Tab t : tabs) {
                if (t.id().equals(activeTab)) {
                    return t;
                }
            }
            return tabs.isEmpty() ? null : tabs.get(0);
        }
    }

    final long sequence;
    final String activeWorkspace;
    final List<Workspace> workspaces;

    private Model(long sequence, String activeWorkspace, List<Workspace> workspaces) {
        this.sequence = sequence;
        this.activeWorkspace = activeWorkspace;
        this.workspaces = workspaces;
    }

    static final Model EMPTY = new Model(0, null, List.of());

    static Model parse(JsonNode snap) {
        List<Workspace> ws = new ArrayList<>();
        for (JsonNode w : snap.path("workspaces")) {
            List<Tab> tabs = new ArrayList<>();
            for (JsonNode t : w.path("tabs")) {
                Map<String, Pane> panes = new LinkedHashMap<>();
                for (JsonNode p : t.path("panes")) {
                    JsonNode agent = p.path("agent");
                    String state = agent.isObject() ? text(agent, "state") : null;
                    if (state == null && agent.isObject()) {
                        state = text(agent, "status");
                    }
                    panes.put(p.path("pane").asText(), new Pane(p.path("pane").asText(), text(p, "name"),
                            text(p, "title"), text(p, "command"), text(p, "process"), state, p.path("alive").asBoolean(true)));
                }
                tabs.add(new Tab(t.path("tab_id").asText(), t.path("tab").asInt(), text(t, "name"),
                        t.path("active").asBoolean(), text(t, "focused"), t.path("zoomed").asBoolean(),
                        Node.parse(t.get("root")), panes, t.path("kind").asText("panes")));
            }
            ws.add(new Workspace(w.path("workspace_id").asText(), w.path("workspace").asInt(), text(w, "name"),
                    w.path("pinned").asBoolean(), w.path("display_position").asInt(), w.path("active").asBoolean(),
                    text(w, "active_tab"), tabs));
        }
        return new Model(snap.path("sequence").asLong(), text(snap, "active_workspace"), ws);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    Workspace active() {
        for (Workspace w : workspaces) {
            if (w.id().equals(activeWorkspace)) {
                return w;
            }
        }
        return workspaces.isEmpty() ? null : workspaces.get(0);
    }

    /** The workspaces as the sidebar lists them: the server's display order (pinned first). */
    List<Workspace> displayOrder() {
        List<Workspace> l = new ArrayList<>(workspaces);
        l.sort(Comparator.comparingInt(Workspace::displayPosition));
        return l;
    }

    Pane pane(String id) {
        for (Workspace w : workspaces) {
            for (Tab t : w.tabs()) {
                Pane p = t.panes().get(id);
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }
}
