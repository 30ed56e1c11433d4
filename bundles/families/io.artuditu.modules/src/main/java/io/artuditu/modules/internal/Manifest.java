package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.Scope;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * A module's {@code module.toml}, parsed and checked whole: first against the format's
 * schema, {@value #SCHEMA} in this bundle (keys, types, ranges, bounds), then what a schema
 * cannot say (versions, the API range, ids declared once, {@code on_enable}, action files,
 * what a bundle module may not declare, settings' types and defaults). The first problem
 * makes the manifest {@link Invalid}, worded as the schema validator words it
 * ({@code actions[0].timeout_ms: must be at most 300000}). Immutable.
 */
record Manifest(String id, String name, String version, String api, String description, Set<Scope> scopes,
        String onEnable, Map<String, Action> actions, Map<String, Dock> docks, Map<String, Bar> bars,
        Map<String, Setting> settings) {

    /** The SDK version modules are checked against: the {@code io.artuditu.sdk} package. */
    static final Version SDK_VERSION = new Version(1, 0, 0);
    static final String FILE = "module.toml";
    /** Where a bundle module carries its manifest. */
    static final String BUNDLE_ENTRY = "META-INF/artuditu/module.toml";
    static final int MAX_BYTES = 64 * 1024;
    /** The format's schema, a resource of this bundle; docs/modules/manifest.md points module authors to it. */
    static final String SCHEMA = "schema/module.schema.json";
    private static final JsonSchema FORMAT = JsonSchema.compile(load());
    /** The longest an action may run, read from the schema so the two cannot disagree. */
    static final int MAX_TIMEOUT_MS = FORMAT.source().at("/properties/actions/items/properties/timeout_ms/maximum").intValue();
    static final int DEFAULT_TIMEOUT_MS = 10_000;

    /** An action: a file to run (script modules) or a Java handler (bundle modules, {@code run} absent). */
    record Action(String id, String title, Path run, List<String> args, int timeoutMs, int everyMs) {
    }

    record Dock(String id, String title, String placement) {
    }

    record Bar(String id, String region, int priority) {
    }

    record Setting(String key, String type, JsonNode defaultValue, List<String> choices, Long min, Long max,
            String description) {
    }

    /** Why a manifest was refused: one message, the first problem found. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        /** A problem of the file itself (where it is, its size, its syntax). */
        Invalid(String message) {
            super(message, null, false, false);
        }

        /** A value the format refuses: {@code path: problem}, the schema validator's wording. */
        Invalid(JsonSchema.Violation v) {
            this(v.toString());
        }
    }

    private static final TomlMapper TOML = new TomlMapper();

    private static JsonNode load() {
        try (InputStream in = Manifest.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is missing from the modules bundle");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The format's schema, as shipped. */
    static JsonNode schema() {
        return FORMAT.source();
    }

    /** A script module's manifest in {@code folder}; action files must be executables inside it. */
    static Manifest ofFolder(Path folder) throws Invalid {
        Path real;
        try {
            real = folder.toRealPath();
        } catch (IOException e) {
            throw new Invalid("cannot open module folder " + folder + ": " + e.getMessage());
        }
        Path file = real.resolve(FILE);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new Invalid(folder + " holds no " + FILE);
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new Invalid(FILE + " is larger than " + MAX_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new Invalid("cannot read " + file + ": " + e.getMessage());
        }
        return parse(bytes, real);
    }

    /** A manifest from bytes; {@code folder} is null for a bundle module (actions are Java handlers). */
    static Manifest parse(byte[] bytes, Path folder) throws Invalid {
        if (bytes.length > MAX_BYTES) {
            throw new Invalid(FILE + " is larger than " + MAX_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = TOML.readTree(bytes);
        } catch (IOException e) {
            throw new Invalid(FILE + " is not valid TOML: " + firstLine(e.getMessage()));
        }
        if (!(root instanceof ObjectNode)) {
            throw new Invalid(FILE + " is empty");
        }
        Optional<JsonSchema.Violation> bad = FORMAT.validate(root, "");
        if (bad.isPresent()) {
            throw new Invalid(bad.get());
        }
        return new Reader(folder).read(root);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    boolean declaresBar(String barId) {
        return bars.containsKey(barId);
    }

    private static Invalid invalid(String path, String problem) {
        return new Invalid(new JsonSchema.Violation(path, problem));
    }

    /** The values of a manifest the schema accepted, and the rules it cannot state. */
    private static final class Reader {
        private final Path folder;

        Reader(Path folder) {
            this.folder = folder;
        }

        Manifest read(JsonNode root) throws Invalid {
            String id = root.get("id").textValue();
            String name = root.get("name").textValue();
            String version = root.get("version").textValue();
            try {
                Version.parseVersion(version);
            } catch (IllegalArgumentException e) {
                throw invalid("version", "must be an OSGi version (major.minor.micro), not \"" + version + "\"");
            }
            String api = root.get("api").textValue();
            VersionRange range;
            try {
                range = new VersionRange(api);
            } catch (IllegalArgumentException e) {
                throw invalid("api", "must be a version range like \"[1.0,2.0)\", not \"" + api + "\"");
            }
            if (!range.includes(SDK_VERSION)) {
                throw invalid("api", "module needs Artuditu API " + api + "; this server provides " + SDK_VERSION);
            }
            String description = text(root, "description", "");
            Set<Scope> scopes = EnumSet.noneOf(Scope.class);
            if (root.has("scopes")) {
                root.get("scopes").forEach(s -> scopes.add(Scope.fromWire(s.textValue()).orElseThrow()));
            } else {
                scopes.add(Scope.READ);
            }
            Map<String, Action> actions = new LinkedHashMap<>();
            JsonNode as = root.path("actions");
            for (int i = 0; i < as.size(); i++) {
                Action a = action(as.get(i), "actions[" + i + "]");
                if (actions.put(a.id(), a) != null) {
                    throw twice("actions[" + i + "].id", a.id());
                }
            }
            Map<String, Dock> docks = new LinkedHashMap<>();
            JsonNode ds = root.path("docks");
            for (int i = 0; i < ds.size(); i++) {
                JsonNode d = ds.get(i);
                String did = d.get("id").textValue();
                if (docks.put(did, new Dock(did, text(d, "title", did), text(d, "placement", "left"))) != null) {
                    throw twice("docks[" + i + "].id", did);
                }
            }
            Map<String, Bar> bars = new LinkedHashMap<>();
            JsonNode bs = root.path("bars");
            for (int i = 0; i < bs.size(); i++) {
                JsonNode b = bs.get(i);
                String bid = b.get("id").textValue();
                if (bars.put(bid, new Bar(bid, text(b, "region", "top-right"), b.path("priority").asInt(0))) != null) {
                    throw twice("bars[" + i + "].id", bid);
                }
            }
            Map<String, Setting> settings = new LinkedHashMap<>();
            JsonNode ss = root.path("settings");
            for (int i = 0; i < ss.size(); i++) {
                Setting setting = setting(ss.get(i), "settings[" + i + "]");
                if (settings.put(setting.key(), setting) != null) {
                    throw twice("settings[" + i + "].key", setting.key());
                }
            }
            String onEnable = text(root, "on_enable", null);
            if (onEnable != null && folder == null) {
                throw invalid("on_enable", "is for script modules: a bundle module's components start when it is enabled");
            }
            if (onEnable != null && !actions.containsKey(onEnable)) {
                throw invalid("on_enable", "names no declared action: " + onEnable);
            }
            return new Manifest(id, name, version, api, description, Collections.unmodifiableSet(scopes), onEnable,
                    Collections.unmodifiableMap(actions), Collections.unmodifiableMap(docks),
                    Collections.unmodifiableMap(bars), Collections.unmodifiableMap(settings));
        }

        private Action action(JsonNode a, String at) throws Invalid {
            String aid = a.get("id").textValue();
            Path run = null;
            if (folder != null) {
                if (!a.has("run")) {
                    throw invalid(at + ".run", "is required: a script module's action runs a file");
                }
                run = executable(a.get("run").textValue(), at + ".run");
            } else if (a.has("run")) {
                throw invalid(at + ".run", "is not allowed: a bundle module's actions are Java handlers");
            }
            List<String> args = new ArrayList<>();
            a.path("args").forEach(x -> args.add(x.textValue()));
            int every = a.path("every_ms").asInt(0);
            if (folder == null && a.has("every_ms")) {
                throw invalid(at + ".every_ms", "is for script modules: a bundle module schedules its own work"
                        + " (ModuleContext.scheduler())");
            }
            return new Action(aid, text(a, "title", aid), run, List.copyOf(args),
                    a.path("timeout_ms").asInt(DEFAULT_TIMEOUT_MS), every);
        }

        /** The action file: relative, inside the (real) module folder after resolving links, executable. */
        private Path executable(String run, String at) throws Invalid {
            Path rel;
            try {
                rel = Path.of(run);
            } catch (RuntimeException e) {
                throw invalid(at, "is not a path: " + run);
            }
            if (rel.isAbsolute()) {
                throw invalid(at, "must be a path inside the module folder: " + run);
            }
            Path target = folder.resolve(rel).normalize();
            if (!target.startsWith(folder)) {
                throw invalid(at, "points outside the module folder: " + run);
            }
            Path real;
            try {
                real = target.toRealPath();
            } catch (IOException e) {
                throw invalid(at, "no such file " + run);
            }
            if (!real.startsWith(folder)) {
                throw invalid(at, run + " is a link to a file outside the module folder");
            }
            if (!Files.isRegularFile(real)) {
                throw invalid(at, run + " is not a regular file");
            }
            if (!Files.isExecutable(real)) {
                throw invalid(at, run + " is not executable (chmod +x " + run + ")");
            }
            return real;
        }

        /** A setting: its choices and bounds belong to its type, and its default fits it. */
        private static Setting setting(JsonNode s, String at) throws Invalid {
            String key = s.get("key").textValue();
            String type = s.get("type").textValue();
            List<String> choices = new ArrayList<>();
            if ("choice".equals(type)) {
                if (!s.has("choices")) {
                    throw invalid(at + ".choices", "is required for type \"choice\"");
                }
                s.get("choices").forEach(x -> choices.add(x.textValue()));
            } else if (s.has("choices")) {
                throw invalid(at + ".choices", "needs type = \"choice\"");
            }
            for (String bound : List.of("min", "max")) {
                if (s.has(bound) && !"integer".equals(type)) {
                    throw invalid(at + "." + bound, "needs type = \"integer\"");
                }
            }
            Long min = s.has("min") ? s.get("min").longValue() : null;
            Long max = s.has("max") ? s.get("max").longValue() : null;
            Setting draft = new Setting(key, type, null, List.copyOf(choices), min, max, text(s, "description", ""));
            JsonNode def = s.get("default");
            String problem = Settings.check(draft, def);
            if (problem != null) {
                throw invalid(at + ".default", problem);
            }
            return new Setting(key, type, def, draft.choices(), min, max, draft.description());
        }

        private static Invalid twice(String path, String id) {
            return invalid(path, "\"" + id + "\" is declared twice");
        }

        /** A string the schema accepted, or {@code absent} when the key is not there. */
        private static String text(JsonNode n, String key, String absent) {
            JsonNode v = n.get(key);
            return v == null ? absent : v.textValue();
        }
    }
}
