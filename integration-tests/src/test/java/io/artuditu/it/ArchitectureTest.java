package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rules the tree keeps so that a method or a family stays cheap to add, checked on the
 * sources every bundle builds from:
 * <ul>
 * <li>every method that names a workspace, tab, pane, terminal or agent declares it (its
 * contract's {@code target} or {@code targets}), so the dispatcher resolves it once, and the
 * handler never does;</li>
 * <li>{@code not_found} is made in one place ({@code UhpException.notFound}), so every one
 * has the same details shape;</li>
 * <li>an event is declared by the contract of the bundle whose code produces it.</li>
 * </ul>
 */
class ArchitectureTest {
    /** Params that name an object a resolver knows. */
    static final Set<String> NAMING = Set.of("pane", "tab", "tab_id", "workspace", "workspace_id", "terminal_id",
            "target", "anchor", "with", "with_tab_id");

    /**
     * Params that name an object without being a target, each with the reason: the id says
     * where to create something (and is refused as not_found when it is gone, before any
     * spawn), or is the question itself.
     */
    static final Map<String, String> NOT_TARGETS = Map.of(
            "terminal.backend.create workspace_id", "where the new pane goes; an unknown one is not_found",
            "module.pane.open workspace_id", "where the module's pane goes, as terminal.backend.create",
            "terminal.backend.validate terminal_id", "the question itself: a gone terminal is an answer, not an error",
            "checkpoint.list pane", "a filter on stored checkpoint refs, which outlive their pane");

    static final Path BUNDLES = Cli.ROOT.resolve("bundles");

    /** Every contract file under bundles/, by the bundle folder that carries it. */
    static Map<Path, List<JsonNode>> contracts() throws IOException {
        Map<Path, List<JsonNode>> out = new HashMap<>();
        for (Path bundle : bundleFolders()) {
            Path dir = bundle.resolve("src/main/resources/protocol/uhp/v1");
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                    out.computeIfAbsent(bundle, b -> new ArrayList<>()).add(Wire.M.readTree(f.toFile()));
                }
            }
        }
        return out;
    }

    static List<Path> bundleFolders() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> roles = Files.list(BUNDLES)) {
            for (Path role : roles.filter(Files::isDirectory).toList()) {
                try (Stream<Path> bundles = Files.list(role)) {
                    bundles.filter(b -> Files.isDirectory(b.resolve("src"))).forEach(out::add);
                }
            }
        }
        return out;
    }

    static List<Path> mainSources(Path bundle) {
        Path src = bundle.resolve("src/main/java");
        if (!Files.isDirectory(src)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(src)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyMethodThatNamesAnObjectDeclaresItAsATarget() throws IOException {
        List<String> undeclared = new ArrayList<>();
        int checked = 0;
        for (List<JsonNode> files : contracts().values()) {
            for (JsonNode file : files) {
                for (Map.Entry<String, JsonNode> m : (Iterable<Map.Entry<String, JsonNode>>) file.path("methods")::fields) {
                    checked++;
                    JsonNode row = m.getValue();
                    Set<String> covered = new HashSet<>();
                    List<JsonNode> specs = new ArrayList<>();
                    specs.add(row.path("target"));
                    row.path("targets").forEach(specs::add);
                    for (JsonNode t : specs) {
                        covered.add(t.path("id").asText(null));
                        covered.add(t.path("position").asText(null));
                        if ("tab".equals(t.path("kind").asText())) {
                            covered.add("workspace"); // a tab's position counts in the named workspace
                            covered.add("workspace_id");
                        }
                        if ("agent".equals(t.path("kind").asText())) {
                            covered.add("pane"); // an agent's pane by its plain id, beside its target
                        }
                    }
                    for (Map.Entry<String, JsonNode> p : (Iterable<Map.Entry<String, JsonNode>>) row.path("params")
                            .path("properties")::fields) {
                        String key = m.getKey() + " " + p.getKey();
                        if (NAMING.contains(p.getKey()) && !covered.contains(p.getKey()) && !NOT_TARGETS.containsKey(key)) {
                            undeclared.add(key);
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "read the contracts: " + checked + " methods");
        assertEquals(List.of(), undeclared, "params that name an object without a declared target");
    }

    @Test
    void notFoundIsMadeInOnePlace() throws IOException {
        List<String> elsewhere = new ArrayList<>();
        Pattern direct = Pattern.compile("ErrorCode\\.NOT_FOUND|UhpException\\.notFound\\(\"[^\"]*\"\\)");
        for (Path bundle : bundleFolders()) {
            for (Path f : mainSources(bundle)) {
                if (f.getFileName().toString().equals("UhpException.java")) {
                    continue;
                }
                String s = Files.readString(f);
                Matcher m = direct.matcher(s);
                while (m.find()) {
                    elsewhere.add(BUNDLES.relativize(f) + ": " + m.group());
                }
            }
        }
        assertEquals(List.of(), elsewhere, "not_found made without UhpException.notFound(kind, id, field, …)");
    }

    @Test
    void anEventIsDeclaredByTheBundleWhoseCodeProducesIt() throws IOException {
        Map<String, Path> declaredBy = new HashMap<>();
        for (Map.Entry<Path, List<JsonNode>> e : contracts().entrySet()) {
            for (JsonNode file : e.getValue()) {
                file.path("events").fieldNames().forEachRemaining(name -> {
                    Path before = declaredBy.put(name, e.getKey());
                    assertTrue(before == null || before.equals(e.getKey()), name + " is declared by two bundles");
                });
            }
        }
        // What a bundle produces: the name given to the bus, or to a topology change's event.
        Pattern produced = Pattern.compile(
                "(?:\\.publish|\\.publishObservation|TopologyEvent\\.of|TopologyEvent\\.withNulls)\\(\"([a-z_.]+)\"");
        Set<String> wrong = new TreeSet<>();
        int seen = 0;
        for (Path bundle : bundleFolders()) {
            for (Path f : mainSources(bundle)) {
                Matcher m = produced.matcher(Files.readString(f));
                while (m.find()) {
                    seen++;
                    Path owner = declaredBy.get(m.group(1));
                    if (!bundle.equals(owner)) {
                        wrong.add(m.group(1) + " produced in " + BUNDLES.relativize(f) + ", declared by "
                                + (owner == null ? "no contract" : BUNDLES.relativize(owner)));
                    }
                }
            }
        }
        assertTrue(seen > 20, "found the producers: " + seen);
        assertEquals(Set.of(), wrong);
    }
}
