package io.artuditu.model.topology;

import static io.artuditu.model.topology.TopologyException.invalid;
import static io.artuditu.model.topology.TopologyException.missing;

import io.artuditu.uhp.api.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The topology's operations, as pure functions of a {@link Topology}: each validates the
 * whole request first and returns a {@link Change} or throws a {@link TopologyException}
 * (the input state is immutable, so a refusal changes nothing). Queries return plain
 * values and never change focus. The only side effects are the injected id source and,
 * for operations that add a pane, the {@link Spawner} called after validation.
 *
 * <p>This class holds what the model itself runs (opening a workspace or a pane tab,
 * adopting a running pane, removing a pane whose process exited) and the building blocks
 * every family shares (lookups, labels, limits, state and tree edits, events); each
 * family's own rules are in {@link WorkspaceOps}, {@link TabOps}, {@link PaneOps} and
 * {@link LayoutOps}.
 */
public final class TopologyOps {
    private final Supplier<String> hex16;
    private final WorkspaceOps workspaces;
    private final TabOps tabs;
    private final PaneOps panes;
    private final LayoutOps layouts;

    /** @param hex16 gives 16 lowercase hex digits per call (random in production) */
    public TopologyOps(Supplier<String> hex16) {
        this.hex16 = hex16;
        this.workspaces = new WorkspaceOps();
        this.tabs = new TabOps(this);
        this.panes = new PaneOps(this);
        this.layouts = new LayoutOps();
    }

    /** The workspace family's operations. */
    public WorkspaceOps workspaces() {
        return workspaces;
    }

    /** The tab family's operations. */
    public TabOps tabs() {
        return tabs;
    }

    /** The pane family's operations (place and shape). */
    public PaneOps panes() {
        return panes;
    }

    /** The layout family's operations. */
    public LayoutOps layouts() {
        return layouts;
    }

    /** 16 fresh hex digits, for a new workspace or tab id. */
    String newId() {
        return hex16.get();
    }

    // ---------------------------------------------------------------- resolving

    /** The workspace at a 0-based API index ({@link Targets#workspaceAt}). */
    public static Workspace workspaceAt(Topology s, int index) {
        return Targets.workspaceAt(s, Targets.WORKSPACE, index);
    }

    /** A workspace by id ({@link Targets#workspaceById}). */
    public static Workspace workspace(Topology s, String id) {
        if (id == null) {
            throw invalid(Targets.WORKSPACE_ID, "missing", "workspace_id is required");
        }
        return Targets.workspaceById(s, Targets.WORKSPACE_ID, id);
    }

    /** The tab at a 1-based position ({@link Targets#tabAt}). */
    public static Tab tabAt(Workspace w, int position) {
        return Targets.tabAt(w, "tab", position);
    }

    /** A tab by id anywhere ({@link Targets#tabById}). */
    public static Topology.Location tab(Topology s, String id) {
        if (id == null) {
            throw invalid("tab_id", "missing", "tab_id is required");
        }
        return Targets.tabById(s, "tab_id", id);
    }

    /**
     * A pane by id ({@link Targets#paneById}). Operations take resolved ids: which pane an
     * omitted one means is the caller's {@link Targets} resolution, never the operation's.
     */
    public static Topology.Location pane(Topology s, String id) {
        if (id == null) {
            throw invalid("pane", "missing", "pane is required");
        }
        return Targets.paneById(s, "pane", id);
    }

    // ---------------------------------------------------------------- labels

    /** Trims and checks a label; null when it is empty and {@code allowEmpty}. */
    static String label(String field, String raw, int max, boolean allowEmpty) {
        if (raw == null) {
            throw invalid(field, "missing", field + " is required");
        }
        String t = raw.strip();
        if (t.isEmpty()) {
            if (allowEmpty) {
                return null;
            }
            throw invalid(field, "empty", field + " must not be empty");
        }
        if (!oneLine(t)) {
            throw invalid(field, "multiline", field + " must be one line without control characters");
        }
        if (t.codePointCount(0, t.length()) > max) {
            throw invalid(field, "too_long", field + " must be at most " + max + " characters");
        }
        return t;
    }

    /** No control characters and no Unicode line or paragraph separator (U+2028, U+2029). */
    static boolean oneLine(String s) {
        return s.codePoints().noneMatch(TopologyOps::lineBreaking);
    }

    /** What a one-line label must not hold: control characters (line breaks among them) and U+2028/U+2029. */
    static boolean lineBreaking(int c) {
        return Character.isISOControl(c) || Character.getType(c) == Character.LINE_SEPARATOR
                || Character.getType(c) == Character.PARAGRAPH_SEPARATOR;
    }

    // ---------------------------------------------------------------- state helpers

    static Topology next(Topology s, List<Workspace> ws, String active, Map<String, Pane> panes, long nextPane) {
        return new Topology(ws, active, panes, nextPane, s.version() + 1);
    }

    static Topology withWorkspace(Topology s, int index, Workspace w) {
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(index, w);
        return next(s, ws, s.activeWorkspace(), s.panes(), s.nextPane());
    }

    static Topology withTab(Topology s, Topology.Location at, Tab t) {
        List<Tab> tabs = new ArrayList<>(at.workspace().tabs());
        tabs.set(at.tabIndex(), t);
        return withWorkspace(s, at.workspaceIndex(), at.workspace().withTabs(tabs, at.workspace().activeTab()));
    }

    static Topology withPane(Topology s, Pane p) {
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.put(p.id(), p);
        return next(s, s.workspaces(), s.activeWorkspace(), panes, s.nextPane());
    }

    static TopologyEvent event(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return new TopologyEvent(name, m);
    }

    /** Like {@link #event} but keeps null values: a cleared name is news. */
    static TopologyEvent eventWithNulls(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TopologyEvent(name, m);
    }

    /** A tab's tree, ratios or zoom changed: clients re-read its layout. */
    static List<TopologyEvent> layoutChanged(Topology.Location at) {
        return List.of(event("layout.changed", "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
    }

    static List<TopologyEvent> paneFocused(Topology.Location at, String pane) {
        return List.of(event("pane.focused", "pane", pane, "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
    }

    static TopologyEvent paneCreated(Pane p, String ws, String tab) {
        return event("pane.created", "pane", p.id(), "terminal_id", p.terminalId(), "workspace_id", ws, "tab_id", tab);
    }

    static Pane spawnChecked(Spawner sp, String id, String ws, Path cwd) throws IOException {
        Pane p = sp.spawn(id, ws, cwd);
        if (!p.id().equals(id)) {
            throw new IllegalStateException("the spawner returned pane " + p.id() + " for " + id);
        }
        return p;
    }

    static void checkPaneRoom(Topology s) {
        if (s.panes().size() >= Topology.MAX_PANES) {
            throw new TopologyException(ErrorCode.INVALID_REQUEST, "the server already holds " + Topology.MAX_PANES
                    + " panes", Map.of("reason", "too_many_panes", "limit", Topology.MAX_PANES));
        }
    }

    static Tab paneTab(Tab t, String field) {
        if (t.kind().dashboard()) {
            throw invalid(field, "dashboard", "the " + t.kind().wire() + " dashboard has no pane layout");
        }
        return t;
    }

    // ---------------------------------------------------------------- workspaces

    /** Refuses one workspace more than {@link Topology#MAX_WORKSPACES} (the refusal {@code workspace.open} gives). */
    static void checkWorkspaceRoom(Topology s) {
        if (s.workspaces().size() >= Topology.MAX_WORKSPACES) {
            throw invalid("workspace", "too_many", "at most " + Topology.MAX_WORKSPACES + " workspaces");
        }
    }

    /** Refuses one tab more than {@link Topology#MAX_TABS} in {@code w} (the refusal {@code tab.new} gives). */
    static void checkTabRoom(Workspace w) {
        if (w.tabs().size() >= Topology.MAX_TABS) {
            throw invalid("tab", "too_many", "at most " + Topology.MAX_TABS + " tabs per workspace");
        }
    }

    /**
     * The one place a workspace is made, whichever path asks ({@code workspace.open},
     * {@code Workspaces.open}, adoption): checks the name (or derives it from the folder,
     * {@link #folderName}) and the workspace limit, and returns it without tabs. Nothing is
     * spawned here, so a refusal comes before any process starts.
     *
     * @param id the id to give it, or null for a fresh one (adoption keeps the id a PTY names)
     */
    Workspace newWorkspace(Topology s, String id, Path folder, String name) {
        String n = name != null ? label("name", name, Topology.MAX_NAME, false) : folderName(folder);
        checkWorkspaceRoom(s);
        return new Workspace(id != null ? id : "workspace_" + hex16.get(), n, folder, false, List.of(), null);
    }

    /**
     * The default workspace name for a folder: its last element with control and line
     * separator characters replaced by spaces, stripped and cut to {@link Topology#MAX_NAME}
     * code points; "/" for the root (and for a name left empty). Always a name
     * {@code workspace.rename} would accept.
     */
    public static String folderName(Path folder) {
        Path f = folder == null ? null : folder.getFileName();
        if (f == null) {
            return "/";
        }
        StringBuilder b = new StringBuilder();
        f.toString().codePoints().forEach(c -> b.appendCodePoint(lineBreaking(c) ? ' ' : c));
        String n = trimTo(b.toString().strip(), Topology.MAX_NAME).strip();
        return n.isEmpty() ? "/" : n;
    }

    /**
     * Opens a folder as a new workspace with one pane tab running one pane, and makes it
     * active. {@code name} defaults to {@link #folderName the folder's name}. Every check
     * (folder, name, workspace and pane limits) comes before the spawn.
     */
    public Change<String> openWorkspace(Topology s, Path folder, String name, Spawner sp) throws IOException {
        if (folder == null || !folder.isAbsolute()) {
            throw invalid("cwd", "not_absolute", "cwd must be an absolute path");
        }
        if (!Files.isDirectory(folder)) {
            throw invalid("cwd", "not_a_directory", "not a directory: " + folder);
        }
        Workspace w = newWorkspace(s, null, folder, name);
        checkPaneRoom(s);
        String paneId = Long.toString(s.nextPane());
        Pane p = spawnChecked(sp, paneId, w.id(), folder);
        Change<String> c = addPaneTab(s, w, p, true);
        return new Change<>(c.state(), c.events(), w.id());
    }

    static String trimTo(String s, int max) {
        return s.codePointCount(0, s.length()) <= max ? s : s.substring(0, s.offsetByCodePoints(0, max));
    }

    static Topology removeTab(Topology s, Topology.Location at) {
        Workspace w = at.workspace();
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.remove(at.tabIndex());
        String active = w.activeTab();
        if (at.tab().id().equals(active)) {
            active = tabs.isEmpty() ? null : tabs.get(Math.min(at.tabIndex(), tabs.size() - 1)).id();
        }
        return withWorkspace(s, at.workspaceIndex(), w.withTabs(tabs, active));
    }

    // ---------------------------------------------------------------- panes: tree helpers

    static Node replaceLeaf(Node n, String pane, Node with) {
        if (n instanceof Node.Leaf l) {
            return l.pane().equals(pane) ? with : l;
        }
        Node.Split s = (Node.Split) n;
        Node a = replaceLeaf(s.a(), pane, with);
        Node b = a == s.a() ? replaceLeaf(s.b(), pane, with) : s.b();
        return a == s.a() && b == s.b() ? s : new Node.Split(s.axis(), s.ratio(), a, b);
    }

    /** The tree without the pane's leaf (its sibling takes the parent's place), or null when it was the only leaf. */
    static Node removeLeaf(Node n, String pane) {
        if (n instanceof Node.Leaf l) {
            return l.pane().equals(pane) ? null : l;
        }
        Node.Split s = (Node.Split) n;
        Node a = removeLeaf(s.a(), pane);
        if (a == null) {
            return s.b();
        }
        Node b = removeLeaf(s.b(), pane);
        if (b == null) {
            return s.a();
        }
        return a == s.a() && b == s.b() ? s : new Node.Split(s.axis(), s.ratio(), a, b);
    }

    static String focusAfterRemoval(Tab t, Node root, String removed) {
        if (!removed.equals(t.focused())) {
            return t.focused();
        }
        List<String> left = Topology.leaves(root);
        // The pane that took the removed one's place: the first leaf of its sibling subtree.
        Optional<String> sibling = siblingFirstLeaf(t.root(), removed);
        return sibling.filter(left::contains).orElse(left.get(0));
    }

    static Optional<String> siblingFirstLeaf(Node n, String pane) {
        if (n instanceof Node.Split s) {
            if (s.a() instanceof Node.Leaf l && l.pane().equals(pane)) {
                return Optional.of(Topology.leaves(s.b()).get(0));
            }
            if (s.b() instanceof Node.Leaf l && l.pane().equals(pane)) {
                return Optional.of(Topology.leaves(s.a()).get(0));
            }
            Optional<String> r = siblingFirstLeaf(s.a(), pane);
            return r.isPresent() ? r : siblingFirstLeaf(s.b(), pane);
        }
        return Optional.empty();
    }

    static Node at(Node root, String path) {
        Node n = root;
        for (char c : path.toCharArray()) {
            Node.Split s = (Node.Split) n;
            n = c == 'a' ? s.a() : s.b();
        }
        return n;
    }

    static Node withRatio(Node n, String path, double ratio) {
        Node.Split s = (Node.Split) n;
        if (path.isEmpty()) {
            return s.withRatio(ratio);
        }
        String rest = path.substring(1);
        return path.charAt(0) == 'a' ? new Node.Split(s.axis(), s.ratio(), withRatio(s.a(), rest, ratio), s.b())
                : new Node.Split(s.axis(), s.ratio(), s.a(), withRatio(s.b(), rest, ratio));
    }

    /**
     * Removes a pane from the topology (its process has exited, or it is being closed):
     * its sibling takes the parent's place, the tab closes with its last pane. Unknown
     * panes change nothing (an exit may race a close). Emits {@code tab.closed} when the tab
     * goes; the caller publishes {@code pane.closed} with the exit status.
     */
    public Change<Void> removePane(Topology s, String paneId) {
        Optional<Topology.Location> loc = s.locate(paneId);
        if (loc.isEmpty()) {
            if (!s.panes().containsKey(paneId)) {
                return new Change<>(s, List.of(), null);
            }
            Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
            panes.remove(paneId);
            return new Change<>(next(s, s.workspaces(), s.activeWorkspace(), panes, s.nextPane()), List.of(), null);
        }
        Topology.Location at = loc.get();
        Node rest = removeLeaf(at.tab().root(), paneId);
        Topology n;
        List<TopologyEvent> events = new ArrayList<>();
        if (rest == null) {
            n = removeTab(s, at);
            events.add(event("tab.closed", "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
        } else {
            boolean zoom = at.tab().zoomed() && !paneId.equals(at.tab().focused());
            n = withTab(s, at, at.tab().withTree(rest, focusAfterRemoval(at.tab(), rest, paneId), zoom));
        }
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.remove(paneId);
        return new Change<>(next(s, n.workspaces(), n.activeWorkspace(), panes, n.nextPane()), events, null);
    }

    // ---------------------------------------------------------------- adopting

    /**
     * A new pane tab running a freshly spawned pane in {@code cwd}, in an existing workspace
     * ({@code Workspaces.open}, which {@code terminal.backend.create} uses). The workspace,
     * tab and pane limits are checked before the spawn; {@code focus} makes the tab and the
     * workspace active (the tab also becomes active when the workspace has none). The
     * result is the new tab's id.
     */
    public Change<String> openPaneTab(Topology s, String wsId, Path cwd, boolean focus, Spawner sp) throws IOException {
        Workspace w = workspace(s, wsId);
        if (cwd == null || !cwd.isAbsolute()) {
            throw invalid("cwd", "not_absolute", "cwd must be an absolute path");
        }
        checkTabRoom(w);
        checkPaneRoom(s);
        String paneId = Long.toString(s.nextPane());
        Pane p = spawnChecked(sp, paneId, wsId, cwd);
        return addPaneTab(s, w, p, focus);
    }

    /**
     * Adds an existing pane (a PTY spawned elsewhere, or one a previous model instance left
     * running) as a new pane tab of a workspace, creating the workspace for its folder when
     * {@code wsId} is unknown ({@code wsName} null: {@link #folderName}). Used by adoption.
     * Refused like {@code tab.new} and {@code workspace.open} when the workspace already
     * has {@link Topology#MAX_TABS} tabs or a new one would exceed
     * {@link Topology#MAX_WORKSPACES}.
     */
    public Change<String> addPaneTab(Topology s, String wsId, String wsName, Path wsCwd, Pane p, boolean focus) {
        if (s.panes().containsKey(p.id())) {
            throw invalid("pane", "duplicate", "pane " + p.id() + " already exists");
        }
        checkPaneRoom(s);
        int wi = s.workspaceIndex(wsId);
        Workspace w = wi >= 0 ? s.workspaces().get(wi) : newWorkspace(s, wsId, wsCwd, wsName);
        return addPaneTab(s, w, p, focus);
    }

    /**
     * Adds {@code p} as a new pane tab of {@code w}, which is either one of {@code s}'s
     * workspaces or a new one from {@link #newWorkspace} (then appended, with
     * {@code workspace.created}). Checks the tab limit; the caller checked the rest.
     */
    Change<String> addPaneTab(Topology s, Workspace w, Pane p, boolean focus) {
        checkTabRoom(w);
        List<TopologyEvent> events = new ArrayList<>();
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        int wi = s.workspaceIndex(w.id());
        if (wi < 0) {
            ws.add(w);
            wi = ws.size() - 1;
            events.add(event("workspace.created", "workspace_id", w.id(), "name", w.name(), "cwd", w.cwd().toString()));
        }
        String wsId = w.id();
        String tabId = "tab_" + hex16.get();
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.add(new Tab(tabId, TabKind.PANES, null, new Node.Leaf(p.id()), p.id(), false));
        ws.set(wi, w.withTabs(tabs, focus || w.activeTab() == null ? tabId : w.activeTab()));
        events.add(event("tab.created", "workspace_id", wsId, "tab_id", tabId, "kind", TabKind.PANES.wire()));
        events.add(paneCreated(p, wsId, tabId));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.put(p.id(), p);
        long nextPane = Math.max(s.nextPane(), Long.parseLong(p.id()) + 1);
        String active = focus || s.activeWorkspace() == null ? wsId : s.activeWorkspace();
        return new Change<>(next(s, ws, active, panes, nextPane), events, tabId);
    }
}
