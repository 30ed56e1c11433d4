package io.artuditu.uhp.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the {@code artu} command line spells a method, as its contract declares it
 * ({@code "cli"}). A method {@code a.b.c} is always {@code artu a b c}, flags always
 * mirror params; this block adds only what the schema cannot say. Immutable.
 *
 * @param positionals params filled, in order, by bare arguments
 * @param rest        a param (array or object) that takes every remaining bare argument, or null
 * @param env         param → environment variable whose value fills it when the command line does not
 * @param defaults    params the command line fills when not given (raw JSON values)
 * @param aliases     further command paths ({@code "workspace unpin"}) for this method, each with the params
 *                    it fixes (given ones win)
 * @param flags       extra flag names → the param each sets ({@code ttl} → {@code ttl_s})
 *
 * <p>The block may also name {@code files} (flag → param whose JSON value the command line
 * reads from the file the flag names) and {@code stdin} (a param read from standard input);
 * both are checked here and carried out by the command line alone.
 */
public record CliSpec(List<String> positionals, String rest, Map<String, String> env, Map<String, JsonNode> defaults,
        Map<String, Map<String, JsonNode>> aliases, Map<String, String> flags) {

    /** A method that declares nothing: flags only, no positionals. */
    public static final CliSpec NONE = new CliSpec(List.of(), null, Map.of(), Map.of(), Map.of(), Map.of());

    public CliSpec {
        positionals = List.copyOf(positionals);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        defaults = Collections.unmodifiableMap(new LinkedHashMap<>(defaults));
        Map<String, Map<String, JsonNode>> a = new LinkedHashMap<>();
        aliases.forEach((k, v) -> a.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        aliases = Collections.unmodifiableMap(a);
        flags = Collections.unmodifiableMap(new LinkedHashMap<>(flags));
    }

    /**
     * The contract's {@code "cli"} object checked against the method's params schema:
     * every name it uses is a param, {@code rest} is an array or object, an alias path is
     * words. {@link #NONE} when {@code node} is missing.
     */
    static CliSpec parse(String method, JsonNode node, JsonNode params) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return NONE;
        }
        JsonNode props = params.path("properties");
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!List.of("positionals", "rest", "env", "defaults", "aliases", "flags", "files", "stdin").contains(k)) {
                throw new IllegalStateException(method + ": unknown cli key " + k);
            }
        }
        List<String> positionals = new ArrayList<>();
        for (JsonNode p : node.path("positionals")) {
            positionals.add(param(method, props, p.asText(), "positional"));
        }
        if (positionals.size() != positionals.stream().distinct().count()) {
            throw new IllegalStateException(method + ": a positional is named twice");
        }
        String rest = node.hasNonNull("rest") ? param(method, props, node.get("rest").asText(), "rest") : null;
        if (rest != null && !List.of("array", "object").contains(props.path(rest).path("type").asText())) {
            throw new IllegalStateException(method + ": rest param " + rest + " is neither an array nor an object");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("env").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            env.put(param(method, props, e.getKey(), "env"), e.getValue().asText());
        }
        Map<String, JsonNode> defaults = fixed(method, props, node.path("defaults"));
        Map<String, Map<String, JsonNode>> aliases = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("aliases").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().matches("[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)*")) {
                throw new IllegalStateException(method + ": alias is not a command path: " + e.getKey());
            }
            aliases.put(e.getKey(), fixed(method, props, e.getValue()));
        }
        Map<String, String> flags = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("flags").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            flags.put(e.getKey(), param(method, props, e.getValue().asText(), "flag"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("files").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            param(method, props, e.getValue().asText(), "file flag");
        }
        if (node.hasNonNull("stdin")) {
            param(method, props, node.get("stdin").asText(), "stdin");
        }
        return new CliSpec(positionals, rest, env, defaults, aliases, flags);
    }

    private static Map<String, JsonNode> fixed(String method, JsonNode props, JsonNode values) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        if (!values.isMissingNode() && !(values instanceof ObjectNode)) {
            throw new IllegalStateException(method + ": cli params must be an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = values.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(param(method, props, e.getKey(), "fixed"), e.getValue());
        }
        return m;
    }

    private static String param(String method, JsonNode props, String name, String what) {
        if (!props.has(name)) {
            throw new IllegalStateException(method + ": cli " + what + " " + name + " is not a param");
        }
        return name;
    }
}
