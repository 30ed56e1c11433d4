package io.artuditu.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One method as the command line sees it: its params (names and JSON types), and the
 * contract's {@code cli} block (positionals, rest, environment defaults, fixed params, extra
 * flag names). Read with {@link MiniJson} from a contract entry (the build's command index,
 * or a live server's {@code uhp.capabilities} row), so no JSON library loads on the way.
 */
final class Command {
    /** One param: its JSON types ({@code integer}, {@code string}…; empty when untyped), items' types, enum values. */
    static final class Param {
        final String name;
        final List<String> types;
        final List<String> itemTypes;
        final List<String> enumValues;

        Param(String name, List<String> types, List<String> itemTypes, List<String> enumValues) {
            this.name = name;
            this.types = types;
            this.itemTypes = itemTypes;
            this.enumValues = enumValues;
        }

        /** The first non-null type, {@code string} for a bare enum, "" when untyped. */
        String type() {
            for (String t : types) {
                if (!t.equals("null")) {
                    return t;
                }
            }
            return "";
        }

        boolean accepts(String type) {
            return types.contains(type);
        }
    }

    final String method;
    final boolean stream;
    final Map<String, Param> params;
    final List<String> required;
    final List<String> positionals;
    final String rest;
    /** param → environment variable. */
    final Map<String, String> env;
    /** param → raw JSON value the command line fills when not given. */
    final Map<String, String> defaults;
    /** extra flag name → param. */
    final Map<String, String> flags;
    /** The first positional names the method's target and may be left out (the focused one is used). */
    final boolean leadingOptional;
    /** The fields naming the target (id, position), which an environment default must not override. */
    final List<String> targetFields;
    /** flag name → param whose JSON value is read from the file the flag names ({@code --content-file}). */
    final Map<String, String> files;
    /** The param read as JSON from standard input when not given and stdin is not a terminal, or null. */
    final String stdin;

    private Command(String method, boolean stream, Map<String, Param> params, List<String> required,
            List<String> positionals, String rest, Map<String, String> env, Map<String, String> defaults,
            Map<String, String> flags, boolean leadingOptional, List<String> targetFields, Map<String, String> files,
            String stdin) {
        this.method = method;
        this.stream = stream;
        this.params = params;
        this.required = required;
        this.positionals = positionals;
        this.rest = rest;
        this.env = env;
        this.defaults = defaults;
        this.flags = flags;
        this.leadingOptional = leadingOptional;
        this.targetFields = targetFields;
        this.files = files;
        this.stdin = stdin;
    }

    /**
     * A method from its contract entry: an object with {@code params} (a JSON Schema; only
     * {@code properties}, {@code required}, {@code type}, {@code enum}, {@code const} and
     * {@code items} are read) and optionally {@code stream}, {@code target} and {@code cli}.
     * {@code fixed} (raw JSON object or null) adds defaults, for an alias.
     */
    static Command parse(String method, String entry, String fixed) {
        Map<String, String> m = MiniJson.members(entry);
        Map<String, String> schema = m.containsKey("params") ? MiniJson.members(m.get("params")) : Map.of();
        Map<String, Param> params = new LinkedHashMap<>();
        if (schema.containsKey("properties")) {
            for (Map.Entry<String, String> p : MiniJson.members(schema.get("properties")).entrySet()) {
                Map<String, String> ps = MiniJson.members(p.getValue());
                List<String> items = ps.containsKey("items") ? types(MiniJson.members(ps.get("items"))) : List.of();
                List<String> enums = new ArrayList<>();
                for (String e : MiniJson.elements(ps.get("enum"))) {
                    String v = MiniJson.stringValue(e);
                    if (v != null) {
                        enums.add(v);
                    }
                }
                params.put(p.getKey(), new Param(p.getKey(), types(ps), items, enums));
            }
        }
        Map<String, String> cli = m.containsKey("cli") ? MiniJson.members(m.get("cli")) : Map.of();
        Map<String, String> defaults = new LinkedHashMap<>();
        if (cli.containsKey("defaults")) {
            defaults.putAll(MiniJson.members(cli.get("defaults")));
        }
        if (fixed != null) {
            defaults.putAll(MiniJson.members(fixed));
        }
        List<String> positionals = strings(cli.get("positionals"));
        List<String> targetFields = new ArrayList<>();
        boolean leadingOptional = false;
        if (m.containsKey("target")) {
            Map<String, String> t = MiniJson.members(m.get("target"));
            addString(targetFields, t.get("id"));
            addString(targetFields, t.get("position"));
            leadingOptional = "focused".equals(MiniJson.stringValue(t.get("omitted"))) && !positionals.isEmpty()
                    && targetFields.contains(positionals.get(0));
        }
        return new Command(method, "true".equals(m.get("stream")), params, strings(schema.get("required")),
                positionals, MiniJson.stringValue(cli.get("rest")), stringMap(cli.get("env")), defaults,
                stringMap(cli.get("flags")), leadingOptional, targetFields, stringMap(cli.get("files")),
                MiniJson.stringValue(cli.get("stdin")));
    }

    /** The words typed for this method: {@code terminal.backend.send_key} → {@code terminal backend send-key}. */
    static String words(String dotted) {
        return dotted.replace('.', ' ').replace('_', '-');
    }

    private static List<String> types(Map<String, String> s) {
        List<String> out = new ArrayList<>();
        String t = s.get("type");
        if (t != null && t.startsWith("[")) {
            for (String e : MiniJson.elements(t)) {
                out.add(MiniJson.stringValue(e));
            }
        } else if (t != null) {
            out.add(MiniJson.stringValue(t));
        } else if (s.containsKey("enum")) {
            out.add("string");
        } else if (s.containsKey("const")) {
            String c = s.get("const");
            out.add(c.startsWith("\"") ? "string" : c.equals("true") || c.equals("false") ? "boolean" : "");
        }
        return out;
    }

    private static List<String> strings(String rawArray) {
        List<String> out = new ArrayList<>();
        for (String e : MiniJson.elements(rawArray)) {
            out.add(MiniJson.stringValue(e));
        }
        return out;
    }

    private static Map<String, String> stringMap(String rawObject) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawObject != null) {
            for (Map.Entry<String, String> e : MiniJson.members(rawObject).entrySet()) {
                out.put(e.getKey(), MiniJson.stringValue(e.getValue()));
            }
        }
        return out;
    }

    private static void addString(List<String> to, String raw) {
        String v = MiniJson.stringValue(raw);
        if (v != null) {
            to.add(v);
        }
    }
}
