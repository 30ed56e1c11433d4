package io.artuditu.topology.internal;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.TerminalMetrics;
import io.artuditu.workspace.Workspaces;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/** The pane methods about place and shape (panes.json, beside the terminal bundle's pane I/O methods): list, get, current, layout, neighbor, edges, split, move, swap, focus, focus_direction, resize, zoom, rename, purpose, close. See docs/protocol/panes.md. */
@Component(service = UhpFamily.class)
public final class PaneTopologyFamily implements UhpFamily {
    private final List<UhpMethod> methods;
    /** Optional and dynamic: pane.list's scrollback and counters; updating the terminal bundle must not restart this family. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile TerminalMetrics metrics;

    @Activate
    public PaneTopologyFamily(@Reference Workspaces workspaces) {
        TopologyMethods t = new TopologyMethods(workspaces);
        UhpContract c = UhpContract.standard();
        this.methods = List.of(
                UhpMethod.of(c.method("pane.list"), call -> PaneMetrics.add(t.paneList(call), metrics)),
                UhpMethod.of(c.method("pane.get"), t::paneGet),
                UhpMethod.of(c.method("pane.current"), t::paneCurrent),
                UhpMethod.of(c.method("pane.layout"), t::paneLayout),
                UhpMethod.of(c.method("pane.neighbor"), t::paneNeighbor),
                UhpMethod.of(c.method("pane.edges"), t::paneEdges),
                UhpMethod.of(c.method("pane.split"), t::paneSplit),
                UhpMethod.of(c.method("pane.move"), t::paneMove),
                UhpMethod.of(c.method("pane.swap"), t::paneSwap),
                UhpMethod.of(c.method("pane.focus"), t::paneFocus),
                UhpMethod.of(c.method("pane.focus_direction"), t::paneFocusDirection),
                UhpMethod.of(c.method("pane.resize"), t::paneResize),
                UhpMethod.of(c.method("pane.zoom"), t::paneZoom),
                UhpMethod.of(c.method("pane.rename"), t::paneRename),
                UhpMethod.of(c.method("pane.purpose"), t::panePurpose),
                UhpMethod.of(c.method("pane.close"), t::paneClose));
    }

    @Override
    public String family() {
        return "panes";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }
}
