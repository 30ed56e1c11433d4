package io.artuditu.agents.internal.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one agent manifest (TOML, {@code docs/agents/manifests.md}) and checks it whole:
 * first against the format's schema, {@value #SCHEMA} in this bundle (keys, types, ranges,
 * bounds), then what a schema cannot say: every pattern compiles as RE2, {@code rows} is
 * given exactly for the regions that count rows, a rule id is used once, {@code [process]}
 * names something, and {@code {session}} is where it belongs. The first problem makes the
 * file {@link Invalid}, worded as the schema validator words it ({@code rules[0].priority:
 * must be at most 1000}). Stateless and thread-safe.
 *
 * <p>Beyond the schema: {@value #MAX_BYTES} bytes a file, checked before it is parsed.
 */
final class ManifestReader {
    static final int MAX_BYTES = 64 * 1024;
    /** The format's schema, a resource of this bundle; docs/agents/manifests.md points users to it. */
    static final String SCHEMA = "schema/agent-manifest.schema.json";

    private static final JsonSchema FORMAT = JsonSchema.compile(load());
    /** Bounds the rest of the bundle relies on, read from the schema so the two cannot disagree. */
    static final int MAX_RULES = bound("/properties/rules/maxItems");
    static final int MAX_ROWS = bound("/properties/rules/items/properties/rows/maximum");
    static final int MAX_PATTERN = bound("/properties/rules/items/properties/pattern/maxLength");

    private static final TomlMapper TOML = new TomlMapper();

    /** Why a manifest was refused: one message, the first problem found. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        /** A problem of the file itself (its size, its syntax, where it lies). */
        Invalid(String message) {
            super(message, null, false, false);
        }

        /** A value the format refuses: {@code path: problem}, the schema validator's wording. */
        Invalid(JsonSchema.Violation v) {
            this(v.toString());
        }
    }

    private ManifestReader() {
    }

    private static JsonNode load() {
        try (InputStream in = ManifestReader.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is missing from the agents bundle");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int bound(String pointer) {
        return FORMAT.source().at(pointer).intValue();
    }

    /** The format's schema, as shipped. */
    static JsonNode schema() {
        return FORMAT.source();
    }

    /** Parses and validates {@code bytes}, read from {@code path} of layer {@code source}. */
    static AgentManifest parse(byte[] bytes, String source, String path) throws Invalid {
        if (bytes.length > MAX_BYTES) {
            throw new Invalid("the file is larger than " + MAX_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = TOML.readTree(bytes);
        } catch (IOException e) {
            throw new Invalid("not valid TOML: " + firstLine(e.getMessage()));
        }
        if (!(root instanceof ObjectNode) || root.isEmpty()) {
            throw new Invalid("the file is empty");
        }
        Optional<JsonSchema.Violation> bad = FORMAT.validate(root, "");
        if (bad.isPresent()) {
            throw new Invalid(bad.get());
        }
        return read(root, source, path);
    }

    /** The values of a manifest the schema accepted. */
    private static AgentManifest read(JsonNode root, String source, String path) throws Invalid {
        String name = root.get("name").textValue();
        String display = root.has("display_name") ? root.get("display_name").textValue() : name;
        Status fallback = root.has("fallback") ? status(root.get("fallback")) : Status.UNKNOWN;

        JsonNode process = root.get("process");
        Set<String> names = new LinkedHashSet<>(strings(process.get("names")));
        Set<String> scripts = new LinkedHashSet<>(strings(process.get("scripts")));
        if (names.isEmpty() && scripts.isEmpty()) {
            throw invalid("process", "needs names or scripts: nothing would identify the agent");
        }

        JsonNode launch = root.get("launch");
        List<String> command = strings(launch.get("command"));
        for (int i = 0; i < command.size(); i++) {
            if (command.get(i).contains(AgentManifest.SESSION)) {
                throw invalid("launch.command[" + i + "]", "must not use " + AgentManifest.SESSION
                        + " (start_session pins an id)");
            }
        }
        List<String> start = withSession(launch, "start_session");
        List<String> resume = withSession(launch, "resume");
        List<String> fork = withSession(launch, "fork");

        Map<String, Status> hooks = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("hooks").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            hooks.put(e.getKey(), status(e.getValue()));
        }

        int format = root.has("format") ? root.get("format").intValue() : 1;
        return new AgentManifest(name, display, source, path, names, scripts, command, start, resume, fork, hooks,
                rules(root.get("rules"), format), fallback);
    }

    private static List<Rule> rules(JsonNode r, int format) throws Invalid {
        if (r == null) {
            return List.of();
        }
        List<Rule> rules = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < r.size(); i++) {
            JsonNode t = r.get(i);
            String at = "rules[" + i + "]";
            String id = t.get("id").textValue();
            if (!ids.add(id)) {
                throw invalid(at + ".id", quote(id) + " is declared twice");
            }
            if (format < 2) {
                for (String key : List.of("anchor", "unless", "needs")) {
                    if (t.has(key)) {
                        throw invalid(at + "." + key, "needs format = 2 at the top of the file");
                    }
                }
            }
            Region region = region(t, at, format);
            Pattern pattern = compile(t, "pattern", at);
            rules.add(new Rule(id, region, pattern, status(t.get("status")), t.get("priority").intValue(),
                    t.get("confidence").doubleValue(), t.has("unless") ? compile(t, "unless", at) : null,
                    strings(t.get("needs"))));
        }
        // Evaluation order: the first match wins. The sort is stable, so ties keep file order.
        rules.sort(Comparator.comparingInt(Rule::priority).reversed());
        return rules;
    }

    private static Pattern compile(JsonNode t, String key, String at) throws Invalid {
        try {
            return Pattern.compile(t.get(key).textValue(), Pattern.MULTILINE);
        } catch (PatternSyntaxException e) {
            throw invalid(at + "." + key, "is not valid RE2 syntax: " + firstLine(e.getMessage()));
        }
    }

    /**
     * {@code rows} belongs to the regions that count rows, and to them it is required;
     * {@code anchor} to {@code above} and {@code below} (format 2), and to them it is required.
     */
    private static Region region(JsonNode t, String at, int format) throws Invalid {
        String kind = t.get("region").textValue();
        Region.Kind k = Region.Kind.valueOf(kind.toUpperCase(java.util.Locale.ROOT));
        if (k.anchored() && format < 2) {
            throw invalid(at + ".region", "region " + kind + " needs format = 2 at the top of the file");
        }
        if (k.anchored() != t.has("anchor")) {
            throw invalid(at + ".anchor", k.anchored() ? "is required for region " + kind + " (where it is cut)"
                    : "does not apply to region " + kind);
        }
        if (!k.counted()) {
            if (t.has("rows")) {
                throw invalid(at + ".rows", "does not apply to region " + kind);
            }
            return new Region(k, 1);
        }
        if (!t.has("rows")) {
            throw invalid(at + ".rows", "is required for region " + kind + " (how many rows, 1 to " + MAX_ROWS + ")");
        }
        return new Region(k, t.get("rows").intValue(), k.anchored() ? compile(t, "anchor", at) : null);
    }

    /** An optional session command: empty when absent, else it must carry the session id. */
    private static List<String> withSession(JsonNode launch, String key) throws Invalid {
        List<String> a = strings(launch.get(key));
        if (!a.isEmpty() && a.stream().noneMatch(s -> s.contains(AgentManifest.SESSION))) {
            throw invalid("launch." + key, "must carry the session id as " + AgentManifest.SESSION);
        }
        return a;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(e -> out.add(e.textValue()));
        }
        return out;
    }

    /** A state the schema's enum admitted. */
    private static Status status(JsonNode v) {
        return Status.fromWire(v.textValue()).orElseThrow();
    }

    private static Invalid invalid(String path, String problem) {
        return new Invalid(new JsonSchema.Violation(path, problem));
    }

    private static String quote(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        return "\"" + cut + "\"";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
