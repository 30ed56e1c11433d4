package io.artuditu.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.schema.UhpContract;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code artu workspace|tab|pane|layout|session VERB [POSITIONAL]... [--flag [VALUE]]...}: one
 * request to {@code GROUP.VERB} (dashes in VERB become underscores) with params built from the
 * arguments, as the spec says ("parameter shapes mirror the CLI flags"). Param types come from the
 * installed contract, so only positionals and aliases live in the tables below:
 * <ul>
 * <li>{@code --name x} / {@code --name=x} sets {@code name} (dashes → underscores); integer and
 * number params become numbers, booleans booleans, object params are parsed as JSON;</li>
 * <li>array params collect repeated flags; the singular also works ({@code --workspace 1 --workspace 2}
 * → {@code workspaces}, {@code --key Enter} → {@code keys});</li>
 * <li>a bare flag naming a value of an enum param sets it ({@code tab new --git} →
 * {@code "kind":"git"}); other bare flags are {@code true} ({@code pane split --down} →
 * {@code "down":true}, the spec's own request), {@code --no-x} is {@code false} for a boolean
 * {@code x};</li>
 * <li>{@code --json '{…}'} adds raw params; flags and positionals win over it;</li>
 * <li>positionals whose first is the pane or tab fill from the right when fewer are given
 * ({@code pane rename web}, {@code tab rename logs}: the name), since those have defaults;</li>
 * <li>a method taking {@code pane} with none given uses {@code $ARTUDITU_PANE_ID} when set, and
 * {@code workspace report-metadata} with no workspace uses {@code $ARTUDITU_WORKSPACE_ID};</li>
 * <li>{@code workspace report-metadata branch=main dirty=true port=3000 old=} sets metadata entries
 * (empty: remove; true/false and integers typed; {@code --metadata '{…}'} for exact types).</li>
 * </ul>
 */
final class TopologyCommands {
    static final String USAGE_LINES = String.join("\n",
            "  workspace|tab|pane|layout|session VERB [ARG]... [--param VALUE]... [--json PARAMS]",
            "                          the GROUP.VERB method (e.g. workspace rename 0 api, pane split --down,",
            "                          tab move 2 --to 1, layout export, session snapshot); artu GROUP lists verbs");

    /** Positional parameter names per method; a trailing {@code *} takes every remaining argument. */
    private static final Map<String, List<String>> POSITIONALS = Map.ofEntries(
            Map.entry("workspace.open", List.of("cwd", "name")),
            Map.entry("workspace.rename", List.of("workspace", "name")),
            Map.entry("workspace.move", List.of("workspace", "to")),
            Map.entry("workspace.move_block", List.of("workspaces*")),
            Map.entry("workspace.report_metadata", List.of("metadata*")),
            Map.entry("tab.new", List.of("name")),
            Map.entry("tab.swap", List.of("tab", "with")),
            Map.entry("tab.rename", List.of("tab", "name")),
            Map.entry("pane.run", List.of("pane", "command")),
            Map.entry("pane.swap", List.of("pane", "with")),
            Map.entry("pane.rename", List.of("pane", "name")),
            Map.entry("pane.purpose", List.of("pane", "purpose")));

    /** Group defaults when the table has no entry: the object a verb acts on. */
    private static final Map<String, List<String>> GROUP_POSITIONALS = Map.of(
            "workspace", List.of("workspace"), "tab", List.of("tab"), "pane", List.of("pane"));

    /** Verbs that are another method with a fixed param; the explicit ones win. */
    private static final Map<String, String> ALIASES = Map.of(
            "workspace.pin", "workspace.pin {\"pinned\":true}",
            "workspace.unpin", "workspace.pin {\"pinned\":false}");

    /** A mapped request. */
    record Request(String method, String params) {
    }

    /** A mistake in the arguments: exit 2 before any request. */
    static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /**
     * Made on first use, not when the class initializes: Artu's usage text reads
     * {@link #USAGE_LINES} on every run, and building a mapper costs a one-shot command
     * such as {@code artu ping} about 70 ms of class loading.
     */
    private static final class Json {
        static final ObjectMapper M = new ObjectMapper();
    }

    private final UhpClient client;
    private final Artu artu;
    private final Map<String, String> env;
    private final PrintStream err;

    TopologyCommands(UhpClient client, Artu artu, Map<String, String> env, PrintStream err) {
        this.client = client;
        this.artu = artu;
        this.env = env;
        this.err = err;
    }

    int run(String group, List<String> args) throws IOException {
        Request r;
        try {
            r = map(group, args, env);
        } catch (Usage e) {
            err.println("artu: " + e.getMessage());
            err.println(USAGE_LINES);
            return Artu.USAGE;
        }
        return artu.print(client.call(r.method(), r.params()));
    }

    /** {@code args} starts with the verb. */
    static Request map(String group, List<String> args, Map<String, String> env) throws Usage {
        String verb = args.isEmpty() ? "" : args.get(0).replace('-', '_');
        String method = group + "." + verb;
        ObjectNode fixed = Json.M.createObjectNode();
        String alias = ALIASES.get(method);
        if (alias != null) {
            method = alias.substring(0, alias.indexOf(' '));
            fixed = (ObjectNode) parse(alias.substring(alias.indexOf(' ') + 1), "alias");
        }
        JsonNode methods = UhpContract.standard().document().path("methods");
        if (verb.isEmpty() || !methods.has(method)) {
            throw new Usage((verb.isEmpty() ? group + " needs a verb" : "unknown " + group + " command: " + args.get(0))
                    + " (" + verbs(group, methods) + ")");
        }
        JsonNode props = methods.path(method).path("params").path("properties");
        ObjectNode params = Json.M.createObjectNode();
        ObjectNode raw = Json.M.createObjectNode();
        List<String> positionals = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                positionals.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (!a.startsWith("--") || a.length() == 2) {
                positionals.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            if (name.contains("=")) {
                value = name.substring(name.indexOf('=') + 1);
                name = name.substring(0, name.indexOf('='));
            }
            String key = name.replace('-', '_');
            boolean hasNext = i + 1 < args.size() && !args.get(i + 1).startsWith("--");
            if (key.equals("json")) {
                if (value == null && i + 1 >= args.size()) {
                    throw new Usage("--json needs a JSON object");
                }
                JsonNode j = parse(value != null ? value : args.get(++i), "--json");
                if (!j.isObject()) {
                    throw new Usage("--json needs a JSON object");
                }
                raw.setAll((ObjectNode) j);
                continue;
            }
            if (!props.has(key) && props.has(key + "s") && type(props.path(key + "s")).equals("array")) {
                key = key + "s";
            }
            JsonNode prop = props.get(key);
            if (value == null) {
                String owner = prop == null ? enumOwner(props, key) : null;
                if (owner != null) {
                    set(params, owner, key, props.get(owner));
                    continue;
                }
                if (prop == null && key.startsWith("no_") && type(props.path(key.substring(3))).equals("boolean")) {
                    set(params, key.substring(3), "false", props.get(key.substring(3)));
                    continue;
                }
                boolean bool = prop != null && type(prop).equals("boolean");
                boolean takesValue = prop == null ? hasNext : !bool && !type(prop).isEmpty()
                        || bool && hasNext && args.get(i + 1).matches("true|false");
                if (!takesValue) {
                    params.put(key, true);
                    continue;
                }
                if (i + 1 >= args.size()) {
                    throw new Usage("--" + name + " needs a value");
                }
                value = args.get(++i);
            }
            set(params, key, value, prop);
        }
        List<String> names = POSITIONALS.getOrDefault(method,
                props.has(GROUP_POSITIONALS.getOrDefault(group, List.of("")).get(0))
                        ? GROUP_POSITIONALS.get(group) : List.of());
        if (positionals.size() < names.size() && !names.get(0).endsWith("*")
                && (names.get(0).equals("pane") || names.get(0).equals("tab"))) {
            // the pane or tab has a default ($ARTUDITU_PANE_ID, the active tab): fewer arguments fill
            // from the right, so `pane purpose "dev server"` names the purpose, not the pane
            names = names.subList(names.size() - positionals.size(), names.size());
        }
        for (int p = 0; p < positionals.size(); p++) {
            if (p >= names.size()) {
                throw new Usage(group + " " + args.get(0) + " takes "
                        + (names.isEmpty() ? "no arguments" : "arguments " + names) + ", got " + positionals);
            }
            String n = names.get(p);
            if (n.endsWith("*")) {
                n = n.substring(0, n.length() - 1);
                for (String v : positionals.subList(p, positionals.size())) {
                    if (type(props.path(n)).equals("object")) {
                        entry(params.has(n) ? (ObjectNode) params.get(n) : params.putObject(n), v);
                    } else {
                        set(params, n, v, props.get(n));
                    }
                }
                break;
            }
            set(params, n, positionals.get(p), props.get(n));
        }
        String paneId = env.get("ARTUDITU_PANE_ID");
        if (props.has("pane") && !params.has("pane") && !raw.has("pane") && paneId != null && !paneId.isBlank()) {
            params.put("pane", paneId);
        }
        String wsId = env.get("ARTUDITU_WORKSPACE_ID");
        if (method.equals("workspace.report_metadata") && !params.has("workspace") && !params.has("workspace_id")
                && !raw.has("workspace") && !raw.has("workspace_id") && wsId != null && !wsId.isBlank()) {
            params.put("workspace_id", wsId);
        }
        raw.setAll(fixed);
        raw.setAll(params);
        return new Request(method, raw.toString());
    }

    /**
     * A {@code KEY=VALUE} argument into an object param: an empty value is null (removes the
     * key), true/false a boolean, up to 18 digits an integer, anything else a string.
     */
    private static void entry(ObjectNode o, String arg) throws Usage {
        int eq = arg.indexOf('=');
        if (eq <= 0) {
            throw new Usage("expected KEY=VALUE, got " + arg);
        }
        String k = arg.substring(0, eq);
        String v = arg.substring(eq + 1);
        if (v.isEmpty()) {
            o.putNull(k);
        } else if (v.equals("true") || v.equals("false")) {
            o.put(k, v.equals("true"));
        } else if (v.matches("-?[0-9]{1,18}")) {
            o.put(k, Long.parseLong(v));
        } else {
            o.put(k, v);
        }
    }

    /** Puts {@code value}, typed by the contract's {@code prop} (null when the contract does not know it). */
    private static void set(ObjectNode params, String key, String value, JsonNode prop) throws Usage {
        String type = prop == null ? "" : type(prop);
        if (type.equals("array")) {
            JsonNode existing = params.get(key);
            ArrayNode arr = existing instanceof ArrayNode ? (ArrayNode) existing : params.putArray(key);
            arr.add(typed(value, type(prop.path("items")), key));
            return;
        }
        if (params.has(key)) {
            throw new Usage("--" + key.replace('_', '-') + " given twice");
        }
        params.set(key, typed(value, type, key));
    }

    private static JsonNode typed(String value, String type, String key) throws Usage {
        switch (type) {
            case "integer":
                return value.matches("-?[0-9]{1,18}") ? Json.M.getNodeFactory().numberNode(Long.parseLong(value))
                        : Json.M.getNodeFactory().textNode(value);
            case "number":
                try {
                    return Json.M.getNodeFactory().numberNode(new java.math.BigDecimal(value));
                } catch (NumberFormatException e) {
                    return Json.M.getNodeFactory().textNode(value);
                }
            case "boolean":
                if (value.equals("true") || value.equals("false")) {
                    return Json.M.getNodeFactory().booleanNode(value.equals("true"));
                }
                throw new Usage(key + " is true or false, got " + value);
            case "object":
                return parse(value, key);
            default:
                return Json.M.getNodeFactory().textNode(value);
        }
    }

    /** The contract type of a property: its {@code type}, the first non-null of a list, or "" when untyped. */
    private static String type(JsonNode prop) {
        JsonNode t = prop.path("type");
        if (t.isArray()) {
            for (JsonNode x : t) {
                if (!x.asText().equals("null")) {
                    return x.asText();
                }
            }
        }
        return t.isMissingNode() && prop.has("enum") ? "string" : t.asText("");
    }

    /** The enum param that has {@code value} among its values, or null. */
    private static String enumOwner(JsonNode props, String value) {
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            for (JsonNode v : e.getValue().path("enum")) {
                if (v.asText().equals(value)) {
                    return e.getKey();
                }
            }
        }
        return null;
    }

    private static JsonNode parse(String json, String what) throws Usage {
        try {
            return Json.M.readTree(json);
        } catch (JsonProcessingException e) {
            throw new Usage(what + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** The group's verbs as typed on the command line. */
    static String verbs(String group, JsonNode methods) {
        List<String> verbs = new ArrayList<>();
        for (Iterator<String> it = methods.fieldNames(); it.hasNext();) {
            String m = it.next();
            if (m.startsWith(group + ".") && m.indexOf('.', group.length() + 1) < 0) {
                verbs.add(m.substring(group.length() + 1).replace('_', '-'));
            }
        }
        for (String a : ALIASES.keySet()) {
            String v = a.substring(group.length() + 1);
            if (a.startsWith(group + ".") && !verbs.contains(v)) {
                verbs.add(v);
            }
        }
        return String.join(", ", verbs);
    }
}
