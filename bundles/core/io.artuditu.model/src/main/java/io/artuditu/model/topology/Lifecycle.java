package io.artuditu.model.topology;

import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
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
 * How workspaces, tabs and panes come into the topology, take the focus, get their names
 * and leave it: the operations every path shares and every family composes its changes
 * from. The model runs them itself (a new pane, an adopted one, a process that exited);
 * the topology families answer {@code workspace.open}, {@code tab.new}, {@code pane.split},
 * {@code pane.focus}, {@code pane.zoom}, {@code pane.rename} and {@code pane.close} with
 * them; and a family that makes panes as part of its own work (the agents' start and fork)
 * composes them into one change, without depending on another family's bundle. The
 * arrangement rules (moving, swapping, resizing, layouts, tab and workspace edits) are the
 * topology families' own. A workspace is made, named and counted against its limit in one
 * place, and the events these produce ({@code workspace.created}, {@code tab.created},
 * {@code tab.closed}, {@code pane.created}, {@code pane.focused}, {@code pane.renamed},
 * {@code layout.changed}) are declared by the model's contract.
 *
 * <p>Pure functions of a {@link Topology}: every check comes before the spawn, and a
 * refusal ({@code invalid_request}) changes nothing. Thread safe; the only side effects are
 * the id source and the {@link Spawner}.
 */
public final class Lifecycle {
    private final Supplier<String> ids;

    /** @param ids gives 16 lowercase hex digits per call, for new workspace and tab ids */
    public Lifecycle(Supplier<String> ids) {
        this.ids = ids;
    }

    /** The lifecycle of a change that draws its ids from {@code sp} ({@link Spawner#newId}). */
    public static Lifecycle of(Spawner sp) {
        return new Lifecycle(sp::newId);
    }

    /** 16 fresh hex digits, for a new workspace or tab id. */
    public String newId() {
        return ids.get();
    }

    // ---------------------------------------------------------------- labels

    /**
     * Trims and checks a label (a workspace name, a tab label, a pane name): one line, no
     * control characters, at most {@code max} code points. Null when it is empty and
     * {@code allowEmpty}.
     */
    public static String label(String field, String raw, int max, boolean allowEmpty) {
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
    public static boolean oneLine(String s) {
        return s.codePoints().noneMatch(Lifecycle::lineBreaking);
    }

    /** What a one-line label must not hold: control characters (line breaks among them) and U+2028/U+2029. */
    static boolean lineBreaking(int c) {
        return Character.isISOControl(c) || Character.getType(c) == Character.LINE_SEPARATOR
                || Character.getType(c) == Character.PARAGRAPH_SEPARATOR;
    }

    /** The first {@code max} code points of {@code s}. */
    public static String trimTo(String s, int max) {
        return s.codePointCount(0, s.length()) <= max ? s : s.substring(0, s.offsetByCodePoints(0, max));
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

    // ---------------------------------------------------------------- limits

    /** Refuses one pane more than {@link Topology#MAX_PANES}. */
    public static void checkPaneRoom(Topology s) {
        if (s.panes().size() >= Topology.MAX_PANES) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "the server already holds " + Topology.MAX_PANES
                    + " panes", Map.of("reason", "too_many_panes", "limit", Topology.MAX_PANES));
        }
    }

    /** Refuses one workspace more than {@link Topology#MAX_WORKSPACES} (the refusal {@code workspace.open} gives). */
    public static void checkWorkspaceRoom(Topology s) {
        if (s.workspaces().size() >= Topology.MAX_WORKSPACES) {
            throw invalid("workspace", "too_many", "at most " + Topology.MAX_WORKSPACES + " workspaces");
        }
    }

    /** Refuses one tab more than {@link Topology#MAX_TABS} in {@code w} (the refusal {@code tab.new} gives). */
    public static void checkTabRoom(Workspace w) {
        if (w.tabs().size() >= Topology.MAX_TABS) {
            throw invalid("tab", "too_many", "at most " + Topology.MAX_TABS + " tabs per workspace");
        }
    }

    /** Starts pane {@code id}'s process; the spawner must answer for that very pane. */
    public static Pane spawnChecked(Spawner sp, String id, String ws, Path cwd) throws IOException {
        Pane p = sp.spawn(id, ws, cwd);
        if (!p.id().equals(id)) {
            throw new IllegalStateException("the spawner returned pane " + p.id() + " for " + id);
        }
        return p;
    }

    // ---------------------------------------------------------------- events

    public static TopologyEvent paneCreated(Pane p, String ws, String tab) {
        return TopologyEvent.of("pane.created", "pane", p.id(), "terminal_id", p.terminalId(), "workspace_id", ws,
                "tab_id", tab);
    }

    public static TopologyEvent tabCreated(String ws, String tab, TabKind kind) {
        return TopologyEvent.of("tab.created", "workspace_id", ws, "tab_id", tab, "kind", kind.wire());
    }

    /** A tab became its workspace's active tab ({@code tab.focus}, {@code git.open}). */
    public static TopologyEvent tabFocused(String ws, String tab) {
        return TopologyEvent.of("tab.focused", "workspace_id", ws, "tab_id", tab);
    }

    /** A workspace became the active one (declared in model.json: more than one family produces it). */
    public static TopologyEvent workspaceFocused(String ws) {
        return TopologyEvent.of("workspace.focused", "workspace_id", ws);
    }

    /** A workspace's metadata changed; {@code metadata} is the whole new set (declared in model.json). */
    public static TopologyEvent workspaceMetadataChanged(String ws, java.util.Map<String, Object> metadata) {
        return TopologyEvent.of("workspace.metadata_changed", "workspace_id", ws, "metadata", metadata);
    }

    public static TopologyEvent tabClosed(String ws, String tab) {
        return TopologyEvent.of("tab.closed", "workspace_id", ws, "tab_id", tab);
    }

    public static TopologyEvent workspaceCreated(Workspace w) {
        return TopologyEvent.of("workspace.created", "workspace_id", w.id(), "name", w.name(), "cwd", w.cwd().toString());
    }

    /** A tab's tree, ratios or zoom changed: clients re-read its layout. */
    public static List<TopologyEvent> layoutChanged(Topology.Location at) {
        return List.of(TopologyEvent.of("layout.changed", "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
    }

    public static List<TopologyEvent> paneFocused(Topology.Location at, String pane) {
        return List.of(TopologyEvent.of("pane.focused", "pane", pane, "workspace_id", at.workspace().id(), "tab_id",
                at.tab().id()));
    }

    // ---------------------------------------------------------------- entering

    /**
     * The one place a workspace is made, whichever path asks ({@code workspace.open},
     * {@code Workspaces.open}, adoption): checks the name (or derives it from the folder,
     * {@link #folderName}) and the workspace limit, and returns it without tabs. Nothing is
     * spawned here, so a refusal comes before any process starts.
     *
     * @param id the id to give it, or null for a fresh one (adoption keeps the id a PTY names)
     */
    public Workspace newWorkspace(Topology s, String id, Path folder, String name) {
        String n = name != null ? label("name", name, Topology.MAX_NAME, false) : folderName(folder);
        checkWorkspaceRoom(s);
        return new Workspace(id != null ? id : "workspace_" + newId(), n, folder, false, List.of(), null);
    }

    /**
     * Opens a folder as a new workspace with one pane tab running one pane, and makes it
     * active. {@code name} defaults to {@link #folderName the folder's name}. Every check
     * (folder, name, workspace and pane limits) comes before the spawn. The result is the
     * workspace's id.
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

    /**
     * A new pane tab running a freshly spawned pane in {@code cwd}, in an existing workspace
     * ({@code Workspaces.open}, which {@code terminal.backend.create} uses). The tab and pane
     * limits are checked before the spawn; {@code focus} makes the tab and the workspace
     * active (the tab also becomes active when the workspace has none). The result is the
     * new tab's id.
     */
    public Change<String> openPaneTab(Topology s, String wsId, Path cwd, boolean focus, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
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
     * Adds an existing pane (one a previous model instance left running) as a new pane tab
     * of a workspace, creating the workspace for its folder when {@code wsId} is unknown
     * ({@code wsName} null: {@link #folderName}). Refused like {@code tab.new} and
     * {@code workspace.open} when the workspace already has {@link Topology#MAX_TABS} tabs or
     * a new one would exceed {@link Topology#MAX_WORKSPACES}.
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
    private Change<String> addPaneTab(Topology s, Workspace w, Pane p, boolean focus) {
        checkTabRoom(w);
        List<TopologyEvent> events = new ArrayList<>();
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        int wi = s.workspaceIndex(w.id());
        if (wi < 0) {
            ws.add(w);
            wi = ws.size() - 1;
            events.add(workspaceCreated(w));
        }
        String wsId = w.id();
        String tabId = "tab_" + newId();
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.add(new Tab(tabId, TabKind.PANES, null, new Node.Leaf(p.id()), p.id(), false));
        ws.set(wi, w.withTabs(tabs, focus || w.activeTab() == null ? tabId : w.activeTab()));
        events.add(tabCreated(wsId, tabId, TabKind.PANES));
        events.add(paneCreated(p, wsId, tabId));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.put(p.id(), p);
        long nextPane = Math.max(s.nextPane(), Long.parseLong(p.id()) + 1);
        String active = focus || s.activeWorkspace() == null ? wsId : s.activeWorkspace();
        return new Change<>(s.next(ws, active, panes, nextPane), events, tabId);
    }

    /**
     * Adds a tab at the end of a workspace and makes it active. A pane tab starts with
     * one pane in the workspace folder; a dashboard starts none. The result is its id.
     */
    public Change<String> newTab(Topology s, String wsId, TabKind kind, String name, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
        if (kind == null) {
            throw invalid("kind", "missing", "kind is required");
        }
        String label = name == null ? null : label("name", name, Topology.MAX_NAME, true);
        checkTabRoom(w);
        String tabId = "tab_" + newId();
        List<TopologyEvent> events = new ArrayList<>();
        events.add(tabCreated(wsId, tabId, kind));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        long nextPane = s.nextPane();
        Tab t;
        if (kind.dashboard()) {
            t = new Tab(tabId, kind, label, null, null, false);
        } else {
            checkPaneRoom(s);
            String paneId = Long.toString(nextPane);
            Pane p = spawnChecked(sp, paneId, wsId, w.cwd());
            panes.put(paneId, p);
            nextPane++;
            t = new Tab(tabId, kind, label, new Node.Leaf(paneId), paneId, false);
            events.add(paneCreated(p, wsId, tabId));
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.add(t);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(s.workspaceIndex(wsId), w.withTabs(tabs, tabId));
        return new Change<>(s.next(ws, s.activeWorkspace(), panes, nextPane), events, tabId);
    }

    /**
     * Splits a pane: the new pane goes to {@code direction} of it, the two share the pane's
     * rectangle half and half. The new pane's process is started by {@code sp} after
     * validation and before the state is built. The result is the new pane's id; it takes
     * the tab's focus when {@code focus}. Zoom ends.
     */
    public Change<String> splitPane(Topology s, String paneId, Direction direction, boolean focus, Spawner sp)
            throws IOException {
        Topology.Location at = s.requirePane(paneId);
        if (direction == null) {
            throw invalid("direction", "missing", "direction is required");
        }
        String id = Long.toString(s.nextPane());
        Node placed = splitLeaf(at.tab().root(), paneId, id, direction, "direction");
        if (Geometry.depth(at.tab().root()) >= Topology.MAX_DEPTH) {
            throw invalid("pane", "too_deep", "the tab's tree is already " + Topology.MAX_DEPTH + " levels deep");
        }
        checkPaneRoom(s);
        Pane p = spawnChecked(sp, id, at.workspace().id(), at.workspace().cwd());
        Tab t = at.tab().withTree(placed, focus ? id : at.tab().focused(), false);
        Topology n = s.withTab(at, t);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.put(id, p);
        n = s.next(n.workspaces(), n.activeWorkspace(), panes, s.nextPane() + 1);
        return new Change<>(n, List.of(paneCreated(p, at.workspace().id(), at.tab().id())), id);
    }

    /**
     * {@code root} with the leaf of {@code target} split half and half between it and a new
     * leaf {@code neu} placed to {@code direction} of it. Refused ({@code too_small}, on
     * {@code field}) when the target's rectangle is shorter along the split's axis than the
     * new pair's {@link Geometry#need}, i.e. less than twice the minimum: the one room check
     * that a split and a pane moved into a tab share.
     */
    public static Node splitLeaf(Node root, String target, String neu, Direction direction, String field) {
        Node.Leaf old = new Node.Leaf(target);
        Node.Leaf added = new Node.Leaf(neu);
        Node pair = direction.forward() ? new Node.Split(direction.axis(), 0.5, old, added)
                : new Node.Split(direction.axis(), 0.5, added, old);
        Rect r = Geometry.rects(root).get(target);
        if (Geometry.extent(r, direction.axis()) < Geometry.need(pair, direction.axis())) {
            throw invalid(field, "too_small", "pane " + target + " is too small to split " + direction.wire());
        }
        return replaceLeaf(root, target, pair);
    }

    /** {@code n} with the leaf of {@code pane} replaced by {@code with}. */
    public static Node replaceLeaf(Node n, String pane, Node with) {
        if (n instanceof Node.Leaf l) {
            return l.pane().equals(pane) ? with : l;
        }
        Node.Split s = (Node.Split) n;
        Node a = replaceLeaf(s.a(), pane, with);
        Node b = a == s.a() ? replaceLeaf(s.b(), pane, with) : s.b();
        return a == s.a() && b == s.b() ? s : new Node.Split(s.axis(), s.ratio(), a, b);
    }

    // ---------------------------------------------------------------- focus, zoom, names

    /** Focuses a pane: its tab, workspace and the pane itself become active. Zoom ends when the focus moves. */
    public static Change<Void> focusPane(Topology s, String paneId) {
        Topology.Location at = s.requirePane(paneId);
        if (paneId.equals(s.focusedPane().orElse(null))) {
            return new Change<>(s, List.of(), null);
        }
        boolean zoom = at.tab().zoomed() && paneId.equals(at.tab().focused());
        Tab t = at.tab().withTree(at.tab().root(), paneId, zoom);
        List<Tab> tabs = new ArrayList<>(at.workspace().tabs());
        tabs.set(at.tabIndex(), t);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(at.workspaceIndex(), at.workspace().withTabs(tabs, t.id()));
        return new Change<>(s.next(ws, at.workspace().id(), s.panes(), s.nextPane()), paneFocused(at, paneId), null);
    }

    /** Zooms or unzooms a pane (null {@code on}: toggles); zooming focuses it in its tab. The result is the zoom after. */
    public static Change<Boolean> zoomPane(Topology s, String paneId, Boolean on) {
        Topology.Location at = s.requirePane(paneId);
        boolean now = at.tab().zoomed() && paneId.equals(at.tab().focused());
        boolean want = on == null ? !now : on;
        if (want == now) {
            return new Change<>(s, List.of(), now);
        }
        Tab t = at.tab().withTree(at.tab().root(), want ? paneId : at.tab().focused(), want);
        return new Change<>(s.withTab(at, t), layoutChanged(at), want);
    }

    /** Sets a pane's name (≤ {@link Topology#MAX_NAME} after trimming; empty clears it). */
    public static Change<Void> renamePane(Topology s, String paneId, String name) {
        s.requirePane(paneId);
        String n = label("name", name, Topology.MAX_NAME, true);
        return new Change<>(s.withPane(s.panes().get(paneId).withName(n)),
                List.of(TopologyEvent.withNulls("pane.renamed", "pane", paneId, "name", n)), null);
    }

    // ---------------------------------------------------------------- leaving

    /**
     * Removes a pane from the topology (its process has exited, or it is being closed):
     * its sibling takes the parent's place, the tab closes with its last pane. Unknown
     * panes change nothing (an exit may race a close). Emits {@code tab.closed} when the tab
     * goes; the model publishes {@code pane.closed} with the exit status once the process
     * has exited.
     */
    public static Change<Void> removePane(Topology s, String paneId) {
        Optional<Topology.Location> loc = s.locate(paneId);
        if (loc.isEmpty()) {
            if (!s.panes().containsKey(paneId)) {
                return new Change<>(s, List.of(), null);
            }
            Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
            panes.remove(paneId);
            return new Change<>(s.next(s.workspaces(), s.activeWorkspace(), panes, s.nextPane()), List.of(), null);
        }
        Topology.Location at = loc.get();
        Node rest = removeLeaf(at.tab().root(), paneId);
        Topology n;
        List<TopologyEvent> events = new ArrayList<>();
        if (rest == null) {
            n = s.withoutTab(at);
            events.add(tabClosed(at.workspace().id(), at.tab().id()));
        } else {
            boolean zoom = at.tab().zoomed() && !paneId.equals(at.tab().focused());
            n = s.withTab(at, at.tab().withTree(rest, focusAfterRemoval(at.tab(), rest, paneId), zoom));
        }
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.remove(paneId);
        return new Change<>(s.next(n.workspaces(), n.activeWorkspace(), panes, n.nextPane()), events, null);
    }

    /** The tree without the pane's leaf (its sibling takes the parent's place), or null when it was the only leaf. */
    public static Node removeLeaf(Node n, String pane) {
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

    /**
     * The pane that has the tab's focus once {@code removed} left {@code t} (whose tree is now
     * {@code root}): unchanged unless the removed pane had it, else the pane that took its
     * place (the first leaf of its sibling subtree).
     */
    public static String focusAfterRemoval(Tab t, Node root, String removed) {
        if (!removed.equals(t.focused())) {
            return t.focused();
        }
        List<String> left = Topology.leaves(root);
        return siblingFirstLeaf(t.root(), removed).filter(left::contains).orElse(left.get(0));
    }

    private static Optional<String> siblingFirstLeaf(Node n, String pane) {
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
}
