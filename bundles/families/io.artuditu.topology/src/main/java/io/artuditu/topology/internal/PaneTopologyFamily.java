package io.artuditu.topology.internal;

import static io.artuditu.topology.internal.Routes.then;
import static io.artuditu.topology.internal.Rows.F;
import static io.artuditu.topology.internal.Rows.bool;
import static io.artuditu.topology.internal.Rows.direction;
import static io.artuditu.topology.internal.Rows.integer;
import static io.artuditu.topology.internal.Rows.ok;
import static io.artuditu.topology.internal.Rows.paneRow;
import static io.artuditu.topology.internal.Rows.rect;
import static io.artuditu.topology.internal.Rows.text;
import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.agents.api.AgentStates;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Geometry;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.topology.internal.rules.PaneOps;
import io.artuditu.topology.internal.rules.TopologyOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import io.artuditu.vt.TerminalMetrics;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The pane methods about place and shape (panes.json, beside the terminal bundle's pane
 * I/O methods): list, get, current, layout, neighbor, edges, split, move, swap, focus,
 * focus_direction, resize, zoom, rename, purpose, close. An omitted pane is the focused
 * one; the dispatcher resolves it (and {@code pane.move}'s destination tab, {@code pane.swap}'s
 * second pane); the rules are {@link PaneOps}. See docs/protocol/panes.md.
 */
@Component(service = UhpFamily.class)
public final class PaneTopologyFamily implements UhpFamily {
    /** pane.split's side flags, as the CLI's --down/--up/--left/--right. */
    private static final List<Direction> SIDES = List.of(Direction.DOWN, Direction.UP, Direction.LEFT, Direction.RIGHT);

    private final FamilyContract contract;
    /** Optional and dynamic: pane.list's scrollback and counters; updating the terminal bundle must not restart this family. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile TerminalMetrics metrics;
    /** Optional and dynamic: the agent detector's counters in detection_performance. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile AgentStates agents;

    @Activate
    public PaneTopologyFamily(@Reference Workspaces workspaces) {
        this.contract = new Routes(workspaces,
                        FamilyContract.load(PaneTopologyFamily.class, "protocol/uhp/v1/panes.json"))
                .read("pane.list", (call, s, t) -> PaneMetrics.add(list(call, s, t), metrics, agents))
                .read("pane.get", PaneTopologyFamily::get)
                .read("pane.current", PaneTopologyFamily::current)
                .read("pane.layout", PaneTopologyFamily::layout)
                .read("pane.neighbor", PaneTopologyFamily::neighbor)
                .read("pane.edges", PaneTopologyFamily::edges)
                .edit("pane.split", PaneTopologyFamily::split)
                .edit("pane.move", PaneTopologyFamily::move)
                .edit("pane.swap", PaneTopologyFamily::swap)
                .edit("pane.focus", PaneTopologyFamily::focus)
                .edit("pane.focus_direction", PaneTopologyFamily::focusDirection)
                .edit("pane.resize", PaneTopologyFamily::resize)
                .edit("pane.zoom", PaneTopologyFamily::zoom)
                .edit("pane.rename", PaneTopologyFamily::rename)
                .edit("pane.purpose", PaneTopologyFamily::purpose)
                .edit("pane.close", PaneTopologyFamily::close)
                .bind();
    }

    @Override
    public String family() {
        return "panes";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // ------------------------------------------------------------------ reads

    static ObjectNode list(Call call, Topology s, Target t) {
        Topology.Location at = t.tab();
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

    static ObjectNode get(Call call, Topology s, Target t) {
        return paneRow(s, t.pane(), call.newObject().put("type", "pane"));
    }

    static ObjectNode current(Call call, Topology s, Target t) {
        String id = s.focusedPane().orElseThrow(() -> UhpException.notFound("pane", null, null, "there is no focused pane"));
        return paneRow(s, id, call.newObject().put("type", "pane"));
    }

    static ObjectNode layout(Call call, Topology s, Target t) {
        ObjectNode o = call.newObject().put("type", "pane_layout").put("pane", t.pane()).put("area", Topology.AREA);
        o.set("rect", rect(PaneOps.rect(s, t.pane())));
        return o;
    }

    static ObjectNode neighbor(Call call, Topology s, Target t) {
        Optional<String> n = PaneOps.neighbor(s, t.pane(), direction(call.params()));
        return call.newObject().put("type", "pane_neighbor").put("pane", t.pane()).put("neighbor", n.orElse(null));
    }

    static ObjectNode edges(Call call, Topology s, Target t) {
        ObjectNode o = call.newObject().put("type", "pane_edges").put("pane", t.pane());
        ArrayNode edges = o.putArray("edges");
        Geometry.edges(PaneOps.rect(s, t.pane())).forEach(d -> edges.add(d.wire()));
        return o;
    }

    // ------------------------------------------------------------------ changes

    static Change<ObjectNode> split(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) throws IOException {
        ObjectNode p = call.params();
        Boolean focus = bool(p, "focus");
        String from = t.pane();
        return then(ops.panes().split(s, from, side(p), focus == null || focus, sp), (n, id) -> {
            Topology.Location at = n.locate(id).orElseThrow();
            return F.objectNode().put("type", "ok").put("pane", id).put("from", from)
                    .put("terminal_id", n.panes().get(id).terminalId()).put("workspace", at.workspaceIndex())
                    .put("tab", at.tabIndex() + 1).put("tab_id", at.tab().id());
        });
    }

    /**
     * The side a split puts its new pane: one of the flags {@code down}, {@code up},
     * {@code left}, {@code right} set to true, or the {@code direction} alias, or neither
     * for down. A flag set to false, two flags, or a flag with {@code direction} is refused.
     */
    static Direction side(ObjectNode p) {
        Direction flag = null;
        for (Direction d : SIDES) {
            Boolean v = bool(p, d.wire());
            if (v == null) {
                continue;
            }
            if (!v) {
                throw invalid(d.wire(), "false_flag", d.wire() + ":false names no side; set one side's flag to true "
                        + "or omit them all for down");
            }
            if (flag != null) {
                throw invalid(d.wire(), "two_sides", "pass one of down, up, left and right, not " + flag.wire() + " and "
                        + d.wire());
            }
            flag = d;
        }
        Direction alias = direction(p);
        if (flag != null && alias != null) {
            throw invalid("direction", "mixed", "pass a side flag or direction, not both");
        }
        return flag != null ? flag : alias != null ? alias : Direction.DOWN;
    }

    static Change<ObjectNode> move(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        Target dest = call.target("to", Target.class);
        boolean newTab = Boolean.TRUE.equals(bool(call.params(), "new_tab"));
        return then(ops.panes().move(s, t.pane(), dest == null ? null : dest.tabId(), newTab),
                (n, m) -> F.objectNode().put("type", "pane_move").put("pane", m.pane()).put("workspace", m.workspace())
                        .put("tab", m.tab()));
    }

    static Change<ObjectNode> swap(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String a = t.pane();
        String b = call.target("with", Target.class).pane();
        return then(ops.panes().swap(s, a, b), (n, r) -> F.objectNode().put("type", "pane_swap").put("pane", a)
                .put("with", b));
    }

    static Change<ObjectNode> focus(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.panes().focus(s, t.pane()), (n, r) -> ok());
    }

    static Change<ObjectNode> focusDirection(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        return then(ops.panes().focusDirection(s, id, direction(call.params())), (n, moved) -> F.objectNode()
                .put("type", "pane_focus_direction").put("pane", id).put("focused", moved.orElse(id))
                .put("moved", moved.isPresent()));
    }

    static Change<ObjectNode> resize(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        return then(ops.panes().resize(s, id, direction(call.params()), integer(call.params(), "cells")),
                (n, r) -> F.objectNode().put("type", "pane_resize").put("pane", id)
                        .set("rect", rect(PaneOps.rect(n, id))));
    }

    static Change<ObjectNode> zoom(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        return then(ops.panes().zoom(s, id, bool(call.params(), "on")), (n, z) -> F.objectNode()
                .put("type", "pane_zoom").put("pane", id).put("zoomed", z));
    }

    static Change<ObjectNode> rename(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        return then(ops.panes().rename(s, id, text(call.params(), "name")), (n, r) -> F.objectNode()
                .put("type", "pane_rename").put("pane", id).put("name", n.panes().get(id).name()));
    }

    static Change<ObjectNode> purpose(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        boolean clear = Boolean.TRUE.equals(bool(call.params(), "clear"));
        return then(ops.panes().purpose(s, id, text(call.params(), "purpose"), clear), (n, v) -> F.objectNode()
                .put("type", "pane_purpose").put("pane", id).put("purpose", v));
    }

    static Change<ObjectNode> close(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.pane();
        return then(Lifecycle.removePane(s, id), (n, r) -> F.objectNode().put("type", "pane_close").put("pane", id));
    }
}
