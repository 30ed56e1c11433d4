package io.artuditu.model;

import java.nio.file.Path;

/**
 * One workspace.
 *
 * @param id opaque and stable ({@code workspace_<hex>})
 * @param name its label
 * @param cwd its root folder: where new panes start unless told otherwise
 */
public record WorkspaceInfo(String id, String name, Path cwd) {
}
