package io.artuditu.topology.internal.rules;

import static io.artuditu.model.topology.Lifecycle.label;
import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
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
    private final Lifecycle lifecycle;

    TabOps(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** Adds a tab at the end of a workspace and makes it active ({@link Lifecycle#newTab}). */
    public Change<String> create(Topology s, String wsId, TabKind kind, String name, Spawner sp) throws IOException {
        return lifecycle.newTab(s, wsId, kind, name, sp);
    }

    /** Makes a tab active in its workspace (the workspace's own activity is unchanged). */
    public Change<Void> focus(Topology s, String tabId) {
        Topology.Location at = s.requireTab(tabId);
        if (tabId.equals(at.workspace().activeTab())) {
            return new Change<>(s, List.of(), null);
        }
        return new Change<>(s.withWorkspace(at.workspaceIndex(), at.workspace().withTabs(at.workspace().tabs(), tabId)),
                List.of(Lifecycle.tabFocused(at.workspace().id(), tabId)), null);
    }

    /** The answer of a tab move or swap: 1-based positions and the active tab's position after it. */
    public record TabMove(int from, int to, int active) {
    }

    /**
     * Moves a tab either to final position {@code to} or one step by {@code direction}
     * (left or right) — exactly one of the two. With {@code to} the request must have named
     * the tab ({@code named}); with a direction it may be the active one. Zero, missing,
     * out-of-range, same-position, edge and mixed requests are {@code invalid_request}. The
     * active tab stays active.
     */
    public Change<TabMove> move(Topology s, String tabId, boolean named, Integer to, Direction direction) {
        Topology.Location at = s.requireTab(tabId);
        Workspace w = at.workspace();
        if (to != null && direction != null) {
            throw invalid("direction", "mixed", "pass either to or direction, not both");
        }
        if (to == null && direction == null) {
            throw invalid("to", "missing", "to or direction is required");
        }
        if (direction != null && direction.axis() != Axis.HORIZONTAL) {
            throw invalid("direction", "invalid", "direction must be left or right");
        }
        if (to != null && !named) {
            throw invalid("tab", "missing", "tab is required with to");
        }
        int from = at.tabIndex() + 1;
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
        return new Change<>(s.withWorkspace(at.workspaceIndex(), r), List.of(TopologyEvent.of("tab.moved",
                "workspace_id", w.id(), "tab_id", moved.id(), "from", from, "to", dest)), new TabMove(from, dest, active));
    }

    /** Exchanges two tabs of one workspace; the active tab stays active. */
    public Change<TabMove> swap(Topology s, String tabId, String withTabId) {
        Topology.Location at = s.requireTab(tabId);
        Topology.Location with = s.requireTab(withTabId);
        if (!with.workspace().id().equals(at.workspace().id())) {
            throw invalid("with_tab_id", "other_workspace", "both tabs must be in the same workspace");
        }
        if (tabId.equals(withTabId)) {
            throw invalid("with", "same_position", "a tab cannot swap with itself");
        }
        Workspace w = at.workspace();
        int tab = at.tabIndex() + 1;
        int other = with.tabIndex() + 1;
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.set(tab - 1, with.tab());
        tabs.set(other - 1, at.tab());
        Workspace r = w.withTabs(tabs, w.activeTab());
        int active = r.activeTab() == null ? 0 : r.tabIndex(r.activeTab()) + 1;
        return new Change<>(s.withWorkspace(at.workspaceIndex(), r), List.of(
                TopologyEvent.of("tab.moved", "workspace_id", w.id(), "tab_id", tabId, "from", tab, "to", other),
                TopologyEvent.of("tab.moved", "workspace_id", w.id(), "tab_id", withTabId, "from", other, "to", tab)),
                new TabMove(tab, other, active));
    }

    /**
     * Sets a tab's custom label. At most 40 characters after trimming; an empty string
     * clears it. Dashboards cannot be renamed.
     */
    public Change<Void> rename(Topology s, String tabId, String name) {
        Topology.Location at = s.requireTab(tabId);
        Tab t = at.tab();
        if (t.kind().dashboard()) {
            throw invalid("tab", "dashboard", "dashboard tabs cannot be renamed");
        }
        String label = label("name", name, Topology.MAX_NAME, true);
        return new Change<>(s.withTab(at, t.withLabel(label)), List.of(TopologyEvent.withNulls("tab.renamed",
                "workspace_id", at.workspace().id(), "tab_id", t.id(), "name", label)), null);
    }

    /**
     * Removes a tab with its panes (listed in the result for the caller to end). The tab to
     * its right (else its left) becomes active if it was.
     */
    public Change<List<String>> close(Topology s, String tabId) {
        Topology.Location at = s.requireTab(tabId);
        List<String> gone = at.tab().root() == null ? List.of() : Topology.leaves(at.tab().root());
        Topology n = s.withoutTab(at);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.keySet().removeAll(gone);
        n = n.next(n.workspaces(), n.activeWorkspace(), panes, n.nextPane());
        return new Change<>(n, List.of(Lifecycle.tabClosed(at.workspace().id(), tabId)), gone);
    }
}
