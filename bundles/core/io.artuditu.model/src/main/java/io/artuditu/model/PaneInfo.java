package io.artuditu.model;

import java.nio.file.Path;
import java.util.List;

/**
 * One pane as the model holds it at one instant.
 *
 * @param id the pane id: a decimal number as a string ({@code "7"}), never reused by a server
 * @param terminalId the PTY's {@code terminal_id}, stable for the PTY's lifetime
 * @param workspaceId the workspace it belongs to
 * @param command the argv the pane was started with
 * @param cwd the directory it was started in
 * @param name a user label, or null
 * @param shell {@code "bash"} or {@code "zsh"} when the pane runs that shell with Artuditu's
 *     shell-integration marks (OSC 133) injected, else null
 * @param pid the root process id
 * @param createdMillis when it was created, epoch milliseconds
 */
public record PaneInfo(String id, String terminalId, String workspaceId, List<String> command, Path cwd, String name,
        String shell, long pid, long createdMillis) {
    public PaneInfo {
        command = List.copyOf(command);
    }
}
