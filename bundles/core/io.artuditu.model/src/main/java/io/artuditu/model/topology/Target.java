package io.artuditu.model.topology;

/**
 * What a request's declared target resolved to (a workspace, tab, pane or agent target;
 * {@code io.artuditu.uhp.api.Call#target}), against the instant of the topology it was
 * resolved in: the workspace always, the tab for tab and pane targets, the pane for pane
 * and agent targets. A read answers from {@link #state()}; a change runs on the state of its
 * own instant and finds the target again by its ids ({@link Topology#requireWorkspace},
 * {@link Topology#requireTab}, {@link Topology#requirePane}), never by the position or focus
 * the request used.
 *
 * @param state          the topology it was resolved in
 * @param workspaceIndex the workspace's 0-based API index then
 * @param workspace      the workspace
 * @param tab            the tab (for a pane target: the pane's tab), or null for a workspace target
 * @param pane           the pane id, or null unless the target is a pane
 * @param named          whether the request named it (false: the omitted target meant the focused one)
 */
public record Target(Topology state, int workspaceIndex, Workspace workspace, Topology.Location tab, String pane,
        boolean named) {
    /** A workspace target. */
    public static Target of(Topology s, Workspace w, boolean named) {
        return new Target(s, s.workspaceIndex(w.id()), w, null, null, named);
    }

    /** A tab target ({@code pane} null) or a pane target. */
    public static Target of(Topology s, Topology.Location at, String pane, boolean named) {
        return new Target(s, at.workspaceIndex(), at.workspace(), at, pane, named);
    }

    /** The workspace's id. */
    public String workspaceId() {
        return workspace.id();
    }

    /** The tab's id (tab and pane targets). */
    public String tabId() {
        return tab.tab().id();
    }
}
