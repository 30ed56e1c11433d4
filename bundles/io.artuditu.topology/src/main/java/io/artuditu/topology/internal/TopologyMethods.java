package io.artuditu.topology.internal;

import static io.artuditu.workspace.topology.TopologyException.invalid;
import static io.artuditu.workspace.topology.TopologyException.missing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.workspace.Workspaces;
import io.artuditu.workspace.topology.Change;
import io.artuditu.workspace.topology.Direction;
import io.artuditu.workspace.topology.Geometry;
import io.artuditu.workspace.topology.Layouts;
import io.artuditu.workspace.topology.Node;
import io.artuditu.workspace.topology.Pane;
import io.artuditu.workspace.topology.Rect;
import io.artuditu.workspace.topology.Tab;
import io.artuditu.workspace.topology.TabKind;
import io.artuditu.workspace.topology.Topology;
import io.artuditu.workspace.topology.TopologyOps;
import io.artuditu.workspace.topology.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The handlers of every topology method. Each one reads its params (already checked
 * against the contract's schema), resolves positions and ids against the state the
 * operation runs on, and runs exactly one {@link TopologyOps} operation through
 * {@link Workspaces#change} (reads use {@link Workspaces#topology} and never change focus).
 * A result that depends on the state after the change (a display position, a final tab
 * position) is built inside the operation from the new state, so it is exact even when
 * other changes follow. See {@code docs/protocol/workspaces.md}, {@code tabs.md},
 * {@code panes.md}, {@code layouts.md}.
 */
final class TopologyMethods {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Workspaces workspaces;

    TopologyMethods(Workspaces workspaces) {
        this.workspaces = workspaces;
    }

    // ------------------------------------------------------------------ running

    private <T> T change(Workspaces.Operation<T> op) {
        try {
            return workspaces.change(op);
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "the pane's process could not be started: " + e.getMessage(),
                    Map.of("reason", "spawn_failed"));
        }
    }

    /** An accepted change whose answer is built from the state it produced. */
    private static <T, R> Change<R> then(Change<T> c, BiFunction<Topology, T, R> result) {
        return new Change<>(c.state(), c.events(), result.apply(c.state(), c.result()));
    }

    private static ObjectNode ok() {
        return F.objectNode().put("type", "ok");
    }

    // ------------------------------------------------------------------ params

    private static Integer integer(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.intValue();
    }

    private static String text(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.textValue();
    }

    private static Boolean bool(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.booleanValue();
    }

    private static Direction direction(ObjectNode p) {
        String d = text(p, "direction");
        return d == null ? null : Direction.of(d).orElseThrow(() -> invalid("direction", "invalid", "unknown direction " + d));
    }

    /**
     * The workspace a request names by 0-based {@code workspace} or by {@code workspace_id}
     * (not both); without either, the active one unless {@code required}.
     */
    static Workspace workspace(Topology s, ObjectNode p, boolean required) {
        Integer index = integer(p, "workspace");
        String id = text(p, "workspace_id");
        if (index != null && id != null) {
            throw invalid("workspace_id", "mixed", "pass workspace or workspace_id, not both");
        }
        if (index != null) {
            return TopologyOps.workspaceAt(s, index);
        }
        if (id != null) {
            return TopologyOps.workspace(s, id);
        }
        if (required) {
            throw invalid("workspace", "missing", "workspace or workspace_id is required");
        }
        return s.active().orElseThrow(() -> missing("workspace", "there is no workspace"));
    }

    /**
     * The tab a request names by 1-based {@code tab} (in the named or active workspace) or by
     * {@code tab_id}; without either, the workspace's active tab unless {@code required}.
     */
    static Topology.Location tab(Topology s, ObjectNode p, String posField, String idField, boolean required) {
        Integer pos = integer(p, posField);
        String id = text(p, idField);
        if (pos != null && id != null) {
            throw invalid(idField, "mixed", "pass " + posField + " or " + idField + ", not both");
        }
        if (id != null) {
            Topology.Location at = TopologyOps.tab(s, id);
            if ((p.has("workspace") || p.has("workspace_id"))
                    && !workspace(s, p, false).id().equals(at.workspace().id())) {
                throw invalid(idField, "other_workspace", "tab " + id + " is not in the named workspace");
            }
            return at;
        }
        Workspace w = workspace(s, p, false);
        Tab t;
        if (pos != null) {
            t = TopologyOps.tabAt(w, pos);
        } else if (required) {
            throw invalid(posField, "missing", posField + " or " + idField + " is required");
        } else {
            if (w.activeTab() == null) {
                throw missing(posField, "the workspace has no tab");
            }
            t = w.tabs().get(w.tabIndex(w.activeTab()));
        }
        return s.locateTab(t.id()).orElseThrow();
    }

    // ------------------------------------------------------------------ rows

    static ObjectNode tabRow(Workspace w, int index, ObjectNode o) {
        Tab t = w.tabs().get(index);
        o.put("tab_id", t.id()).put("tab", index + 1).put("kind", t.kind().wire()).put("name", t.label())
                .put("active", t.id().equals(w.activeTab())).put("focused", t.focused()).put("zoomed", t.zoomed());
        ArrayNode panes = o.putArray("panes");
        if (t.root() != null) {
            Topology.leaves(t.root()).forEach(panes::add);
        }
        return o;
    }

    static ObjectNode workspaceRow(Topology s, int index, ObjectNode o) {
        Workspace w = s.workspaces().get(index);
        o.put("workspace_id", w.id()).put("workspace", index).put("name", w.name()).put("cwd", w.cwd().toString())
                .put("pinned", w.pinned()).put("display_position", TopologyOps.displayPositions(s).get(index))
                .put("active", w.id().equals(s.activeWorkspace()));
        o.set("metadata", metadata(w));
        ArrayNode tabs = o.putArray("tabs");
        for (int i = 0; i < w.tabs().size(); i++) {
            tabs.add(tabRow(w, i, F.objectNode()));
        }
        return o;
    }

    /** A workspace's reported metadata as a JSON object, sorted by key. */
    static ObjectNode metadata(Workspace w) {
        ObjectNode o = F.objectNode();
        w.metadata().forEach((k, v) -> {
            if (v instanceof String t) {
                o.put(k, t);
            } else if (v instanceof Long l) {
                o.put(k, l);
            } else {
                o.put(k, (Boolean) v);
            }
        });
        return o;
    }

    /** The fields workspace.rename and workspace.pin answer with. */
    static ObjectNode workspaceInfo(Topology s, String type, String wsId) {
        int i = s.workspaceIndex(wsId);
        Workspace w = s.workspaces().get(i);
        return F.objectNode().put("type", type).put("workspace", i).put("name", w.name()).put("cwd", w.cwd().toString())
                .put("pinned", w.pinned()).put("display_position", TopologyOps.displayPositions(s).get(i));
    }

    static ObjectNode rect(Rect r) {
        return F.objectNode().put("x", r.x()).put("y", r.y()).put("width", r.width()).put("height", r.height());
    }

    static ObjectNode paneRow(Topology s, String paneId, ObjectNode o) {
        Topology.Location at = s.locate(paneId).orElseThrow(() -> missing("pane", "no such pane: " + paneId));
        Pane p = s.panes().get(paneId);
        Tab t = at.tab();
        o.put("pane", paneId).put("terminal_id", p.terminalId()).put("workspace", at.workspaceIndex())
                .put("workspace_id", at.workspace().id()).put("tab", at.tabIndex() + 1).put("tab_id", t.id())
                .put("name", p.name()).put("purpose", p.purpose()).put("cwd", p.cwd().toString())
                .put("focused", paneId.equals(t.focused()))
                .put("current", paneId.equals(s.focusedPane().orElse(null)))
                .put("zoomed", t.zoomed() && paneId.equals(t.focused()));
        o.set("rect", rect(Geometry.rects(t.root()).get(paneId)));
        return o;
    }

    private static Integer activeIndex(Topology s) {
        return s.activeWorkspace() == null ? null : s.workspaceIndex(s.activeWorkspace());
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }

    /** The pane a request means: its {@code pane}, else the focused pane (resolved, so its id). */
    private static String paneId(Topology s, String raw) {
        Topology.Location at = TopologyOps.pane(s, raw);
        return raw != null ? raw : at.tab().focused();
    }

    // ------------------------------------------------------------------ workspace.*

    ObjectNode workspaceList(Call call) {
        Topology s = workspaces.topology();
        ObjectNode o = call.newObject().put("type", "workspace_list");
        ArrayNode rows = o.putArray("workspaces");
        for (int i = 0; i < s.workspaces().size(); i++) {
            rows.add(workspaceRow(s, i, call.newObject()));
        }
        Integer active = activeIndex(s);
        if (active == null) {
            o.putNull("active");
        } else {
            o.put("active", active);
        }
        return o;
    }

    ObjectNode workspaceGet(Call call) {
        Topology s = workspaces.topology();
        Workspace w = workspace(s, call.params(), false);
        return workspaceRow(s, s.workspaceIndex(w.id()), call.newObject().put("type", "workspace"));
    }

    ObjectNode workspaceOpen(Call call) {
        ObjectNode p = call.params();
        String cwd = text(p, "cwd");
        String name = text(p, "name");
        return change((s, ops, sp) -> {
            Path folder;
            try {
                folder = Path.of(cwd);
            } catch (java.nio.file.InvalidPathException e) {
                throw invalid("cwd", "malformed", "cwd is not a valid path");
            }
            return then(ops.openWorkspace(s, folder, name, sp), (n, id) -> {
                Workspace w = n.workspace(id).orElseThrow();
                return F.objectNode().put("type", "workspace_open").put("workspace_id", id)
                        .put("workspace", n.workspaceIndex(id)).put("name", w.name()).put("cwd", w.cwd().toString())
                        .put("tab_id", w.activeTab()).put("pane", w.tabs().get(0).focused());
            });
        });
    }

    ObjectNode workspaceFocus(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> then(ops.focusWorkspace(s, workspace(s, p, true).id()), (n, r) -> ok()));
    }

    ObjectNode workspaceRename(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> then(ops.renameWorkspace(s, workspace(s, p, true).id(), text(p, "name")),
                (n, w) -> workspaceInfo(n, "workspace_rename", w.id())));
    }

    ObjectNode workspacePin(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> then(ops.pinWorkspace(s, workspace(s, p, true).id(), bool(p, "pinned")),
                (n, w) -> workspaceInfo(n, "workspace_pin", w.id())));
    }

    ObjectNode workspaceReportMetadata(Call call) {
        ObjectNode p = call.params();
        Map<String, Object> entries = new LinkedHashMap<>();
        p.get("metadata").fields().forEachRemaining(e -> entries.put(e.getKey(), metadataValue(e.getKey(), e.getValue())));
        boolean replace = Boolean.TRUE.equals(bool(p, "replace"));
        return change((s, ops, sp) -> {
            Workspace before = workspace(s, p, true);
            return then(ops.reportMetadata(s, before.id(), entries, replace), (n, w) -> F.objectNode()
                    .put("type", "workspace_metadata").put("workspace", n.workspaceIndex(w.id())).put("workspace_id", w.id())
                    .<ObjectNode>set("metadata", metadata(w)).put("changed", n != s));
        });
    }

    /** A metadata value as the model holds it: String, Long, Boolean, or null to remove. */
    private static Object metadataValue(String key, JsonNode v) {
        if (v.isNull()) {
            return null;
        } else if (v.isTextual()) {
            return v.textValue();
        } else if (v.isBoolean()) {
            return v.booleanValue();
        } else if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        throw invalid("metadata", "bad_value", "metadata value " + TopologyMethods.clip(key)
                + " must be a string, a 64-bit integer, a boolean or null");
    }

    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }

    ObjectNode workspaceMove(Call call) {
        ObjectNode p = call.params();
        int to = integer(p, "to");
        return change((s, ops, sp) -> {
            Integer from = integer(p, "from");
            String id = text(p, "workspace_id");
            if ((from == null) == (id == null)) {
                throw invalid("from", from == null ? "missing" : "mixed", "pass exactly one of from and workspace_id");
            }
            int f = from != null ? from : s.workspaceIndex(TopologyOps.workspace(s, id).id());
            return then(ops.moveWorkspace(s, f, to), (n, r) -> F.objectNode().put("type", "workspace_move")
                    .put("from", f).put("to", to).set("active", activeNode(n)));
        });
    }

    private static JsonNode activeNode(Topology n) {
        Integer a = activeIndex(n);
        return a == null ? F.nullNode() : F.numberNode(a);
    }

    ObjectNode workspaceMoveBlock(Call call) {
        ObjectNode p = call.params();
        List<Integer> block = new ArrayList<>();
        p.get("workspaces").forEach(v -> block.add(v.intValue()));
        int to = integer(p, "to");
        return change((s, ops, sp) -> {
            List<String> ids = new ArrayList<>();
            Change<Void> c = ops.moveWorkspaces(s, block, to);
            block.forEach(i -> ids.add(s.workspaces().get(i).id()));
            return then(c, (n, r) -> {
                ObjectNode o = F.objectNode().put("type", "workspace_move_block");
                ArrayNode now = o.putArray("workspaces");
                ids.forEach(id -> now.add(n.workspaceIndex(id)));
                return o.put("to", to).set("active", activeNode(n));
            });
        });
    }

    ObjectNode workspaceClose(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = workspace(s, p, true).id();
            return then(ops.closeWorkspace(s, id), (n, gone) -> {
                ObjectNode o = F.objectNode().put("type", "workspace_close").put("workspace_id", id);
                o.set("closed_panes", strings(gone));
                return o;
            });
        });
    }

    // ------------------------------------------------------------------ tab.*

    ObjectNode tabList(Call call) {
        Topology s = workspaces.topology();
        Workspace w = workspace(s, call.params(), false);
        ObjectNode o = call.newObject().put("type", "tab_list").put("workspace", s.workspaceIndex(w.id()))
                .put("workspace_id", w.id());
        ArrayNode rows = o.putArray("tabs");
        for (int i = 0; i < w.tabs().size(); i++) {
            rows.add(tabRow(w, i, call.newObject()));
        }
        return o;
    }

    ObjectNode tabGet(Call call) {
        Topology s = workspaces.topology();
        Topology.Location at = tab(s, call.params(), "tab", "tab_id", false);
        return tabRow(at.workspace(), at.tabIndex(), call.newObject().put("type", "tab")
                .put("workspace", at.workspaceIndex()).put("workspace_id", at.workspace().id()));
    }

    ObjectNode tabNew(Call call) {
        ObjectNode p = call.params();
        String k = text(p, "kind");
        TabKind kind = k == null ? TabKind.PANES
                : TabKind.of(k).orElseThrow(() -> invalid("kind", "invalid", "unknown tab kind " + k));
        return change((s, ops, sp) -> {
            Workspace w = workspace(s, p, false);
            return then(ops.newTab(s, w.id(), kind, text(p, "name"), sp), (n, tabId) -> {
                Topology.Location at = n.locateTab(tabId).orElseThrow();
                return F.objectNode().put("type", "tab_new").put("workspace", at.workspaceIndex())
                        .put("workspace_id", w.id()).put("tab", at.tabIndex() + 1).put("tab_id", tabId)
                        .put("kind", kind.wire()).put("pane", at.tab().focused());
            });
        });
    }

    ObjectNode tabFocus(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> then(ops.focusTab(s, tab(s, p, "tab", "tab_id", true).tab().id()), (n, r) -> ok()));
    }

    ObjectNode tabMove(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            Integer pos = integer(p, "tab");
            String wsId;
            if (text(p, "tab_id") != null) {
                Topology.Location at = tab(s, p, "tab", "tab_id", true);
                wsId = at.workspace().id();
                pos = at.tabIndex() + 1;
            } else {
                wsId = workspace(s, p, false).id();
            }
            return then(ops.moveTab(s, wsId, pos, integer(p, "to"), direction(p)), (n, m) -> F.objectNode()
                    .put("type", "tab_move").put("from", m.from()).put("to", m.to()).put("active", m.active()));
        });
    }

    ObjectNode tabSwap(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            Topology.Location a = tab(s, p, "tab", "tab_id", true);
            Topology.Location b = tab(s, p, "with", "with_tab_id", true);
            if (!a.workspace().id().equals(b.workspace().id())) {
                throw invalid("with_tab_id", "other_workspace", "both tabs must be in the same workspace");
            }
            return then(ops.swapTabs(s, a.workspace().id(), a.tabIndex() + 1, b.tabIndex() + 1), (n, m) -> F.objectNode()
                    .put("type", "tab_swap").put("tab", m.from()).put("with", m.to()).put("active", m.active()));
        });
    }

    ObjectNode tabRename(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String wsId;
            Integer pos = integer(p, "tab");
            if (text(p, "tab_id") != null) {
                Topology.Location at = tab(s, p, "tab", "tab_id", true);
                wsId = at.workspace().id();
                pos = at.tabIndex() + 1;
            } else {
                wsId = workspace(s, p, false).id();
            }
            return then(ops.renameTab(s, wsId, pos, text(p, "name")), (n, r) -> ok());
        });
    }

    ObjectNode tabClose(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = tab(s, p, "tab", "tab_id", true).tab().id();
            return then(ops.closeTab(s, id), (n, gone) -> {
                ObjectNode o = F.objectNode().put("type", "tab_close").put("tab_id", id);
                o.set("closed_panes", strings(gone));
                return o;
            });
        });
    }

    // ------------------------------------------------------------------ pane.* (topology)

    ObjectNode paneList(Call call) {
        Topology s = workspaces.topology();
        Topology.Location at = tab(s, call.params(), "tab", "tab_id", false);
        if (at.tab().kind().dashboard()) {
            throw invalid("tab", "dashboard", "the " + at.tab().kind().wire() + " dashboard has no panes");
        }
        ObjectNode o = call.newObject().put("type", "pane_list").put("workspace", at.workspaceIndex())
                .put("workspace_id", at.workspace().id()).put("tab", at.tabIndex() + 1).put("tab_id", at.tab().id());
        ArrayNode rows = o.putArray("panes");
        for (String id : Topology.leaves(at.tab().root())) {
            rows.add(paneRow(s, id, call.newObject()));
        }
        return o;
    }

    ObjectNode paneGet(Call call) {
        Topology s = workspaces.topology();
        return paneRow(s, paneId(s, text(call.params(), "pane")), call.newObject().put("type", "pane"));
    }

    ObjectNode paneCurrent(Call call) {
        Topology s = workspaces.topology();
        String id = s.focusedPane().orElseThrow(() -> missing("pane", "there is no focused pane"));
        return paneRow(s, id, call.newObject().put("type", "pane"));
    }

    ObjectNode paneLayout(Call call) {
        Topology s = workspaces.topology();
        String id = paneId(s, text(call.params(), "pane"));
        ObjectNode o = call.newObject().put("type", "pane_layout").put("pane", id).put("area", Topology.AREA);
        o.set("rect", rect(TopologyOps.rect(s, id)));
        return o;
    }

    ObjectNode paneNeighbor(Call call) {
        Topology s = workspaces.topology();
        String id = paneId(s, text(call.params(), "pane"));
        Optional<String> n = TopologyOps.neighbor(s, id, direction(call.params()));
        return call.newObject().put("type", "pane_neighbor").put("pane", id).put("neighbor", n.orElse(null));
    }

    ObjectNode paneEdges(Call call) {
        Topology s = workspaces.topology();
        String id = paneId(s, text(call.params(), "pane"));
        ObjectNode o = call.newObject().put("type", "pane_edges").put("pane", id);
        ArrayNode edges = o.putArray("edges");
        Geometry.edges(TopologyOps.rect(s, id)).forEach(d -> edges.add(d.wire()));
        return o;
    }

    ObjectNode paneSplit(Call call) {
        ObjectNode p = call.params();
        Boolean focus = bool(p, "focus");
        return change((s, ops, sp) -> {
            String from = paneId(s, text(p, "pane"));
            return then(ops.split(s, from, direction(p), focus == null || focus, sp), (n, id) -> {
                Topology.Location at = n.locate(id).orElseThrow();
                return F.objectNode().put("type", "pane_split").put("pane", id).put("from", from)
                        .put("terminal_id", n.panes().get(id).terminalId()).put("workspace", at.workspaceIndex())
                        .put("tab", at.tabIndex() + 1).put("tab_id", at.tab().id());
            });
        });
    }

    ObjectNode paneMove(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            Topology.Location src = s.locate(id).orElseThrow();
            Integer pos = integer(p, "tab");
            String tabId = text(p, "tab_id");
            if (pos != null && tabId != null) {
                throw invalid("tab_id", "mixed", "pass tab or tab_id, not both");
            }
            if (pos != null) {
                tabId = TopologyOps.tabAt(src.workspace(), pos).id();
            }
            boolean newTab = Boolean.TRUE.equals(bool(p, "new_tab"));
            return then(ops.movePane(s, id, tabId, newTab), (n, m) -> F.objectNode().put("type", "pane_move")
                    .put("pane", m.pane()).put("workspace", m.workspace()).put("tab", m.tab()));
        });
    }

    ObjectNode paneSwap(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String a = paneId(s, text(p, "pane"));
            String b = text(p, "with");
            return then(ops.swapPanes(s, a, b), (n, r) -> F.objectNode().put("type", "pane_swap").put("pane", a)
                    .put("with", b));
        });
    }

    ObjectNode paneFocus(Call call) {
        String id = text(call.params(), "pane");
        return change((s, ops, sp) -> then(ops.focusPane(s, id), (n, r) -> ok()));
    }

    ObjectNode paneFocusDirection(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.focusDirection(s, id, direction(p)), (n, moved) -> F.objectNode()
                    .put("type", "pane_focus_direction").put("pane", id).put("focused", moved.orElse(id))
                    .put("moved", moved.isPresent()));
        });
    }

    ObjectNode paneResize(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.resize(s, id, direction(p), integer(p, "cells")), (n, r) -> {
                ObjectNode o = F.objectNode().put("type", "pane_resize").put("pane", id);
                o.set("rect", rect(TopologyOps.rect(n, id)));
                return o;
            });
        });
    }

    ObjectNode paneZoom(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.zoom(s, id, bool(p, "on")), (n, z) -> F.objectNode().put("type", "pane_zoom")
                    .put("pane", id).put("zoomed", z));
        });
    }

    ObjectNode paneRename(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.renamePane(s, id, text(p, "name")), (n, r) -> F.objectNode().put("type", "pane_rename")
                    .put("pane", id).put("name", n.panes().get(id).name()));
        });
    }

    ObjectNode panePurpose(Call call) {
        ObjectNode p = call.params();
        boolean clear = Boolean.TRUE.equals(bool(p, "clear"));
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.purpose(s, id, text(p, "purpose"), clear), (n, v) -> F.objectNode()
                    .put("type", "pane_purpose").put("pane", id).put("purpose", v));
        });
    }

    ObjectNode paneClose(Call call) {
        ObjectNode p = call.params();
        return change((s, ops, sp) -> {
            String id = paneId(s, text(p, "pane"));
            return then(ops.removePane(s, id), (n, r) -> F.objectNode().put("type", "pane_close").put("pane", id));
        });
    }

    // ------------------------------------------------------------------ layout.*

    /** The tab id a layout request means (null: the active tab; the ops refuse dashboards). */
    private static String layoutTab(Topology s, ObjectNode p) {
        if (!p.has("tab") && !p.has("tab_id") && !p.has("workspace") && !p.has("workspace_id")) {
            return null;
        }
        return tab(s, p, "tab", "tab_id", false).tab().id();
    }

    ObjectNode layoutExport(Call call) {
        Topology s = workspaces.topology();
        TopologyOps.LayoutView v = TopologyOps.exportLayout(s, layoutTab(s, call.params()));
        ObjectNode o = call.newObject().put("type", "layout").put("tab_id", v.tabId());
        o.set("root", Layouts.toJson(v.root()));
        return o.put("focused", v.focused()).put("zoomed", v.zoomed());
    }

    ObjectNode layoutApply(Call call) {
        ObjectNode p = call.params();
        Node root = Layouts.fromJson(p.get("root"));
        String focus = text(p, "focus");
        return change((s, ops, sp) -> then(ops.applyLayout(s, layoutTab(s, p), root, focus), (n, v) -> {
            ObjectNode o = F.objectNode().put("type", "layout_apply").put("tab_id", v.tabId());
            o.set("root", Layouts.toJson(v.root()));
            return o.put("focused", v.focused());
        }));
    }

    ObjectNode layoutSetSplitRatio(Call call) {
        ObjectNode p = call.params();
        List<String> path = new ArrayList<>();
        p.get("path").forEach(v -> path.add(v.asText()));
        double ratio = p.get("ratio").doubleValue();
        return change((s, ops, sp) -> {
            String tabId = layoutTab(s, p);
            Change<Double> c = ops.setSplitRatio(s, tabId, path, ratio);
            String resolved = tabId != null ? tabId : TopologyOps.exportLayout(s, null).tabId();
            return then(c, (n, r) -> {
                ObjectNode o = F.objectNode().put("type", "layout_split_ratio").put("tab_id", resolved);
                o.set("path", strings(path));
                return o.put("ratio", r);
            });
        });
    }
}
