package io.artuditu.agents.internal.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one agent manifest (TOML, {@code docs/agents/manifests.md}) and checks it whole: an
 * unknown key, a missing field, a value of the wrong type or out of range, a pattern RE2
 * rejects, or a bound exceeded makes it {@link Invalid} with one message naming the first
 * problem. Stateless and thread-safe.
 *
 * <p>Bounds (each documented in the format): {@value #MAX_BYTES} bytes a file,
 * {@value #MAX_RULES} rules, {@value #MAX_PATTERN} characters a pattern, {@value #MAX_ROWS}
 * rows a region, priorities 0 to {@value #MAX_PRIORITY}, confidences 0 to 1,
 * {@value #MAX_NAMES} process or script names, {@value #MAX_HOOKS} hook events,
 * {@value #MAX_ARGS} arguments of {@value #MAX_ARG} characters a command.
 */
final class ManifestReader {
    static final int MAX_BYTES = 64 * 1024;
    static final int MAX_RULES = 64;
    static final int MAX_PATTERN = 1024;
    static final int MAX_ROWS = 200;
    static final int MAX_PRIORITY = 1000;
    static final int MAX_NAMES = 32;
    static final int MAX_HOOKS = 64;
    static final int MAX_ARGS = 64;
    static final int MAX_ARG = 1024;
    static final int MAX_DISPLAY = 80;

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final java.util.regex.Pattern RULE_ID = NAME;
    private static final java.util.regex.Pattern EVENT = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");
    private static final TomlMapper TOML = new TomlMapper();

    /** Why a manifest was refused: one message, the first problem found. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private ManifestReader() {
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
        return read((ObjectNode) root, source, path);
    }

    private static AgentManifest read(ObjectNode root, String source, String path) throws Invalid {
        keys(root, "", Set.of("name", "display_name", "fallback", "process", "launch", "hooks", "rules"));
        String name = string(root, "name", true, 64);
        if (!NAME.matcher(name).matches()) {
            throw new Invalid("name must be 1-64 of a-z, 0-9, '.', '_', '-' starting with a letter or digit: " + name);
        }
        String display = root.has("display_name") ? string(root, "display_name", false, MAX_DISPLAY) : name;
        Status fallback = root.has("fallback") ? status(root, "fallback", "") : Status.UNKNOWN;

        ObjectNode process = table(root, "process", true);
        keys(process, "process.", Set.of("names", "scripts"));
        Set<String> names = nameList(process, "process.", "names");
        Set<String> scripts = nameList(process, "process.", "scripts");
        if (names.isEmpty() && scripts.isEmpty()) {
            throw new Invalid("process needs names or scripts: nothing would identify the agent");
        }

        ObjectNode launch = table(root, "launch", true);
        keys(launch, "launch.", Set.of("command", "start_session", "resume", "fork"));
        List<String> command = argv(launch, "command", true);
        if (command.stream().anyMatch(a -> a.contains(AgentManifest.SESSION))) {
            throw new Invalid("launch.command must not use " + AgentManifest.SESSION + " (start_session pins an id)");
        }
        List<String> start = argv(launch, "start_session", false);
        List<String> resume = argv(launch, "resume", false);
        List<String> fork = argv(launch, "fork", false);

        Map<String, Status> hooks = new LinkedHashMap<>();
        ObjectNode h = table(root, "hooks", false);
        if (h != null) {
            if (h.size() > MAX_HOOKS) {
                throw new Invalid("hooks lists " + h.size() + " events, more than " + MAX_HOOKS);
            }
            for (Iterator<String> it = h.fieldNames(); it.hasNext();) {
                String event = it.next();
                if (!EVENT.matcher(event).matches()) {
                    throw new Invalid("hooks: event name " + quote(event)
                            + " must be 1-64 of letters, digits, '.', '_', ':', '-' starting with a letter or digit");
                }
                hooks.put(event, status(h, event, "hooks."));
            }
        }

        List<Rule> rules = rules(root);
        return new AgentManifest(name, display, source, path, names, scripts, command, start, resume, fork, hooks,
                rules, fallback);
    }

    private static List<Rule> rules(ObjectNode root) throws Invalid {
        JsonNode r = root.get("rules");
        if (r == null) {
            return List.of();
        }
        if (!r.isArray()) {
            throw new Invalid("rules must be an array of tables ([[rules]])");
        }
        if (r.size() > MAX_RULES) {
            throw new Invalid("rules has " + r.size() + " entries, more than " + MAX_RULES);
        }
        List<Rule> rules = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < r.size(); i++) {
            JsonNode n = r.get(i);
            String at = "rules[" + i + "].";
            if (!(n instanceof ObjectNode)) {
                throw new Invalid("rules[" + i + "] must be a table");
            }
            ObjectNode t = (ObjectNode) n;
            keys(t, at, Set.of("id", "region", "rows", "pattern", "status", "priority", "confidence"));
            String id = string(t, "id", true, 64, at);
            if (!RULE_ID.matcher(id).matches()) {
                throw new Invalid(at + "id must be 1-64 of a-z, 0-9, '.', '_', '-' starting with a letter or digit: " + id);
            }
            if (!ids.add(id)) {
                throw new Invalid(at + "id " + id + " is used twice");
            }
            at = "rules[" + i + "] (" + id + ").";
            Region region = region(t, at);
            String source = string(t, "pattern", true, MAX_PATTERN, at);
            if (source.isEmpty()) {
                throw new Invalid(at + "pattern is empty");
            }
            Pattern pattern;
            try {
                pattern = Pattern.compile(source, Pattern.MULTILINE);
            } catch (PatternSyntaxException e) {
                throw new Invalid(at + "pattern is not valid RE2 syntax: " + firstLine(e.getMessage()));
            }
            Status status = status(t, "status", at);
            int priority = (int) integer(t, "priority", at, 0, MAX_PRIORITY);
            double confidence = number(t, "confidence", at, 0, 1);
            rules.add(new Rule(id, region, pattern, status, priority, confidence));
        }
        // Evaluation order: the first match wins. The sort is stable, so ties keep file order.
        rules.sort(Comparator.comparingInt(Rule::priority).reversed());
        return rules;
    }

    private static Region region(ObjectNode t, String at) throws Invalid {
        String kind = string(t, "region", true, 32, at);
        Region.Kind k = switch (kind) {
            case "last_rows" -> Region.Kind.LAST_ROWS;
            case "box" -> Region.Kind.BOX;
            case "title" -> Region.Kind.TITLE;
            case "cursor_row" -> Region.Kind.CURSOR_ROW;
            default -> throw new Invalid(at + "region must be last_rows, box, title or cursor_row, not " + quote(kind));
        };
        boolean counted = k == Region.Kind.LAST_ROWS || k == Region.Kind.BOX;
        if (!counted) {
            if (t.has("rows")) {
                throw new Invalid(at + "rows does not apply to region " + kind);
            }
            return new Region(k, 1);
        }
        if (!t.has("rows")) {
            throw new Invalid(at + "rows is missing (region " + kind + " needs how many rows, 1 to " + MAX_ROWS + ")");
        }
        return new Region(k, (int) integer(t, "rows", at, 1, MAX_ROWS));
    }

    /** Fails on the first key not in {@code allowed}. */
    private static void keys(ObjectNode node, String at, Set<String> allowed) throws Invalid {
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new Invalid("unknown key " + at + k + " (allowed: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }

    private static ObjectNode table(ObjectNode root, String key, boolean required) throws Invalid {
        JsonNode n = root.get(key);
        if (n == null) {
            if (required) {
                throw new Invalid("[" + key + "] is missing");
            }
            return null;
        }
        if (!(n instanceof ObjectNode)) {
            throw new Invalid(key + " must be a table ([" + key + "])");
        }
        return (ObjectNode) n;
    }

    private static String string(ObjectNode n, String key, boolean required, int max) throws Invalid {
        return string(n, key, required, max, "");
    }

    private static String string(ObjectNode n, String key, boolean required, int max, String at) throws Invalid {
        JsonNode v = n.get(key);
        if (v == null) {
            if (required) {
                throw new Invalid(at + key + " is missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid(at + key + " must be a string, not " + type(v));
        }
        String s = v.textValue();
        if (s.length() > max) {
            throw new Invalid(at + key + " is longer than " + max + " characters");
        }
        return s;
    }

    private static Status status(ObjectNode n, String key, String at) throws Invalid {
        String s = string(n, key, true, 16, at);
        return Status.fromWire(s).orElseThrow(() -> new Invalid(
                at + key + " must be idle, working, blocked, done or unknown, not " + quote(s)));
    }

    private static long integer(ObjectNode n, String key, String at, long min, long max) throws Invalid {
        JsonNode v = n.get(key);
        if (v == null) {
            throw new Invalid(at + key + " is missing");
        }
        if (!v.isIntegralNumber()) {
            throw new Invalid(at + key + " must be an integer, not " + type(v));
        }
        if (!v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw new Invalid(at + key + " must be from " + min + " to " + max + ", not " + v.asText());
        }
        return v.longValue();
    }

    private static double number(ObjectNode n, String key, String at, double min, double max) throws Invalid {
        JsonNode v = n.get(key);
        if (v == null) {
            throw new Invalid(at + key + " is missing");
        }
        if (!v.isNumber()) {
            throw new Invalid(at + key + " must be a number, not " + type(v));
        }
        double d = v.doubleValue();
        if (!(d >= min && d <= max)) {
            throw new Invalid(at + key + " must be from " + min + " to " + max + ", not " + v.asText());
        }
        return d;
    }

    /** Process or script names: base names, no '/', no control characters. */
    private static Set<String> nameList(ObjectNode n, String at, String key) throws Invalid {
        Set<String> out = new LinkedHashSet<>();
        for (String s : strings(n, at, key, MAX_NAMES, 64)) {
            if (s.isEmpty() || s.indexOf('/') >= 0 || s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw new Invalid(at + key + ": " + quote(s) + " is not a base name (no '/', no control characters)");
            }
            out.add(s);
        }
        return out;
    }

    private static List<String> argv(ObjectNode n, String key, boolean required) throws Invalid {
        if (!n.has(key)) {
            if (required) {
                throw new Invalid("launch." + key + " is missing");
            }
            return List.of();
        }
        List<String> a = strings(n, "launch.", key, MAX_ARGS, MAX_ARG);
        if (required && a.isEmpty()) {
            throw new Invalid("launch." + key + " is empty");
        }
        if (a.stream().anyMatch(String::isEmpty)) {
            throw new Invalid("launch." + key + " has an empty argument");
        }
        if (!required && !a.isEmpty() && a.stream().noneMatch(s -> s.contains(AgentManifest.SESSION))) {
            throw new Invalid("launch." + key + " must carry the session id as " + AgentManifest.SESSION);
        }
        return a;
    }

    private static List<String> strings(ObjectNode n, String at, String key, int maxItems, int maxLength) throws Invalid {
        JsonNode v = n.get(key);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new Invalid(at + key + " must be an array of strings, not " + type(v));
        }
        if (v.size() > maxItems) {
            throw new Invalid(at + key + " has " + v.size() + " entries, more than " + maxItems);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new Invalid(at + key + " must hold only strings, not " + type(e));
            }
            if (e.textValue().length() > maxLength) {
                throw new Invalid(at + key + " has an entry longer than " + maxLength + " characters");
            }
            out.add(e.textValue());
        }
        return out;
    }

    private static String type(JsonNode v) {
        if (v.isTextual()) {
            return "a string";
        }
        if (v.isIntegralNumber()) {
            return "an integer";
        }
        if (v.isNumber()) {
            return "a number";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v.isObject()) {
            return "a table";
        }
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
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
