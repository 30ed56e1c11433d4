package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * A module's {@code module.toml}, parsed and checked whole: any unknown key, missing
 * field, bad value, action file outside the module folder or not executable makes the
 * manifest {@link Invalid} with one message naming the first problem. Immutable.
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
    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    static final int MAX_ACTIONS = 64;
    static final int MAX_DOCKS = 8;
    /** More than the 16 live widgets a module may show: a module can declare variants and show some. */
    static final int MAX_BARS = 32;
    static final int MAX_SETTINGS = 64;
    static final int DEFAULT_TIMEOUT_MS = 10_000;
    static final int MAX_TIMEOUT_MS = 300_000;
    static final int MIN_EVERY_MS = 1_000;

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

    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private static final TomlMapper TOML = new TomlMapper();

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
        return new Reader(folder).read((ObjectNode) root);
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

    private static final class Reader {
        private final Path folder;

        Reader(Path folder) {
            this.folder = folder;
        }

        Manifest read(ObjectNode root) throws Invalid {
            keys(root, "", Set.of("id", "name", "version", "api", "description", "scopes", "on_enable", "actions",
                    "docks", "bars", "settings"));
            String id = string(root, "id", true);
            if (!ID.matcher(id).matches()) {
                throw new Invalid("id must be 1-64 of a-z, 0-9, '.', '_', '-' starting with a letter or digit: " + id);
            }
            String name = text(root, "name", true, 80);
            String version = string(root, "version", true);
            try {
                Version.parseVersion(version);
            } catch (IllegalArgumentException e) {
                throw new Invalid("version is not a version (major.minor.micro): " + version);
            }
            String api = string(root, "api", true);
            VersionRange range;
            try {
                range = new VersionRange(api);
            } catch (IllegalArgumentException e) {
                throw new Invalid("api is not a version range like \"[1.0,2.0)\": " + api);
            }
            if (!range.includes(SDK_VERSION)) {
                throw new Invalid("module needs Artuditu API " + api + "; this server provides " + SDK_VERSION);
            }
            String description = root.has("description") ? text(root, "description", false, 1024) : "";
            Set<Scope> scopes = EnumSet.noneOf(Scope.class);
            JsonNode sc = root.get("scopes");
            if (sc == null) {
                scopes.add(Scope.READ);
            } else {
                if (!sc.isArray() || sc.isEmpty() || sc.size() > 8) {
                    throw new Invalid("scopes must be a list of 1 to 8 scope names (an action's token holds them)");
                }
                for (JsonNode s : sc) {
                    scopes.add(Scope.fromWire(s.asText()).filter(x -> s.isTextual())
                            .orElseThrow(() -> new Invalid("unknown scope " + s + " (read, workspace, agent, terminal, "
                                    + "orchestration, extensions, admin, all)")));
                }
            }
            Map<String, Action> actions = new LinkedHashMap<>();
            for (ObjectNode a : tables(root, "actions", MAX_ACTIONS)) {
                Action action = action(a);
                if (actions.put(action.id(), action) != null) {
                    throw new Invalid("action " + action.id() + " is declared twice");
                }
            }
            Map<String, Dock> docks = new LinkedHashMap<>();
            for (ObjectNode d : tables(root, "docks", MAX_DOCKS)) {
                keys(d, "docks.", Set.of("id", "title", "placement"));
                String did = localId(d, "docks");
                String placement = d.has("placement") ? choice(d, "placement", List.of("left", "right")) : "left";
                if (docks.put(did, new Dock(did, d.has("title") ? text(d, "title", false, 256) : did, placement)) != null) {
                    throw new Invalid("dock " + did + " is declared twice");
                }
            }
            Map<String, Bar> bars = new LinkedHashMap<>();
            for (ObjectNode b : tables(root, "bars", MAX_BARS)) {
                keys(b, "bars.", Set.of("id", "region", "priority"));
                String bid = localId(b, "bars");
                String region = b.has("region") ? choice(b, "region", List.of("top-right", "bottom-right", "off"))
                        : "top-right";
                int priority = b.has("priority") ? (int) integer(b, "priority", -1000, 1000) : 0;
                if (bars.put(bid, new Bar(bid, region, priority)) != null) {
                    throw new Invalid("bar " + bid + " is declared twice");
                }
            }
            Map<String, Setting> settings = new LinkedHashMap<>();
            for (ObjectNode s : tables(root, "settings", MAX_SETTINGS)) {
                Setting setting = setting(s);
                if (settings.put(setting.key(), setting) != null) {
                    throw new Invalid("setting " + setting.key() + " is declared twice");
                }
            }
            String onEnable = root.has("on_enable") ? string(root, "on_enable", false) : null;
            if (onEnable != null && folder == null) {
                throw new Invalid("on_enable is for script modules; a bundle module's components start when it is enabled");
            }
            if (onEnable != null && !actions.containsKey(onEnable)) {
                throw new Invalid("on_enable names no declared action: " + onEnable);
            }
            return new Manifest(id, name, version, api, description, Collections.unmodifiableSet(scopes), onEnable,
                    Collections.unmodifiableMap(actions), Collections.unmodifiableMap(docks),
                    Collections.unmodifiableMap(bars), Collections.unmodifiableMap(settings));
        }

        private Action action(ObjectNode a) throws Invalid {
            keys(a, "actions.", Set.of("id", "title", "run", "args", "timeout_ms", "every_ms"));
            String aid = localId(a, "actions");
            String title = a.has("title") ? text(a, "title", false, 256) : aid;
            Path run = null;
            if (folder != null) {
                run = executable(string(a, "run", true), aid);
            } else if (a.has("run")) {
                throw new Invalid("action " + aid + ": a bundle module's actions are Java handlers; run is not allowed");
            }
            List<String> args = new ArrayList<>();
            JsonNode ar = a.get("args");
            if (ar != null) {
                if (!ar.isArray() || ar.size() > 64) {
                    throw new Invalid("action " + aid + ": args must be a list of at most 64 strings");
                }
                for (JsonNode x : ar) {
                    if (!x.isTextual() || x.textValue().length() > 4096) {
                        throw new Invalid("action " + aid + ": args must be strings of at most 4096 characters");
                    }
                    args.add(x.textValue());
                }
            }
            int timeout = a.has("timeout_ms") ? (int) integer(a, "timeout_ms", 100, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
            int every = a.has("every_ms") ? (int) integer(a, "every_ms", MIN_EVERY_MS, 86_400_000) : 0;
            if (folder == null && every > 0) {
                throw new Invalid("action " + aid + ": a bundle module schedules its own work (ModuleContext.scheduler());"
                        + " every_ms is for script modules");
            }
            return new Action(aid, title, run, List.copyOf(args), timeout, every);
        }

        /** The action file: relative, inside the (real) module folder after resolving links, executable. */
        private Path executable(String run, String aid) throws Invalid {
            Path rel;
            try {
                rel = Path.of(run);
            } catch (RuntimeException e) {
                throw new Invalid("action " + aid + ": run is not a path: " + run);
            }
            if (rel.isAbsolute()) {
                throw new Invalid("action " + aid + ": run must be a path inside the module folder: " + run);
            }
            Path target = folder.resolve(rel).normalize();
            if (!target.startsWith(folder)) {
                throw new Invalid("action " + aid + ": run points outside the module folder: " + run);
            }
            Path real;
            try {
                real = target.toRealPath();
            } catch (IOException e) {
                throw new Invalid("action " + aid + ": no such file " + run);
            }
            if (!real.startsWith(folder)) {
                throw new Invalid("action " + aid + ": " + run + " is a link to a file outside the module folder");
            }
            if (!Files.isRegularFile(real)) {
                throw new Invalid("action " + aid + ": " + run + " is not a regular file");
            }
            if (!Files.isExecutable(real)) {
                throw new Invalid("action " + aid + ": " + run + " is not executable (chmod +x " + run + ")");
            }
            return real;
        }

        private Setting setting(ObjectNode s) throws Invalid {
            keys(s, "settings.", Set.of("key", "type", "default", "choices", "min", "max", "description"));
            JsonNode kn = s.get("key");
            if (kn == null || !kn.isTextual() || !ID.matcher(kn.textValue()).matches()) {
                throw new Invalid("settings: key must be 1-64 of a-z, 0-9, '.', '_', '-'");
            }
            String key = kn.textValue();
            String type = choice(s, "type", List.of("string", "integer", "boolean", "choice"));
            List<String> choices = new ArrayList<>();
            if ("choice".equals(type)) {
                JsonNode c = s.get("choices");
                if (c == null || !c.isArray() || c.isEmpty() || c.size() > 64) {
                    throw new Invalid("setting " + key + ": a choice needs 1-64 choices");
                }
                for (JsonNode x : c) {
                    if (!x.isTextual() || x.textValue().length() > 256) {
                        throw new Invalid("setting " + key + ": choices must be short strings");
                    }
                    choices.add(x.textValue());
                }
            } else if (s.has("choices")) {
                throw new Invalid("setting " + key + ": choices need type = \"choice\"");
            }
            Long min = s.has("min") ? integer(s, "min", Long.MIN_VALUE, Long.MAX_VALUE) : null;
            Long max = s.has("max") ? integer(s, "max", Long.MIN_VALUE, Long.MAX_VALUE) : null;
            if ((min != null || max != null) && !"integer".equals(type)) {
                throw new Invalid("setting " + key + ": min and max need type = \"integer\"");
            }
            Setting draft = new Setting(key, type, null, List.copyOf(choices), min, max,
                    s.has("description") ? text(s, "description", false, 1024) : "");
            JsonNode def = s.get("default");
            if (def == null) {
                throw new Invalid("setting " + key + ": default is required");
            }
            String problem = Settings.check(draft, def);
            if (problem != null) {
                throw new Invalid("setting " + key + ": default " + problem);
            }
            return new Setting(key, type, def, draft.choices(), min, max, draft.description());
        }

        private static List<ObjectNode> tables(ObjectNode root, String key, int max) throws Invalid {
            JsonNode n = root.get(key);
            List<ObjectNode> out = new ArrayList<>();
            if (n == null) {
                return out;
            }
            if (!n.isArray()) {
                throw new Invalid(key + " must be an array of tables ([[" + key + "]])");
            }
            if (n.size() > max) {
                throw new Invalid("at most " + max + " [[" + key + "]] entries");
            }
            for (JsonNode x : n) {
                if (!(x instanceof ObjectNode)) {
                    throw new Invalid(key + " must be an array of tables ([[" + key + "]])");
                }
                out.add((ObjectNode) x);
            }
            return out;
        }

        private static void keys(ObjectNode n, String where, Set<String> allowed) throws Invalid {
            for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
                String k = it.next();
                if (!allowed.contains(k)) {
                    throw new Invalid("unknown key " + where + k + " (allowed: " + String.join(", ", allowed) + ")");
                }
            }
        }

        private static String localId(ObjectNode n, String where) throws Invalid {
            JsonNode v = n.get("id");
            if (v == null || !v.isTextual() || !ID.matcher(v.textValue()).matches()) {
                throw new Invalid(where + ": id must be 1-64 of a-z, 0-9, '.', '_', '-'" + (v == null ? "" : ": " + v));
            }
            return v.textValue();
        }

        private static String string(ObjectNode n, String key, boolean required) throws Invalid {
            JsonNode v = n.get(key);
            if (v == null) {
                if (required) {
                    throw new Invalid(key + " is required");
                }
                return null;
            }
            if (!v.isTextual() || v.textValue().isEmpty() || v.textValue().length() > 256) {
                throw new Invalid(key + " must be a non-empty string of at most 256 characters");
            }
            return v.textValue();
        }

        private static String text(ObjectNode n, String key, boolean required, int max) throws Invalid {
            JsonNode v = n.get(key);
            if (v == null) {
                if (required) {
                    throw new Invalid(key + " is required");
                }
                return null;
            }
            if (!v.isTextual() || v.textValue().isEmpty()) {
                throw new Invalid(key + " must be a non-empty string");
            }
            String s = v.textValue();
            if (s.length() > max || Limits.hasControl(s)) {
                throw new Invalid(key + " must be at most " + max + " characters without control characters");
            }
            return s;
        }

        private static String choice(ObjectNode n, String key, List<String> choices) throws Invalid {
            String s = string(n, key, true);
            if (!choices.contains(s)) {
                throw new Invalid(key + " must be one of " + choices + ": " + s);
            }
            return s;
        }

        private static long integer(ObjectNode n, String key, long min, long max) throws Invalid {
            JsonNode v = n.get(key);
            if (v == null || !v.canConvertToLong() || !v.isIntegralNumber() || v.longValue() < min || v.longValue() > max) {
                throw new Invalid(key + " must be an integer from " + min + " to " + max);
            }
            return v.longValue();
        }
    }
}
