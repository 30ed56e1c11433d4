package io.artuditu.topology.internal;

import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Rect;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.topology.internal.rules.WorkspaceOps;
import java.util.List;

/**
 * What the topology families share: the rows their results are made of (a workspace, a
 * tab, a pane, as {@code workspace.list}, {@code tab.list} and {@code pane.list} show them)
 * and the readers of schema-checked params.
 */
final class Rows {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Rows() {
    }

    static ObjectNode ok() {
        return F.objectNode().put("type", "ok");
    }

    // ------------------------------------------------------------------ params

    static Integer integer(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.intValue();
    }

    static String text(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.textValue();
    }

    static Boolean bool(ObjectNode p, String name) {
        JsonNode v = p.get(name);
        return v == null || v.isNull() ? null : v.booleanValue();
    }

    static Direction direction(ObjectNode p) {
        String d = text(p, "direction");
        return d == null ? null : Direction.of(d).orElseThrow(() -> invalid("direction", "invalid", "unknown direction " + d));
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
                .put("pinned", w.pinned()).put("display_position", WorkspaceOps.displayPositions(s).get(index))
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

    static ObjectNode rect(Rect r) {
        return F.objectNode().put("x", r.x()).put("y", r.y()).put("width", r.width()).put("height", r.height());
    }

    /** A pane as {@code pane.list} and {@code pane.get} show it. */
    static ObjectNode paneRow(Topology s, String paneId, ObjectNode o) {
        Topology.Location at = s.locate(paneId).orElseThrow();
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

    /** The active workspace's index, or JSON null when there is none. */
    static JsonNode activeIndex(Topology s) {
        return s.activeWorkspace() == null ? F.nullNode() : F.numberNode(s.workspaceIndex(s.activeWorkspace()));
    }

    static ArrayNode strings(List<String> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }
}
