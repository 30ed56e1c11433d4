package io.artuditu.workspace.topology;

import java.nio.file.Path;
import java.util.List;

/**
 * A workspace: a root folder and its tabs, in position order (public position = index + 1).
 *
 * @param id opaque and stable, {@code workspace_<16 hex>}
 * @param name display label (never the folder on disk)
 * @param cwd root folder, where new panes start
 * @param pinned whether it floats in the sidebar's display order (the API index is unchanged)
 * @param tabs its tabs in order
 * @param activeTab the active tab's id, null when it has no tab
 */
public record Workspace(String id, String name, Path cwd, boolean pinned, List<Tab> tabs, String activeTab) {
    public Workspace {
        tabs = List.copyOf(tabs);
    }

    public Workspace withTabs(List<Tab> t, String active) {
        return new Workspace(id, name, cwd, pinned, t, active);
    }

    public int tabIndex(String tabId) {
        for (int i = 0; i < tabs.size(); i++) {
            if (tabs.get(i).id().equals(tabId)) {
                return i;
            }
        }
        return -1;
    }
}
