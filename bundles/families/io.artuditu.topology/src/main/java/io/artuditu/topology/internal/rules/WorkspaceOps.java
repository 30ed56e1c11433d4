package io.artuditu.topology.internal.rules;

import static io.artuditu.model.topology.Lifecycle.label;
import static io.artuditu.model.topology.Lifecycle.oneLine;
import static io.artuditu.model.topology.Lifecycle.trimTo;
import static io.artuditu.uhp.api.UhpException.invalid;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.UhpException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workspace family's rules: focus, rename, pin, reported metadata, moves and close,
 * each a pure function of a {@link Topology} returning a {@link Change}. Opening a
 * workspace is {@link TopologyOps#openWorkspace}, the one path every creation takes.
 */
public final class WorkspaceOps {
    WorkspaceOps() {
    }

    public Change<Void> focus(Topology s, String wsId) {
        s.requireWorkspace(wsId);
        if (wsId.equals(s.activeWorkspace())) {
            return new Change<>(s, List.of(), null);
        }
        return new Change<>(s.next(s.workspaces(), wsId, s.panes(), s.nextPane()),
                List.of(Lifecycle.workspaceFocused(wsId)), null);
    }

    /** The workspace at a 0-based API index; out of range is {@code not_found}, as the spec says. */
    private static Workspace workspaceAt(Topology s, int index) {
        if (index < 0 || index >= s.workspaces().size()) {
            throw UhpException.notFound("workspace", Integer.toString(index), "workspace", "no workspace at index " + index);
        }
        return s.workspaces().get(index);
    }

    /** Changes the display label only; never touches the folder. */
    public Change<Workspace> rename(Topology s, String wsId, String name) {
        Workspace w = s.requireWorkspace(wsId);
        String n = label("name", name, Topology.MAX_NAME, false);
        Workspace r = new Workspace(w.id(), n, w.cwd(), w.pinned(), w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), r),
                List.of(TopologyEvent.of("workspace.renamed", "workspace_id", wsId, "name", n)), r);
    }

    /** Pins or unpins: display order only, never the API index or the focus. */
    public Change<Workspace> pin(Topology s, String wsId, boolean pinned) {
        Workspace w = s.requireWorkspace(wsId);
        Workspace r = new Workspace(w.id(), w.name(), w.cwd(), pinned, w.tabs(), w.activeTab(), w.metadata());
        return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), r),
                List.of(TopologyEvent.of("workspace.pinned", "workspace_id", wsId, "pinned", pinned)), r);
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
        Workspace w = s.requireWorkspace(wsId);
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
        return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), r),
                List.of(Lifecycle.workspaceMetadataChanged(wsId, r.metadata())), r);
    }

    /** The workspace metadata key naming a worktree group (set by the worktrees family's worktree.open). */
    public static final String GROUP_METADATA = "worktree_group";

    /**
     * The sidebar's display order. Workspaces carrying the same {@value #GROUP_METADATA}
     * metadata (the worktrees of one repository) form a group shown together, at the place of
     * its first member, members in API order; a workspace without it is a group of its own. A
     * group with any pinned member floats whole: pinned groups first, then the others, each
     * part in API order of the groups' first members. Returns the 0-based display position of
     * each workspace, by API index.
     */
    public static List<Integer> displayPositions(Topology s) {
        List<Workspace> ws = s.workspaces();
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < ws.size(); i++) {
            Object g = ws.get(i).metadata().get(GROUP_METADATA);
            String key = g instanceof String str && !str.isEmpty() ? "g:" + str : "w:" + ws.get(i).id();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        Integer[] out = new Integer[ws.size()];
        int p = 0;
        for (boolean pinnedPart : new boolean[] {true, false}) {
            for (List<Integer> members : groups.values()) {
                boolean pinned = members.stream().anyMatch(i -> ws.get(i).pinned());
                if (pinned == pinnedPart) {
                    for (int i : members) {
                        out[i] = p++;
                    }
                }
            }
        }
        return List.of(out);
    }

    /** The single-workspace form of {@link #moves}. */
    public Change<Void> move(Topology s, int from, int to) {
        return moveBlock(s, List.of(from), to);
    }

    /**
     * Moves a block of workspaces (given by 0-based index, in the order they should keep)
     * so the block starts at final position {@code to}. Every index is checked first:
     * duplicates and an empty or over-long list are {@code invalid_request}, an
     * out-of-range index {@code not_found}; {@code to} must leave room for the block. The
     * active workspace stays active.
     */
    public Change<Void> moveBlock(Topology s, List<Integer> block, int to) {
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
                events.add(TopologyEvent.of("workspace.moved", "workspace_id", w.id(), "from", from, "to", i));
            }
        }
        return new Change<>(s.next(rest, s.activeWorkspace(), s.panes(), s.nextPane()), events, null);
    }

    /**
     * Removes a workspace with its tabs and panes. The result lists the removed panes,
     * whose processes the caller ends. The next workspace (or the previous, at the end)
     * becomes active if this one was.
     */
    public Change<List<String>> close(Topology s, String wsId) {
        Workspace w = s.requireWorkspace(wsId);
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
            events.add(Lifecycle.tabClosed(wsId, t.id()));
        }
        events.add(TopologyEvent.of("workspace.closed", "workspace_id", wsId));
        Map<String, Pane> panes = new LinkedHashMap<>(s.panes());
        panes.keySet().removeAll(gone);
        return new Change<>(s.next(ws, active, panes, s.nextPane()), events, gone);
    }
}
