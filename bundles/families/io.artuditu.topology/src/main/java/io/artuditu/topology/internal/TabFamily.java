package io.artuditu.topology.internal;

import static io.artuditu.topology.internal.Routes.then;
import static io.artuditu.topology.internal.Rows.F;
import static io.artuditu.topology.internal.Rows.direction;
import static io.artuditu.topology.internal.Rows.integer;
import static io.artuditu.topology.internal.Rows.ok;
import static io.artuditu.topology.internal.Rows.strings;
import static io.artuditu.topology.internal.Rows.tabRow;
import static io.artuditu.topology.internal.Rows.text;
import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.topology.internal.rules.TabOps;
import io.artuditu.topology.internal.rules.TopologyOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The tab methods (tabs.json): list, get, new, focus, move, swap, rename, close. Positions
 * are 1-based within the named or active workspace. Targets are resolved by the dispatcher
 * ({@code target}, and {@code tab.swap}'s second tab under {@code targets.with}); the rules are
 * {@link TabOps}. See docs/protocol/tabs.md.
 */
@Component(service = UhpFamily.class)
public final class TabFamily implements UhpFamily {
    /** The family's contract, in this bundle. */
    private static final FamilyContract CONTRACT = FamilyContract.load(TabFamily.class, "protocol/uhp/v1/tabs.json");

    private final FamilyContract contract;

    @Activate
    public TabFamily(@Reference Workspaces workspaces) {
        this.contract = new Routes(workspaces, CONTRACT)
                .read("tab.list", TabFamily::list)
                .read("tab.get", TabFamily::get)
                .edit("tab.new", TabFamily::create)
                .edit("tab.focus", TabFamily::focus)
                .edit("tab.move", TabFamily::move)
                .edit("tab.swap", TabFamily::swap)
                .edit("tab.rename", TabFamily::rename)
                .edit("tab.close", TabFamily::close)
                .bind();
    }

    @Override
    public String family() {
        return "tabs";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    static ObjectNode list(Call call, Topology s, Target t) {
        Workspace w = t.workspace();
        ObjectNode o = call.newObject().put("type", "tab_list").put("workspace", t.workspaceIndex())
                .put("workspace_id", w.id());
        ArrayNode rows = o.putArray("tabs");
        for (int i = 0; i < w.tabs().size(); i++) {
            rows.add(tabRow(w, i, call.newObject()));
        }
        return o;
    }

    static ObjectNode get(Call call, Topology s, Target t) {
        return tabRow(t.workspace(), t.tab().tabIndex(), call.newObject().put("type", "tab")
                .put("workspace", t.workspaceIndex()).put("workspace_id", t.workspace().id()));
    }

    static Change<ObjectNode> create(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) throws IOException {
        String k = text(call.params(), "kind");
        TabKind kind = k == null ? TabKind.PANES
                : TabKind.of(k).orElseThrow(() -> invalid("kind", "invalid", "unknown tab kind " + k));
        String wsId = t.workspaceId();
        return then(ops.tabs().create(s, wsId, kind, text(call.params(), "name"), sp), (n, tabId) -> {
            Topology.Location at = n.locateTab(tabId).orElseThrow();
            return F.objectNode().put("type", "tab_new").put("workspace", at.workspaceIndex())
                    .put("workspace_id", wsId).put("tab", at.tabIndex() + 1).put("tab_id", tabId)
                    .put("kind", kind.wire()).put("pane", at.tab().focused());
        });
    }

    static Change<ObjectNode> focus(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.tabs().focus(s, t.tabId()), (n, r) -> ok());
    }

    static Change<ObjectNode> move(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.tabs().move(s, t.tabId(), t.named(), integer(call.params(), "to"), direction(call.params())),
                (n, m) -> F.objectNode().put("type", "tab_move").put("from", m.from()).put("to", m.to())
                        .put("active", m.active()));
    }

    static Change<ObjectNode> swap(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        Target with = call.target("with", Target.class);
        return then(ops.tabs().swap(s, t.tabId(), with.tabId()),
                (n, m) -> F.objectNode().put("type", "tab_swap").put("tab", m.from()).put("with", m.to())
                        .put("active", m.active()));
    }

    static Change<ObjectNode> rename(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        return then(ops.tabs().rename(s, t.tabId(), text(call.params(), "name")),
                (n, r) -> ok());
    }

    static Change<ObjectNode> close(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        String id = t.tabId();
        return then(ops.tabs().close(s, id), (n, gone) -> F.objectNode().put("type", "tab_close").put("tab_id", id)
                .set("closed_panes", strings(gone)));
    }
}
