package io.artuditu.model.topology;

import io.artuditu.uhp.api.UhpException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One immutable instant of the topology. Workspaces are in API order (public index = list
 * index, 0-based). Panes are keyed by id; each appears as exactly one leaf of one pane
 * tab's tree.
 *
 * @param workspaces in API order
 * @param activeWorkspace the active workspace's id, null when there is none
 * @param panes every pane by id, in creation order
 * @param nextPane the next pane id to hand out
 * @param version bumped by every accepted change (persistence and tests use it)
 */
public record Topology(List<Workspace> workspaces, String activeWorkspace, Map<String, Pane> panes, long nextPane,
        long version) {
    /** Side of the normalized square, in units. */
    public static final int AREA = 10_000;
    /** Deepest tree (splits on one root-to-leaf path) the model stores or accepts. */
    public static final int MAX_DEPTH = 64;
    /** Most panes one server holds (the same bound as {@code Workspaces.MAX_PANES}). */
    public static final int MAX_PANES = 1024;
    /** Most workspaces; also bounds {@code move_block}'s list. */
    public static final int MAX_WORKSPACES = 256;
    /** Most tabs in one workspace. */
    public static final int MAX_TABS = 256;
    /** Longest workspace name and tab label, in code points after trimming. */
    public static final int MAX_NAME = 40;
    /** Longest pane purpose, in code points after trimming. */
    public static final int MAX_PURPOSE = 60;
    /** Most metadata entries one workspace holds. */
    public static final int MAX_METADATA = 32;
    /** Longest metadata string value, in code points. */
    public static final int MAX_METADATA_VALUE = 256;

    public Topology {
        workspaces = List.copyOf(workspaces);
        panes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(panes));
    }

    public static Topology empty() {
        return new Topology(List.of(), null, Map.of(), 1, 0);
    }

    /** Where a pane sits. */
    public record Location(int workspaceIndex, Workspace workspace, int tabIndex, Tab tab) {
    }

    public int workspaceIndex(String id) {
        for (int i = 0; i < workspaces.size(); i++) {
            if (workspaces.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    public Optional<Workspace> workspace(String id) {
        int i = workspaceIndex(id);
        return i < 0 ? Optional.empty() : Optional.of(workspaces.get(i));
    }

    public Optional<Workspace> active() {
        return activeWorkspace == null ? Optional.empty() : workspace(activeWorkspace);
    }

    /** The pane a request without one means: the active workspace's active tab's focus. */
    public Optional<String> focusedPane() {
        return active().flatMap(w -> w.tabs().stream().filter(t -> t.id().equals(w.activeTab())).findFirst())
                .map(Tab::focused);
    }

    public Optional<Location> locate(String paneId) {
        if (!panes.containsKey(paneId)) {
            return Optional.empty();
        }
        for (int w = 0; w < workspaces.size(); w++) {
            Workspace ws = workspaces.get(w);
            for (int t = 0; t < ws.tabs().size(); t++) {
                Tab tab = ws.tabs().get(t);
                if (tab.root() != null && leaves(tab.root()).contains(paneId)) {
                    return Optional.of(new Location(w, ws, t, tab));
                }
            }
        }
        return Optional.empty();
    }

    public Optional<Location> locateTab(String tabId) {
        for (int w = 0; w < workspaces.size(); w++) {
            Workspace ws = workspaces.get(w);
            int t = ws.tabIndex(tabId);
            if (t >= 0) {
                return Optional.of(new Location(w, ws, t, ws.tabs().get(t)));
            }
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- by id, as the rules look things up

    /**
     * The workspace with this id; {@code not_found} when it is gone (a target resolved a
     * moment ago may have been closed by the change before).
     */
    public Workspace requireWorkspace(String id) {
        return workspace(id).orElseThrow(() -> UhpException.notFound("workspace", id, "workspace_id",
                "no such workspace: " + id));
    }

    /** Where the tab with this id sits; {@code not_found} when it is gone. */
    public Location requireTab(String id) {
        return locateTab(id).orElseThrow(() -> UhpException.notFound("tab", id, "tab_id", "no such tab: " + id));
    }

    /** Where the pane with this id sits; {@code not_found} when it is gone. */
    public Location requirePane(String id) {
        return locate(id).orElseThrow(() -> UhpException.notFound("pane", id, "pane", "no such pane: " + id));
    }

    // ---------------------------------------------------------------- the next state

    /** The next state with these parts (the version moves by one). */
    public Topology next(List<Workspace> ws, String active, Map<String, Pane> p, long next) {
        return new Topology(ws, active, p, next, version + 1);
    }

    /** The next state with the workspace at {@code index} replaced. */
    public Topology withWorkspace(int index, Workspace w) {
        List<Workspace> ws = new ArrayList<>(workspaces);
        ws.set(index, w);
        return next(ws, activeWorkspace, panes, nextPane);
    }

    /** The next state with the tab at {@code at} replaced (its workspace's active tab unchanged). */
    public Topology withTab(Location at, Tab t) {
        List<Tab> tabs = new ArrayList<>(at.workspace().tabs());
        tabs.set(at.tabIndex(), t);
        return withWorkspace(at.workspaceIndex(), at.workspace().withTabs(tabs, at.workspace().activeTab()));
    }

    /** The next state with {@code p} added or replaced. */
    public Topology withPane(Pane p) {
        Map<String, Pane> m = new java.util.LinkedHashMap<>(panes);
        m.put(p.id(), p);
        return next(workspaces, activeWorkspace, m, nextPane);
    }

    /**
     * The next state without the tab at {@code at} (its panes stay in {@link #panes()}: the
     * caller removes them); the tab to its right, else its left, becomes active if it was.
     */
    public Topology withoutTab(Location at) {
        Workspace w = at.workspace();
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.remove(at.tabIndex());
        String active = w.activeTab();
        if (at.tab().id().equals(active)) {
            active = tabs.isEmpty() ? null : tabs.get(Math.min(at.tabIndex(), tabs.size() - 1)).id();
        }
        return withWorkspace(at.workspaceIndex(), w.withTabs(tabs, active));
    }

    /** A stored tree's pane ids, left to right (a before b). Iterative. */
    public static List<String> leaves(Node root) {
        List<String> out = new ArrayList<>();
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            if (n instanceof Node.Leaf l) {
                out.add(l.pane());
            } else if (n instanceof Node.Split s) {
                stack.push(s.b());
                stack.push(s.a());
            }
        }
        return out;
    }
}
