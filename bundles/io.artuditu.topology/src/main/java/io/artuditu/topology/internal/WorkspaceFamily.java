package io.artuditu.topology.internal;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.Workspaces;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The workspace methods (workspaces.json): list, get, open, focus, rename, pin, move, move_block, close. See docs/protocol/workspaces.md. */
@Component(service = UhpFamily.class)
public final class WorkspaceFamily implements UhpFamily {
    private final List<UhpMethod> methods;

    @Activate
    public WorkspaceFamily(@Reference Workspaces workspaces) {
        TopologyMethods t = new TopologyMethods(workspaces);
        UhpContract c = UhpContract.standard();
        this.methods = List.of(
                UhpMethod.of(c.method("workspace.list"), t::workspaceList),
                UhpMethod.of(c.method("workspace.get"), t::workspaceGet),
                UhpMethod.of(c.method("workspace.open"), t::workspaceOpen),
                UhpMethod.of(c.method("workspace.focus"), t::workspaceFocus),
                UhpMethod.of(c.method("workspace.rename"), t::workspaceRename),
                UhpMethod.of(c.method("workspace.pin"), t::workspacePin),
                UhpMethod.of(c.method("workspace.move"), t::workspaceMove),
                UhpMethod.of(c.method("workspace.move_block"), t::workspaceMoveBlock),
                UhpMethod.of(c.method("workspace.report_metadata"), t::workspaceReportMetadata),
                UhpMethod.of(c.method("workspace.close"), t::workspaceClose));
    }

    @Override
    public String family() {
        return "workspaces";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }
}
