package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Rect;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pane family's rules ({@link PaneOps}), pane removal and the geometry they keep: every operation, every rejection. */
class PaneOpsTest extends TopologyFixture {
    /** Every pane of the tree is at least the minimum size, and the tree tiles the area. */
    static void minimumKept(Node root) {
        tiles(root);
        for (Map.Entry<String, Rect> e : Geometry.rects(root).entrySet()) {
            Rect r = e.getValue();
            assertTrue(r.width() >= Geometry.MIN_WIDTH && r.height() >= Geometry.MIN_HEIGHT,
                    "pane " + e.getKey() + " is below the minimum size: " + r);
        }
    }

    /**
     * A workspace with one pane tab holding {@code root} as given. The operations no longer
     * build trees denser than the area, so such trees (from a session saved before the
     * clamping looked at nested subtrees) are made here directly.
     */
    void tabOf(Node root) {
        Map<String, Pane> panes = new java.util.LinkedHashMap<>();
        long next = 1;
        for (String id : Topology.leaves(root)) {
            panes.put(id, new Pane(id, "term_" + id, dir, List.of("sh"), null, null));
            next = Math.max(next, Long.parseLong(id) + 1);
        }
        Tab t = new Tab("tab_00000000000000a1", TabKind.PANES, null, root, Topology.leaves(root).get(0), false);
        Workspace w = new Workspace("workspace_00000000000000a1", "w", dir, false, List.of(t), t.id());
        s = new Topology(List.of(w), w.id(), panes, next, 1);
    }

    /** 1 | (2 | (3 | 4)) made by splitting, all halves. */
    void fourInARow() throws IOException {
        open();
        apply(ops.panes().split(s, "1", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "2", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "3", Direction.RIGHT, true, sp));
    }

    @Test
    void splitInEachDirectionPlacesTheNewPane() throws IOException {
        for (Direction d : Direction.values()) {
            open();
            String id = apply(ops.panes().split(s, s.focusedPane().orElseThrow(), d, true, sp));
            Node.Split root = (Node.Split) tab(1).root();
            assertEquals(d.axis(), root.axis());
            assertEquals(0.5, root.ratio());
            Rect neu = PaneOps.rect(s, id);
            Rect old = PaneOps.rect(s, "1");
            switch (d) {
                case RIGHT -> assertEquals(old.right(), neu.x());
                case LEFT -> assertEquals(neu.right(), old.x());
                case DOWN -> assertEquals(old.bottom(), neu.y());
                case UP -> assertEquals(neu.bottom(), old.y());
            }
            assertEquals(Optional.of(id), s.focusedPane());
        }
    }

    @Test
    void horizontalMeansSideBySide() {
        Node n = new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf("1"), new Node.Leaf("2"));
        assertEquals(new Rect(0, 0, 5000, 10000), Geometry.rects(n).get("1"));
        assertEquals(new Rect(5000, 0, 5000, 10000), Geometry.rects(n).get("2"));
    }

    @Test
    void splitWithoutFocusAndFailedSpawnChangesNothing() throws IOException {
        open();
        Change<String> c = ops.panes().split(s, "1", Direction.DOWN, false, sp);
        apply(c);
        assertEquals(Optional.of("1"), s.focusedPane());
        assertEquals("pane.created", c.events().get(0).name());
        Topology before = s;
        assertThrows(IOException.class, () -> ops.panes().split(before, "1", Direction.RIGHT, true, FAIL));
        // The id the failed spawn was offered is the one the next split hands out.
        assertEquals("3", ops.panes().split(before, "1", Direction.RIGHT, true, sp).result(),
                "a failed spawn does not use up the id");
        refused(ErrorCode.NOT_FOUND, io(t -> ops.panes().split(t, "99", Direction.RIGHT, true, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.panes().split(t, paneById(t, "x"), Direction.RIGHT, true, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.panes().split(t, "1", null, true, sp)));
    }

    @Test
    void splitStopsAtTheMinimumSize() throws IOException {
        open();
        int n = 0;
        try {
            while (true) {
                apply(ops.panes().split(s, s.focusedPane().orElseThrow(), Direction.DOWN, true, sp));
                n++;
            }
        } catch (UhpException e) {
            assertEquals("too_small", e.details().get("reason"));
        }
        assertTrue(n >= 5 && n < 10, "splits: " + n);
        tiles(tab(1).root());
        for (Rect r : Geometry.rects(tab(1).root()).values()) {
            assertTrue(r.height() >= Geometry.MIN_HEIGHT, r.toString());
        }
    }

    @Test
    void paneExitCollapsesTheTreeAndClosesTheTabWithTheLastPane() throws IOException {
        threePanes();
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
        apply(ops.tabs().focus(s, tab(1).id()));
        Change<Void> c = Lifecycle.removePane(s, "3");
        s = c.state(); // not apply(): the model publishes pane.closed, with the exit status, for an exit
        assertTrue(c.events().isEmpty());
        assertEquals(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf("1"), new Node.Leaf("2")), tab(1).root());
        assertEquals("2", tab(1).focused(), "the sibling that took its place takes the focus");
        s = Lifecycle.removePane(s, "2").state();
        assertEquals(new Node.Leaf("1"), tab(1).root());
        Change<Void> last = Lifecycle.removePane(s, "1");
        apply(last);
        assertEquals(List.of("tab.closed"), last.events().stream().map(TopologyEvent::name).toList());
        assertEquals(1, w0().tabs().size());
        assertEquals(Optional.of("4"), s.focusedPane());
        Topology before = s;
        assertSame(before, Lifecycle.removePane(s, "1").state(), "a second exit is no change");
    }

    @Test
    void paneMoveToAnotherTabAndToANewTab() throws IOException {
        threePanes();
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp)); // pane 4 in tab 2
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        String t2 = tab(2).id();
        Change<PaneOps.PaneMove> c = ops.panes().move(s, "3", t2, false);
        PaneOps.PaneMove m = apply(c);
        assertEquals(new PaneOps.PaneMove("3", 0, 2, t2), m);
        assertEquals(Set.of("4", "3"), new HashSet<>(Topology.leaves(tab(2).root())));
        assertEquals(Optional.of("3"), s.focusedPane(), "focus follows the pane");
        assertEquals("pane.moved", c.events().get(0).name());
        assertEquals("term_3", c.events().get(0).data().get("terminal_id"));
        m = apply(ops.panes().move(s, "1", null, true));
        assertEquals(4, m.tab());
        assertEquals(new Node.Leaf("2"), tab(1).root());
        // Emptying the source tab removes it; the result's position counts after that. The
        // events come in the order a mirror applies them: the move, then the empty tab goes.
        String t1 = tab(1).id();
        Change<PaneOps.PaneMove> last = ops.panes().move(s, "2", t2, false);
        assertEquals(List.of("pane.moved", "tab.closed"), last.events().stream().map(TopologyEvent::name).toList());
        assertEquals(t1, last.events().get(1).data().get("tab_id"));
        Change<PaneOps.PaneMove> toNew = ops.panes().move(s, "2", null, true);
        assertEquals(List.of("tab.created", "pane.moved", "tab.closed"),
                toNew.events().stream().map(TopologyEvent::name).toList(), "the new tab exists before the pane moves in");
        m = apply(last);
        assertEquals(1, m.tab());
        assertEquals(3, w0().tabs().size());
        assertEquals(t2, tab(1).id());
        assertEquals(Optional.of("2"), s.focusedPane());
    }

    @Test
    void paneMoveIntoAPaneTooNarrowToSplitIsRefusedLikeSplit() throws IOException {
        open();
        apply(ops.panes().split(s, "1", Direction.RIGHT, true, sp)); // 1 | 2
        String t1 = tab(1).id();
        apply(ops.layouts().setSplitRatio(s, t1, List.of(), 0.0)); // pane 1 exactly the minimum width
        apply(ops.panes().focus(s, "1"));
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp)); // pane 3 alone in tab 2
        UhpException bySplit = refused(ErrorCode.INVALID_REQUEST,
                io(t -> ops.panes().split(t, "1", Direction.RIGHT, true, sp)));
        UhpException byMove = refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "3", t1, false));
        assertEquals("too_small", bySplit.details().get("reason"));
        assertEquals(Map.of("field", "tab", "reason", "too_small"), byMove.details());
        assertEquals(bySplit.getMessage(), byMove.getMessage());
        // Twice the minimum: the move fits, both halves at the minimum; the next one does not.
        apply(ops.layouts().setSplitRatio(s, t1, List.of(), 2.0 * Geometry.MIN_WIDTH / Topology.AREA));
        apply(ops.panes().move(s, "3", t1, false));
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "3").width());
        for (int i = 0; i < 3; i++) {
            apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
            String pane = Topology.leaves(tab(2).root()).get(0);
            UhpException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, pane, t1, false));
            assertEquals("too_small", e.details().get("reason"));
            apply(Lifecycle.removePane(s, pane));
        }
        minimumKept(tab(1).root());
    }

    @Test
    void randomSplitsMovesResizesAndRatiosKeepEveryPaneAtTheMinimum() throws IOException {
        open();
        String t1 = tab(1).id();
        java.util.Random r = new java.util.Random(11);
        Set<String> refusals = new HashSet<>();
        for (int i = 0; i < 600; i++) {
            List<String> panes = Topology.leaves(tab(1).root());
            String p = panes.get(r.nextInt(panes.size()));
            Direction d = Direction.values()[r.nextInt(4)];
            Map<String, Rect> before = Geometry.rects(tab(1).root());
            try {
                switch (r.nextInt(5)) {
                    case 0, 1 -> {
                        apply(ops.panes().split(s, p, d, true, sp));
                        Map<String, Rect> after = Geometry.rects(tab(1).root());
                        for (String q : panes) {
                            if (!q.equals(p)) {
                                assertEquals(before.get(q), after.get(q), "a split moves no other pane");
                            }
                        }
                    }
                    case 2 -> {
                        apply(ops.panes().focus(s, p));
                        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
                        String moved = Topology.leaves(tab(2).root()).get(0);
                        try {
                            apply(ops.panes().move(s, moved, t1, false));
                        } catch (UhpException e) {
                            apply(Lifecycle.removePane(s, moved));
                            throw e;
                        }
                    }
                    case 3 -> apply(ops.panes().resize(s, p, d, r.nextInt(81) - 40));
                    default -> {
                        List<String> path = new ArrayList<>();
                        Node n = tab(1).root();
                        while (n instanceof Node.Split sp && r.nextInt(3) > 0) {
                            path.add(r.nextBoolean() ? "a" : "b");
                            n = path.get(path.size() - 1).equals("a") ? sp.a() : sp.b();
                        }
                        if (n instanceof Node.Split) {
                            apply(ops.layouts().setSplitRatio(s, t1, path, r.nextDouble()));
                        }
                    }
                }
            } catch (UhpException e) {
                refusals.add(String.valueOf(e.details().get("reason")));
            }
            assertEquals(1, w0().tabs().size());
            minimumKept(tab(1).root());
        }
        assertTrue(Set.of("too_small", "edge", "out_of_range", "too_many_panes").containsAll(refusals), refusals.toString());
        assertTrue(refusals.contains("too_small"), refusals.toString());
        assertTrue(Topology.leaves(tab(1).root()).size() > 20, "the tab filled up");
    }

    @Test
    void paneMoveRejections() throws IOException {
        threePanes();
        apply(ops.tabs().create(s, ws0(), TabKind.ORCHESTRATION, null, sp));
        String dash = tab(2).id();
        String own = tab(1).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "1", dash, false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "1", own, false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "1", own, true));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "1", null, false));
        refused(ErrorCode.NOT_FOUND, t -> ops.panes().move(t, "42", null, true));
        refused(ErrorCode.NOT_FOUND, t -> ops.panes().move(t, "1", "tab_00000000000000ff", false));
        apply(ops.lifecycle().openWorkspace(s, dir, "other", sp));
        String foreign = s.workspaces().get(1).tabs().get(0).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "1", foreign, false));
    }

    @Test
    void paneSwapOnlyInOneTab() throws IOException {
        threePanes();
        apply(ops.panes().swap(s, "1", "3"));
        assertEquals(List.of("3", "2", "1"), Topology.leaves(tab(1).root()));
        assertEquals("3", tab(1).focused());
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().swap(t, "1", "4"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().swap(t, "1", "1"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().swap(t, "1", null));
        refused(ErrorCode.NOT_FOUND, t -> ops.panes().swap(t, "1", "77"));
    }

    @Test
    void focusNeighborAndEdges() throws IOException {
        threePanes(); // 1 left; 2 top right; 3 bottom right
        Topology before = s;
        assertEquals(Optional.of("2"), PaneOps.neighbor(s, "1", Direction.RIGHT), "ties go to the top");
        assertEquals(Optional.of("1"), PaneOps.neighbor(s, "3", Direction.LEFT));
        assertEquals(Optional.of("2"), PaneOps.neighbor(s, "3", Direction.UP));
        assertEquals(Optional.empty(), PaneOps.neighbor(s, "1", Direction.LEFT));
        assertEquals(EnumSet.of(Direction.LEFT, Direction.UP, Direction.DOWN),
                Geometry.edges(PaneOps.rect(s, "1")));
        assertEquals(EnumSet.of(Direction.RIGHT, Direction.DOWN), Geometry.edges(PaneOps.rect(s, "3")));
        assertSame(before, s, "queries never change anything");
        Change<Optional<String>> c = ops.panes().focusDirection(s, "3", Direction.LEFT);
        apply(c);
        assertEquals(Optional.of("1"), s.focusedPane());
        Change<Optional<String>> none = ops.panes().focusDirection(s, "1", Direction.LEFT);
        assertSame(s, none.state());
        apply(ops.panes().focus(s, "2"));
        assertEquals(Optional.of("2"), s.focusedPane());
        refused(ErrorCode.NOT_FOUND, t -> ops.panes().focus(t, "9"));
    }

    @Test
    void neighborPrefersTheLargestOverlap() {
        // 1 | (2 over 3) where 3 is larger: from 1 going right, 3 overlaps more.
        Node n = new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf("1"),
                new Node.Split(Axis.VERTICAL, 0.25, new Node.Leaf("2"), new Node.Leaf("3")));
        assertEquals(Optional.of("3"), Geometry.neighbor(n, "1", Direction.RIGHT));
        // A grid whose rows are cut at different heights: 1 (top left) touches only 3 on
        // the right; 2 (bottom left) touches both 3 and 4 and picks the larger overlap.
        Node grid = new Node.Split(Axis.HORIZONTAL, 0.5,
                new Node.Split(Axis.VERTICAL, 0.3, new Node.Leaf("1"), new Node.Leaf("2")),
                new Node.Split(Axis.VERTICAL, 0.7, new Node.Leaf("3"), new Node.Leaf("4")));
        assertEquals(Optional.of("3"), Geometry.neighbor(grid, "1", Direction.RIGHT));
        assertEquals(Optional.of("3"), Geometry.neighbor(grid, "2", Direction.RIGHT), "2 overlaps 3 by 4000, 4 by 3000");
        assertEquals(Optional.of("2"), Geometry.neighbor(grid, "4", Direction.LEFT));
    }

    @Test
    void geometryTilesExactlyWithOddRatios() {
        Node n = new Node.Leaf("1");
        java.util.Random r = new java.util.Random(7);
        for (int i = 2; i <= 40; i++) {
            List<String> leaves = Topology.leaves(n);
            String victim = leaves.get(r.nextInt(leaves.size()));
            Axis axis = r.nextBoolean() ? Axis.HORIZONTAL : Axis.VERTICAL;
            n = Lifecycle.replaceLeaf(n, victim, new Node.Split(axis, r.nextDouble(), new Node.Leaf(victim),
                    new Node.Leaf(Integer.toString(i))));
            tiles(n);
        }
    }

    @Test
    void setSplitRatioKeepsEveryPaneOfANestedSubtreeAtTheMinimum() throws IOException {
        fourInARow();
        String t1 = tab(1).id();
        // The inner splits lean towards their first pane as far as they may: 3 | 4 (2,500
        // units) keeps pane 4's minimum, 2 | (3 | 4) (5,000) keeps room for both.
        assertEquals(1.0 - 1.0 * Geometry.MIN_WIDTH / 2500, apply(ops.layouts().setSplitRatio(s, t1, List.of("b", "b"), 1.0)),
                1e-12);
        assertEquals(1.0 - 2.0 * Geometry.MIN_WIDTH / 5000, apply(ops.layouts().setSplitRatio(s, t1, List.of("b"), 1.0)), 1e-12);
        // The root gives pane 1 everything: the right side keeps room for its three panes.
        double root = apply(ops.layouts().setSplitRatio(s, t1, List.of(), 1.0));
        assertEquals(1.0 - 3.0 * Geometry.MIN_WIDTH / Topology.AREA, root, 1e-12);
        assertEquals(Topology.AREA - 3 * Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        for (String p : List.of("2", "3", "4")) {
            assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, p).width(), "pane " + p);
        }
        minimumKept(tab(1).root());
        // And the other way: pane 1 keeps its own minimum.
        assertEquals((double) Geometry.MIN_WIDTH / Topology.AREA, apply(ops.layouts().setSplitRatio(s, t1, List.of(), 0.0)),
                1e-12);
        minimumKept(tab(1).root());
    }

    @Test
    void applyLayoutClampsEachSplitToTheRoomItsSubtreesNeed() throws IOException {
        open();
        apply(ops.panes().split(s, "1", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "2", Direction.DOWN, true, sp));
        apply(ops.panes().split(s, "3", Direction.RIGHT, true, sp)); // 1 | (2 / (3 | 4))
        // Every ratio pushed to the end: the right side must stay wide enough for 3 | 4 (a
        // vertical split needs the wider of its two sides), 2 one row high, 3 and 4 halves.
        Node asked = new Node.Split(Axis.HORIZONTAL, 1.0, new Node.Leaf("1"), new Node.Split(Axis.VERTICAL, 0.0,
                new Node.Leaf("2"), new Node.Split(Axis.HORIZONTAL, 1.0, new Node.Leaf("3"), new Node.Leaf("4"))));
        apply(ops.layouts().apply(s, tab(1).id(), asked, null));
        minimumKept(tab(1).root());
        assertEquals(Topology.AREA - 2 * Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        assertEquals(2 * Geometry.MIN_WIDTH, PaneOps.rect(s, "2").width());
        assertEquals(Geometry.MIN_HEIGHT, PaneOps.rect(s, "2").height());
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "3").width());
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "4").width());
        Node.Split stored = (Node.Split) tab(1).root();
        assertEquals(1.0 - 2.0 * Geometry.MIN_WIDTH / Topology.AREA, stored.ratio(), 1e-12, "stored clamped");
    }

    @Test
    void resizeKeepsEveryPaneOfANestedSubtreeAtTheMinimum() throws IOException {
        fourInARow();
        apply(ops.panes().resize(s, "1", Direction.RIGHT, 1000));
        minimumKept(tab(1).root());
        assertEquals(Topology.AREA - 3 * Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        apply(ops.panes().resize(s, "4", Direction.LEFT, -1000)); // shrinks 4 towards 3
        minimumKept(tab(1).root());
        apply(ops.panes().resize(s, "2", Direction.LEFT, 1000)); // grows 2 into 1
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        minimumKept(tab(1).root());
    }

    @Test
    void aTreeStoredBeforeTheNestedClampIsLaidOutWithEveryPaneAtTheMinimum() {
        // What pane.move used to leave: pane 1 at 0.99, halves below it.
        Node old = new Node.Split(Axis.HORIZONTAL, 0.99, new Node.Leaf("1"), row(2, 5, Axis.HORIZONTAL, 0.5));
        minimumKept(old);
        assertEquals(Topology.AREA - 4 * Geometry.MIN_WIDTH, Geometry.rects(old).get("1").width());
    }

    @Test
    void aTreeDenserThanTheAreaIsSharedInProportionToTheNeeds() throws IOException {
        // 120 panes side by side need 12,000 units: each gets about 10,000 / 120, none nothing.
        for (double ratio : new double[] {0.0, 0.5, 0.99}) {
            Node row = row(120, Axis.HORIZONTAL, ratio);
            tiles(row);
            for (Rect r : Geometry.rects(row).values()) {
                assertTrue(r.width() >= 83 && r.width() <= 84, ratio + ": " + r);
            }
        }
        tabOf(row(120, Axis.HORIZONTAL, 0.5));
        String t1 = tab(1).id();
        // set_split_ratio there cannot keep the minimum: it stores the share the layout uses.
        assertEquals(1.0 / 120, apply(ops.layouts().setSplitRatio(s, t1, List.of(), 0.9)), 1e-12);
        assertEquals(83, PaneOps.rect(s, "1").width());
        apply(ops.panes().resize(s, "1", Direction.RIGHT, 10));
        assertEquals(83, PaneOps.rect(s, "1").width(), "resize cannot make room either");
        // layout.apply accepts such a tree (here a balanced one, 7 levels) and shares it the
        // same way: 64 panes on the left half, 56 on the right.
        Node wide = new Node.Split(Axis.HORIZONTAL, 0.99, balanced(1, 64), balanced(65, 120));
        apply(ops.layouts().apply(s, t1, wide, null));
        tiles(tab(1).root());
        assertEquals(64.0 / 120, ((Node.Split) tab(1).root()).ratio(), 1e-12);
        for (Rect r : Geometry.rects(tab(1).root()).values()) {
            assertTrue(r.width() >= 83 && r.width() <= 84, r.toString());
        }
        // A chain as deep as layout.apply allows, stacked: 65 rows needed, 50 there.
        Node deep = row(Topology.MAX_DEPTH + 1, Axis.VERTICAL, 0.5);
        tabOf(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf(Integer.toString(Topology.MAX_DEPTH + 1)),
                row(Topology.MAX_DEPTH, Axis.HORIZONTAL, 0.5)));
        apply(ops.layouts().apply(s, tab(1).id(), deep, null));
        tiles(tab(1).root());
        for (Rect r : Geometry.rects(tab(1).root()).values()) {
            assertTrue(r.height() >= Topology.AREA / (Topology.MAX_DEPTH + 1) - 1, r.toString());
        }
    }

    @Test
    void resizeMovesTheBorderAndClamps() throws IOException {
        threePanes();
        apply(ops.panes().resize(s, "1", Direction.RIGHT, 10));
        assertEquals(5000 + 10 * Geometry.CELL_WIDTH, PaneOps.rect(s, "1").width());
        apply(ops.panes().resize(s, "2", Direction.LEFT, 4));
        assertEquals(5500 - 4 * Geometry.CELL_WIDTH, PaneOps.rect(s, "1").width());
        apply(ops.panes().resize(s, "3", Direction.UP, 5));
        assertEquals(5000 + 5 * Geometry.CELL_HEIGHT, PaneOps.rect(s, "3").height());
        apply(ops.panes().resize(s, "1", Direction.RIGHT, 1000));
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "2").width(), "clamped to the minimum");
        apply(ops.panes().resize(s, "1", Direction.RIGHT, -10000));
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        tiles(tab(1).root());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().resize(t, "1", Direction.LEFT, 3));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().resize(t, "2", Direction.UP, 3));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().resize(t, "1", Direction.RIGHT, 0));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().resize(t, "1", null, 1));
    }

    @Test
    void zoomTogglesAndEndsWhenFocusMoves() throws IOException {
        threePanes();
        assertTrue(apply(ops.panes().zoom(s, "1", null)));
        assertTrue(tab(1).zoomed());
        assertEquals("1", tab(1).focused());
        assertSame(s, ops.panes().zoom(s, "1", true).state());
        assertFalse(apply(ops.panes().zoom(s, "1", null)));
        apply(ops.panes().zoom(s, "1", true));
        apply(ops.panes().focus(s, "2"));
        assertFalse(tab(1).zoomed());
        refused(ErrorCode.NOT_FOUND, t -> ops.panes().zoom(t, "9", true));
    }

    @Test
    void paneNameAndPurpose() throws IOException {
        open();
        apply(ops.panes().rename(s, "1", "  web "));
        assertEquals("web", s.panes().get("1").name());
        apply(ops.panes().rename(s, "1", ""));
        assertNull(s.panes().get("1").name());
        assertEquals("frontend development server", apply(ops.panes().purpose(s, "1", "  frontend development server ", false)));
        assertEquals("web", apply(ops.panes().rename(s, s.focusedPane().orElseThrow(), "web")) == null ? s.panes().get("1").name() : "");
        assertEquals("frontend development server", s.panes().get("1").purpose(), "rename leaves the purpose");
        apply(ops.panes().purpose(s, "1", "😀".repeat(60), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().purpose(t, "1", "😀".repeat(61), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().purpose(t, "1", "two\nlines", false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().purpose(t, "1", "   ", false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().purpose(t, "1", "x", true));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().purpose(t, "1", null, false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().rename(t, "1", "x".repeat(41)));
        assertNull(apply(ops.panes().purpose(s, "1", null, true)));
        assertNull(s.panes().get("1").purpose());
    }
}
