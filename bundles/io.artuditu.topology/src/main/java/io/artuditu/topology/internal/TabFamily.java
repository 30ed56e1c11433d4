package io.artuditu.topology.internal;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.workspace.Workspaces;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The tab methods (tabs.json): list, get, new, focus, move, swap, rename, close. See docs/protocol/tabs.md. */
@Component(service = UhpFamily.class)
public final class TabFamily implements UhpFamily {
    private final List<UhpMethod> methods;

    @Activate
    public TabFamily(@Reference Workspaces workspaces) {
        TopologyMethods t = new TopologyMethods(workspaces);
        UhpContract c = UhpContract.standard();
        this.methods = List.of(
                UhpMethod.of(c.method("tab.list"), t::tabList),
                UhpMethod.of(c.method("tab.get"), t::tabGet),
                UhpMethod.of(c.method("tab.new"), t::tabNew),
                UhpMethod.of(c.method("tab.focus"), t::tabFocus),
                UhpMethod.of(c.method("tab.move"), t::tabMove),
                UhpMethod.of(c.method("tab.swap"), t::tabSwap),
                UhpMethod.of(c.method("tab.rename"), t::tabRename),
                UhpMethod.of(c.method("tab.close"), t::tabClose));
    }

    @Override
    public String family() {
        return "tabs";
    }

    @Override
    public List<UhpMethod> methods() {
        return methods;
    }
}
