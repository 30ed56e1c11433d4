package io.artuditu.model.topology;

/**
 * What a request's declared target resolved to, against one {@link Topology}: the workspace
 * always, the tab for tab and pane targets, the pane for pane targets.
 *
 * @param workspaceIndex the workspace's 0-based API index
 * @param workspace      the workspace
 * @param tab            the tab (for a pane target: the pane's tab), or null for a workspace target
 * @param pane           the pane id, or null unless the target is a pane
 * @param named          whether the request named it (false: the omitted target meant the focused one)
 */
public record Target(int workspaceIndex, Workspace workspace, Topology.Location tab, String pane, boolean named) {
    static Target of(Topology s, Workspace w, boolean named) {
        return new Target(s.workspaceIndex(w.id()), w, null, null, named);
    }

    static Target of(Topology.Location at, String pane, boolean named) {
        return new Target(at.workspaceIndex(), at.workspace(), at, pane, named);
    }

    /** The tab's id (tab and pane targets). */
    public String tabId() {
        return tab.tab().id();
    }
}
