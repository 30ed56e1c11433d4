package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Layouts;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The layout family's rules ({@link LayoutOps}) and the tree bounds of {@link Layouts}: every operation, every rejection. */
class LayoutOpsTest extends TopologyFixture {
    /**
     * The trees below hold every expected pane exactly once and nothing else, so the only
     * rule that can refuse them is the one each case names; the reason is asserted.
     */
    static void refusedFor(String reason, Node tree, Set<String> expected) {
        UhpException e = assertThrows(UhpException.class, () -> Layouts.validate(tree, expected));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals(Map.of("field", "layout", "reason", reason), e.details(), e.getMessage());
    }

    /** The JSON form of {@code chain(depth, true)}, built without recursion (toJson recurses). */
    static ObjectNode deepJson(int depth) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode n = m.createObjectNode().put("pane", "0");
        for (int i = 1; i <= depth; i++) {
            ObjectNode s = m.createObjectNode().put("axis", "vertical").put("ratio", 0.5);
            s.set("a", n);
            s.set("b", m.createObjectNode().put("pane", Integer.toString(i)));
            n = s;
        }
        return n;
    }

    @Test
    void exportApplyRoundTripAndFocus() throws IOException {
        threePanes();
        LayoutOps.LayoutView v = LayoutOps.view(s, s.active().orElseThrow().activeTab());
        assertEquals(tab(1).root(), v.root());
        assertEquals("3", v.focused());
        ObjectNode json = Layouts.toJson(v.root());
        assertEquals(v.root(), Layouts.fromJson(json));
        Node flipped = new Node.Split(Axis.VERTICAL, 0.3, new Node.Leaf("3"),
                new Node.Split(Axis.HORIZONTAL, 0.6, new Node.Leaf("2"), new Node.Leaf("1")));
        Set<String> termsBefore = new HashSet<>(s.panes().keySet());
        Change<LayoutOps.LayoutView> c = ops.layouts().apply(s, tab(1).id(), flipped, "1");
        apply(c);
        assertEquals(flipped, tab(1).root());
        assertEquals(Optional.of("1"), s.focusedPane());
        assertEquals(termsBefore, s.panes().keySet(), "no pane added or removed");
        assertEquals(List.of("layout.changed"), c.events().stream().map(TopologyEvent::name).toList());
    }

    @Test
    void applyRejectsBadTreesBeforeMutation() throws IOException {
        threePanes();
        String t1 = tab(1).id();
        Node.Leaf l1 = new Node.Leaf("1");
        Node.Leaf l2 = new Node.Leaf("2");
        Node.Leaf l3 = new Node.Leaf("3");
        Node two = new Node.Split(Axis.HORIZONTAL, 0.5, l1, l2);
        record Bad(Node tree, String reason) {
        }
        for (Bad b : List.of(
                new Bad(new Node.Split(Axis.HORIZONTAL, 0.5, two, l1), "duplicate_pane"),
                new Bad(two, "missing_pane"),
                new Bad(new Node.Split(Axis.HORIZONTAL, 0.5, two, new Node.Leaf("9")), "foreign_pane"),
                new Bad(new Node.Split(Axis.HORIZONTAL, 1.5, two, l3), "invalid_ratio"),
                new Bad(new Node.Split(Axis.HORIZONTAL, Double.NaN, two, l3), "invalid_ratio"),
                new Bad(new Node.Split(Axis.HORIZONTAL, -0.1, two, l3), "invalid_ratio"))) {
            UhpException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, b.tree(), null));
            assertEquals(b.reason(), e.details().get("reason"), b.toString());
        }
        Node ok = new Node.Split(Axis.HORIZONTAL, 0.5, two, l3);
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, ok, "9"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, null, null));
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        String git = tab(2).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, git, ok, null));
        refused(ErrorCode.INVALID_REQUEST, t -> LayoutOps.view(t, git));
    }

    @Test
    void tenThousandLevelsAndHugeTreesAreRejectedFast() throws IOException {
        threePanes();
        String t1 = tab(1).id();
        long t0 = System.nanoTime();
        // Through layout.apply: a 10,000-level chain is refused for its depth before the
        // walk reaches a leaf (its a side, walked first, is the deep one).
        Node deep = chain(10_000, true);
        UhpException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, deep, null));
        assertEquals("too_deep", e.details().get("reason"), e.getMessage());
        // 10,000 levels deep on either side, every leaf a valid pane: depth is the only reason.
        refusedFor("too_deep", chain(10_000, true), ids(10_001));
        refusedFor("too_deep", chain(10_000, false), ids(10_001));
        // A wide tree of a million nodes, only 19 levels deep, every leaf distinct and expected.
        refusedFor("too_large", balanced(1 << 19), ids(1 << 19));
        // The JSON reader is bounded the same way.
        UhpException j = assertThrows(UhpException.class, () -> Layouts.fromJson(deepJson(10_000)));
        assertEquals("too_deep", j.details().get("reason"));
        assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "rejected fast");
    }

    @Test
    void depthAndNodeBoundsHoldExactly() {
        int depth = Topology.MAX_DEPTH;
        // Exactly MAX_DEPTH splits deep (on either side) is accepted; one more is too deep.
        Layouts.validate(chain(depth, true), ids(depth + 1));
        Layouts.validate(chain(depth, false), ids(depth + 1));
        refusedFor("too_deep", chain(depth + 1, true), ids(depth + 2));
        refusedFor("too_deep", chain(depth + 1, false), ids(depth + 2));
        assertEquals(chain(depth, true), Layouts.fromJson(deepJson(depth)));
        UhpException j = assertThrows(UhpException.class, () -> Layouts.fromJson(deepJson(depth + 1)));
        assertEquals("too_deep", j.details().get("reason"));
        // A full binary tree has 2 × leaves − 1 nodes, always odd: MAX_NODES itself is the
        // largest tree allowed, and the next tree (one more leaf, two more nodes) is the
        // first past the bound.
        int leaves = (Layouts.MAX_NODES + 1) / 2;
        assertEquals(Layouts.MAX_NODES, 2 * leaves - 1);
        Node atBound = balanced(leaves);
        Layouts.validate(atBound, ids(leaves));
        refusedFor("too_large", balanced(leaves + 1), ids(leaves + 1));
        assertEquals(atBound, Layouts.fromJson(Layouts.toJson(atBound)));
        UhpException k = assertThrows(UhpException.class,
                () -> Layouts.fromJson(Layouts.toJson(balanced(leaves + 1))));
        assertEquals("too_large", k.details().get("reason"));
    }

    @Test
    void fromJsonRejectsMalformedNodes() throws Exception {
        ObjectMapper m = new ObjectMapper();
        for (String bad : List.of("[]", "{\"pane\":7}", "{\"pane\":\"1\",\"x\":1}",
                "{\"axis\":\"diagonal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
                "{\"axis\":\"horizontal\",\"ratio\":\"half\",\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
                "{\"axis\":\"horizontal\",\"ratio\":2,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
                "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"}}",
                "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"},\"c\":1}")) {
            UhpException e = assertThrows(UhpException.class, () -> Layouts.fromJson(m.readTree(bad)), bad);
            assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        }
    }

    @Test
    void setSplitRatioByPathClamps() throws IOException {
        threePanes();
        String t1 = tab(1).id();
        assertEquals(0.25, apply(ops.layouts().setSplitRatio(s, t1, List.of(), 0.25)));
        assertEquals(2500, PaneOps.rect(s, "1").width());
        assertEquals(0.8, apply(ops.layouts().setSplitRatio(s, t1, List.of("b"), 0.8)));
        assertEquals(8000, PaneOps.rect(s, "2").height());
        double clamped = apply(ops.layouts().setSplitRatio(s, t1, List.of(), 0.0));
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "1").width());
        assertEquals((double) Geometry.MIN_WIDTH / Topology.AREA, clamped);
        apply(ops.layouts().setSplitRatio(s, t1, List.of(), 1.0));
        assertEquals(Geometry.MIN_WIDTH, PaneOps.rect(s, "2").width());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().setSplitRatio(t, t1, List.of(), 1.5));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().setSplitRatio(t, t1, List.of(), Double.NaN));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().setSplitRatio(t, t1, List.of("c"), 0.5));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().setSplitRatio(t, t1, null, 0.5));
        refused(ErrorCode.NOT_FOUND, t -> ops.layouts().setSplitRatio(t, t1, List.of("a"), 0.5));
        refused(ErrorCode.NOT_FOUND, t -> ops.layouts().setSplitRatio(t, t1, List.of("b", "a", "a"), 0.5));
        List<String> tooLong = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            tooLong.add("a");
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().setSplitRatio(t, t1, tooLong, 0.5));
    }
}
