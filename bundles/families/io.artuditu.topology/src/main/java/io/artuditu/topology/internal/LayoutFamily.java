package io.artuditu.topology.internal;

import static io.artuditu.topology.internal.Routes.then;
import static io.artuditu.topology.internal.Rows.F;
import static io.artuditu.topology.internal.Rows.strings;
import static io.artuditu.topology.internal.Rows.text;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Layouts;
import io.artuditu.model.topology.Node;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.topology.internal.rules.LayoutOps;
import io.artuditu.topology.internal.rules.TopologyOps;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The layout methods (layouts.json): export, apply, set_split_ratio, on the named or active
 * pane tab (resolved by the dispatcher; dashboards are refused by {@link LayoutOps}). See
 * docs/protocol/layouts.md.
 */
@Component(service = UhpFamily.class)
public final class LayoutFamily implements UhpFamily {
    private final FamilyContract contract;

    @Activate
    public LayoutFamily(@Reference Workspaces workspaces) {
        this.contract = new Routes(workspaces,
                        FamilyContract.load(LayoutFamily.class, "protocol/uhp/v1/layouts.json"))
                .read("layout.export", LayoutFamily::export)
                .edit("layout.apply", LayoutFamily::apply)
                .edit("layout.set_split_ratio", LayoutFamily::setSplitRatio)
                .bind();
    }

    @Override
    public String family() {
        return "layouts";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    static ObjectNode export(Call call, Topology s, Target t) {
        LayoutOps.LayoutView v = LayoutOps.view(s, t.tabId());
        ObjectNode o = call.newObject().put("type", "layout").put("tab_id", v.tabId());
        o.set("root", Layouts.toJson(v.root()));
        return o.put("focused", v.focused()).put("zoomed", v.zoomed());
    }

    static Change<ObjectNode> apply(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        Node root = Layouts.fromJson(call.params().get("root"));
        return then(ops.layouts().apply(s, t.tabId(), root, text(call.params(), "focus")), (n, v) -> {
            ObjectNode o = F.objectNode().put("type", "layout_apply").put("tab_id", v.tabId());
            o.set("root", Layouts.toJson(v.root()));
            return o.put("focused", v.focused());
        });
    }

    static Change<ObjectNode> setSplitRatio(Call call, Topology s, Target t, TopologyOps ops, Spawner sp) {
        List<String> path = new ArrayList<>();
        call.params().get("path").forEach(v -> path.add(v.asText()));
        double ratio = call.params().get("ratio").doubleValue();
        return then(ops.layouts().setSplitRatio(s, t.tabId(), path, ratio), (n, r) -> F.objectNode()
                .put("type", "layout_split_ratio").put("tab_id", t.tabId()).<ObjectNode>set("path", strings(path))
                .put("ratio", r));
    }
}
