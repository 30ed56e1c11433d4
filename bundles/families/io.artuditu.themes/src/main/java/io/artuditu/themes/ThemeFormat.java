package io.artuditu.themes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * Reads one theme file and checks it whole (docs/themes.md). A file names its id and name,
 * optionally its author and variant, the terminal's colours in {@code [colors]} (foreground,
 * background and the 16 ANSI colours are required) and any of the workbench's own colours in
 * {@code [workbench]}; what it leaves out is derived from the palette, so a plain terminal
 * palette is a valid theme. A colour is {@code #rrggbb}, {@code #rgb} or the name of a
 * {@code [colors]} key.
 *
 * <p>The file is checked against the format's schema, {@code schema/theme.schema.json} in
 * this jar, before any value is read; then what a schema cannot say: the colours parse and
 * the id is not {@value #TERMINAL}. Either way the first problem makes it {@link Invalid},
 * worded as the schema validator words a violation ({@code colors.red: is required}). Keys
 * the schema does not name are kept out and warned about (a theme written for a newer
 * Artuditu still loads). The size is checked before anything is parsed.
 */
public final class ThemeFormat {
    /** The largest theme file read, in bytes. */
    public static final int MAX_BYTES = 64 * 1024;
    /** Theme ids: the same rule as the config table's {@code theme.id}. */
    public static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");
    /** The virtual theme that keeps the outer terminal's own colours; no file may claim it. */
    public static final String TERMINAL = "terminal";
    /** The longest {@code name}, in UTF-8 bytes: the schema's bound, restated for converters. */
    public static final int MAX_NAME = 64;
    /** The longest {@code author}, in UTF-8 bytes: the schema's bound, restated for converters. */
    public static final int MAX_AUTHOR = 128;

    /** The terminal's own colours; foreground and background are required. */
    public static final List<String> TERMINAL_KEYS = List.of("foreground", "background", "cursor",
            "selection_foreground", "selection_background");
    /** The 16 ANSI colours, in index order; all required. */
    public static final List<String> PALETTE_KEYS = List.of("black", "red", "green", "yellow", "blue", "magenta",
            "cyan", "white", "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue",
            "bright_magenta", "bright_cyan", "bright_white");

    /** How a workbench colour is derived when the file leaves it out; the table is in dependency order. */
    private static final Map<String, ToIntFunction<Map<String, Integer>>> DERIVED = new LinkedHashMap<>();
    /** Every workbench key, in the order {@code theme.list} shows them. */
    public static final List<String> WORKBENCH_KEYS;

    static {
        derive("border", c -> c.get("bright_black"));
        derive("border_focused", c -> c.get("bright_blue"));
        derive("tab_bar_background", c -> toward("background", "foreground", 0.12, c));
        derive("tab_bar_foreground", c -> toward("foreground", "background", 0.25, c));
        derive("tab_active_background", c -> c.get("blue"));
        derive("tab_active_foreground", c -> readable(c.get("tab_active_background"), c));
        derive("sidebar_background", c -> toward("background", "foreground", 0.07, c));
        derive("sidebar_foreground", c -> toward("foreground", "background", 0.25, c));
        derive("sidebar_active_background", c -> toward("background", "foreground", 0.2, c));
        derive("sidebar_active_foreground", c -> c.get("foreground"));
        derive("sidebar_dim", c -> toward("foreground", "background", 0.5, c));
        derive("header_background", c -> toward("background", "foreground", 0.15, c));
        derive("header_foreground", c -> toward("foreground", "background", 0.3, c));
        derive("header_focused_background", c -> c.get("tab_active_background"));
        derive("header_focused_foreground", c -> readable(c.get("header_focused_background"), c));
        derive("agent_idle", c -> c.get("blue"));
        derive("agent_working", c -> c.get("yellow"));
        derive("agent_blocked", c -> c.get("red"));
        derive("agent_done", c -> c.get("green"));
        derive("agent_none", c -> c.get("bright_black"));
        derive("bar_normal", c -> c.get("tab_bar_foreground"));
        derive("bar_muted", c -> toward("foreground", "background", 0.45, c));
        derive("bar_accent", c -> c.get("bright_blue"));
        derive("bar_success", c -> c.get("green"));
        derive("bar_warning", c -> c.get("yellow"));
        derive("bar_error", c -> c.get("red"));
        derive("notification_background", c -> toward("background", "foreground", 0.22, c));
        derive("notification_foreground", c -> c.get("foreground"));
        derive("notification_error", c -> c.get("red"));
        derive("notification_warning", c -> c.get("yellow"));
        derive("notification_success", c -> c.get("green"));
        derive("prefix", c -> c.get("yellow"));
        WORKBENCH_KEYS = List.copyOf(DERIVED.keySet());
    }

    /** A file that is not a valid theme; the message names the first problem. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        public Invalid(String message) {
            super(message);
        }
    }

    private ThemeFormat() {
    }

    /**
     * One TOML reader and the compiled schema for every parse, made on first use, so a client
     * that only reads this class's key lists (the TUI) never loads Jackson's TOML module.
     */
    private static final class Toml {
        static final TomlMapper MAPPER = new TomlMapper();
        static final JsonSchema FORMAT = JsonSchema.compile(load());

        private static JsonNode load() {
            try (InputStream in = ThemeFormat.class.getClassLoader().getResourceAsStream(SCHEMA)) {
                if (in == null) {
                    throw new IllegalStateException(SCHEMA + " is missing from the themes jar");
                }
                return new ObjectMapper().readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The format's schema: a resource of this jar, which docs/themes.md points theme authors to. */
    static final String SCHEMA = "schema/theme.schema.json";

    /** The format's schema, as shipped. */
    static JsonNode schema() {
        return Toml.FORMAT.source();
    }

    private static void derive(String key, ToIntFunction<Map<String, Integer>> f) {
        DERIVED.put(key, f);
    }

    private static int toward(String from, String to, double t, Map<String, Integer> c) {
        return Rgb.blend(c.get(from), c.get(to), t);
    }

    private static int readable(int bg, Map<String, Integer> c) {
        return Rgb.readableOn(bg, c.get("foreground"), c.get("background"), 0xffffff, 0x000000);
    }

    /** Parses and checks one file's bytes. */
    public static Theme parse(byte[] bytes) throws Invalid {
        if (bytes.length > MAX_BYTES) {
            throw new Invalid("larger than " + MAX_BYTES + " bytes");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Invalid("not UTF-8");
        }
        JsonNode root;
        try {
            root = Toml.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Invalid("not valid TOML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Invalid("not valid TOML: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new Invalid("empty");
        }
        Optional<JsonSchema.Violation> bad = Toml.FORMAT.validate(root, "");
        if (bad.isPresent()) {
            throw new Invalid(bad.get().toString());
        }
        return read(root);
    }

    /** The values of a file the schema accepted. */
    private static Theme read(JsonNode root) throws Invalid {
        List<String> warnings = new ArrayList<>();
        JsonNode known = Toml.FORMAT.source().get("properties");
        unknown(root, known, "", warnings);
        String id = root.get("id").textValue();
        if (id.equals(TERMINAL)) {
            throw invalid("id", "\"" + TERMINAL + "\" is reserved for the outer terminal's own colours");
        }
        String name = root.get("name").textValue();
        String author = root.has("author") ? root.get("author").textValue() : null;
        String variant = root.has("variant") ? root.get("variant").textValue() : null;
        JsonNode colors = root.get("colors");
        unknown(colors, known.at("/colors/properties"), "colors.", warnings);
        Map<String, Integer> c = new LinkedHashMap<>();
        for (String k : List.of("foreground", "background")) {
            c.put(k, hex(colors, k));
        }
        for (String k : PALETTE_KEYS) {
            c.put(k, hex(colors, k));
        }
        // the optional terminal colours may name the required ones
        Integer cursor = color(colors, "cursor", "colors.", c);
        Integer selFg = color(colors, "selection_foreground", "colors.", c);
        Integer selBg = color(colors, "selection_background", "colors.", c);
        Map<String, Integer> terminal = new LinkedHashMap<>();
        terminal.put("foreground", c.get("foreground"));
        terminal.put("background", c.get("background"));
        terminal.put("cursor", cursor != null ? cursor : c.get("foreground"));
        terminal.put("selection_foreground", selFg != null ? selFg : c.get("foreground"));
        terminal.put("selection_background", selBg != null ? selBg
                : Rgb.blend(c.get("background"), c.get("foreground"), 0.3));
        for (String k : PALETTE_KEYS) {
            terminal.put(k, c.get(k));
        }
        JsonNode wb = root.get("workbench");
        Map<String, Integer> all = new LinkedHashMap<>(terminal);
        Map<String, Integer> workbench = new LinkedHashMap<>();
        if (wb != null) {
            unknown(wb, known.at("/workbench/properties"), "workbench.", warnings);
        }
        for (Map.Entry<String, ToIntFunction<Map<String, Integer>>> e : DERIVED.entrySet()) {
            Integer given = wb == null ? null : color(wb, e.getKey(), "workbench.", terminal);
            int v = given != null ? given : e.getValue().applyAsInt(all);
            workbench.put(e.getKey(), v);
            all.put(e.getKey(), v);
        }
        boolean lightBackground = Rgb.luminance(terminal.get("background")) > 0.4;
        if (variant == null) {
            variant = lightBackground ? "light" : "dark";
            warnings.add("variant not set: taken as " + variant + " from the background");
        } else if (variant.equals("dark") == lightBackground) {
            warnings.add("variant says " + variant + " but the background is " + (lightBackground ? "light" : "dark"));
        }
        double k = Rgb.contrast(terminal.get("foreground"), terminal.get("background"));
        if (k < 3.0) {
            warnings.add(String.format(Locale.ROOT, "low contrast between foreground and background (%.1f:1)", k));
        }
        return new Theme(id, name, author, variant, terminal, workbench, warnings);
    }

    /** A warning for each key the schema does not name at this level: ignored, not refused. */
    private static void unknown(JsonNode node, JsonNode properties, String prefix, List<String> warnings) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!properties.has(k)) {
                warnings.add("unknown key " + prefix + k + " ignored");
            }
        }
    }

    /** A required colour of {@code [colors]}: hex only (the names it could refer to are what it defines). */
    private static int hex(JsonNode t, String key) throws Invalid {
        String s = t.get(key).textValue();
        int c = Rgb.parse(s);
        if (c < 0) {
            throw invalid("colors." + key, "\"" + clip(s) + "\" is not a colour (#rrggbb or #rgb)");
        }
        return c;
    }

    /** An optional colour: hex, or the name of a resolved terminal colour; null when absent. */
    private static Integer color(JsonNode t, String key, String prefix, Map<String, Integer> named) throws Invalid {
        JsonNode v = t.get(key);
        if (v == null) {
            return null;
        }
        String s = v.textValue();
        int c = Rgb.parse(s);
        if (c >= 0) {
            return c;
        }
        Integer ref = named.get(s);
        if (ref == null) {
            throw invalid(prefix + key, "\"" + clip(s)
                    + "\" is not a colour (#rrggbb, #rgb or a [colors] name such as bright_blue)");
        }
        return ref;
    }

    /** A refusal worded as the schema validator words a violation: {@code path: problem}. */
    private static Invalid invalid(String path, String problem) {
        return new Invalid(new JsonSchema.Violation(path, problem).toString());
    }

    private static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    /**
     * A theme file: metadata, then {@code [colors]} with every terminal colour in
     * {@code colors} (keys from {@link #TERMINAL_KEYS} and {@link #PALETTE_KEYS}), then the
     * {@code workbench} colours given (any of {@link #WORKBENCH_KEYS}; may be empty).
     * What {@code artu theme import} writes; {@link #parse} reads it back to the same colours.
     */
    public static String write(String id, String name, String author, String variant, Map<String, Integer> colors,
            Map<String, Integer> workbench) {
        StringBuilder b = new StringBuilder();
        b.append("# An Artuditu theme (docs/themes.md). Workbench colours not listed are derived from the palette.\n");
        b.append("id = ").append(quote(id)).append('\n');
        b.append("name = ").append(quote(name)).append('\n');
        if (author != null) {
            b.append("author = ").append(quote(author)).append('\n');
        }
        if (variant != null) {
            b.append("variant = ").append(quote(variant)).append('\n');
        }
        b.append("\n[colors]\n");
        for (String k : TERMINAL_KEYS) {
            if (colors.containsKey(k)) {
                b.append(k).append(" = \"").append(Rgb.hex(colors.get(k))).append("\"\n");
            }
        }
        for (String k : PALETTE_KEYS) {
            b.append(k).append(" = \"").append(Rgb.hex(colors.get(k))).append("\"\n");
        }
        if (!workbench.isEmpty()) {
            b.append("\n[workbench]\n");
            for (String k : WORKBENCH_KEYS) {
                if (workbench.containsKey(k)) {
                    b.append(k).append(" = \"").append(Rgb.hex(workbench.get(k))).append("\"\n");
                }
            }
        }
        return b.toString();
    }

    /** A TOML basic string. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (ch < 0x20 || ch == 0x7f) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
