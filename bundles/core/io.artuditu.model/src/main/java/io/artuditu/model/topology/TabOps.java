package io.artuditu.model.topology;

import static io.artuditu.model.topology.TopologyException.invalid;
import static io.artuditu.model.topology.TopologyException.missing;
import static io.artuditu.model.topology.TopologyOps.checkPaneRoom;
import static io.artuditu.model.topology.TopologyOps.checkTabRoom;
import static io.artuditu.model.topology.TopologyOps.event;
import static io.artuditu.model.topology.TopologyOps.eventWithNulls;
import static io.artuditu.model.topology.TopologyOps.label;
import static io.artuditu.model.topology.TopologyOps.next;
import static io.artuditu.model.topology.TopologyOps.paneCreated;
import static io.artuditu.model.topology.TopologyOps.removeTab;
import static io.artuditu.model.topology.TopologyOps.spawnChecked;
import static io.artuditu.model.topology.TopologyOps.tab;
import static io.artuditu.model.topology.TopologyOps.tabAt;
import static io.artuditu.model.topology.TopologyOps.withTab;
import static io.artuditu.model.topology.TopologyOps.withWorkspace;
import static io.artuditu.model.topology.TopologyOps.workspace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tab family's rules: new, focus, move, swap, rename and close, each a pure function
 * of a {@link Topology} returning a {@link Change}.
 */
public final class TabOps {
    private final TopologyOps core;

    TabOps(TopologyOps core) {
        this.core = core;
    }

    /**
     * Adds a tab at the end of a workspace and makes it active. A pane tab starts with
     * one pane in the workspace folder; a dashboard starts none.
     */
    public Change<String> create(Topology s, String wsId, TabKind kind, String name, Spawner sp) throws IOException {
        Workspace w = workspace(s, wsId);
        if (kind == null) {
            throw invalid("kind", "missing", "kind is required");
        }
        String label = name == null ? null : label("name", name, Topology.MAX_NAME, true);
        checkTabRoom(w);
        String tabId = "tab_" + core.newId();
        List<TopologyEvent> events = new ArrayList<>();
        events.add(event("tab.created", "workspace_id", wsId, "tab_id", tabId, "kind", kind.wire()));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        long nextPane = s.nextPane();
        Tab t;
        if (kind.dashboard()) {
            t = new Tab(tabId, kind, label, null, null, false);
        } else {
            checkPaneRoom(s);
            String paneId = Long.toString(nextPane);
            Pane p = spawnChecked(sp, paneId, wsId, w.cwd());
            panes.put(paneId, p);
            nextPane++;
            t = new Tab(tabId, kind, label, new Node.Leaf(paneId), paneId, false);
            events.add(paneCreated(p, wsId, tabId));
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.add(t);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(s.workspaceIndex(wsId), w.withTabs(tabs, tabId));
        return new Change<>(next(s, ws, s.activeWorkspace(), panes, nextPane), events, tabId);
    }

    /** Makes a tab active in its workspace (the workspace's own activity is unchanged). */
    public Change<Void> focus(Topology s, String tabId) {
        Topology.Location at = tab(s, tabId);
        if (tabId.equals(at.workspace().activeTab())) {
            return new Change<>(s, List.of(), null);
        }
        return new Change<>(withWorkspace(s, at.workspaceIndex(), at.workspace().withTabs(at.workspace().tabs(), tabId)),
                List.of(event("tab.focused", "workspace_id", at.workspace().id(), "tab_id", tabId)), null);
    }

    /** The answer of a tab move or swap: 1-based positions and the active tab's position after it. */
    public record TabMove(int from, int to, int active) {
    }

    /**
     * Moves a tab (1-based {@code tab}, or the active tab when null) either to final
     * position {@code to} or one step by {@code direction} (left or right) — exactly one of
     * the two. Zero, missing, out-of-range, same-position, edge and mixed requests are
     * {@code invalid_request}. The active tab stays active.
     */
    public Change<TabMove> move(Topology s, String wsId, Integer tab, Integer to, Direction direction) {
        Workspace w = workspace(s, wsId);
        if (to != null && direction != null) {
            throw invalid("direction", "mixed", "pass either to or direction, not both");
        }
        if (to == null && direction == null) {
            throw invalid("to", "missing", "to or direction is required");
        }
        if (direction != null && direction.axis() != Axis.HORIZONTAL) {
            throw invalid("direction", "invalid", "direction must be left or right");
        }
        if (to == null && tab == null && w.activeTab() == null) {
            throw invalid("tab", "missing", "the workspace has no active tab");
        }
        if (to != null && tab == null) {
            throw invalid("tab", "missing", "tab is required with to");
        }
        int from = tab != null ? tabAt(w, tab) == null ? 0 : tab : w.tabIndex(w.activeTab()) + 1;
        int dest;
        if (direction != null) {
            dest = direction == Direction.LEFT ? from - 1 : from + 1;
            if (dest < 1 || dest > w.tabs().size()) {
                throw invalid("direction", "edge", "tab " + from + " is already at the " + direction.wire() + " edge");
            }
        } else {
            dest = to;
            if (dest < 1 || dest > w.tabs().size()) {
                throw invalid("to", "out_of_range", "to " + dest + " is not 1.." + w.tabs().size());
            }
            if (dest == from) {
                throw invalid("to", "same_position", "the tab is already at position " + dest);
            }
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        Tab moved = tabs.remove(from - 1);
        tabs.add(dest - 1, moved);
        Workspace r = w.withTabs(tabs, w.activeTab());
        int active = r.activeTab() == null ? 0 : r.tabIndex(r.activeTab()) + 1;
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r), List.of(event("tab.moved", "workspace_id", wsId,
                "tab_id", moved.id(), "from", from, "to", dest)), new TabMove(from, dest, active));
    }

    /** Exchanges the tabs at two 1-based positions; the active tab stays active. */
    public Change<TabMove> swap(Topology s, String wsId, int tab, int with) {
        Workspace w = workspace(s, wsId);
        Tab a = tabAt(w, tab);
        Tab b = tabAt(w, with);
        if (tab == with) {
            throw invalid("with", "same_position", "a tab cannot swap with itself");
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.set(tab - 1, b);
        tabs.set(with - 1, a);
        Workspace r = w.withTabs(tabs, w.activeTab());
        int active = r.activeTab() == null ? 0 : r.tabIndex(r.activeTab()) + 1;
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r), List.of(
                event("tab.moved", "workspace_id", wsId, "tab_id", a.id(), "from", tab, "to", with),
                event("tab.moved", "workspace_id", wsId, "tab_id", b.id(), "from", with, "to", tab)),
                new TabMove(tab, with, active));
    }

    /**
     * Sets a tab's custom label (1-based {@code tab}, or the active tab when null). At most
     * 40 characters after trimming; an empty string clears it. Dashboards cannot be renamed.
     */
    public Change<Void> rename(Topology s, String wsId, Integer tab, String name) {
        Workspace w = workspace(s, wsId);
        Tab t;
        if (tab != null) {
            t = tabAt(w, tab);
        } else {
            if (w.activeTab() == null) {
                throw invalid("tab", "missing", "the workspace has no active tab");
            }
            t = w.tabs().get(w.tabIndex(w.activeTab()));
        }
        if (t.kind().dashboard()) {
            throw invalid("tab", "dashboard", "dashboard tabs cannot be renamed");
        }
        String label = label("name", name, Topology.MAX_NAME, true);
        Topology.Location at = s.locateTab(t.id()).orElseThrow();
        return new Change<>(withTab(s, at, t.withLabel(label)),
                List.of(eventWithNulls("tab.renamed", "workspace_id", w.id(), "tab_id", t.id(), "name", label)), null);
    }

    /**
     * Removes a tab with its panes (listed in the result for the caller to end). The tab to
     * its right (else its left) becomes active if it was.
     */
    public Change<List<String>> close(Topology s, String tabId) {
        Topology.Location at = tab(s, tabId);
        List<String> gone = at.tab().root() == null ? List.of() : Topology.leaves(at.tab().root());
        Topology n = removeTab(s, at);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.keySet().removeAll(gone);
        n = next(n, n.workspaces(), n.activeWorkspace(), panes, n.nextPane());
        return new Change<>(n, List.of(event("tab.closed", "workspace_id", at.workspace().id(), "tab_id", tabId)), gone);
    }
}
