package io.artuditu.model.internal;

import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * State changes for the model's own tests, built from the exported data and
 * {@link Lifecycle} only: a split, a new tab, a tab closed, names. They are not the
 * families' rules (those live, with their tests, in the topology bundle) and check
 * nothing those rules would; they only give the model states and spawns to run.
 */
final class Edits {
    private Edits() {
    }

    static Change<String> openWorkspace(Topology s, Path folder, String name, Spawner sp) throws IOException {
        return Lifecycle.of(sp).openWorkspace(s, folder, name, sp);
    }

    /** A new pane beside {@code pane} (right or down of it, or left or up), focused when asked; its id. */
    static Change<String> split(Topology s, String pane, Direction d, boolean focus, Spawner sp) throws IOException {
        Topology.Location at = s.requirePane(pane);
        Lifecycle.checkPaneRoom(s);
        String id = Long.toString(s.nextPane());
        Pane p = Lifecycle.spawnChecked(sp, id, at.workspace().id(), at.workspace().cwd());
        Axis axis = d == Direction.LEFT || d == Direction.RIGHT ? Axis.HORIZONTAL : Axis.VERTICAL;
        boolean after = d == Direction.RIGHT || d == Direction.DOWN;
        Node.Leaf old = new Node.Leaf(pane);
        Node.Leaf neu = new Node.Leaf(id);
        Node split = new Node.Split(axis, 0.5, after ? old : neu, after ? neu : old);
        Node root = replace(at.tab().root(), pane, split);
        Topology n = s.withTab(at, at.tab().withTree(root, focus ? id : at.tab().focused(), false));
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.put(id, p);
        n = n.next(n.workspaces(), n.activeWorkspace(), panes, s.nextPane() + 1);
        return new Change<>(n, List.of(Lifecycle.paneCreated(p, at.workspace().id(), at.tab().id())), id);
    }

    private static Node replace(Node n, String pane, Node with) {
        if (n instanceof Node.Leaf l) {
            return l.pane().equals(pane) ? with : l;
        }
        Node.Split sp = (Node.Split) n;
        return new Node.Split(sp.axis(), sp.ratio(), replace(sp.a(), pane, with), replace(sp.b(), pane, with));
    }

    /** A tab at the end of a workspace, made active; a pane tab starts with one pane in the workspace folder. */
    static Change<String> newTab(Topology s, String wsId, TabKind kind, String name, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
        Lifecycle.checkTabRoom(w);
        String tabId = "tab_" + sp.newId();
        List<TopologyEvent> events = new ArrayList<>(List.of(Lifecycle.tabCreated(wsId, tabId, kind)));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        long next = s.nextPane();
        Tab t;
        if (kind.dashboard()) {
            t = new Tab(tabId, kind, name, null, null, false);
        } else {
            Lifecycle.checkPaneRoom(s);
            String id = Long.toString(next++);
            Pane p = Lifecycle.spawnChecked(sp, id, wsId, w.cwd());
            panes.put(id, p);
            t = new Tab(tabId, kind, name, new Node.Leaf(id), id, false);
            events.add(Lifecycle.paneCreated(p, wsId, tabId));
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.add(t);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(s.workspaceIndex(wsId), w.withTabs(tabs, tabId));
        return new Change<>(s.next(ws, s.activeWorkspace(), panes, next), events, tabId);
    }

    /** The tab and its panes gone; the panes' ids. */
    static Change<List<String>> closeTab(Topology s, String tabId) {
        Topology.Location at = s.requireTab(tabId);
        List<String> gone = at.tab().root() == null ? List.of() : Topology.leaves(at.tab().root());
        Topology n = s.withoutTab(at);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.keySet().removeAll(gone);
        return new Change<>(n.next(n.workspaces(), n.activeWorkspace(), panes, n.nextPane()),
                List.of(Lifecycle.tabClosed(at.workspace().id(), tabId)), gone);
    }

    static Change<Workspace> renameWorkspace(Topology s, String wsId, String name) {
        Workspace w = s.requireWorkspace(wsId);
        Workspace r = new Workspace(w.id(), Lifecycle.label("name", name, Topology.MAX_NAME, false), w.cwd(), w.pinned(),
                w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), r),
                List.of(TopologyEvent.of("workspace.renamed", "workspace_id", wsId, "name", r.name())), r);
    }

    static Change<Workspace> pin(Topology s, String wsId, boolean pinned) {
        Workspace w = s.requireWorkspace(wsId);
        Workspace r = new Workspace(w.id(), w.name(), w.cwd(), pinned, w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), r), List.of(), r);
    }

    static Change<Void> renamePane(Topology s, String pane, String name) {
        s.requirePane(pane);
        return new Change<>(s.withPane(s.panes().get(pane).withName(name)), List.of(), null);
    }

    static Change<Void> purpose(Topology s, String pane, String purpose, boolean clear) {
        s.requirePane(pane);
        return new Change<>(s.withPane(s.panes().get(pane).withPurpose(clear ? null : purpose)), List.of(), null);
    }
}
