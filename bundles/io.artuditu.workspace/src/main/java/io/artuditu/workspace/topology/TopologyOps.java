package io.artuditu.workspace.topology;

import static io.artuditu.workspace.topology.TopologyException.invalid;
import static io.artuditu.workspace.topology.TopologyException.missing;

import io.artuditu.uhp.api.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Every topology operation as a pure function of a {@link Topology}: each validates the
 * whole request first and returns a {@link Change} or throws a {@link TopologyException}
 * (the input state is immutable, so a refusal changes nothing). Queries return plain
 * values and never change focus. The only side effects are the injected id source and,
 * for operations that add a pane, the {@link Spawner} called after validation.
 */
public final class TopologyOps {
    private final Supplier<String> hex16;

    /** @param hex16 gives 16 lowercase hex digits per call (random in production) */
    public TopologyOps(Supplier<String> hex16) {
        this.hex16 = hex16;
    }

    // ---------------------------------------------------------------- resolving

    /** The workspace at a 0-based API index; out of range is {@code not_found}, as the spec says. */
    public static Workspace workspaceAt(Topology s, int index) {
        if (index < 0 || index >= s.workspaces().size()) {
            throw missing("workspace", "no workspace at index " + index);
        }
        return s.workspaces().get(index);
    }

    /** A workspace by id; a malformed id is {@code invalid_request}, an unknown one {@code not_found}. */
    public static Workspace workspace(Topology s, String id) {
        if (id == null || !id.matches("workspace_[0-9a-f]{16}")) {
            throw invalid("workspace_id", "malformed", "workspace_id must be workspace_<16 hex digits>");
        }
        return s.workspace(id).orElseThrow(() -> missing("workspace_id", "no such workspace: " + id));
    }

    /** The tab at a 1-based position; zero or out of range is {@code invalid_request}, as the spec says. */
    public static Tab tabAt(Workspace w, int position) {
        if (position < 1 || position > w.tabs().size()) {
            throw invalid("tab", "out_of_range", "tab position " + position + " is not 1.." + w.tabs().size());
        }
        return w.tabs().get(position - 1);
    }

    /** A tab by id anywhere; malformed → {@code invalid_request}, unknown → {@code not_found}. */
    public static Topology.Location tab(Topology s, String id) {
        if (id == null || !id.matches("tab_[0-9a-f]{16}")) {
            throw invalid("tab_id", "malformed", "tab_id must be tab_<16 hex digits>");
        }
        return s.locateTab(id).orElseThrow(() -> missing("tab_id", "no such tab: " + id));
    }

    /** A pane by id, or the focused pane for null; malformed → {@code invalid_request}. */
    public static Topology.Location pane(Topology s, String id) {
        if (id == null) {
            String f = s.focusedPane().orElseThrow(() -> missing("pane", "there is no focused pane"));
            return s.locate(f).orElseThrow();
        }
        if (!id.matches("[1-9][0-9]{0,17}")) {
            throw invalid("pane", "malformed", "pane must be a decimal pane id");
        }
        return s.locate(id).orElseThrow(() -> missing("pane", "no such pane: " + id));
    }

    private static Workspace activeWorkspace(Topology s) {
        return s.active().orElseThrow(() -> missing("workspace", "there is no workspace"));
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
    private static boolean lineBreaking(int c) {
        return Character.isISOControl(c) || Character.getType(c) == Character.LINE_SEPARATOR
                || Character.getType(c) == Character.PARAGRAPH_SEPARATOR;
    }

    // ---------------------------------------------------------------- state helpers

    private static Topology next(Topology s, List<Workspace> ws, String active, Map<String, Pane> panes, long nextPane) {
        return new Topology(ws, active, panes, nextPane, s.version() + 1);
    }

    private static Topology withWorkspace(Topology s, int index, Workspace w) {
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(index, w);
        return next(s, ws, s.activeWorkspace(), s.panes(), s.nextPane());
    }

    private static Topology withTab(Topology s, Topology.Location at, Tab t) {
        List<Tab> tabs = new ArrayList<>(at.workspace().tabs());
        tabs.set(at.tabIndex(), t);
        return withWorkspace(s, at.workspaceIndex(), at.workspace().withTabs(tabs, at.workspace().activeTab()));
    }

    private static Topology withPane(Topology s, Pane p) {
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.put(p.id(), p);
        return next(s, s.workspaces(), s.activeWorkspace(), panes, s.nextPane());
    }

    private static TopologyEvent event(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return new TopologyEvent(name, m);
    }

    /** Like {@link #event} but keeps null values: a cleared name is news. */
    private static TopologyEvent eventWithNulls(String name, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TopologyEvent(name, m);
    }

    /** A tab's tree, ratios or zoom changed: clients re-read its layout. */
    private static List<TopologyEvent> layoutChanged(Topology.Location at) {
        return List.of(event("layout.changed", "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
    }

    private static List<TopologyEvent> paneFocused(Topology.Location at, String pane) {
        return List.of(event("pane.focused", "pane", pane, "workspace_id", at.workspace().id(), "tab_id", at.tab().id()));
    }

    private static TopologyEvent paneCreated(Pane p, String ws, String tab) {
        return event("pane.created", "pane", p.id(), "terminal_id", p.terminalId(), "workspace_id", ws, "tab_id", tab);
    }

    private static Pane spawnChecked(Spawner sp, String id, String ws, Path cwd) throws IOException {
        Pane p = sp.spawn(id, ws, cwd);
        if (!p.id().equals(id)) {
            throw new IllegalStateException("the spawner returned pane " + p.id() + " for " + id);
        }
        return p;
    }

    private static void checkPaneRoom(Topology s) {
        if (s.panes().size() >= Topology.MAX_PANES) {
            throw new TopologyException(ErrorCode.INVALID_REQUEST, "the server already holds " + Topology.MAX_PANES
                    + " panes", Map.of("reason", "too_many_panes", "limit", Topology.MAX_PANES));
        }
    }

    private static Tab paneTab(Tab t, String field) {
        if (t.kind().dashboard()) {
            throw invalid(field, "dashboard", "the " + t.kind().wire() + " dashboard has no pane layout");
        }
        return t;
    }

    // ---------------------------------------------------------------- workspaces

    /** Refuses one workspace more than {@link Topology#MAX_WORKSPACES} (the refusal {@code workspace.open} gives). */
    private static void checkWorkspaceRoom(Topology s) {
        if (s.workspaces().size() >= Topology.MAX_WORKSPACES) {
            throw invalid("workspace", "too_many", "at most " + Topology.MAX_WORKSPACES + " workspaces");
        }
    }

    /** Refuses one tab more than {@link Topology#MAX_TABS} in {@code w} (the refusal {@code tab.new} gives). */
    private static void checkTabRoom(Workspace w) {
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
    private Workspace newWorkspace(Topology s, String id, Path folder, String name) {
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

    private static String trimTo(String s, int max) {
        return s.codePointCount(0, s.length()) <= max ? s : s.substring(0, s.offsetByCodePoints(0, max));
    }

    public Change<Void> focusWorkspace(Topology s, String wsId) {
        workspace(s, wsId);
        if (wsId.equals(s.activeWorkspace())) {
            return new Change<>(s, List.of(), null);
        }
        return new Change<>(next(s, s.workspaces(), wsId, s.panes(), s.nextPane()),
                List.of(event("workspace.focused", "workspace_id", wsId)), null);
    }

    /** Changes the display label only; never touches the folder. */
    public Change<Workspace> renameWorkspace(Topology s, String wsId, String name) {
        Workspace w = workspace(s, wsId);
        String n = label("name", name, Topology.MAX_NAME, false);
        Workspace r = new Workspace(w.id(), n, w.cwd(), w.pinned(), w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r),
                List.of(event("workspace.renamed", "workspace_id", wsId, "name", n)), r);
    }

    /** Pins or unpins: display order only, never the API index or the focus. */
    public Change<Workspace> pinWorkspace(Topology s, String wsId, boolean pinned) {
        Workspace w = workspace(s, wsId);
        Workspace r = new Workspace(w.id(), w.name(), w.cwd(), pinned, w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r),
                List.of(event("workspace.pinned", "workspace_id", wsId, "pinned", pinned)), r);
    }

    private static final java.util.regex.Pattern METADATA_KEY = java.util.regex.Pattern.compile("[a-z][a-z0-9_.-]{0,31}");

    /**
     * Merges what a reporter states about a workspace into its metadata: a {@code null}
     * value removes its key; with {@code replace} the given entries become the whole set.
     * Values are String (one line, at most {@link Topology#MAX_METADATA_VALUE} code points),
     * Long or Boolean. Everything is checked first; a report that changes nothing returns
     * the same state and no event. The result is the workspace after the report.
     */
    public Change<Workspace> reportMetadata(Topology s, String wsId, Map<String, Object> entries, boolean replace) {
        Workspace w = workspace(s, wsId);
        if (entries == null) {
            throw invalid("metadata", "missing", "metadata is required");
        }
        if (entries.size() > 2 * Topology.MAX_METADATA) {
            throw invalid("metadata", "too_many", "a report names at most " + 2 * Topology.MAX_METADATA + " keys");
        }
        Map<String, Object> merged = replace ? new java.util.TreeMap<>() : new java.util.TreeMap<>(w.metadata());
        for (Map.Entry<String, Object> e : entries.entrySet()) {
            String k = e.getKey();
            if (k == null || !METADATA_KEY.matcher(k).matches()) {
                throw invalid("metadata", "bad_key", "metadata keys match ^[a-z][a-z0-9_.-]{0,31}$: "
                        + (k == null ? "null" : trimTo(k, 40)));
            }
            Object v = e.getValue();
            if (v == null) {
                merged.remove(k);
            } else if (v instanceof String str) {
                if (!oneLine(str)) {
                    throw invalid("metadata", "multiline", "metadata value " + k + " must be one line without control characters");
                }
                if (str.codePointCount(0, str.length()) > Topology.MAX_METADATA_VALUE) {
                    throw invalid("metadata", "too_long", "metadata value " + k + " must be at most "
                            + Topology.MAX_METADATA_VALUE + " characters");
                }
                merged.put(k, str);
            } else if (v instanceof Long || v instanceof Boolean) {
                merged.put(k, v);
            } else {
                throw invalid("metadata", "bad_value", "metadata value " + k + " must be a string, an integer, a boolean or null");
            }
        }
        if (merged.size() > Topology.MAX_METADATA) {
            throw invalid("metadata", "too_many", "a workspace holds at most " + Topology.MAX_METADATA
                    + " metadata entries; this report would leave " + merged.size());
        }
        if (merged.equals(w.metadata())) {
            return new Change<>(s, List.of(), w);
        }
        Workspace r = new Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(), w.activeTab(), merged);
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r),
                List.of(event("workspace.metadata_changed", "workspace_id", wsId, "metadata", r.metadata())), r);
    }

    /**
     * The sidebar's display order: pinned workspaces first, each group in API order.
     * Returns the 0-based display position of each workspace, by API index.
     */
    public static List<Integer> displayPositions(Topology s) {
        List<Integer> out = new ArrayList<>();
        int pinned = (int) s.workspaces().stream().filter(Workspace::pinned).count();
        int p = 0;
        int u = pinned;
        for (Workspace w : s.workspaces()) {
            out.add(w.pinned() ? p++ : u++);
        }
        return out;
    }

    /** The single-workspace form of {@link #moveWorkspaces}. */
    public Change<Void> moveWorkspace(Topology s, int from, int to) {
        return moveWorkspaces(s, List.of(from), to);
    }

    /**
     * Moves a block of workspaces (given by 0-based index, in the order they should keep)
     * so the block starts at final position {@code to}. Every index is checked first:
     * duplicates and an empty or over-long list are {@code invalid_request}, an
     * out-of-range index {@code not_found}; {@code to} must leave room for the block. The
     * active workspace stays active.
     */
    public Change<Void> moveWorkspaces(Topology s, List<Integer> block, int to) {
        int n = s.workspaces().size();
        if (block == null || block.isEmpty()) {
            throw invalid("workspaces", "empty", "workspaces must list at least one index");
        }
        if (block.size() > Topology.MAX_WORKSPACES) {
            throw invalid("workspaces", "too_many", "workspaces lists at most " + Topology.MAX_WORKSPACES + " indices");
        }
        Set<Integer> seen = new HashSet<>();
        for (Integer i : block) {
            if (i == null) {
                throw invalid("workspaces", "malformed", "workspaces must hold integers");
            }
            if (!seen.add(i)) {
                throw invalid("workspaces", "duplicate", "workspace index " + i + " is listed twice");
            }
        }
        for (Integer i : block) {
            workspaceAt(s, i);
        }
        if (to < 0 || to > n - block.size()) {
            throw invalid("to", "out_of_range", "to must be 0.." + (n - block.size()));
        }
        List<Workspace> rest = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!seen.contains(i)) {
                rest.add(s.workspaces().get(i));
            }
        }
        List<Workspace> moved = block.stream().map(i -> s.workspaces().get(i)).toList();
        rest.addAll(to, moved);
        if (rest.equals(s.workspaces())) {
            return new Change<>(s, List.of(), null);
        }
        List<TopologyEvent> events = new ArrayList<>();
        for (int i = 0; i < rest.size(); i++) {
            Workspace w = rest.get(i);
            int from = s.workspaceIndex(w.id());
            if (from != i) {
                events.add(event("workspace.moved", "workspace_id", w.id(), "from", from, "to", i));
            }
        }
        return new Change<>(next(s, rest, s.activeWorkspace(), s.panes(), s.nextPane()), events, null);
    }

    /**
     * Removes a workspace with its tabs and panes. The result lists the removed panes,
     * whose processes the caller ends. The next workspace (or the previous, at the end)
     * becomes active if this one was.
     */
    public Change<List<String>> closeWorkspace(Topology s, String wsId) {
        Workspace w = workspace(s, wsId);
        int i = s.workspaceIndex(wsId);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.remove(i);
        String active = s.activeWorkspace();
        if (wsId.equals(active)) {
            active = ws.isEmpty() ? null : ws.get(Math.min(i, ws.size() - 1)).id();
        }
        List<String> gone = new ArrayList<>();
        List<TopologyEvent> events = new ArrayList<>();
        for (Tab t : w.tabs()) {
            if (t.root() != null) {
                gone.addAll(Topology.leaves(t.root()));
            }
            events.add(event("tab.closed", "workspace_id", wsId, "tab_id", t.id()));
        }
        events.add(event("workspace.closed", "workspace_id", wsId));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.keySet().removeAll(gone);
        return new Change<>(next(s, ws, active, panes, s.nextPane()), events, gone);
    }

    // ---------------------------------------------------------------- tabs

    /**
     * Adds a tab at the end of a workspace and makes it active. A pane tab starts with
     * one pane in the workspace folder; a dashboard starts none.
     */
    public Change<String> newTab(Topology s, String wsId, TabKind kind, String name, Spawner sp) throws IOException {
        Workspace w = workspace(s, wsId);
        if (kind == null) {
            throw invalid("kind", "missing", "kind is required");
        }
        String label = name == null ? null : label("name", name, Topology.MAX_NAME, true);
        checkTabRoom(w);
        String tabId = "tab_" + hex16.get();
        List<TopologyEvent> events = new ArrayList<>();
        events.add(event("tab.created", "workspace_id", wsId, "tab_id", tabId, "kind", kind.wire()));
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
        return new Change<>(next(s, ws, s.activeWorkspace(), panes, nextPane), events, tabId);
    }

    /** Makes a tab active in its workspace (the workspace's own activity is unchanged). */
    public Change<Void> focusTab(Topology s, String tabId) {
        Topology.Location at = tab(s, tabId);
        if (tabId.equals(at.workspace().activeTab())) {
            return new Change<>(s, List.of(), null);
        }
        return new Change<>(withWorkspace(s, at.workspaceIndex(), at.workspace().withTabs(at.workspace().tabs(), tabId)),
                List.of(event("tab.focused", "workspace_id", at.workspace().id(), "tab_id", tabId)), null);
    }

    /** The answer of a tab move or swap: 1-based positions and the active tab's position after it. */
    public record TabMove(int from, int to, int active) {
    }

    /**
     * Moves a tab (1-based {@code tab}, or the active tab when null) either to final
     * position {@code to} or one step by {@code direction} (left or right) — exactly one of
     * the two. Zero, missing, out-of-range, same-position, edge and mixed requests are
     * {@code invalid_request}. The active tab stays active.
     */
    public Change<TabMove> moveTab(Topology s, String wsId, Integer tab, Integer to, Direction direction) {
        Workspace w = workspace(s, wsId);
        if (to != null && direction != null) {
            throw invalid("direction", "mixed", "pass either to or direction, not both");
        }
        if (to == null && direction == null) {
            throw invalid("to", "missing", "to or direction is required");
        }
        if (direction != null && direction.axis() != Axis.HORIZONTAL) {
            throw invalid("direction", "invalid", "direction must be left or right");
        }
        if (to == null && tab == null && w.activeTab() == null) {
            throw invalid("tab", "missing", "the workspace has no active tab");
        }
        if (to != null && tab == null) {
            throw invalid("tab", "missing", "tab is required with to");
        }
        int from = tab != null ? tabAt(w, tab) == null ? 0 : tab : w.tabIndex(w.activeTab()) + 1;
        int dest;
        if (direction != null) {
            dest = direction == Direction.LEFT ? from - 1 : from + 1;
            if (dest < 1 || dest > w.tabs().size()) {
                throw invalid("direction", "edge", "tab " + from + " is already at the " + direction.wire() + " edge");
            }
        } else {
            dest = to;
            if (dest < 1 || dest > w.tabs().size()) {
                throw invalid("to", "out_of_range", "to " + dest + " is not 1.." + w.tabs().size());
            }
            if (dest == from) {
                throw invalid("to", "same_position", "the tab is already at position " + dest);
            }
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        Tab moved = tabs.remove(from - 1);
        tabs.add(dest - 1, moved);
        Workspace r = w.withTabs(tabs, w.activeTab());
        int active = r.activeTab() == null ? 0 : r.tabIndex(r.activeTab()) + 1;
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r), List.of(event("tab.moved", "workspace_id", wsId,
                "tab_id", moved.id(), "from", from, "to", dest)), new TabMove(from, dest, active));
    }

    /** Exchanges the tabs at two 1-based positions; the active tab stays active. */
    public Change<TabMove> swapTabs(Topology s, String wsId, int tab, int with) {
        Workspace w = workspace(s, wsId);
        Tab a = tabAt(w, tab);
        Tab b = tabAt(w, with);
        if (tab == with) {
            throw invalid("with", "same_position", "a tab cannot swap with itself");
        }
        List<Tab> tabs = new ArrayList<>(w.tabs());
        tabs.set(tab - 1, b);
        tabs.set(with - 1, a);
        Workspace r = w.withTabs(tabs, w.activeTab());
        int active = r.activeTab() == null ? 0 : r.tabIndex(r.activeTab()) + 1;
        return new Change<>(withWorkspace(s, s.workspaceIndex(wsId), r), List.of(
                event("tab.moved", "workspace_id", wsId, "tab_id", a.id(), "from", tab, "to", with),
                event("tab.moved", "workspace_id", wsId, "tab_id", b.id(), "from", with, "to", tab)),
                new TabMove(tab, with, active));
    }

    /**
     * Sets a tab's custom label (1-based {@code tab}, or the active tab when null). At most
     * 40 characters after trimming; an empty string clears it. Dashboards cannot be renamed.
     */
    public Change<Void> renameTab(Topology s, String wsId, Integer tab, String name) {
        Workspace w = workspace(s, wsId);
        Tab t;
        if (tab != null) {
            t = tabAt(w, tab);
        } else {
            if (w.activeTab() == null) {
                throw invalid("tab", "missing", "the workspace has no active tab");
            }
            t = w.tabs().get(w.tabIndex(w.activeTab()));
        }
        if (t.kind().dashboard()) {
            throw invalid("tab", "dashboard", "dashboard tabs cannot be renamed");
        }
        String label = label("name", name, Topology.MAX_NAME, true);
        Topology.Location at = s.locateTab(t.id()).orElseThrow();
        return new Change<>(withTab(s, at, t.withLabel(label)),
                List.of(eventWithNulls("tab.renamed", "workspace_id", w.id(), "tab_id", t.id(), "name", label)), null);
    }

    /**
     * Removes a tab with its panes (listed in the result for the caller to end). The tab to
     * its right (else its left) becomes active if it was.
     */
    public Change<List<String>> closeTab(Topology s, String tabId) {
        Topology.Location at = tab(s, tabId);
        List<String> gone = at.tab().root() == null ? List.of() : Topology.leaves(at.tab().root());
        Topology n = removeTab(s, at);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.keySet().removeAll(gone);
        n = next(n, n.workspaces(), n.activeWorkspace(), panes, n.nextPane());
        return new Change<>(n, List.of(event("tab.closed", "workspace_id", at.workspace().id(), "tab_id", tabId)), gone);
    }

    private static Topology removeTab(Topology s, Topology.Location at) {
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

    private static String focusAfterRemoval(Tab t, Node root, String removed) {
        if (!removed.equals(t.focused())) {
            return t.focused();
        }
        List<String> left = Topology.leaves(root);
        // The pane that took the removed one's place: the first leaf of its sibling subtree.
        Optional<String> sibling = siblingFirstLeaf(t.root(), removed);
        return sibling.filter(left::contains).orElse(left.get(0));
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

    // ---------------------------------------------------------------- panes

    /**
     * Splits a pane (null: the focused one): the new pane goes to {@code direction} of it,
     * the two share the pane's rectangle half and half. The new pane's process is started
     * by {@code sp} after validation and before the state is built. The result is the new
     * pane's id; it takes the focus when {@code focus}. Zoom ends.
     */
    public Change<String> split(Topology s, String paneId, Direction direction, boolean focus, Spawner sp)
            throws IOException {
        Topology.Location at = pane(s, paneId);
        if (direction == null) {
            throw invalid("direction", "missing", "direction is required");
        }
        String target = paneId != null ? paneId : at.tab().focused();
        String id = Long.toString(s.nextPane());
        Node placed = splitLeaf(at.tab().root(), target, id, direction, "direction");
        if (Geometry.depth(at.tab().root()) >= Topology.MAX_DEPTH) {
            throw invalid("pane", "too_deep", "the tab's tree is already " + Topology.MAX_DEPTH + " levels deep");
        }
        checkPaneRoom(s);
        Pane p = spawnChecked(sp, id, at.workspace().id(), at.workspace().cwd());
        Tab t = at.tab().withTree(placed, focus ? id : at.tab().focused(), false);
        Topology n = withTab(s, at, t);
        Map<String, Pane> panes = new LinkedHashMap<>(n.panes());
        panes.put(id, p);
        n = next(s, n.workspaces(), n.activeWorkspace(), panes, s.nextPane() + 1);
        return new Change<>(n, List.of(paneCreated(p, at.workspace().id(), at.tab().id())), id);
    }

    /**
     * {@code root} with the leaf of {@code target} split half and half between it and a new
     * leaf {@code neu} placed to {@code direction} of it. Refused ({@code too_small}, on
     * {@code field}) when the target's rectangle is shorter along the split's axis than the
     * new pair's {@link Geometry#need}, i.e. less than twice the minimum: the one room check
     * that split and pane.move share.
     */
    private static Node splitLeaf(Node root, String target, String neu, Direction direction, String field) {
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

    /** The answer of a pane move: the pane, its workspace's 0-based index and its final 1-based tab position. */
    public record PaneMove(String pane, int workspace, int tab, String tabId) {
    }

    /**
     * Moves a pane (null: the focused one) to another pane tab of its workspace
     * ({@code toTabId}) or to a new tab ({@code newTab}) — exactly one. The process stays;
     * the pane becomes the destination's focus and the destination tab and workspace become
     * active; an emptied source tab is removed. In an existing tab the pane is placed to the
     * right of that tab's focused pane, as {@link #split} would put a new one, and refused
     * ({@code too_small}, on {@code tab}) when that pane is too narrow to be split.
     */
    public Change<PaneMove> movePane(Topology s, String paneId, String toTabId, boolean newTab) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
        if ((toTabId != null) == newTab) {
            throw invalid("tab", "exactly_one", "pass exactly one of tab or new_tab");
        }
        Topology.Location dest = null;
        if (toTabId != null) {
            dest = tab(s, toTabId);
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
            Node placed = splitLeaf(d.root(), d.focused(), id, Direction.RIGHT, "tab");
            if (Geometry.depth(placed) > Topology.MAX_DEPTH) {
                throw invalid("tab", "too_deep", "the destination tree is already " + Topology.MAX_DEPTH + " levels deep");
            }
            tabs.set(dest.tabIndex(), d.withTree(placed, id, false));
            destId = d.id();
        } else {
            destId = "tab_" + hex16.get();
            tabs.add(new Tab(destId, TabKind.PANES, null, new Node.Leaf(id), id, false));
            events.add(event("tab.created", "workspace_id", w.id(), "tab_id", destId, "kind", TabKind.PANES.wire()));
        }
        // Events in the order a mirror can apply them: the destination exists, the pane
        // moves, then the emptied source tab goes.
        events.add(event("pane.moved", "pane", id, "terminal_id", s.panes().get(id).terminalId(), "workspace_id",
                w.id(), "from_tab_id", at.tab().id(), "to_tab_id", destId));
        if (rest == null) {
            tabs.remove(at.tabIndex());
            events.add(event("tab.closed", "workspace_id", w.id(), "tab_id", at.tab().id()));
        } else {
            tabs.set(at.tabIndex(), at.tab().withTree(rest, focusAfterRemoval(at.tab(), rest, id), false));
        }
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        Workspace r = w.withTabs(tabs, destId);
        ws.set(at.workspaceIndex(), r);
        Topology n = next(s, ws, w.id(), s.panes(), s.nextPane());
        return new Change<>(n, events, new PaneMove(id, at.workspaceIndex(), r.tabIndex(destId) + 1, destId));
    }

    /** Exchanges two panes' places in their (shared) tab; focus stays with the same pane id. */
    public Change<Void> swapPanes(Topology s, String paneA, String paneB) {
        if (paneA == null || paneB == null) {
            throw invalid("with", "missing", "pane.swap needs both panes");
        }
        Topology.Location a = pane(s, paneA);
        Topology.Location b = pane(s, paneB);
        if (!a.tab().id().equals(b.tab().id())) {
            throw invalid("with", "other_tab", "pane.swap needs both panes in the same tab");
        }
        if (paneA.equals(paneB)) {
            throw invalid("with", "same_pane", "a pane cannot swap with itself");
        }
        String tmp = "\u0000swap";
        Node root = replaceLeaf(a.tab().root(), paneA, new Node.Leaf(tmp));
        root = replaceLeaf(root, paneB, new Node.Leaf(paneA));
        root = replaceLeaf(root, tmp, new Node.Leaf(paneB));
        return new Change<>(withTab(s, a, a.tab().withTree(root, a.tab().focused(), false)), List.of(event("pane.swapped",
                "pane", paneA, "with", paneB, "workspace_id", a.workspace().id(), "tab_id", a.tab().id())), null);
    }

    /** Focuses a pane: its tab, workspace and the pane itself become active. Zoom ends when the focus moves. */
    public Change<Void> focusPane(Topology s, String paneId) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
        if (id.equals(s.focusedPane().orElse(null))) {
            return new Change<>(s, List.of(), null);
        }
        boolean zoom = at.tab().zoomed() && id.equals(at.tab().focused());
        Tab t = at.tab().withTree(at.tab().root(), id, zoom);
        List<Tab> tabs = new ArrayList<>(at.workspace().tabs());
        tabs.set(at.tabIndex(), t);
        List<Workspace> ws = new ArrayList<>(s.workspaces());
        ws.set(at.workspaceIndex(), at.workspace().withTabs(tabs, t.id()));
        return new Change<>(next(s, ws, at.workspace().id(), s.panes(), s.nextPane()), paneFocused(at, id), null);
    }

    /** The neighbor by {@link Geometry#neighbor}; inspects only. */
    public static Optional<String> neighbor(Topology s, String paneId, Direction d) {
        Topology.Location at = pane(s, paneId);
        return Geometry.neighbor(at.tab().root(), paneId != null ? paneId : at.tab().focused(), d);
    }

    /** Moves the focus to the neighbor in a direction; unchanged (empty result) when there is none. */
    public Change<Optional<String>> focusDirection(Topology s, String paneId, Direction d) {
        Optional<String> n = neighbor(s, paneId, d);
        if (n.isEmpty()) {
            return new Change<>(s, List.of(), n);
        }
        Change<Void> f = focusPane(s, n.get());
        return new Change<>(f.state(), f.events(), n);
    }

    /** A pane's rectangle in the normalized area. */
    public static Rect rect(Topology s, String paneId) {
        Topology.Location at = pane(s, paneId);
        return Geometry.rects(at.tab().root()).get(paneId != null ? paneId : at.tab().focused());
    }

    /**
     * Grows a pane towards {@code direction} by {@code cells} reference cells (negative
     * shrinks) by moving its border on that side: the nearest enclosing split along that
     * axis where the pane lies on the near side. The ratio is clamped by
     * {@link Geometry#clampRatio}, so every pane on both sides keeps the minimum extent. A pane that touches the outer edge on that side has no
     * such border: {@code invalid_request}.
     */
    public Change<Void> resize(Topology s, String paneId, Direction direction, int cells) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
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
        return new Change<>(withTab(s, at, at.tab().withTree(root, at.tab().focused(), at.tab().zoomed())), layoutChanged(at),
                null);
    }

    private static Node at(Node root, String path) {
        Node n = root;
        for (char c : path.toCharArray()) {
            Node.Split s = (Node.Split) n;
            n = c == 'a' ? s.a() : s.b();
        }
        return n;
    }

    private static Node withRatio(Node n, String path, double ratio) {
        Node.Split s = (Node.Split) n;
        if (path.isEmpty()) {
            return s.withRatio(ratio);
        }
        String rest = path.substring(1);
        return path.charAt(0) == 'a' ? new Node.Split(s.axis(), s.ratio(), withRatio(s.a(), rest, ratio), s.b())
                : new Node.Split(s.axis(), s.ratio(), s.a(), withRatio(s.b(), rest, ratio));
    }

    /** Zooms or unzooms a pane (null {@code on}: toggles); zooming focuses it in its tab. */
    public Change<Boolean> zoom(Topology s, String paneId, Boolean on) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
        boolean now = at.tab().zoomed() && id.equals(at.tab().focused());
        boolean want = on == null ? !now : on;
        if (want == now) {
            return new Change<>(s, List.of(), now);
        }
        Tab t = at.tab().withTree(at.tab().root(), want ? id : at.tab().focused(), want);
        return new Change<>(withTab(s, at, t), layoutChanged(at), want);
    }

    /** Sets a pane's name (≤ 40 after trimming; empty clears it). */
    public Change<Void> renamePane(Topology s, String paneId, String name) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
        String n = label("name", name, Topology.MAX_NAME, true);
        return new Change<>(withPane(s, s.panes().get(id).withName(n)), List.of(eventWithNulls("pane.renamed", "pane", id,
                "name", n)), null);
    }

    /** Sets (trimmed, one line, ≤ 60 code points, non-empty) or clears a pane's purpose — exactly one. */
    public Change<String> purpose(Topology s, String paneId, String purpose, boolean clear) {
        Topology.Location at = pane(s, paneId);
        String id = paneId != null ? paneId : at.tab().focused();
        if ((purpose != null) == clear) {
            throw invalid("purpose", "exactly_one", "pass exactly one of purpose or clear:true");
        }
        String p = clear ? null : label("purpose", purpose, Topology.MAX_PURPOSE, false);
        return new Change<>(withPane(s, s.panes().get(id).withPurpose(p)), List.of(eventWithNulls("pane.purpose_changed",
                "pane", id, "purpose", p)), p);
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

    // ---------------------------------------------------------------- layouts

    /** A tab's tree and focused pane. */
    public record LayoutView(String tabId, Node root, String focused, boolean zoomed) {
    }

    private static Topology.Location layoutTab(Topology s, String tabId) {
        Topology.Location at;
        if (tabId == null) {
            Workspace w = activeWorkspace(s);
            if (w.activeTab() == null) {
                throw missing("tab", "the active workspace has no tab");
            }
            at = s.locateTab(w.activeTab()).orElseThrow();
        } else {
            at = tab(s, tabId);
        }
        paneTab(at.tab(), "tab");
        return at;
    }

    /** The whole tree of a pane tab (null: the active tab of the active workspace). */
    public static LayoutView exportLayout(Topology s, String tabId) {
        Topology.Location at = layoutTab(s, tabId);
        return new LayoutView(at.tab().id(), at.tab().root(), at.tab().focused(), at.tab().zoomed());
    }

    /**
     * Replaces a pane tab's tree with one holding exactly its current panes (checked by
     * {@link Layouts#validate} before anything else), optionally focusing one of them.
     * Ratios are clamped top-down by {@link Geometry#clampRatio} so every subtree keeps the
     * room its panes need (a tree too dense for the area is shared in proportion to the
     * needs). Never adds or removes a pane. Zoom ends.
     */
    public Change<LayoutView> applyLayout(Topology s, String tabId, Node root, String focus) {
        Topology.Location at = layoutTab(s, tabId);
        Set<String> current = new HashSet<>(Topology.leaves(at.tab().root()));
        Layouts.validate(root, current);
        if (focus != null && !current.contains(focus)) {
            throw invalid("focus", "foreign_pane", "focus must be a pane of this tab");
        }
        Node clamped = clampAll(root, new Rect(0, 0, Topology.AREA, Topology.AREA));
        Tab t = at.tab().withTree(clamped, focus != null ? focus : at.tab().focused(), false);
        return new Change<>(withTab(s, at, t), layoutChanged(at), new LayoutView(t.id(), t.root(), t.focused(), false));
    }

    private static Node clampAll(Node n, Rect r) {
        if (n instanceof Node.Split s) {
            Node.Split c = s.withRatio(Geometry.clampRatio(s, s.ratio(), Geometry.extent(r, s.axis())));
            Rect[] parts = Geometry.divide(c, r);
            return new Node.Split(c.axis(), c.ratio(), clampAll(s.a(), parts[0]), clampAll(s.b(), parts[1]));
        }
        return n;
    }

    /**
     * Sets the ratio of the split at a root-relative path of {@code a}/{@code b} steps
     * (empty: the root), clamped by {@link Geometry#clampRatio} so every pane on both sides
     * keeps the minimum size. The result is the stored ratio.
     */
    public Change<Double> setSplitRatio(Topology s, String tabId, List<String> path, double ratio) {
        Topology.Location at = layoutTab(s, tabId);
        if (path == null) {
            throw invalid("path", "missing", "path is required");
        }
        if (path.size() > Topology.MAX_DEPTH) {
            throw invalid("path", "too_deep", "path has at most " + Topology.MAX_DEPTH + " steps");
        }
        Layouts.checkRatio("ratio", ratio);
        Node n = at.tab().root();
        Rect r = new Rect(0, 0, Topology.AREA, Topology.AREA);
        StringBuilder p = new StringBuilder();
        for (String step : path) {
            if (!"a".equals(step) && !"b".equals(step)) {
                throw invalid("path", "invalid_step", "path steps are \"a\" or \"b\"");
            }
            if (!(n instanceof Node.Split sp)) {
                throw missing("path", "path " + path + " leads past a pane");
            }
            Rect[] parts = Geometry.divide(sp, r);
            r = step.equals("a") ? parts[0] : parts[1];
            n = step.equals("a") ? sp.a() : sp.b();
            p.append(step);
        }
        if (!(n instanceof Node.Split sp)) {
            throw missing("path", "path " + path + " names a pane, not a split");
        }
        double clamped = Geometry.clampRatio(sp, ratio, Geometry.extent(r, sp.axis()));
        Node root = withRatio(at.tab().root(), p.toString(), clamped);
        return new Change<>(withTab(s, at, at.tab().withTree(root, at.tab().focused(), at.tab().zoomed())), layoutChanged(at),
                clamped);
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
    private Change<String> addPaneTab(Topology s, Workspace w, Pane p, boolean focus) {
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
