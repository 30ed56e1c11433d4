package io.artuditu.model.topology;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a change gets from the model besides the state: the process of a pane it is about
 * to add, and fresh ids. Operations spawn only after the whole request is validated and
 * before the new state is built, so a failed spawn (an exception) leaves the state as it
 * was. Tests pass a fake that starts nothing.
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

    /**
     * This spawner with another command, extra environment or size (for example a
     * {@code pane.split} that names a command). The model's spawner honours it; a spawner
     * that cannot (a test fake) returns itself, which is this default.
     */
    default Spawner with(Launch launch) {
        return this;
    }

    /**
     * 16 lowercase hex digits for a new workspace or tab id. The model's spawner gives a
     * change that it runs twice (once to find the panes it spawns, once to commit them) the
     * same ids both times; the default draws random ones.
     */
    default String newId() {
        return String.format("%016x", java.util.concurrent.ThreadLocalRandom.current().nextLong());
    }

    /**
     * What a pane's process runs.
     *
     * @param command argv; empty for the user's login shell
     * @param env extra environment; the model's {@code ARTUDITU_*} values, {@code TERM} and
     *     {@code COLORTERM} cannot be replaced
     * @param cols initial width
     * @param rows initial height
     */
    record Launch(List<String> command, Map<String, String> env, int cols, int rows) {
        public Launch {
            command = List.copyOf(command);
            env = Map.copyOf(env);
        }

        /** The login shell, 80x24: what a spawner does unless told otherwise. */
        public static Launch shell() {
            return new Launch(List.of(), Map.of(), 80, 24);
        }
    }
}
