package io.artuditu.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A pane to create.
 *
 * @param workspaceId the workspace, or null for the focused one (created on first use)
 * @param command argv; empty for the user's login shell ({@code $SHELL}, else {@code /bin/sh})
 * @param cwd start directory, or null for the workspace's folder
 * @param env extra environment; the {@code ARTUDITU_*} variables, {@code TERM} and
 *     {@code COLORTERM} are set by the model and cannot be replaced
 * @param cols initial width
 * @param rows initial height
 * @param focus whether the new pane takes the focus
 */
public record PaneRequest(String workspaceId, List<String> command, Path cwd, Map<String, String> env, int cols,
        int rows, boolean focus) {
    /** Most environment entries a request may add. */
    public static final int MAX_ENV = 128;

    public PaneRequest {
        command = List.copyOf(command);
        env = Map.copyOf(env);
    }

    /** The login shell in the focused workspace, 80x24, focused. */
    public static PaneRequest shell() {
        return new PaneRequest(null, List.of(), null, Map.of(), 80, 24, true);
    }
}
