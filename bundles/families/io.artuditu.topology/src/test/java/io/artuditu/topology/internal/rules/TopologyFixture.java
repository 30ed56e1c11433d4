package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Rect;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Targets;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.uhp.api.schema.UhpContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the pure topology tests share: a state, an id source, a spawner that records what it
 * started, small trees, and the checks every operation's test makes: {@link #apply} (a change
 * publishes an event, a no-op none) and {@link #refused} (the spec's code, nothing spawned).
 * One test class per family extends it.
 */
abstract class TopologyFixture {
    @TempDir
    Path dir;

    final AtomicLong ids = new AtomicLong();

    final TopologyOps ops = new TopologyOps(() -> String.format("%016x", ids.incrementAndGet()));

    final List<String> spawned = new ArrayList<>();

    final Spawner sp = (id, ws, cwd) -> {
        spawned.add(id);
        return new Pane(id, "term_" + id, cwd, List.of("sh"), null, null);
    };

    static final Spawner FAIL = (id, ws, cwd) -> {
        throw new IOException("no such program");
    };

    Topology s;

    String ws0() {
        return s.workspaces().get(0).id();
    }

    Workspace w0() {
        return s.workspaces().get(0);
    }

    Tab tab(int pos) {
        return w0().tabs().get(pos - 1);
    }

    /**
     * Installs a change, checking the rule the revision rests on: a change that installs a
     * different state publishes at least one event (the wire revision is the event sequence,
     * so a silent change would let a stale if_revision through).
     */
    /**
     * The tab a request names in workspace 0 by 1-based {@code position} (null: the active
     * one), resolved as the dispatcher resolves a tab target ({@link Targets}): positions
     * out of range are refused there, before any rule runs.
     */
    static Target tabAt(Topology t, Integer position) {
        com.fasterxml.jackson.databind.node.ObjectNode p = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode().put("workspace", 0);
        if (position != null) {
            p.put("tab", position);
        }
        return Targets.resolve(t, TAB, p, null, id -> java.util.Map.of());
    }

    /** The tab a request names by {@code tab_id}, resolved as the dispatcher does (a malformed id is refused there). */
    static Target tabById(Topology t, String id) {
        return Targets.resolve(t, TAB, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("tab_id", id), null, x -> java.util.Map.of());
    }

    /** The workspace a request names by 0-based {@code index} or by {@code workspace_id}, resolved as the dispatcher does. */
    static Target workspaceAt(Topology t, Object indexOrId) {
        com.fasterxml.jackson.databind.node.ObjectNode p = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode();
        if (indexOrId instanceof Integer i) {
            p.put("workspace", i);
        } else {
            p.put("workspace_id", (String) indexOrId);
        }
        return Targets.resolve(t, new io.artuditu.uhp.api.schema.TargetSpec(io.artuditu.uhp.api.schema.TargetSpec.Kind.WORKSPACE,
                "workspace_id", "workspace", io.artuditu.uhp.api.schema.TargetSpec.Omitted.REQUIRED), p, null,
                x -> java.util.Map.of());
    }

    /** The pane a request names by id, resolved as the dispatcher does (a malformed id is refused there). */
    static String paneById(Topology t, String id) {
        return Targets.resolve(t, new io.artuditu.uhp.api.schema.TargetSpec(io.artuditu.uhp.api.schema.TargetSpec.Kind.PANE,
                "pane", null, io.artuditu.uhp.api.schema.TargetSpec.Omitted.REQUIRED), com.fasterxml.jackson.databind.node
                .JsonNodeFactory.instance.objectNode().put("pane", id), null, x -> java.util.Map.of()).pane();
    }

    /** The resolver's tab target, as tab methods declare it. */
    static final io.artuditu.uhp.api.schema.TargetSpec TAB = new io.artuditu.uhp.api.schema.TargetSpec(
            io.artuditu.uhp.api.schema.TargetSpec.Kind.TAB, "tab_id", "tab", io.artuditu.uhp.api.schema.TargetSpec.Omitted.FOCUSED);

    <T> T apply(Change<T> c) {
        if (c.state() != s) {
            assertFalse(c.events().isEmpty(), "a change without an event: " + c.result());
        } else {
            assertTrue(c.events().isEmpty(), "an event without a change: " + c.events());
        }
        for (TopologyEvent e : c.events()) {
            FamilyContract.EventContract declared = DECLARED.events().get(e.name());
            assertTrue(declared != null, "neither the topology bundle's contract nor the model's declares " + e.name());
            JsonNode data = JSON.valueToTree(e.data());
            assertEquals("", declared.data().validate(data, "data").map(Object::toString).orElse(""), e.name() + " " + data);
        }
        s = c.state();
        return c.result();
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The events the topology families declare (their files in the topology bundle, read from
     * its sources beside this module) and the model's own ({@code Lifecycle}'s, declared by the
     * model's contract, read from its jar): every event an operation returns must be one of
     * them, with data its schema accepts.
     */
    static final UhpContract DECLARED = declared();

    private static UhpContract declared() {
        List<FamilyContract> files = new ArrayList<>();
        for (String f : new String[] {"panes", "workspaces", "tabs", "layouts"}) {
            Path file = Path.of("../../families/io.artuditu.topology/src/main/resources/protocol/uhp/v1/" + f + ".json");
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
                files.add(FamilyContract.read(file.toString(), in));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        files.add(FamilyContract.load(Lifecycle.class, "protocol/uhp/v1/model.json"));
        UhpContract c = UhpContract.assemble(UhpContract.envelope(), files);
        assertEquals(List.of(), c.problems());
        return c;
    }

    /**
     * A rejection with the spec's code, refused before any side effect: no process was
     * spawned for it. The state needs no check here: an operation gets it as an immutable
     * value (records over copied lists and unmodifiable maps) and only a returned
     * {@link Change} could replace it, so comparing it with itself afterwards could never
     * fail. That a refused change installs and publishes nothing is the model's part,
     * tested in {@code ModelTopologyTest.aRefusedOperationChangesNothingAndPublishesNothing}.
     */
    UhpException refused(ErrorCode code, Function<Topology, ?> op) {
        Topology before = s;
        List<String> spawnedBefore = List.copyOf(spawned);
        UhpException e = assertThrows(UhpException.class, () -> op.apply(before));
        assertEquals(code, e.code(), e.getMessage());
        assertEquals(spawnedBefore, spawned, "a refused operation spawns nothing");
        return e;
    }

    interface IoOp {
        Object run(Topology t) throws IOException;
    }

    Function<Topology, Object> io(IoOp op) {
        return t -> {
            try {
                return op.run(t);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
    }

    void open() throws IOException {
        s = Topology.empty();
        apply(ops.lifecycle().openWorkspace(s, dir, null, sp));
    }

    /** Panes 1 | 2 side by side, 2 split down into 2 / 3. */
    void threePanes() throws IOException {
        open();
        apply(ops.panes().split(s, "1", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "2", Direction.DOWN, true, sp));
    }

    static void tiles(Node root) {
        Map<String, Rect> rects = Geometry.rects(root);
        long area = 0;
        for (Rect r : rects.values()) {
            // Even a tree denser than the minimum sizes allow gives every pane some room
            // (Geometry shares the area in proportion to the needs then).
            assertTrue(r.width() > 0 && r.height() > 0, r.toString());
            assertTrue(r.x() >= 0 && r.y() >= 0 && r.right() <= Topology.AREA && r.bottom() <= Topology.AREA);
            area += (long) r.width() * r.height();
        }
        assertEquals((long) Topology.AREA * Topology.AREA, area, "rectangles cover the area exactly");
        List<Rect> list = new ArrayList<>(rects.values());
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                Rect a = list.get(i);
                Rect b = list.get(j);
                boolean overlap = a.x() < b.right() && b.x() < a.right() && a.y() < b.bottom() && b.y() < a.bottom();
                assertFalse(overlap, a + " overlaps " + b);
            }
        }
    }

    List<String> names() {
        return s.workspaces().stream().map(Workspace::name).toList();
    }

    /** Panes "1".."n" in a chain along {@code axis}, each split giving its leaf {@code ratio}. */
    static Node row(int n, Axis axis, double ratio) {
        return row(1, n, axis, ratio);
    }

    /** Panes "from".."to" in a chain along {@code axis}, each split giving its leaf {@code ratio}. */
    static Node row(int from, int to, Axis axis, double ratio) {
        Node rest = new Node.Leaf(Integer.toString(to));
        for (int i = to - 1; i >= from; i--) {
            rest = new Node.Split(axis, ratio, new Node.Leaf(Integer.toString(i)), rest);
        }
        return rest;
    }

    /** Panes "from".."to" side by side in a balanced tree of halves. */
    static Node balanced(int from, int to) {
        if (from == to) {
            return new Node.Leaf(Integer.toString(from));
        }
        int mid = (from + to) / 2;
        return new Node.Split(Axis.HORIZONTAL, 0.5, balanced(from, mid), balanced(mid + 1, to));
    }

    /** A vertical chain {@code depth} splits deep, its leaves "0".."depth", the deep end on side a or b. */
    static Node chain(int depth, boolean deepOnA) {
        Node n = new Node.Leaf("0");
        for (int i = 1; i <= depth; i++) {
            Node leaf = new Node.Leaf(Integer.toString(i));
            n = deepOnA ? new Node.Split(Axis.VERTICAL, 0.5, n, leaf) : new Node.Split(Axis.VERTICAL, 0.5, leaf, n);
        }
        return n;
    }

    /** A balanced tree over the leaves "0".."leaves-1" (2 × leaves − 1 nodes). */
    static Node balanced(int leaves) {
        List<Node> level = new ArrayList<>();
        for (int i = 0; i < leaves; i++) {
            level.add(new Node.Leaf(Integer.toString(i)));
        }
        while (level.size() > 1) {
            List<Node> up = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                up.add(new Node.Split(Axis.HORIZONTAL, 0.5, level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                up.add(level.get(level.size() - 1));
            }
            level = up;
        }
        return level.get(0);
    }

    /** The ids "0".."n-1": every leaf of {@link #chain} or {@link #balanced} is expected once. */
    static Set<String> ids(int n) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < n; i++) {
            out.add(Integer.toString(i));
        }
        return out;
    }
}
