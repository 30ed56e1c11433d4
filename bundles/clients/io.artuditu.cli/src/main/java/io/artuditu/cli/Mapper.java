package io.artuditu.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command's arguments → its params, as JSON text, typed by the method's params schema
 * (the spec: "parameter shapes mirror the CLI flags"):
 * <ul>
 * <li>{@code --name x} / {@code --name=x} sets {@code name} (dashes → underscores); integer,
 * number and boolean params take only such values, object params a JSON object;</li>
 * <li>array params collect repeated flags; the singular also works ({@code --workspace 1
 * --workspace 2} → {@code workspaces}, {@code --key Enter} → {@code keys});</li>
 * <li>a bare flag naming a value of an enum param sets it ({@code tab new --git} →
 * {@code "kind":"git"}); other bare flags of booleans are {@code true} ({@code pane split --down}),
 * {@code --no-x} is {@code false} for a boolean {@code x};</li>
 * <li>{@code --json '{…}'} adds raw params; flags and positionals win over it, and it wins over
 * the contract's {@code cli.defaults} and an alias's fixed params;</li>
 * <li>bare arguments fill the contract's {@code cli.positionals} in order, then its
 * {@code cli.rest} (array: one item each; object: {@code KEY=VALUE} entries, empty removes,
 * true/false and integers typed); when the first positional names the method's target and
 * the target may be omitted, one argument fewer skips it ({@code pane rename web});</li>
 * <li>{@code cli.env} fills a param from the environment when neither it nor another field of
 * the same target was given ({@code $ARTUDITU_PANE_ID});</li>
 * <li>an array param also takes one whole JSON array ({@code --content '[{…}]'});</li>
 * <li>the contract's {@code cli.files} flags read a param's JSON value from a file
 * ({@code --content-file bar.json}), and {@code cli.stdin} names a param read as JSON from
 * standard input when it is not given and stdin is not a terminal (rows piped into
 * {@code ui dock push}); both at most {@link #MAX_INPUT_BYTES};</li>
 * <li>a missing required param, an unknown flag or a mistyped value is a usage error (exit 2)
 * before any request.</li>
 * </ul>
 */
final class Mapper {
    /** A mistake in the arguments: exit 2 before any request. */
    static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /** Largest JSON value read from a file or standard input. */
    static final int MAX_INPUT_BYTES = 1 << 20;

    private final Command c;
    private final String shown;
    private final Map<String, String> set = new LinkedHashMap<>();
    private final Map<String, List<String>> arrays = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> entries = new LinkedHashMap<>();

    private Mapper(Command c, String shown) {
        this.c = c;
        this.shown = shown;
    }

    /** The params of {@code c} (typed as {@code shown}) from {@code args}, the words after the command. */
    static String params(Command c, String shown, List<String> args, Map<String, String> env) throws Usage {
        return new Mapper(c, shown).map(args, env, () -> null);
    }

    /** As above; {@code stdin} gives standard input's text, or null when it is a terminal. */
    static String params(Command c, String shown, List<String> args, Map<String, String> env,
            java.util.function.Supplier<String> stdin) throws Usage {
        return new Mapper(c, shown).map(args, env, stdin);
    }

    private String map(List<String> args, Map<String, String> env, java.util.function.Supplier<String> stdin)
            throws Usage {
        Map<String, String> raw = new LinkedHashMap<>();
        List<String> bare = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                bare.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (!a.startsWith("--") || a.length() == 2) {
                bare.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            String key = name.replace('-', '_');
            boolean hasNext = i + 1 < args.size() && !args.get(i + 1).startsWith("--");
            if (key.equals("json")) {
                if (value == null && i + 1 >= args.size()) {
                    throw new Usage("--json needs a JSON object");
                }
                String j = value != null ? value : args.get(++i);
                if (!MiniJson.isObject(j)) {
                    throw new Usage("--json needs a JSON object, got " + j);
                }
                raw.putAll(MiniJson.members(j));
                continue;
            }
            if (c.files.containsKey(name)) {
                if (value == null && i + 1 >= args.size()) {
                    throw new Usage("--" + name + " needs a file");
                }
                String target = c.files.get(name);
                putWhole(target, readFile(value != null ? value : args.get(++i)));
                continue;
            }
            if (c.flags.containsKey(key)) {
                key = c.flags.get(key);
            }
            Command.Param prop = c.params.get(key);
            if (prop == null && c.params.containsKey(key + "s") && c.params.get(key + "s").type().equals("array")) {
                key = key + "s";
                prop = c.params.get(key);
            }
            if (prop == null && value == null) {
                String owner = enumOwner(key);
                if (owner != null) {
                    put(owner, key);
                    continue;
                }
                Command.Param negated = key.startsWith("no_") ? c.params.get(key.substring(3)) : null;
                if (negated != null && negated.accepts("boolean")) {
                    put(negated.name, "false");
                    continue;
                }
            }
            if (prop == null) {
                throw new Usage(shown + " has no flag --" + name + flagList());
            }
            if (value == null) {
                boolean bool = prop.accepts("boolean") || prop.types.isEmpty();
                boolean takesValue = !bool || prop.types.size() > 1 && hasNext
                        || hasNext && (args.get(i + 1).equals("true") || args.get(i + 1).equals("false"));
                if (!takesValue) {
                    put(key, "true");
                    continue;
                }
                if (i + 1 >= args.size()) {
                    throw new Usage("--" + name + " needs a value");
                }
                value = args.get(++i);
            }
            put(key, value);
        }
        positionals(bare);
        if (c.stdin != null && !given(c.stdin, raw)) {
            String in = stdin.get();
            if (in != null && !in.isBlank()) {
                putWhole(c.stdin, in.strip());
            }
        }
        for (Map.Entry<String, String> e : c.env.entrySet()) {
            String v = env.get(e.getValue());
            if (v != null && !v.isBlank() && !given(e.getKey(), raw)
                    && !(c.targetFields.contains(e.getKey()) && anyGiven(c.targetFields, raw))) {
                put(e.getKey(), v);
            }
        }
        Map<String, String> out = new LinkedHashMap<>(c.defaults);
        out.putAll(raw);
        out.putAll(set);
        for (Map.Entry<String, List<String>> e : arrays.entrySet()) {
            out.put(e.getKey(), "[" + String.join(",", e.getValue()) + "]");
        }
        for (Map.Entry<String, Map<String, String>> e : entries.entrySet()) {
            out.put(e.getKey(), object(e.getValue()));
        }
        for (String r : c.required) {
            if (!out.containsKey(r)) {
                int p = c.positionals.indexOf(r);
                throw new Usage(shown + " needs " + (p >= 0 || r.equals(c.rest) ? r.toUpperCase(java.util.Locale.ROOT)
                        : "--" + r.replace('_', '-') + " VALUE"));
            }
        }
        return object(out);
    }

    private void positionals(List<String> bare) throws Usage {
        List<String> names = c.positionals;
        if (c.leadingOptional && bare.size() == names.size() - 1 && c.rest == null) {
            // the target has a default ($ARTUDITU_PANE_ID, the focused one): one argument fewer
            // skips it, so `pane purpose "dev server"` names the purpose, not the pane
            names = names.subList(1, names.size());
        }
        for (int p = 0; p < bare.size(); p++) {
            String v = bare.get(p);
            if (p < names.size()) {
                put(names.get(p), v);
            } else if (c.rest != null && c.params.get(c.rest).type().equals("object")) {
                entry(v);
            } else if (c.rest != null) {
                put(c.rest, v);
            } else {
                throw new Usage(shown + " takes " + (names.isEmpty() ? "no arguments" : "arguments " + names)
                        + ", got " + bare);
            }
        }
    }

    /** A param's whole JSON value (from a file or stdin), typed by its schema. */
    private void putWhole(String key, String json) throws Usage {
        Command.Param prop = c.params.get(key);
        if (given(key, Map.of())) {
            throw new Usage("--" + key.replace('_', '-') + " given twice");
        }
        set.put(key, typed(key, json, prop.types));
    }

    private static String readFile(String path) throws Usage {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(path))) {
            byte[] b = in.readNBytes(MAX_INPUT_BYTES + 1);
            if (b.length > MAX_INPUT_BYTES) {
                throw new Usage(path + " is larger than " + MAX_INPUT_BYTES + " bytes");
            }
            return new String(b, java.nio.charset.StandardCharsets.UTF_8).strip();
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            throw new Usage("cannot read " + path + ": " + e.getMessage());
        }
    }

    /** Puts {@code value} typed by the param's schema. */
    private void put(String key, String value) throws Usage {
        Command.Param prop = c.params.get(key);
        if (prop.type().equals("array") && value.startsWith("[") && !arrays.containsKey(key)
                && !prop.itemTypes.contains("array")) {
            putWhole(key, value);
            return;
        }
        if (prop.type().equals("array")) {
            if (set.containsKey(key)) {
                throw new Usage("--" + key.replace('_', '-') + " given twice");
            }
            List<String> list = arrays.get(key);
            if (list == null) {
                list = new ArrayList<>();
                arrays.put(key, list);
            }
            list.add(typed(key, value, prop.itemTypes));
            return;
        }
        if (set.containsKey(key) || entries.containsKey(key)) {
            throw new Usage("--" + key.replace('_', '-') + " given twice");
        }
        set.put(key, typed(key, value, prop.types));
    }

    /**
     * A {@code KEY=VALUE} argument into the rest object: an empty value is null (removes the
     * key), true/false a boolean, up to 18 digits an integer, anything else a string.
     */
    private void entry(String arg) throws Usage {
        int eq = arg.indexOf('=');
        if (eq <= 0) {
            throw new Usage("expected KEY=VALUE, got " + arg);
        }
        if (set.containsKey(c.rest)) {
            throw new Usage("--" + c.rest + " given twice");
        }
        Map<String, String> o = entries.get(c.rest);
        if (o == null) {
            o = new LinkedHashMap<>();
            entries.put(c.rest, o);
        }
        String v = arg.substring(eq + 1);
        o.put(arg.substring(0, eq), v.isEmpty() ? "null" : v.equals("true") || v.equals("false") || isInteger(v) ? v
                : MiniJson.quote(v));
    }

    private static String typed(String key, String value, List<String> types) throws Usage {
        if (types.isEmpty() && (isNumber(value) || value.equals("true") || value.equals("false") || value.equals("null")
                || (value.startsWith("{") || value.startsWith("[")) && MiniJson.isValue(value))) {
            return value; // an untyped param (a setting's value) takes JSON, else a string
        }
        if (types.contains("integer") && isInteger(value) || types.contains("number") && isNumber(value)
                || types.contains("boolean") && (value.equals("true") || value.equals("false"))
                || types.contains("null") && value.equals("null")) {
            return value;
        }
        if (types.contains("object") || types.contains("array")) {
            String open = types.contains("object") ? "{" : "[";
            if (value.startsWith(open)) {
                try {
                    if (open.equals("{") ? MiniJson.isObject(value) : MiniJson.elements(value) != null) {
                        return value;
                    }
                } catch (RuntimeException e) {
                    // falls through to the usage error
                }
            }
        }
        if (types.isEmpty() || types.contains("string")) {
            return MiniJson.quote(value);
        }
        throw new Usage(key + " takes " + String.join(" or ", types) + ", got " + value);
    }

    static boolean isInteger(String v) {
        int start = v.startsWith("-") ? 1 : 0;
        if (v.length() == start || v.length() - start > 18) {
            return false;
        }
        for (int k = start; k < v.length(); k++) {
            if (v.charAt(k) < '0' || v.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A JSON number: -?digits(.digits)?([eE][+-]?digits)?. */
    static boolean isNumber(String v) {
        int k = v.startsWith("-") ? 1 : 0;
        int digits = 0;
        while (k < v.length() && Character.isDigit(v.charAt(k))) {
            k++;
            digits++;
        }
        if (digits == 0) {
            return false;
        }
        if (k < v.length() && v.charAt(k) == '.') {
            int frac = ++k;
            while (k < v.length() && Character.isDigit(v.charAt(k))) {
                k++;
            }
            if (k == frac) {
                return false;
            }
        }
        if (k < v.length() && (v.charAt(k) == 'e' || v.charAt(k) == 'E')) {
            k++;
            if (k < v.length() && (v.charAt(k) == '+' || v.charAt(k) == '-')) {
                k++;
            }
            int exp = k;
            while (k < v.length() && Character.isDigit(v.charAt(k))) {
                k++;
            }
            if (k == exp) {
                return false;
            }
        }
        return k == v.length();
    }

    private boolean given(String key, Map<String, String> raw) {
        return set.containsKey(key) || raw.containsKey(key) || arrays.containsKey(key) || entries.containsKey(key);
    }

    private boolean anyGiven(List<String> keys, Map<String, String> raw) {
        for (String k : keys) {
            if (given(k, raw)) {
                return true;
            }
        }
        return false;
    }

    /** The enum param that has {@code value} among its values, or null. */
    private String enumOwner(String value) {
        for (Command.Param p : c.params.values()) {
            if (p.enumValues.contains(value)) {
                return p.name;
            }
        }
        return null;
    }

    private String flagList() {
        if (c.params.isEmpty()) {
            return " (it takes none)";
        }
        StringBuilder b = new StringBuilder(" (");
        for (String p : c.params.keySet()) {
            b.append(b.length() > 2 ? ", --" : "--").append(p.replace('_', '-'));
        }
        return b.append(')').toString();
    }

    private static String object(Map<String, String> members) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : members.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append(MiniJson.quote(e.getKey())).append(':').append(e.getValue());
        }
        return b.append('}').toString();
    }
}
