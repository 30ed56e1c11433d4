package io.artuditu.topology.internal;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.Workspaces;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The layout methods (layouts.json): export, apply, set_split_ratio. See docs/protocol/layouts.md. */
@Component(service = UhpFamily.class)
public final class LayoutFamily implements UhpFamily {
    private final List<UhpMethod> methods;

    @Activate
    public LayoutFamily(@Reference Workspaces workspaces) {
        TopologyMethods t = new TopologyMethods(workspaces);
        UhpContract c = UhpContract.standard();
        this.methods = List.of(
                UhpMethod.of(c.method("layout.export"), t::layoutExport),
                UhpMethod.of(c.method("layout.apply"), t::layoutApply),
                UhpMethod.of(c.method("layout.set_split_ratio"), t::layoutSetSplitRatio));
    }

    @Override
    public String family() {
        return "layouts";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }
}
