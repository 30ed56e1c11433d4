package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyException;
import io.artuditu.model.topology.TopologyOps;
import io.artuditu.model.topology.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every state the model can reach loads back: states built with every topology operation,
 * driven up to (and refused at) each limit, are written by the session store and must load
 * back equal, never set aside. A state the server can hold but not restore would cost the
 * whole session at the next restart.
 */
class ReachableStatesLoadBackTest {
    @TempDir
    Path home;

    final AtomicLong ids = new AtomicLong();
    final TopologyOps ops = new TopologyOps(() -> String.format("%016x", ids.incrementAndGet()));
    final Spawner sp = (id, ws, cwd) -> new Pane(id, "term_" + id, cwd, List.of("sh"), null, null);
    SessionStore store;
    Topology s = Topology.empty();
    int checked;

    interface Op<T> {
        Change<T> apply(Topology t) throws IOException;
    }

    @BeforeEach
    void open() {
        store = new SessionStore(home);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
        try (Stream<Path> l = Files.list(home)) {
            List<Path> aside = l.filter(p -> p.getFileName().toString().startsWith("session.json.")).toList();
            assertTrue(aside.isEmpty(), "files set aside: " + aside);
        }
    }

    /** Writes the current state and loads it back: it must come back whole. */
    void check() throws IOException {
        store.write(s);
        Optional<Topology> back = store.load();
        assertTrue(back.isPresent(), "state " + checked + " was refused on load");
        assertEquals(SessionStoreTest.persisted(s), back.get(), "state " + checked);
        checked++;
    }

    /** Applies an operation and checks the new state; a refusal must leave the state as it was. */
    <T> boolean attempt(Op<T> op) throws IOException {
        return attempt(op, 1);
    }

    int filled;

    /**
     * {@link #attempt} for the loops that fill up to a limit: one state in {@code every} is
     * written and loaded back (all of them would make the test slow as the limits grow; the
     * state at the limit is checked by the refusal that ends the loop).
     */
    <T> boolean attempt(Op<T> op, int every) throws IOException {
        Topology before = s;
        Change<T> c;
        try {
            c = op.apply(s);
        } catch (TopologyException e) {
            assertSame(before, s);
            return false;
        }
        s = c.state();
        if (filled++ % every == 0) {
            check();
        }
        return true;
    }

    <T> T must(Op<T> op) throws IOException {
        Change<T> c = op.apply(s);
        s = c.state();
        check();
        return c.result();
    }

    <T> void refused(Op<T> op) throws IOException {
        assertFalse(attempt(op), "accepted past a limit");
        check();
    }

    Workspace w(int i) {
        return s.workspaces().get(i);
    }

    Pane pane(long id) {
        return new Pane(Long.toString(id), "term_" + id, home, List.of("sh"), null, null);
    }

    static String longest(int codePoints) {
        return "\uD83D\uDE00".repeat(codePoints); // astral: each code point is two chars
    }

    @Test
    void workspacesUpToTheLimitWithLongNamesPinsAndMoves() throws IOException {
        Path longDir = Files.createDirectories(home.resolve("d".repeat(120)));
        while (attempt(t -> ops.openWorkspace(t, longDir, null, sp), 16)) {
            // every workspace.open until a limit refuses one more
        }
        refused(t -> ops.addPaneTab(t, "workspace_ffffffffffffffff", null, home, pane(100_000), true));
        for (int i = 0; i < s.workspaces().size(); i += 17) {
            String id = w(i).id();
            must(t -> ops.workspaces().rename(t, id, longest(Topology.MAX_NAME)));
            must(t -> ops.workspaces().pin(t, id, true));
        }
        must(t -> ops.workspaces().moveBlock(t, List.of(s.workspaces().size() - 1, 0, 5), 2));
        must(t -> ops.workspaces().move(t, 3, s.workspaces().size() - 1));
        must(t -> ops.workspaces().focus(t, w(7).id()));
        must(t -> ops.workspaces().close(t, w(7).id()));
        // a workspace left without tabs, then adopted panes (new workspace and existing one)
        must(t -> ops.tabs().close(t, w(0).tabs().get(0).id()));
        must(t -> ops.addPaneTab(t, "workspace_eeeeeeeeeeeeeeee", "restored", home, pane(s.nextPane() + 10), false));
        must(t -> ops.addPaneTab(t, w(0).id(), null, home, pane(s.nextPane()), true));
        // and fill up again, through both ways of making a workspace
        while (attempt(t -> ops.openWorkspace(t, home, null, sp), 16)) {
            // until refused
        }
        refused(t -> ops.addPaneTab(t, "workspace_dddddddddddddddd", "restored", home, pane(s.nextPane()), true));
    }

    @Test
    void emptyWorkspacesUpToTheWorkspaceLimit() throws IOException {
        while (s.workspaces().size() < Topology.MAX_WORKSPACES) {
            assertTrue(attempt(t -> ops.openWorkspace(t, home, null, sp), 16));
            assertTrue(attempt(t -> ops.tabs().close(t, w(s.workspaces().size() - 1).tabs().get(0).id()), 16));
        }
        refused(t -> ops.openWorkspace(t, home, null, sp));
        refused(t -> ops.addPaneTab(t, "workspace_ffffffffffffffff", "restored", home, pane(s.nextPane()), true));
        must(t -> ops.openPaneTab(t, w(0).id(), home, true, sp));
    }

    @Test
    void tabsUpToTheLimitWithEveryTabOperation() throws IOException {
        String ws = must(t -> ops.openWorkspace(t, home, "tabs", sp));
        TabKind[] kinds = TabKind.values();
        int k = 0;
        while (w(0).tabs().size() < Topology.MAX_TABS) {
            TabKind kind = kinds[k++ % kinds.length];
            if (!attempt(t -> ops.tabs().create(t, ws, kind, longest(Topology.MAX_NAME), sp), 16)) {
                must(t -> ops.tabs().create(t, ws, TabKind.GIT, null, sp)); // the pane limit came first
            }
        }
        refused(t -> ops.tabs().create(t, ws, TabKind.GIT, null, sp));
        refused(t -> ops.tabs().create(t, ws, TabKind.PANES, null, sp));
        refused(t -> ops.addPaneTab(t, ws, null, home, pane(s.nextPane()), true));
        refused(t -> ops.openPaneTab(t, ws, home, true, sp));
        String movable = s.panes().keySet().iterator().next();
        refused(t -> ops.panes().move(t, movable, null, true));
        must(t -> ops.tabs().move(t, ws, 1, Topology.MAX_TABS, null));
        must(t -> ops.tabs().move(t, ws, null, null, Direction.LEFT));
        must(t -> ops.tabs().swap(t, ws, 2, Topology.MAX_TABS - 1));
        int panes = 0;
        for (int i = 1; i <= w(0).tabs().size(); i++) {
            Tab tab = w(0).tabs().get(i - 1);
            if (tab.kind() == TabKind.PANES) {
                int pos = i;
                must(t -> ops.tabs().rename(t, ws, pos, "x".repeat(Topology.MAX_NAME)));
                if (++panes > 3) {
                    break;
                }
            }
        }
        must(t -> ops.tabs().focus(t, w(0).tabs().get(5).id()));
        must(t -> ops.tabs().close(t, w(0).tabs().get(0).id()));
        // with one slot free, each way of adding a tab fills it
        must(t -> ops.tabs().create(t, ws, TabKind.MISSION_CONTROL, null, sp));
        must(t -> ops.tabs().close(t, w(0).tabs().get(0).id()));
        must(t -> ops.openPaneTab(t, ws, home, false, sp));
        must(t -> ops.tabs().close(t, w(0).tabs().get(0).id()));
        must(t -> ops.addPaneTab(t, ws, null, home, pane(s.nextPane()), false));
        refused(t -> ops.addPaneTab(t, ws, null, home, pane(s.nextPane()), false));
    }

    @Test
    void panesUpToTheLimitWithEveryPaneAndLayoutOperation() throws IOException {
        String ws = must(t -> ops.openWorkspace(t, home, "panes", sp));
        // split every pane, in both directions, until the pane limit (or no pane can split)
        boolean grew = true;
        while (grew && s.panes().size() < Topology.MAX_PANES) {
            grew = false;
            for (String p : List.copyOf(s.panes().keySet())) {
                for (Direction d : Direction.values()) {
                    if (s.panes().size() >= Topology.MAX_PANES) {
                        break;
                    }
                    grew |= attempt(t -> ops.panes().split(t, p, d, true, sp), 16);
                }
            }
            if (!grew && s.panes().size() < Topology.MAX_PANES) {
                grew = attempt(t -> ops.tabs().create(t, ws, TabKind.PANES, null, sp));
            }
        }
        assertEquals(Topology.MAX_PANES, s.panes().size());
        String any = s.panes().keySet().iterator().next();
        refused(t -> ops.panes().split(t, any, Direction.RIGHT, false, sp));
        refused(t -> ops.tabs().create(t, ws, TabKind.PANES, null, sp));
        refused(t -> ops.openPaneTab(t, ws, home, true, sp));
        refused(t -> ops.openWorkspace(t, home, null, sp));
        refused(t -> ops.addPaneTab(t, ws, null, home, pane(s.nextPane()), true));
        // every pane operation on the full state
        List<String> ids = List.copyOf(s.panes().keySet());
        must(t -> ops.panes().focus(t, ids.get(3)));
        for (Direction d : Direction.values()) {
            attempt(t -> ops.panes().focusDirection(t, t.focusedPane().orElseThrow(), d));
            attempt(t -> ops.panes().resize(t, t.focusedPane().orElseThrow(), d, Topology.AREA));
            attempt(t -> ops.panes().resize(t, t.focusedPane().orElseThrow(), d, -Topology.AREA));
        }
        must(t -> ops.panes().zoom(t, t.focusedPane().orElseThrow(), true));
        String a = s.focusedPane().orElseThrow();
        String b = Topology.leaves(s.locate(a).orElseThrow().tab().root()).stream().filter(x -> !x.equals(a))
                .findFirst().orElseThrow();
        must(t -> ops.panes().swap(t, a, b));
        must(t -> ops.panes().rename(t, a, longest(Topology.MAX_NAME)));
        must(t -> ops.panes().purpose(t, a, longest(Topology.MAX_PURPOSE), false));
        must(t -> ops.panes().move(t, b, null, true));
        String other = w(0).tabs().get(0).id();
        attempt(t -> ops.panes().move(t, b, other, false));
        String tabId = s.locate(a).orElseThrow().tab().id();
        for (double ratio : new double[] {0, 1, 0.123456789}) {
            must(t -> ops.layouts().setSplitRatio(t, tabId, List.of(), ratio));
            Node root = s.locate(a).orElseThrow().tab().root();
            must(t -> ops.layouts().apply(t, tabId, withRatios(root, ratio), a));
        }
        must(t -> ops.tabs().close(t, w(0).tabs().get(0).id()));
        must(t -> ops.removePane(t, a));
        must(t -> ops.workspaces().close(t, ws));
    }

    @Test
    void aTreeAtTheDepthLimit() throws IOException {
        must(t -> ops.openWorkspace(t, home, "deep", sp));
        // split the newest pane to the right and give it all the room it can take, until refused
        TopologyException stop = null;
        while (stop == null) {
            try {
                must(t -> ops.panes().split(t, t.focusedPane().orElseThrow(), Direction.RIGHT, true, sp));
            } catch (TopologyException e) {
                stop = e;
                break;
            }
            must(t -> ops.panes().resize(t, t.focusedPane().orElseThrow(), Direction.LEFT, Topology.AREA));
        }
        assertEquals("too_deep", stop.details().get("reason"), stop.getMessage());
        for (Direction d : Direction.values()) {
            attempt(t -> ops.panes().split(t, t.focusedPane().orElseThrow(), d, true, sp));
        }
        String last = s.focusedPane().orElseThrow();
        String first = s.locate(last).orElseThrow().tab().id();
        must(t -> ops.panes().move(t, last, null, true));
        must(t -> ops.panes().move(t, last, first, false));
        must(t -> ops.layouts().apply(t, first, withRatios(s.locate(last).orElseThrow().tab().root(), 1), null));
    }

    /** The tree with every split's ratio set (clamping is applyLayout's business). */
    static Node withRatios(Node n, double ratio) {
        if (n instanceof Node.Split sp) {
            return new Node.Split(sp.axis(), ratio, withRatios(sp.a(), ratio), withRatios(sp.b(), ratio));
        }
        return n;
    }

}
