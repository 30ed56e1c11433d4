package io.artuditu.workspace.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pure topology: every operation, every rejection with the state unchanged. */
class TopologyOpsTest {
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
    <T> T apply(Change<T> c) {
        if (c.state() != s) {
            assertFalse(c.events().isEmpty(), "a change without an event: " + c.result());
        } else {
            assertTrue(c.events().isEmpty(), "an event without a change: " + c.events());
        }
        s = c.state();
        return c.result();
    }

    /**
     * A rejection with the spec's code, refused before any side effect: no process was
     * spawned for it. The state needs no check here: an operation gets it as an immutable
     * value (records over copied lists and unmodifiable maps) and only a returned
     * {@link Change} could replace it, so comparing it with itself afterwards could never
     * fail. That a refused change installs and publishes nothing is the model's part,
     * tested in {@code ModelTopologyTest.aRefusedOperationChangesNothingAndPublishesNothing}.
     */
    TopologyException refused(ErrorCode code, Function<Topology, ?> op) {
        Topology before = s;
        List<String> spawnedBefore = List.copyOf(spawned);
        TopologyException e = assertThrows(TopologyException.class, () -> op.apply(before));
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
        apply(ops.openWorkspace(s, dir, null, sp));
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

    // ------------------------------------------------------------ workspaces

    @Test
    void openCreatesWorkspaceTabAndPaneWithEvents() throws IOException {
        s = Topology.empty();
        Change<String> c = ops.openWorkspace(s, dir, null, sp);
        apply(c);
        assertTrue(c.result().matches("workspace_[0-9a-f]{16}"));
        assertEquals(c.result(), s.activeWorkspace());
        assertEquals(dir.getFileName().toString(), w0().name());
        assertTrue(tab(1).id().matches("tab_[0-9a-f]{16}"));
        assertEquals(TabKind.PANES, tab(1).kind());
        assertEquals(Optional.of("1"), s.focusedPane());
        assertEquals(List.of("workspace.created", "tab.created", "pane.created"),
                c.events().stream().map(TopologyEvent::name).toList());
        assertEquals("term_1", c.events().get(2).data().get("terminal_id"));
        assertEquals(2, s.nextPane());
        assertEquals(1, s.version());
    }

    @Test
    void openRejectionsChangeNothing() throws IOException {
        open();
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openWorkspace(t, dir.resolve("missing"), null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openWorkspace(t, Path.of("relative"), null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openWorkspace(t, dir, "  ", sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openWorkspace(t, dir, "x".repeat(41), sp)));
        Topology before = s;
        assertThrows(IOException.class, () -> ops.openWorkspace(before, dir, "ok", FAIL));
        assertEquals(before, s);
    }

    @Test
    void renameTrimsRejectsEmptyAndLongAndNeverTouchesDisk() throws IOException {
        open();
        Workspace r = apply(ops.workspaces().rename(s, ws0(), "  api  "));
        assertEquals("api", r.name());
        assertEquals(dir, w0().cwd());
        assertTrue(dir.toFile().isDirectory());
        apply(ops.workspaces().rename(s, ws0(), "é".repeat(40)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "   "));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "x".repeat(41)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\nb"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\u2028b"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\u2029b"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, "workspace_x", "a"));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().rename(t, "workspace_ffffffffffffffff", "a"));
        refused(ErrorCode.NOT_FOUND, t -> TopologyOps.workspaceAt(t, 1));
        refused(ErrorCode.NOT_FOUND, t -> TopologyOps.workspaceAt(t, -1));
    }

    @Test
    void pinChangesDisplayOrderOnlyAndFocusSwitches() throws IOException {
        open();
        String a = ws0();
        String b = apply(ops.openWorkspace(s, dir, "b", sp));
        assertEquals(b, s.activeWorkspace());
        apply(ops.workspaces().pin(s, b, true));
        assertEquals(List.of(a, b), s.workspaces().stream().map(Workspace::id).toList(), "API order unchanged");
        assertEquals(List.of(1, 0), WorkspaceOps.displayPositions(s));
        assertEquals(b, s.activeWorkspace(), "pinning does not steal focus");
        apply(ops.workspaces().focus(s, a));
        assertEquals(a, s.activeWorkspace());
        assertEquals(Optional.of("1"), s.focusedPane());
        Topology before = s;
        assertSame(before, ops.workspaces().focus(s, a).state(), "focusing the active workspace is no change");
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().pin(t, "workspace_0000000000000abc", true));
    }

    List<String> names() {
        return s.workspaces().stream().map(Workspace::name).toList();
    }

    static Map<String, Object> entries(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void reportMetadataMergesRemovesReplacesAndSurvivesOtherChanges() throws IOException {
        open();
        Change<Workspace> c = ops.workspaces().reportMetadata(s, ws0(), entries("branch", "main", "dirty", true, "port", 3000L), false);
        apply(c);
        assertEquals(Map.of("branch", "main", "dirty", true, "port", 3000L), w0().metadata());
        assertEquals(List.of("branch", "dirty", "port"), List.copyOf(w0().metadata().keySet()), "sorted by key");
        assertEquals(1, c.events().size());
        assertEquals("workspace.metadata_changed", c.events().get(0).name());
        assertEquals(w0().metadata(), c.events().get(0).data().get("metadata"));

        apply(ops.workspaces().reportMetadata(s, ws0(), entries("branch", "feature/x", "dirty", null, "gone", null), false));
        assertEquals(Map.of("branch", "feature/x", "port", 3000L), w0().metadata(), "null removes; merge keeps the rest");

        Topology before = s;
        Change<Workspace> same = ops.workspaces().reportMetadata(s, ws0(), entries("branch", "feature/x"), false);
        assertSame(before, same.state(), "a report that changes nothing is no change");
        assertTrue(same.events().isEmpty());

        apply(ops.workspaces().rename(s, ws0(), "api"));
        apply(ops.workspaces().pin(s, ws0(), true));
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        assertEquals(Map.of("branch", "feature/x", "port", 3000L), w0().metadata(), "rename, pin, new tab keep it");

        apply(ops.workspaces().reportMetadata(s, ws0(), entries("ports", "3000,5173"), true));
        assertEquals(Map.of("ports", "3000,5173"), w0().metadata(), "replace drops every key not given");
        apply(ops.workspaces().reportMetadata(s, ws0(), Map.of(), true));
        assertEquals(Map.of(), w0().metadata());
    }

    @Test
    void reportMetadataRejectionsChangeNothing() throws IOException {
        open();
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("branch", "main"), false));
        for (String bad : new String[] {"", "Branch", "1st", "a b", "x".repeat(33), "é", "a/b"}) {
            refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("ok", "1", bad, "v"), false));
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "line\nbreak"), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "esc\u001b[31m"), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "line\u2028sep"), false));
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("a", "é".repeat(Topology.MAX_METADATA_VALUE)), false));
        refused(ErrorCode.INVALID_REQUEST,
                t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "x".repeat(Topology.MAX_METADATA_VALUE + 1)), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", 1.5), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), null, false));
        Map<String, Object> full = new java.util.TreeMap<>();
        for (int i = 0; i < Topology.MAX_METADATA - 2; i++) {
            full.put("k" + i, (long) i);
        }
        apply(ops.workspaces().reportMetadata(s, ws0(), full, false)); // 30 new + branch + a = 32
        assertEquals(Topology.MAX_METADATA, w0().metadata().size());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("one_more", true), false));
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("one_more", true, "a", null), false)); // one in, one out: allowed
        Map<String, Object> huge = new java.util.TreeMap<>();
        for (int i = 0; i <= 2 * Topology.MAX_METADATA; i++) {
            huge.put("r" + i, null);
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), huge, false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, "workspace_x", entries("a", "b"), false));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().reportMetadata(t, "workspace_ffffffffffffffff", entries("a", "b"), false));
    }


    void fiveWorkspaces() throws IOException {
        s = Topology.empty();
        for (String n : List.of("a", "b", "c", "d", "e")) {
            apply(ops.openWorkspace(s, dir, n, sp));
        }
        apply(ops.workspaces().focus(s, s.workspaces().get(2).id()));
    }

    @Test
    void moveBlockKeepsOrderAndActive() throws IOException {
        fiveWorkspaces();
        apply(ops.workspaces().moveBlock(s, List.of(3, 0), 0));
        assertEquals(List.of("d", "a", "b", "c", "e"), names());
        assertEquals("c", s.active().orElseThrow().name());
        apply(ops.workspaces().moveBlock(s, List.of(0, 1), 3));
        assertEquals(List.of("b", "c", "e", "d", "a"), names());
        apply(ops.workspaces().move(s, 4, 0));
        assertEquals(List.of("a", "b", "c", "e", "d"), names());
        assertEquals("c", s.active().orElseThrow().name());
    }

    @Test
    void moveBlockValidatesEveryIndexFirst() throws IOException {
        fiveWorkspaces();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(), 0));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(1, 1), 0));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().moveBlock(t, List.of(0, 5), 0));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().moveBlock(t, List.of(-1), 0));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(0, 1), 4));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(0), -1));
        List<Integer> huge = new ArrayList<>();
        for (int i = 0; i < 257; i++) {
            huge.add(i);
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, huge, 0));
        List<Integer> withNull = new ArrayList<>();
        withNull.add(null);
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, withNull, 0));
    }

    @Test
    void closeWorkspaceRemovesItsPanesAndMovesActivity() throws IOException {
        fiveWorkspaces();
        String c = s.workspaces().get(2).id();
        Change<List<String>> ch = ops.workspaces().close(s, c);
        apply(ch);
        assertEquals(List.of("3"), ch.result());
        assertFalse(s.panes().containsKey("3"));
        assertEquals("d", s.active().orElseThrow().name());
        assertEquals(List.of("tab.closed", "workspace.closed"), ch.events().stream().map(TopologyEvent::name).toList());
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().close(t, c));
    }

    // ------------------------------------------------------------ tabs

    List<String> tabIds() {
        return w0().tabs().stream().map(Tab::id).toList();
    }

    void fourTabs() throws IOException {
        open();
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, "two", sp));
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
        apply(ops.tabs().focus(s, tab(2).id()));
    }

    @Test
    void newTabAppendsAndActivates() throws IOException {
        open();
        Change<String> c = ops.tabs().create(s, ws0(), TabKind.MISSION_CONTROL, null, sp);
        apply(c);
        assertEquals(c.result(), w0().activeTab());
        assertNull(tab(2).root());
        assertEquals(List.of("tab.created"), c.events().stream().map(TopologyEvent::name).toList());
        assertEquals(1, spawned.size(), "a dashboard starts no process");
        Change<String> p = ops.tabs().create(s, ws0(), TabKind.PANES, "  logs ", sp);
        apply(p);
        assertEquals("logs", tab(3).label());
        assertEquals(Optional.of("2"), s.focusedPane());
        Topology before = s;
        assertThrows(IOException.class, () -> ops.tabs().create(before, ws0(), TabKind.PANES, null, FAIL));
        assertEquals(before, s);
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), null, null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), TabKind.PANES, "x".repeat(41), sp)));
    }

    @Test
    void tabMoveToAndByDirectionKeepsActive() throws IOException {
        fourTabs();
        List<String> before = tabIds();
        TabOps.TabMove m = apply(ops.tabs().move(s, ws0(), 1, 4, null));
        assertEquals(new TabOps.TabMove(1, 4, 1), m);
        assertEquals(List.of(before.get(1), before.get(2), before.get(3), before.get(0)), tabIds());
        assertEquals(before.get(1), w0().activeTab());
        m = apply(ops.tabs().move(s, ws0(), null, null, Direction.RIGHT));
        assertEquals(new TabOps.TabMove(1, 2, 2), m);
        Change<TabOps.TabMove> c = ops.tabs().move(s, ws0(), 2, null, Direction.LEFT);
        assertEquals("tab.moved", c.events().get(0).name());
        assertEquals(2, c.events().get(0).data().get("from"));
    }

    @Test
    void tabMoveRejections() throws IOException {
        fourTabs();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 0, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 5, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 0, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 5, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 2, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, null, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), null, 3, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 2, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, null, Direction.LEFT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 4, null, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 2, null, Direction.UP));
    }

    @Test
    void tabSwapKeepsActive() throws IOException {
        fourTabs();
        List<String> before = tabIds();
        Change<TabOps.TabMove> c = ops.tabs().swap(s, ws0(), 2, 4);
        TabOps.TabMove m = apply(c);
        assertEquals(new TabOps.TabMove(2, 4, 4), m);
        assertEquals(List.of(before.get(0), before.get(3), before.get(2), before.get(1)), tabIds());
        assertEquals(2, c.events().size());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 2, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 0, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 1, 5));
    }

    @Test
    void tabRenameTrimsClearsAndRejects() throws IOException {
        fourTabs();
        apply(ops.tabs().rename(s, ws0(), null, "  build "));
        assertEquals("build", tab(2).label());
        apply(ops.tabs().rename(s, ws0(), 2, ""));
        assertNull(tab(2).label());
        apply(ops.tabs().rename(s, ws0(), 1, "x".repeat(40)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 1, "x".repeat(41)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 0, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 5, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 3, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 1, null));
    }

    @Test
    void tabFocusAndCloseMoveActivity() throws IOException {
        fourTabs();
        String second = tab(2).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().focus(t, "tab_zz"));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().focus(t, "tab_00000000000000ff"));
        Change<List<String>> c = ops.tabs().close(s, second);
        apply(c);
        assertEquals(List.of("2"), c.result());
        assertEquals(tab(2).id(), w0().activeTab(), "the tab to the right becomes active");
        assertEquals(TabKind.GIT, tab(2).kind());
        assertFalse(s.panes().containsKey("2"));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().close(t, second));
    }

    // ------------------------------------------------------------ panes

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
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.panes().split(t, "x", Direction.RIGHT, true, sp)));
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
        } catch (TopologyException e) {
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
        Change<Void> c = ops.removePane(s, "3");
        s = c.state(); // not apply(): the model publishes pane.closed, with the exit status, for an exit
        assertTrue(c.events().isEmpty());
        assertEquals(new Node.Split(Axis.HORIZONTAL, 0.5, new Node.Leaf("1"), new Node.Leaf("2")), tab(1).root());
        assertEquals("2", tab(1).focused(), "the sibling that took its place takes the focus");
        s = ops.removePane(s, "2").state();
        assertEquals(new Node.Leaf("1"), tab(1).root());
        Change<Void> last = ops.removePane(s, "1");
        apply(last);
        assertEquals(List.of("tab.closed"), last.events().stream().map(TopologyEvent::name).toList());
        assertEquals(1, w0().tabs().size());
        assertEquals(Optional.of("4"), s.focusedPane());
        Topology before = s;
        assertSame(before, ops.removePane(s, "1").state(), "a second exit is no change");
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
        TopologyException bySplit = refused(ErrorCode.INVALID_REQUEST,
                io(t -> ops.panes().split(t, "1", Direction.RIGHT, true, sp)));
        TopologyException byMove = refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, "3", t1, false));
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
            TopologyException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.panes().move(t, pane, t1, false));
            assertEquals("too_small", e.details().get("reason"));
            apply(ops.removePane(s, pane));
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
                        } catch (TopologyException e) {
                            apply(ops.removePane(s, moved));
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
            } catch (TopologyException e) {
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
        apply(ops.openWorkspace(s, dir, "other", sp));
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
            n = TopologyOps.replaceLeaf(n, victim, new Node.Split(axis, r.nextDouble(), new Node.Leaf(victim),
                    new Node.Leaf(Integer.toString(i))));
            tiles(n);
        }
    }

    /** Every pane of the tree is at least the minimum size, and the tree tiles the area. */
    static void minimumKept(Node root) {
        tiles(root);
        for (Map.Entry<String, Rect> e : Geometry.rects(root).entrySet()) {
            Rect r = e.getValue();
            assertTrue(r.width() >= Geometry.MIN_WIDTH && r.height() >= Geometry.MIN_HEIGHT,
                    "pane " + e.getKey() + " is below the minimum size: " + r);
        }
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

    /** Panes "from".."to" side by side in a balanced tree of halves. */
    static Node balanced(int from, int to) {
        if (from == to) {
            return new Node.Leaf(Integer.toString(from));
        }
        int mid = (from + to) / 2;
        return new Node.Split(Axis.HORIZONTAL, 0.5, balanced(from, mid), balanced(mid + 1, to));
    }

    /** 1 | (2 | (3 | 4)) made by splitting, all halves. */
    void fourInARow() throws IOException {
        open();
        apply(ops.panes().split(s, "1", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "2", Direction.RIGHT, true, sp));
        apply(ops.panes().split(s, "3", Direction.RIGHT, true, sp));
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

    // ------------------------------------------------------------ layouts

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
            TopologyException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, b.tree(), null));
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

    /**
     * The trees below hold every expected pane exactly once and nothing else, so the only
     * rule that can refuse them is the one each case names; the reason is asserted.
     */
    static void refusedFor(String reason, Node tree, Set<String> expected) {
        TopologyException e = assertThrows(TopologyException.class, () -> Layouts.validate(tree, expected));
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
    void tenThousandLevelsAndHugeTreesAreRejectedFast() throws IOException {
        threePanes();
        String t1 = tab(1).id();
        long t0 = System.nanoTime();
        // Through layout.apply: a 10,000-level chain is refused for its depth before the
        // walk reaches a leaf (its a side, walked first, is the deep one).
        Node deep = chain(10_000, true);
        TopologyException e = refused(ErrorCode.INVALID_REQUEST, t -> ops.layouts().apply(t, t1, deep, null));
        assertEquals("too_deep", e.details().get("reason"), e.getMessage());
        // 10,000 levels deep on either side, every leaf a valid pane: depth is the only reason.
        refusedFor("too_deep", chain(10_000, true), ids(10_001));
        refusedFor("too_deep", chain(10_000, false), ids(10_001));
        // A wide tree of a million nodes, only 19 levels deep, every leaf distinct and expected.
        refusedFor("too_large", balanced(1 << 19), ids(1 << 19));
        // The JSON reader is bounded the same way.
        TopologyException j = assertThrows(TopologyException.class, () -> Layouts.fromJson(deepJson(10_000)));
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
        TopologyException j = assertThrows(TopologyException.class, () -> Layouts.fromJson(deepJson(depth + 1)));
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
        TopologyException k = assertThrows(TopologyException.class,
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
            TopologyException e = assertThrows(TopologyException.class, () -> Layouts.fromJson(m.readTree(bad)), bad);
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

    @Test
    void addPaneTabAdoptsAndCreatesTheWorkspace() {
        s = Topology.empty();
        Pane p = new Pane("7", "term_7", dir, List.of("sh"), null, null);
        Change<String> c = ops.addPaneTab(s, "workspace_00000000000000aa", "restored", dir, p, true);
        apply(c);
        assertEquals(List.of("workspace.created", "tab.created", "pane.created"),
                c.events().stream().map(TopologyEvent::name).toList());
        assertEquals(8, s.nextPane());
        assertEquals(Optional.of("7"), s.focusedPane());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.addPaneTab(t, "workspace_00000000000000aa", "r", dir, p, true));
    }

    /** Fills workspace 0 up to {@link Topology#MAX_TABS} with dashboard tabs (no panes). */
    void fillTabs() throws IOException {
        while (w0().tabs().size() < Topology.MAX_TABS) {
            apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        }
    }

    @Test
    void addingAPaneTabToAFullWorkspaceIsRefusedLikeTabNew() throws IOException {
        s = Topology.empty();
        apply(ops.openWorkspace(s, dir, "w", sp));
        fillTabs();
        TopologyException tabNew = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), TabKind.PANES, null, sp)));
        Pane p = new Pane("99", "term_99", dir, List.of("sh"), null, null);
        TopologyException adopt = refused(ErrorCode.INVALID_REQUEST, t -> ops.addPaneTab(t, ws0(), null, dir, p, true));
        assertEquals(tabNew.details(), adopt.details());
        assertEquals(Map.of("field", "tab", "reason", "too_many"), adopt.details());
        assertEquals(Topology.MAX_TABS, w0().tabs().size());
    }

    @Test
    void workspacesOpenIntoAFullWorkspaceRefusesBeforeSpawning() throws IOException {
        s = Topology.empty();
        apply(ops.openWorkspace(s, dir, "w", sp));
        fillTabs();
        spawned.clear();
        Spawner mustNotRun = (id, ws, cwd) -> {
            throw new AssertionError("spawned although the workspace is full");
        };
        TopologyException e = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openPaneTab(t, ws0(), dir, true, mustNotRun)));
        assertEquals(Map.of("field", "tab", "reason", "too_many"), e.details());
        // with room it adds a pane tab in the given folder, and focus makes it active
        apply(ops.tabs().close(s, tab(2).id()));
        Path sub = dir.resolve("sub");
        java.nio.file.Files.createDirectories(sub);
        String tabId = apply(ops.openPaneTab(s, ws0(), sub, false, sp));
        assertEquals(Topology.MAX_TABS, w0().tabs().size());
        assertEquals(sub, s.panes().get(spawned.get(0)).cwd());
        assertEquals(tab(Topology.MAX_TABS - 1).id(), w0().activeTab(), "no focus: the active tab stays");
        apply(ops.tabs().close(s, tab(3).id()));
        String focused = apply(ops.openPaneTab(s, ws0(), dir, true, sp));
        assertEquals(focused, w0().activeTab());
        assertFalse(focused.equals(tabId));
    }

    @Test
    void adoptingIntoANewWorkspacePastTheLimitIsRefusedLikeWorkspaceOpen() throws IOException {
        s = Topology.empty();
        while (s.workspaces().size() < Topology.MAX_WORKSPACES) {
            apply(ops.openWorkspace(s, dir, null, sp));
            // keep the workspace, free its pane: the workspace limit is what is tested
            Workspace last = s.workspaces().get(s.workspaces().size() - 1);
            apply(ops.tabs().close(s, last.tabs().get(0).id()));
        }
        TopologyException open = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.openWorkspace(t, dir, null, sp)));
        Pane p = new Pane("5000", "term_5000", dir, List.of("sh"), null, null);
        TopologyException adopt = refused(ErrorCode.INVALID_REQUEST,
                t -> ops.addPaneTab(t, "workspace_ffffffffffffffff", "restored", dir, p, true));
        assertEquals(open.details(), adopt.details());
        assertEquals(Map.of("field", "workspace", "reason", "too_many"), adopt.details());
        // an existing workspace still takes it
        apply(ops.addPaneTab(s, ws0(), "restored", dir, p, false));
        assertEquals(Topology.MAX_WORKSPACES, s.workspaces().size());
    }

    @Test
    void everyWayOfCreatingAWorkspaceNamesItTheSame() throws IOException {
        Path longDir = dir.resolve("n".repeat(80));
        java.nio.file.Files.createDirectories(longDir);
        s = Topology.empty();
        String viaOpen = apply(ops.openWorkspace(s, longDir, null, sp));
        Pane p = new Pane("50", "term_50", longDir, List.of("sh"), null, null);
        apply(ops.addPaneTab(s, "workspace_00000000000000ee", null, longDir, p, false));
        String expected = "n".repeat(Topology.MAX_NAME);
        assertEquals(expected, s.workspace(viaOpen).orElseThrow().name());
        assertEquals(expected, s.workspace("workspace_00000000000000ee").orElseThrow().name());
        for (Workspace w : s.workspaces()) {
            apply(ops.workspaces().rename(s, w.id(), w.name())); // the same name is one rename accepts
        }
    }

    @Test
    void aFolderNameBecomesAValidWorkspaceName() {
        assertEquals("/", TopologyOps.folderName(Path.of("/")));
        assertEquals("api", TopologyOps.folderName(Path.of("/src/api")));
        assertEquals("a b", TopologyOps.folderName(Path.of("/x/a\nb")));
        assertEquals("x".repeat(39), TopologyOps.folderName(Path.of("/x/" + "x".repeat(39) + " tail")));
        String astral = "\uD83D\uDE00".repeat(50); // 50 code points, 100 chars
        assertEquals("\uD83D\uDE00".repeat(Topology.MAX_NAME), TopologyOps.folderName(Path.of("/x/" + astral)));
        assertEquals("/", TopologyOps.folderName(Path.of("/x/\u0001\u0002")));
        for (String n : List.of("a\nb", " pad ", "x".repeat(80), astral, "\t", "tab\there")) {
            String name = TopologyOps.folderName(Path.of("/x").resolve(n));
            assertEquals(name, TopologyOps.label("name", name, Topology.MAX_NAME, false), n);
        }
    }
}
