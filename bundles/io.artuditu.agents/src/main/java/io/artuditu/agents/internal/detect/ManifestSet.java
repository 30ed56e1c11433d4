package io.artuditu.agents.internal.detect;

import io.artuditu.pty.proc.ProcessEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The active manifests: the built-ins (this bundle's {@code agents/builtin/*.toml}), then the
 * managed folder, then the user folder; a later layer's manifest replaces an earlier one of
 * the same name. A file that does not parse or validate is skipped and listed in
 * {@link #problems()}; the rest stay active. Immutable.
 */
public final class ManifestSet {
    /** One skipped file. */
    public record Problem(String source, String path, String message) {
    }

    /** What runs in a pane as which agent, and how that was seen. */
    public record Identity(AgentManifest manifest, long pid, String via) {
    }

    private ManifestSet() {
    }

    /** Reads all three layers; a missing folder is an empty layer. Never throws for bad files. */
    public static ManifestSet load(Path managedDir, Path userDir) {
        return new ManifestSet(); // TODO(detect): the three layers
    }

    public List<AgentManifest> active() {
        return List.of();
    }

    public Optional<AgentManifest> get(String name) {
        return Optional.empty();
    }

    public int ruleCount() {
        return 0;
    }

    public List<Problem> problems() {
        return List.of();
    }

    /**
     * The agent nearest the root in a pane's process tree (root first, then breadth first):
     * an entry whose name is one of a manifest's {@code processNames} ({@code via:"process"}),
     * or an interpreter entry whose script is one of its {@code scripts} ({@code via:"script"}).
     */
    public Optional<Identity> identify(List<ProcessEntry> processes) {
        return Optional.empty();
    }
}
