package io.artuditu.workspace.topology;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Starts the process of a pane the model is about to add. Operations call it only after
 * the whole request is validated and before the new state is built, so a failed spawn
 * (an exception) leaves the state as it was. Tests pass a fake that starts nothing.
 */
@FunctionalInterface
public interface Spawner {
    /**
     * @param paneId the id the model allocated for the new pane
     * @param workspaceId its workspace
     * @param cwd where it starts
     * @return the pane with its terminal id and command
     */
    Pane spawn(String paneId, String workspaceId, Path cwd) throws IOException;
}
