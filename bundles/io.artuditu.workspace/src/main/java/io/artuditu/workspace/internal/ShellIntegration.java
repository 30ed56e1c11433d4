package io.artuditu.workspace.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a pane's shell is started so that it reports prompts and command ends (OSC 133)
 * without touching the user's rc files. {@link #prepare} gets the argv and environment
 * the model built and returns what to spawn.
 */
final class ShellIntegration {
    /** What to spawn; {@code shell} is "bash" or "zsh" when marks are injected, else null. */
    record Launch(List<String> command, Map<String, String> env, String shell) {
    }

    private ShellIntegration() {
    }

    static Launch prepare(List<String> command, Map<String, String> env, Path home) {
        return new Launch(command, env, null);
    }
}
