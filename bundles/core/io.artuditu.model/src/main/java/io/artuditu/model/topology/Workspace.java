package io.artuditu.model.topology;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A workspace: a root folder and its tabs, in position order (public position = index + 1).
 *
 * @param id opaque and stable, {@code workspace_<16 hex>}
 * @param name display label (never the folder on disk)
 * @param cwd root folder, where new panes start
 * @param pinned whether it floats in the sidebar's display order (the API index is unchanged)
 * @param tabs its tabs in order
 * @param activeTab the active tab's id, null when it has no tab
 * @param metadata what reporters said about it ({@code workspace.report_metadata}): key →
 *     String, Long or Boolean, sorted by key, at most {@link Topology#MAX_METADATA} entries;
 *     runtime facts, never saved
 */
public record Workspace(String id, String name, Path cwd, boolean pinned, List<Tab> tabs, String activeTab,
        Map<String, Object> metadata) {
    public Workspace {
        tabs = List.copyOf(tabs);
        metadata = metadata == null || metadata.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    /** A workspace with no reported metadata. */
    public Workspace(String id, String name, Path cwd, boolean pinned, List<Tab> tabs, String activeTab) {
        this(id, name, cwd, pinned, tabs, activeTab, Map.of());
    }

    public Workspace withTabs(List<Tab> t, String active) {
        return new Workspace(id, name, cwd, pinned, t, active, metadata);
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
