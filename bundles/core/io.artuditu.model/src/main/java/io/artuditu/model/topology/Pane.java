package io.artuditu.model.topology;

import java.nio.file.Path;
import java.util.List;

/**
 * A pane as the topology holds it. Where it sits (workspace, tab) is its leaf in a tab's
 * tree, found with {@link Topology#locate}.
 *
 * @param id decimal pane id, never reused by a server
 * @param terminalId the PTY's id, or null for a pane without a process yet (restored)
 * @param cwd the directory it started in
 * @param command argv it started with
 * @param name user label, or null
 * @param purpose descriptive metadata, or null
 */
public record Pane(String id, String terminalId, Path cwd, List<String> command, String name, String purpose) {
    public Pane {
        command = List.copyOf(command);
    }

    public Pane withName(String n) {
        return new Pane(id, terminalId, cwd, command, n, purpose);
    }

    public Pane withPurpose(String p) {
        return new Pane(id, terminalId, cwd, command, name, p);
    }
}
