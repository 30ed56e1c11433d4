package io.artuditu.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Usage and help text, generated from the contract: the global usage (hand-written
 * commands, then the contract's nouns), a command's one-line usage (from its
 * {@link Command}, no JSON library), and {@code --help} for any command (description, every
 * param with its type, limits and description, positionals, environment defaults, aliases,
 * an example), which reads the full contract entry.
 */
final class Help {
    private Help() {
    }

    static String global() {
        return global(List.of());
    }

    /** The global usage; {@code live}: the nouns only the running server offers (a module's), listed after the contract's. */
    static String global(List<String> live) {
        StringBuilder b = new StringBuilder("usage: artu [--session NAME] COMMAND [ARG]... [--flag VALUE]...\n\n");
        b.append("Every UHP method is a command: method a.b.c is `artu a b c` (dashes or underscores),\n");
        b.append("flags mirror its params; `artu NOUN` lists verbs, `artu COMMAND --help` explains one,\n");
        b.append("`artu help --all` lists every command.\n");
        b.append("Commands the installed contract lacks (a module's methods) come from the running server.\n\n");
        b.append("  ").append(String.join(", ", Commands.next(Commands.keys(), ""))).append("\n\n");
        if (!live.isEmpty()) {
            b.append("From the running server: ").append(String.join(", ", live)).append("\n\n");
        }
        b.append("Written by hand (local or streaming):\n").append(Artu.LOCAL_USAGE).append("\n\n");
        b.append("Exit status: 0 ok, 1 the server answered with an error, 2 usage, 3 no server,\n");
        b.append("4 a wait timed out, 5 an event stream was cut (docs/cli.md).\n");
        b.append("Inside a pane, $ARTUDITU_SOCKET_PATH selects the server unless --session is given,\n");
        b.append("and commands given no pane act on $ARTUDITU_PANE_ID. With $ARTUDITU_TOKEN set, every\n");
        b.append("request carries that delegated token as auth.");
        return b.toString();
    }

    /** {@code artu workspace rename [WORKSPACE] NAME [--workspace-id VALUE]...}. */
    static String usageLine(Command c, String typed) {
        StringBuilder b = new StringBuilder("artu ").append(typed);
        for (int i = 0; i < c.positionals.size(); i++) {
            String p = c.positionals.get(i).toUpperCase(Locale.ROOT);
            boolean optional = i == 0 && c.leadingOptional || !c.required.contains(c.positionals.get(i));
            b.append(' ').append(optional ? "[" + p + "]" : p);
        }
        if (c.rest != null) {
            b.append(c.params.get(c.rest).type().equals("object") ? " [KEY=VALUE]..." : " [" + c.rest.toUpperCase(Locale.ROOT) + "]...");
        }
        for (Command.Param p : c.params.values()) {
            if (!c.positionals.contains(p.name) && !p.name.equals(c.rest)) {
                boolean req = c.required.contains(p.name);
                String flag = "--" + p.name.replace('_', '-') + (p.type().equals("boolean") ? "" : " " + placeholder(p));
                for (java.util.Map.Entry<String, String> f : c.files.entrySet()) {
                    if (f.getValue().equals(p.name)) {
                        flag += "|--" + f.getKey() + " FILE";
                    }
                }
                if (p.name.equals(c.stdin)) {
                    flag += "|stdin";
                }
                b.append(' ').append(req && !p.name.equals(c.stdin) ? flag : "[" + flag + "]");
            }
        }
        return b.toString();
    }

    private static String placeholder(Command.Param p) {
        if (!p.enumValues.isEmpty()) {
            return String.join("|", p.enumValues);
        }
        switch (p.type()) {
            case "integer": return "N";
            case "number": return "X";
            case "object": return "JSON";
            case "array": return p.itemTypes.contains("integer") ? "N" : "VALUE";
            default: return "VALUE";
        }
    }

    /** {@code --help} of a command; {@code liveRow} is its capabilities row when the server supplied it. */
    static String method(Command c, String typed, String liveRow) {
        JsonNode entry;
        try {
            entry = liveRow != null ? new ObjectMapper().readTree(liveRow)
                    : Contract.document().path("methods").path(c.method);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable capabilities row: " + e.getOriginalMessage(), e);
        }
        JsonNode schema = entry.path("params");
        StringBuilder b = new StringBuilder("usage: ").append(usageLine(c, typed)).append("\n\n");
        String description = entry.path("description").asText(schema.path("description").asText(""));
        b.append("UHP method ").append(c.method).append(" (scope ").append(entry.path("scope").asText("?"));
        if (entry.path("mutates").asBoolean(false)) {
            b.append(", changes state");
        }
        if (c.stream) {
            b.append(", a stream: one JSON line per frame until the server ends it");
        }
        if (liveRow != null) {
            b.append(", from the running server's bundle ").append(entry.path("bundle").asText("?"));
        }
        b.append(")\n");
        if (!description.isEmpty()) {
            b.append(wrap(description, "")).append('\n');
        }
        if (!c.positionals.isEmpty() || c.rest != null) {
            b.append("\narguments, in order:\n");
            for (int i = 0; i < c.positionals.size(); i++) {
                String p = c.positionals.get(i);
                b.append("  ").append(p.toUpperCase(Locale.ROOT)).append("  the --").append(p.replace('_', '-'))
                        .append(" param").append(i == 0 && c.leadingOptional ? "; may be left out (then the focused one)" : "")
                        .append('\n');
            }
            if (c.rest != null) {
                b.append("  ").append(c.params.get(c.rest).type().equals("object")
                        ? "KEY=VALUE...  entries of --" + c.rest.replace('_', '-')
                                + " (empty value removes, true/false and integers typed)"
                        : c.rest.toUpperCase(Locale.ROOT) + "...  the items of --" + c.rest.replace('_', '-')).append('\n');
            }
        }
        b.append("\nflags (each a param; --json '{...}' adds raw params):\n");
        if (c.params.isEmpty()) {
            b.append("  none\n");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            Command.Param p = c.params.get(e.getKey());
            b.append("  --").append(e.getKey().replace('_', '-'));
            if (!p.type().equals("boolean") && !p.types.isEmpty()) {
                b.append(' ').append(placeholder(p));
            }
            b.append("  ").append(describe(e.getValue(), c.required.contains(e.getKey()))).append('\n');
            String d = e.getValue().path("description").asText("");
            if (!d.isEmpty()) {
                b.append(wrap(d, "      ")).append('\n');
            }
        }
        for (Map.Entry<String, String> f : c.flags.entrySet()) {
            b.append("  --").append(f.getKey().replace('_', '-')).append("  the same as --")
                    .append(f.getValue().replace('_', '-')).append('\n');
        }
        if (!c.env.isEmpty() || !c.defaults.isEmpty()) {
            b.append("\ndefaults:\n");
            for (Map.Entry<String, String> e : c.env.entrySet()) {
                b.append("  --").append(e.getKey().replace('_', '-')).append(" from $").append(e.getValue())
                        .append(" when set and no other target is given\n");
            }
            for (Map.Entry<String, String> e : c.defaults.entrySet()) {
                b.append("  --").append(e.getKey().replace('_', '-')).append(' ').append(e.getValue())
                        .append(" unless given\n");
            }
        }
        List<String> aliases = aliases(c.method);
        if (!aliases.isEmpty()) {
            b.append("\nalso: ").append(String.join("; ", aliases)).append('\n');
        }
        b.append("\nexample:\n  ").append(example(c, typed, schema));
        return b.toString();
    }

    /** Type, limits, default and required-ness of one param schema. */
    private static String describe(JsonNode s, boolean required) {
        StringBuilder b = new StringBuilder();
        JsonNode type = s.path("type");
        b.append(type.isArray() ? join(type, " or ") : type.isMissingNode() ? s.has("enum") ? "one of " + join(s.get("enum"), ", ")
                : s.has("const") ? "only " + s.get("const") : "any JSON" : type.asText());
        if (s.has("enum") && s.has("type")) {
            b.append(", one of ").append(join(s.get("enum"), ", "));
        }
        if (s.path("items").has("type")) {
            b.append(" of ").append(s.path("items").path("type").asText()).append(" (repeat the flag)");
        }
        limit(b, s, "minimum", "≥ ");
        limit(b, s, "maximum", "≤ ");
        limit(b, s, "minLength", "at least ", " bytes");
        limit(b, s, "maxLength", "at most ", " bytes");
        limit(b, s, "minItems", "at least ", " items");
        limit(b, s, "maxItems", "at most ", " items");
        limit(b, s, "pattern", "matching ");
        limit(b, s, "default", "default ");
        if (required) {
            b.append("; required");
        }
        return b.toString();
    }

    private static void limit(StringBuilder b, JsonNode s, String key, String prefix) {
        limit(b, s, key, prefix, "");
    }

    private static void limit(StringBuilder b, JsonNode s, String key, String prefix, String suffix) {
        if (s.has(key)) {
            b.append(", ").append(prefix).append(s.get(key).isTextual() && !key.equals("default") ? s.get(key).asText()
                    : s.get(key).toString()).append(suffix);
        }
    }

    private static String join(JsonNode array, String sep) {
        StringBuilder b = new StringBuilder();
        for (JsonNode n : array) {
            b.append(b.length() > 0 ? sep : "").append(n.asText());
        }
        return b.toString();
    }

    /** The other command paths of a method (the contract's cli.aliases). */
    private static List<String> aliases(String method) {
        List<String> out = new java.util.ArrayList<>();
        for (String k : Commands.keys()) {
            String e = Commands.entry(k);
            if (e.startsWith("{\"alias\":") && method.equals(MiniJson.stringValue(MiniJson.members(e).get("alias")))) {
                String fixed = MiniJson.members(e).get("fixed");
                out.add("artu " + Command.words(k) + (fixed.equals("{}") ? "" : " (sets " + fixed + ")"));
            }
        }
        return out;
    }

    /** A command line using the positionals and the required params, with values the schema allows. */
    static String example(Command c, String typed, JsonNode schema) {
        StringBuilder b = new StringBuilder("artu ").append(typed);
        JsonNode props = schema.path("properties");
        for (String p : c.positionals) {
            if (c.required.contains(p) || !c.leadingOptional || !p.equals(c.positionals.get(0))) {
                b.append(' ').append(sample(p, props.path(p), c.params.get(p)));
            }
        }
        if (c.rest != null) {
            b.append(c.params.get(c.rest).type().equals("object") ? " key=value" : " " + sample(c.rest, props.path(c.rest).path("items"),
                    new Command.Param(c.rest, c.params.get(c.rest).itemTypes, List.of(), List.of())));
        }
        for (String r : c.required) {
            if (!c.positionals.contains(r) && !r.equals(c.rest)) {
                Command.Param p = c.params.get(r);
                b.append(" --").append(r.replace('_', '-'));
                if (!p.type().equals("boolean")) {
                    b.append(' ').append(sample(r, props.path(r), p));
                }
            }
        }
        return b.toString();
    }

    private static String sample(String name, JsonNode s, Command.Param p) {
        if (s.has("examples") && s.get("examples").size() > 0) {
            return quoteIfNeeded(s.get("examples").get(0).asText());
        }
        if (!p.enumValues.isEmpty()) {
            return p.enumValues.get(0);
        }
        switch (p.type()) {
            case "integer":
                return s.has("minimum") ? s.get("minimum").asText() : "1";
            case "number":
                return "0.5";
            case "boolean":
                return "true";
            case "object":
                return "'{}'";
            default:
                return name.toLowerCase(Locale.ROOT);
        }
    }

    private static String quoteIfNeeded(String v) {
        return v.isEmpty() || v.indexOf(' ') >= 0 || v.indexOf('{') >= 0 ? "'" + v + "'" : v;
    }

    /** Wraps at 92 columns with {@code indent}. */
    private static String wrap(String text, String indent) {
        StringBuilder b = new StringBuilder(indent);
        int col = indent.length();
        for (String w : text.split(" ")) {
            if (col > indent.length() && col + 1 + w.length() > 92) {
                b.append('\n').append(indent);
                col = indent.length();
            } else if (col > indent.length()) {
                b.append(' ');
                col++;
            }
            b.append(w);
            col += w.length();
        }
        return b.toString();
    }

    /** The whole installed contract, pretty-printed: {@code artu uhp schema}. */
    static String schema() {
        try {
            return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(Contract.document());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
