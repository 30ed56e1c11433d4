package io.artuditu.model.topology;

/**
 * A tab of a workspace.
 *
 * @param id opaque and stable, {@code tab_<16 hex>}
 * @param kind ordinary pane tab or a dashboard
 * @param label custom label, or null
 * @param root the split tree; null for a dashboard, never null for a pane tab
 * @param focused the tab's focused pane; null for a dashboard
 * @param zoomed whether the focused pane is zoomed
 */
public record Tab(String id, TabKind kind, String label, Node root, String focused, boolean zoomed) {
    public Tab withLabel(String l) {
        return new Tab(id, kind, l, root, focused, zoomed);
    }

    public Tab withTree(Node r, String f, boolean z) {
        return new Tab(id, kind, label, r, f, z);
    }
}
