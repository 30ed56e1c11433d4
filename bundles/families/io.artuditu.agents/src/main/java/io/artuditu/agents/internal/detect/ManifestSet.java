package io.artuditu.agents.internal.detect;

import io.artuditu.pty.proc.ProcessEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The active manifests: the built-ins (this bundle's {@code agents/builtin/*.toml}), then the
 * managed folder, then the user folder; a later layer's manifest replaces an earlier one of
 * the same name. A file that does not parse or validate is skipped and listed in
 * {@link #problems()}; the rest stay active. Immutable and thread-safe.
 *
 * <p>Identity: when two active manifests claim the same process or script name, the one
 * from the later layer wins (within a layer, the earlier file): a user can take a name
 * over without editing a built-in.
 */
public final class ManifestSet {
    /** One skipped file (or folder entry), with why. */
    public record Problem(String source, String path, String message) {
    }

    /**
     * What runs in a pane as which agent, and how that was seen.
     *
     * @param via {@code process} (the executable's name) or {@code script} (an interpreter's script)
     */
    public record Identity(AgentManifest manifest, long pid, String via) {
    }

    /** The empty set: no agent is recognised. */
    public static final ManifestSet EMPTY = new ManifestSet(List.of(), List.of());

    private final Map<String, AgentManifest> byName;
    private final Map<String, AgentManifest> byProcess = new HashMap<>();
    private final Map<String, AgentManifest> byScript = new HashMap<>();
    private final List<AgentManifest> active;
    private final List<Problem> problems;
    private final int ruleCount;

    /** {@code layered} in layer order (built-ins first); a later manifest replaces an earlier one of its name. */
    ManifestSet(List<AgentManifest> layered, List<Problem> problems) {
        Map<String, AgentManifest> names = new LinkedHashMap<>();
        for (AgentManifest m : layered) {
            names.remove(m.name());
            names.put(m.name(), m);
        }
        // names now iterates in layer order, so a later layer's claim on a process name wins.
        for (AgentManifest m : names.values()) {
            m.processNames().forEach(p -> byProcess.put(p, m));
            m.scripts().forEach(s -> byScript.put(s, m));
        }
        List<AgentManifest> sorted = new ArrayList<>(names.values());
        sorted.sort(Comparator.comparing(AgentManifest::name));
        this.active = List.copyOf(sorted);
        Map<String, AgentManifest> index = new HashMap<>();
        sorted.forEach(m -> index.put(m.name(), m));
        this.byName = Map.copyOf(index);
        this.problems = List.copyOf(problems);
        this.ruleCount = sorted.stream().mapToInt(m -> m.rules().size()).sum();
    }

    /**
     * Reads all three layers; a missing or null folder is an empty layer. Never throws for
     * bad files: each becomes a {@link Problem}. Reads the file system: call it off the
     * agents loop when the folders may be slow.
     */
    public static ManifestSet load(java.nio.file.Path managedDir, java.nio.file.Path userDir) {
        List<AgentManifest> layered = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        ManifestLayers.builtins(ManifestSet.class.getClassLoader(), layered, problems);
        ManifestLayers.folder("managed", managedDir, layered, problems);
        ManifestLayers.folder("user", userDir, layered, problems);
        return new ManifestSet(layered, problems);
    }

    /** The active manifests by name. */
    public List<AgentManifest> active() {
        return active;
    }

    public Optional<AgentManifest> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Rules across the active manifests. */
    public int ruleCount() {
        return ruleCount;
    }

    /** The files skipped, in the order they were read. */
    public List<Problem> problems() {
        return problems;
    }

    /**
     * The agent nearest the root in a pane's process tree (root first, then breadth first):
     * an entry whose name is one of a manifest's {@code processNames} ({@code via:"process"}),
     * or an interpreter entry whose script is one of its {@code scripts} ({@code via:"script"};
     * the process scan names a script only for interpreters, see {@link ProcessEntry#script()}).
     * Entries are taken by depth, then in the order given, so a shell's agent child is found
     * before anything that agent runs.
     */
    public Optional<Identity> identify(List<ProcessEntry> processes) {
        ProcessEntry best = null;
        Identity found = null;
        for (ProcessEntry e : processes) {
            if (best != null && e.depth() >= best.depth()) {
                continue;
            }
            AgentManifest m = byProcess.get(e.name());
            String via = "process";
            if (m == null && e.script() != null) {
                m = byScript.get(e.script());
                via = "script";
            }
            if (m != null) {
                best = e;
                found = new Identity(m, e.pid(), via);
            }
        }
        return Optional.ofNullable(found);
    }
}
