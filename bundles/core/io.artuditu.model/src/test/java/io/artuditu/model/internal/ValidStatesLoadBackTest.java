package io.artuditu.model.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Axis;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every state the model can hold loads back: states built straight from the records, at
 * and across every limit the model keeps (workspaces, tabs, panes, tree depth, name,
 * label and purpose lengths in astral code points, extreme ratios, dashboards, workspaces
 * without tabs, zoom, pins, no active workspace), and random ones, are written by the
 * session store and must load back equal, never set aside. Built without the families'
 * rules, so the space covered is every state the records and limits allow: a superset of
 * what any rule can reach. A state the server can hold but not restore would cost the
 * whole session at the next restart.
 */
class ValidStatesLoadBackTest {
    @TempDir
    Path home;

    SessionStore store;
    int checked;
    long ids;

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

    /** Writes {@code s} and loads it back: it must come back whole. */
    void check(Topology s) throws IOException {
        store.write(s);
        Optional<Topology> back = store.load();
        assertTrue(back.isPresent(), "state " + checked + " was refused on load");
        assertEquals(SessionStoreTest.persisted(s), back.get(), "state " + checked);
        checked++;
    }

    static String longest(int codePoints) {
        return "\uD83D\uDE00".repeat(codePoints); // astral: each code point is two chars
    }

    String hex() {
        return String.format("%016x", ++ids);
    }

    /** A builder of one state: panes get ids in order, trees are made over them. */
    final class State {
        final List<Workspace> workspaces = new ArrayList<>();
        final Map<String, Pane> panes = new LinkedHashMap<>();
        long next = 1;

        String pane(String name, String purpose) {
            String id = Long.toString(next++);
            panes.put(id, new Pane(id, "term_" + id, home, List.of("sh", "-c", "x"), name, purpose));
            return id;
        }

        Tab paneTab(Node root, String label, boolean zoomed) {
            List<String> leaves = Topology.leaves(root);
            return new Tab("tab_" + hex(), TabKind.PANES, label, root, leaves.get(leaves.size() / 2), zoomed);
        }

        Tab dashboard(TabKind kind, String label) {
            return new Tab("tab_" + hex(), kind, label, null, null, false);
        }

        Workspace workspace(String name, Path cwd, boolean pinned, List<Tab> tabs, int active) {
            Workspace w = new Workspace("workspace_" + hex(), name, cwd, pinned, tabs,
                    tabs.isEmpty() ? null : tabs.get(active).id());
            workspaces.add(w);
            return w;
        }

        Topology topology(int active) {
            return new Topology(workspaces, active < 0 ? null : workspaces.get(active).id(), panes, next + 3, 0);
        }
    }

    /** A balanced tree over {@code n} new panes, every split at {@code ratio}. */
    Node tree(State st, int n, double ratio, int depth) {
        if (n == 1) {
            return new Node.Leaf(st.pane(null, null));
        }
        Axis axis = depth % 2 == 0 ? Axis.HORIZONTAL : Axis.VERTICAL;
        return new Node.Split(axis, ratio, tree(st, n / 2, ratio, depth + 1), tree(st, n - n / 2, ratio, depth + 1));
    }

    @Test
    void workspacesUpToTheLimitWithLongNamesPinsAndFolders() throws IOException {
        Path longDir = Files.createDirectories(home.resolve("d".repeat(120)));
        State st = new State();
        for (int i = 0; i < Topology.MAX_WORKSPACES; i++) {
            List<Tab> tabs = i % 5 == 0 ? List.of() // a workspace left without tabs
                    : List.of(st.paneTab(new Node.Leaf(st.pane(null, null)), null, false));
            st.workspace(i % 2 == 0 ? longest(Topology.MAX_NAME) : "w" + i, i % 3 == 0 ? longDir : home, i % 17 == 0,
                    tabs, 0);
        }
        check(st.topology(7));
        check(st.topology(Topology.MAX_WORKSPACES - 1));
    }

    @Test
    void tabsUpToTheLimitOfEveryKindWithTheLongestLabels() throws IOException {
        State st = new State();
        List<Tab> tabs = new ArrayList<>();
        TabKind[] kinds = TabKind.values();
        for (int i = 0; i < Topology.MAX_TABS; i++) {
            TabKind k = kinds[i % kinds.length];
            String label = i % 2 == 0 ? longest(Topology.MAX_NAME) : null;
            tabs.add(k.dashboard() ? st.dashboard(k, label) : st.paneTab(tree(st, 1 + i % 3, 0.5, 0), label, i % 7 == 0));
        }
        st.workspace("tabs", home, false, tabs, 5);
        check(st.topology(0));
    }

    @Test
    void panesUpToTheLimitWithTheLongestNamesAndPurposesAndExtremeRatios() throws IOException {
        State st = new State();
        List<Tab> tabs = new ArrayList<>();
        double[] ratios = {0, 1, 0.123456789, 0.5};
        int made = 0;
        for (int t = 0; made < Topology.MAX_PANES; t++) {
            int n = Math.min(Topology.MAX_PANES - made, 1 + t * 7 % 200);
            tabs.add(st.paneTab(tree(st, n, ratios[t % ratios.length], t), null, t % 2 == 0));
            made += n;
        }
        for (Pane p : List.copyOf(st.panes.values())) {
            if (Long.parseLong(p.id()) % 3 == 0) {
                st.panes.put(p.id(), p.withName(longest(Topology.MAX_NAME)).withPurpose(longest(Topology.MAX_PURPOSE)));
            }
        }
        st.workspace("panes", home, false, tabs, tabs.size() - 1);
        Topology s = st.topology(0);
        assertEquals(Topology.MAX_PANES, s.panes().size());
        check(s);
    }

    @Test
    void aTreeAtTheDepthLimit() throws IOException {
        State st = new State();
        Node n = new Node.Leaf(st.pane(null, null));
        for (int d = 0; d < Topology.MAX_DEPTH; d++) {
            n = new Node.Split(d % 2 == 0 ? Axis.HORIZONTAL : Axis.VERTICAL, d % 3 == 0 ? 0 : 1, n,
                    new Node.Leaf(st.pane(null, null)));
        }
        st.workspace("deep", home, true, List.of(st.paneTab(n, "deep", true)), 0);
        check(st.topology(0));
    }

    @Test
    void noWorkspaceAtAll() throws IOException {
        check(new State().topology(-1));
    }

    @Test
    void randomStates() throws IOException {
        Random r = new Random(24);
        for (int i = 0; i < 200; i++) {
            State st = new State();
            int workspaces = 1 + r.nextInt(6);
            for (int w = 0; w < workspaces; w++) {
                List<Tab> tabs = new ArrayList<>();
                int n = r.nextInt(5);
                for (int t = 0; t < n; t++) {
                    TabKind k = TabKind.values()[r.nextInt(TabKind.values().length)];
                    tabs.add(k.dashboard() ? st.dashboard(k, r.nextBoolean() ? "d" + t : null)
                            : st.paneTab(tree(st, 1 + r.nextInt(9), r.nextDouble(), r.nextInt(2)),
                                    r.nextBoolean() ? null : "t" + t, r.nextBoolean()));
                }
                st.workspace("w" + w, home, r.nextBoolean(), tabs, tabs.isEmpty() ? 0 : r.nextInt(tabs.size()));
            }
            check(st.topology(r.nextInt(workspaces)));
        }
    }
}
