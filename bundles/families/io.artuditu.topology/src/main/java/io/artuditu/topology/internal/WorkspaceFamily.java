package io.artuditu.topology.internal;

import static io.artuditu.topology.internal.Routes.then;
import static io.artuditu.topology.internal.Rows.F;
import static io.artuditu.topology.internal.Rows.activeIndex;
import static io.artuditu.topology.internal.Rows.bool;
import static io.artuditu.topology.internal.Rows.integer;
import static io.artuditu.topology.internal.Rows.metadata;
import static io.artuditu.topology.internal.Rows.ok;
import static io.artuditu.topology.internal.Rows.strings;
import static io.artuditu.topology.internal.Rows.text;
import static io.artuditu.topology.internal.Rows.workspaceRow;
import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.topology.internal.rules.TopologyOps;
import io.artuditu.topology.internal.rules.WorkspaceOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The workspace methods (workspaces.json): list, get, open, focus, rename, pin, move,
 * move_block, report_metadata, close. Targets are resolved by the dispatcher; the rules are
 * {@link WorkspaceOps} and, for opening one, the model's {@code Lifecycle}. See docs/protocol/workspaces.md.
 */
@Component(service = UhpFamily.class)
public final class WorkspaceFamily implements UhpFamily {
    private final FamilyContract contract;

    @Activate
    public WorkspaceFamily(@Reference Workspaces workspaces) {
        this.contract = new Routes(workspaces,
                        FamilyContract.load(WorkspaceFamily.class, "protocol/uhp/v1/workspaces.json"))
                .read("workspace.list", WorkspaceFamily::list)
                .read("workspace.get", WorkspaceFamily::get)
                .edit("workspace.open", WorkspaceFamily::open)
                .edit("workspace.focus", WorkspaceFamily::focus)
                .edit("workspace.rename", WorkspaceFamily::rename)
                .edit("workspace.pin", WorkspaceFamily::pin)
                .edit("workspace.move", WorkspaceFamily::move)
                .edit("workspace.move_block", WorkspaceFamily::moveBlock)
                .edit("workspace.report_metadata", WorkspaceFamily::reportMetadata)
                .edit("workspace.close", WorkspaceFamily::close)
                .bind();
    }

    @Override
    public String family() {
        return "workspaces";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    static ObjectNode list(Call call, Topology s, Target t) {
        ObjectNode o = call.newObject().put("type", "workspace_list");
        ArrayNode rows = o.putArray("workspaces");
        for (int i = 0; i < s.workspaces().size(); i++) {
            rows.add(workspaceRow(s, i, call.newObject()));
        }
        o.set("active", activeIndex(s));
        return o;
    }

    static ObjectNode get(Call call, Topology s, Target t) {
        return workspaceRow(s, t.workspaceIndex(), call.newObject().put("type", "workspace"));
    }

    static Change<ObjectNode> open(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) throws IOException {
        ObjectNode p = call.params();
        Path folder;
        try {
            folder = Path.of(text(p, "cwd"));
        } catch (InvalidPathException e) {
            throw invalid("cwd", "malformed", "cwd is not a valid path");
        }
        return then(ops.lifecycle().openWorkspace(s, folder, text(p, "name"), sp), (n, id) -> {
            Workspace w = n.workspace(id).orElseThrow();
            return F.objectNode().put("type", "workspace_open").put("workspace_id", id)
                    .put("workspace", n.workspaceIndex(id)).put("name", w.name()).put("cwd", w.cwd().toString())
                    .put("tab_id", w.activeTab()).put("pane", w.tabs().get(0).focused());
        });
    }

    static Change<ObjectNode> focus(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.workspaces().focus(s, t.workspaceId()), (n, r) -> ok());
    }

    static Change<ObjectNode> rename(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.workspaces().rename(s, t.workspaceId(), text(call.params(), "name")),
                (n, w) -> info(n, "workspace_rename", w.id()));
    }

    static Change<ObjectNode> pin(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.workspaces().pin(s, t.workspaceId(), bool(call.params(), "pinned")),
                (n, w) -> info(n, "workspace_pin", w.id()));
    }

    /** The fields workspace.rename and workspace.pin answer with. */
    private static ObjectNode info(Topology s, String type, String wsId) {
        int i = s.workspaceIndex(wsId);
        Workspace w = s.workspaces().get(i);
        return F.objectNode().put("type", type).put("workspace", i).put("name", w.name()).put("cwd", w.cwd().toString())
                .put("pinned", w.pinned()).put("display_position", WorkspaceOps.displayPositions(s).get(i));
    }

    static Change<ObjectNode> move(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        int from = s.workspaceIndex(s.requireWorkspace(t.workspaceId()).id());
        int to = integer(call.params(), "to");
        return then(ops.workspaces().move(s, from, to), (n, r) -> F.objectNode().put("type", "workspace_move")
                .put("from", from).put("to", to).set("active", activeIndex(n)));
    }

    static Change<ObjectNode> moveBlock(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        List<Integer> block = new ArrayList<>();
        call.params().get("workspaces").forEach(v -> block.add(v.intValue()));
        int to = integer(call.params(), "to");
        Change<Void> c = ops.workspaces().moveBlock(s, block, to);
        List<String> ids = block.stream().map(i -> s.workspaces().get(i).id()).toList();
        return then(c, (n, r) -> {
            ObjectNode o = F.objectNode().put("type", "workspace_move_block");
            ArrayNode now = o.putArray("workspaces");
            ids.forEach(id -> now.add(n.workspaceIndex(id)));
            return o.put("to", to).set("active", activeIndex(n));
        });
    }

    static Change<ObjectNode> reportMetadata(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        ObjectNode p = call.params();
        Map<String, Object> entries = new LinkedHashMap<>();
        p.get("metadata").fields().forEachRemaining(e -> entries.put(e.getKey(), metadataValue(e.getKey(), e.getValue())));
        boolean replace = Boolean.TRUE.equals(bool(p, "replace"));
        return then(ops.workspaces().reportMetadata(s, t.workspaceId(), entries, replace), (n, w) -> F.objectNode()
                .put("type", "workspace_metadata").put("workspace", n.workspaceIndex(w.id())).put("workspace_id", w.id())
                .<ObjectNode>set("metadata", metadata(w)).put("changed", n != s));
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
        String k = key.length() <= 40 ? key : key.substring(0, 40) + "…";
        throw invalid("metadata", "bad_value", "metadata value " + k + " must be a string, a 64-bit integer, a boolean or null");
    }

    static Change<ObjectNode> close(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.workspaceId();
        return then(ops.workspaces().close(s, id), (n, gone) -> F.objectNode().put("type", "workspace_close")
                .put("workspace_id", id).set("closed_panes", strings(gone)));
    }
}
