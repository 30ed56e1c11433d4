package io.artuditu.topology.internal.rules;

import static io.artuditu.model.topology.Lifecycle.focusAfterRemoval;
import static io.artuditu.model.topology.Lifecycle.label;
import static io.artuditu.model.topology.Lifecycle.removeLeaf;
import static io.artuditu.topology.internal.rules.TopologyOps.at;
import static io.artuditu.topology.internal.rules.TopologyOps.withRatio;
import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Rect;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pane family's rules about place and shape: split, move, swap, focus, neighbors,
 * resize, zoom, name and purpose, each a pure function of a {@link Topology} returning a
 * {@link Change} or a plain value. Removing a pane is {@link Lifecycle#removePane}, which
 * the model also runs when a process exits.
 */
public final class PaneOps {
    private final Lifecycle lifecycle;

    PaneOps(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** Splits a pane ({@link Lifecycle#splitPane}, which other families use too). */
    public Change<String> split(Topology s, String paneId, Direction direction, boolean focus, Spawner sp)
            throws IOException {
        return lifecycle.splitPane(s, paneId, direction, focus, sp);
    }



    /** The answer of a pane move: the pane, its workspace's 0-based index and its final 1-based tab position. */
    public record PaneMove(String pane, int workspace, int tab, String tabId) {
    }

    /**
     * Moves a pane  to another pane tab of its workspace
     * ({@code toTabId}) or to a new tab ({@code newTab}) — exactly one. The process stays;
     * the pane becomes the destination's focus and the destination tab and workspace become
     * active; an emptied source tab is removed. In an existing tab the pane is placed to the
     * right of that tab's focused pane, as {@link #split} would put a new one, and refused
     * ({@code too_small}, on {@code tab}) when that pane is too narrow to be split.
     */
    public Change<PaneMove> move(Topology s, String paneId, String toTabId, boolean newTab) {
        Topology.Location at = s.requirePane(paneId);
        String id = paneId;
        if ((toTabId != null) == newTab) {
            throw invalid("tab", "exactly_one", "pass exactly one of tab or new_tab");
        }
        Topology.Location dest = null;
        if (toTabId != null) {
            dest = s.requireTab(toTabId);
            if (!dest.workspace().id().equals(at.workspace().id())) {
                throw invalid("tab", "other_workspace", "a pane moves only inside its workspace");
            }
            if (dest.tab().kind().dashboard()) {
                throw invalid("tab", "dashboard", "dashboard tabs are not pane destinations");
            }
            if (dest.tab().id().equals(at.tab().id())) {
                throw invalid("tab", "same_tab", "the pane is already in that tab");
            }
        } else if (at.workspace().tabs().size() >= Topology.MAX_TABS) {
            throw invalid("new_tab", "too_many", "at most " + Topology.MAX_TABS + " tabs per workspace");
        }
        Workspace w = at.workspace();
        List<Tab> tabs = new ArrayList<>(w.tabs());
        List<TopologyEvent> events = new ArrayList<>();
        // Take it out of the source tab.
        Node rest = removeLeaf(at.tab().root(), id);
        String destId;
        if (dest != null) {
            Tab d = dest.tab();
            Node placed = Lifecycle.splitLeaf(d.root(), d.focused(), id, Direction.RIGHT, "tab");
            if (Geometry.depth(placed) > Topology.MAX_DEPTH) {
                throw invalid("tab", "too_deep", "the destination tree is already " + Topology.MAX_DEPTH + " levels deep");
            }
            tabs.set(dest.tabIndex(), d.withTree(placed, id, false));
            destId = d.id();
        } else {
            destId = "tab_" + lifecycle.newId();
            tabs.add(new Tab(destId, TabKind.PANES, null, new Node.Leaf(id), id, false));
            events.add(Lifecycle.tabCreated(w.id(), destId, TabKind.PANES));
        }
        // Events in the order a mirror can apply them: the destination exists, the pane
        // moves, then the emptied source tab goes.
        events.add(TopologyEvent.of("pane.moved", "pane", id, "terminal_id", s.panes().get(id).terminalId(), "workspace_id",
                w.id(), "from_tab_id", at.tab().id(), "to_tab_id", destId));
        if (rest == null) {
            tabs.remove(at.tabIndex());
            events.add(Lifecycle.tabClosed(w.id(), at.tab().id()));
        } else {
            tabs.set(at.tabIndex(), at.tab().withTree(rest, focusAfterRemoval(at.tab(), rest, id), false));
        }
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        Workspace r = w.withTabs(tabs, destId);
        ws.set(at.workspaceIndex(), r);
        Topology n = s.next(ws, w.id(), s.panes(), s.nextPane());
        return new Change<>(n, events, new PaneMove(id, at.workspaceIndex(), r.tabIndex(destId) + 1, destId));
    }

    /** Exchanges two panes' places in their (shared) tab; focus stays with the same pane id. */
    public Change<Void> swap(Topology s, String paneA, String paneB) {
        if (paneA == null || paneB == null) {
            throw invalid("with", "missing", "pane.swap needs both panes");
        }
        Topology.Location a = s.requirePane(paneA);
        Topology.Location b = s.requirePane(paneB);
        if (!a.tab().id().equals(b.tab().id())) {
            throw invalid("with", "other_tab", "pane.swap needs both panes in the same tab");
        }
        if (paneA.equals(paneB)) {
            throw invalid("with", "same_pane", "a pane cannot swap with itself");
        }
        String tmp = "\u0000swap";
        Node root = Lifecycle.replaceLeaf(a.tab().root(), paneA, new Node.Leaf(tmp));
        root = Lifecycle.replaceLeaf(root, paneB, new Node.Leaf(paneA));
        root = Lifecycle.replaceLeaf(root, tmp, new Node.Leaf(paneB));
        return new Change<>(s.withTab(a, a.tab().withTree(root, a.tab().focused(), false)), List.of(TopologyEvent.of("pane.swapped",
                "pane", paneA, "with", paneB, "workspace_id", a.workspace().id(), "tab_id", a.tab().id())), null);
    }

    /** Focuses a pane ({@link Lifecycle#focusPane}). */
    public Change<Void> focus(Topology s, String paneId) {
        return Lifecycle.focusPane(s, paneId);
    }

    /** The neighbor by {@link Geometry#neighbor}; inspects only. */
    public static Optional<String> neighbor(Topology s, String paneId, Direction d) {
        Topology.Location at = s.requirePane(paneId);
        return Geometry.neighbor(at.tab().root(), paneId, d);
    }

    /** Moves the focus to the neighbor in a direction; unchanged (empty result) when there is none. */
    public Change<Optional<String>> focusDirection(Topology s, String paneId, Direction d) {
        Optional<String> n = neighbor(s, paneId, d);
        if (n.isEmpty()) {
            return new Change<>(s, List.of(), n);
        }
        Change<Void> f = focus(s, n.get());
        return new Change<>(f.state(), f.events(), n);
    }

    /** A pane's rectangle in the normalized area. */
    public static Rect rect(Topology s, String paneId) {
        Topology.Location at = s.requirePane(paneId);
        return Geometry.rects(at.tab().root()).get(paneId);
    }

    /**
     * Grows a pane towards {@code direction} by {@code cells} reference cells (negative
     * shrinks) by moving its border on that side: the nearest enclosing split along that
     * axis where the pane lies on the near side. The ratio is clamped by
     * {@link Geometry#clampRatio}, so every pane on both sides keeps the minimum extent. A pane that touches the outer edge on that side has no
     * such border: {@code invalid_request}.
     */
    public Change<Void> resize(Topology s, String paneId, Direction direction, int cells) {
        Topology.Location at = s.requirePane(paneId);
        String id = paneId;
        if (direction == null) {
            throw invalid("direction", "missing", "direction is required");
        }
        if (cells == 0 || Math.abs(cells) > Topology.AREA) {
            throw invalid("cells", "out_of_range", "cells must be non-zero and at most " + Topology.AREA);
        }
        // Walk down to the pane, remembering the last matching split.
        String found = null;
        Node n = at.tab().root();
        Rect r = new Rect(0, 0, Topology.AREA, Topology.AREA);
        StringBuilder steps = new StringBuilder();
        Rect foundRect = null;
        while (n instanceof Node.Split sp) {
            boolean inA = Topology.leaves(sp.a()).contains(id);
            if (sp.axis() == direction.axis() && inA == direction.forward()) {
                found = steps.toString();
                foundRect = r;
            }
            Rect[] parts = Geometry.divide(sp, r);
            steps.append(inA ? 'a' : 'b');
            r = inA ? parts[0] : parts[1];
            n = inA ? sp.a() : sp.b();
        }
        if (found == null) {
            throw invalid("direction", "edge", "pane " + id + " has no border to the " + direction.wire());
        }
        Node.Split target = (Node.Split) at(at.tab().root(), found);
        int extent = Geometry.extent(foundRect, direction.axis());
        int delta = cells * Geometry.cell(direction.axis()) * (direction.forward() ? 1 : -1);
        int a = Geometry.firstExtent(target, extent) + delta;
        double ratio = Geometry.clampRatio(target, (double) a / extent, extent);
        Node root = withRatio(at.tab().root(), found, ratio);
        return new Change<>(s.withTab(at, at.tab().withTree(root, at.tab().focused(), at.tab().zoomed())), Lifecycle.layoutChanged(at),
                null);
    }

    /** Zooms or unzooms a pane ({@link Lifecycle#zoomPane}). */
    public Change<Boolean> zoom(Topology s, String paneId, Boolean on) {
        return Lifecycle.zoomPane(s, paneId, on);
    }

    /** Sets a pane's name ({@link Lifecycle#renamePane}). */
    public Change<Void> rename(Topology s, String paneId, String name) {
        return Lifecycle.renamePane(s, paneId, name);
    }

    /** Sets (trimmed, one line, ≤ 60 code points, non-empty) or clears a pane's purpose — exactly one. */
    public Change<String> purpose(Topology s, String paneId, String purpose, boolean clear) {
        Topology.Location at = s.requirePane(paneId);
        String id = paneId;
        if ((purpose != null) == clear) {
            throw invalid("purpose", "exactly_one", "pass exactly one of purpose or clear:true");
        }
        String p = clear ? null : label("purpose", purpose, Topology.MAX_PURPOSE, false);
        return new Change<>(s.withPane(s.panes().get(id).withPurpose(p)), List.of(TopologyEvent.withNulls("pane.purpose_changed",
                "pane", id, "purpose", p)), p);
    }
}
