package io.artuditu.themes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Converts the colour schemes people already have into an Artuditu theme: base16 YAML (the
 * classic {@code scheme:}/{@code base00: "1d1f21"} layout and tinted-theming's
 * {@code system: "base16"} with a {@code palette}), Alacritty's {@code [colors]} (TOML, or the
 * older YAML), kitty {@code .conf} and Windows Terminal JSON (one scheme, an array of them or
 * a {@code settings.json} with {@code schemes}). The mapping of every source key is in
 * {@code docs/themes-import.md}.
 *
 * <p>The text is written with {@link ThemeFormat#write} and read back with
 * {@link ThemeFormat#parse}, so a conversion either yields a theme file Artuditu loads or
 * fails; it never invents a palette colour: a source that lacks one is refused, naming every
 * missing key. Only what Artuditu derives anyway (the variant, a selection colour left out)
 * is left to {@link ThemeFormat}.
 *
 * <p>The input is untrusted bytes, at most {@link #MAX_BYTES} (checked before anything is
 * parsed); nothing here touches a file, the network or the environment. Stateless and safe
 * for any thread. Jackson's YAML reader (an optional import of this bundle) is loaded only
 * when a YAML source is read.
 */
public final class ThemeImport {
    /** The largest source read, in bytes. */
    public static final int MAX_BYTES = 1 << 20;
    /** How many scheme names an error about a choice lists at most. */
    static final int MAX_LISTED = 20;

    /** A source format, by the name the CLI's {@code --from} takes. */
    public enum Format {
        BASE16("base16"), ALACRITTY("alacritty"), KITTY("kitty"), WINDOWS_TERMINAL("windows-terminal");

        private final String id;

        Format(String id) {
            this.id = id;
        }

        /** The name {@code --from} takes. */
        public String id() {
            return id;
        }

        /** The format of that name, or null. */
        public static Format of(String id) {
            for (Format f : values()) {
                if (f.id.equals(id)) {
                    return f;
                }
            }
            return null;
        }

        /** Every name, {@code base16|alacritty|kitty|windows-terminal}. */
        public static String ids() {
            StringBuilder b = new StringBuilder();
            for (Format f : values()) {
                b.append(b.length() > 0 ? "|" : "").append(f.id);
            }
            return b.toString();
        }
    }

    /**
     * What the caller decides; each may be null: the format (else detected), the theme's id
     * (else a slug of the scheme's name, else of the file name), its name (else the scheme's,
     * else the file name) and, for Windows Terminal settings holding several schemes, which one.
     */
    public record Options(Format format, String id, String name, String scheme) {
        /** Everything detected or taken from the source. */
        public static final Options NONE = new Options(null, null, null, null);
    }

    /**
     * A conversion: the format read, the theme file's text, the theme that text parses to,
     * and what the conversion left out and why (a keyword such as Alacritty's
     * {@code CellForeground} where a colour could be, an include not followed).
     */
    public record Result(Format format, String text, Theme theme, List<String> notes) {
        public Result {
            notes = List.copyOf(notes);
        }
    }

    private ThemeImport() {
    }

    /**
     * Converts one source. {@code fileName} (may be null) helps detect the format by its
     * extension and is the last fallback for the id and the name.
     *
     * @throws ThemeFormat.Invalid naming the first problem (every missing colour at once)
     */
    public static Result convert(byte[] bytes, String fileName, Options options) throws ThemeFormat.Invalid {
        if (bytes.length > MAX_BYTES) {
            throw new ThemeFormat.Invalid("larger than " + MAX_BYTES + " bytes");
        }
        String text = utf8(bytes);
        Format format = options.format() != null ? options.format() : detect(text, fileName);
        if (format == null) {
            throw new ThemeFormat.Invalid("cannot tell which format " + (fileName == null ? "this" : fileName)
                    + " is; name it: " + Format.ids().replace("|", ", "));
        }
        if (options.scheme() != null && format != Format.WINDOWS_TERMINAL) {
            throw new ThemeFormat.Invalid("a scheme name chooses among Windows Terminal schemes; this is read as "
                    + format.id());
        }
        Source s = new Source();
        switch (format) {
            case BASE16 -> base16(yaml(text), s);
            case ALACRITTY -> alacritty(looksLikeToml(text) ? toml(text) : yaml(text), s);
            case KITTY -> kitty(text, s);
            case WINDOWS_TERMINAL -> windowsTerminal(json(text), options.scheme(), s);
        }
        return build(format, s, fileName, options);
    }

    // --- detection ---------------------------------------------------------------------------

    private static final Pattern TOML_COLORS = Pattern.compile("(?m)^[ \\t]*\\[[ \\t]*colors[ \\t]*[.\\]]");
    private static final Pattern KITTY_LINE = Pattern.compile(
            "(?m)^[ \\t]*(color([0-9]|1[0-5])|foreground|background|selection_background|cursor)[ \\t]+[^=:\\s]");
    private static final Pattern BASE16_LINE = Pattern.compile("(?m)^(scheme|system|palette|base0[0-9a-fA-F])[ \\t]*:");
    private static final Pattern YAML_COLORS = Pattern.compile("(?m)^colors[ \\t]*:");
    /** A TOML table header such as {@code [general]}; a JSON array never opens with a bare word. */
    private static final Pattern TOML_TABLE = Pattern.compile("^\\[[ \\t]*[A-Za-z_][A-Za-z0-9_.-]*[ \\t]*\\]");

    /**
     * The format {@code text} is written in, from its content first (a TOML {@code [colors.…]}
     * table, kitty's {@code key value} lines, base16's keys, a JSON value), then from the
     * extension of {@code fileName}; null when neither tells.
     */
    public static Format detect(String text, String fileName) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (TOML_COLORS.matcher(t).find()) {
            return Format.ALACRITTY;
        }
        int first = firstSignificant(t);
        if (first >= 0 && t.charAt(first) == '[' && TOML_TABLE.matcher(t).region(first, t.length()).lookingAt()) {
            return Format.ALACRITTY;
        }
        if (first >= 0 && (t.charAt(first) == '{' || t.charAt(first) == '[')) {
            return Format.WINDOWS_TERMINAL;
        }
        if (KITTY_LINE.matcher(t).find()) {
            return Format.KITTY;
        }
        if (BASE16_LINE.matcher(t).find()) {
            return Format.BASE16;
        }
        if (YAML_COLORS.matcher(t).find()) {
            return Format.ALACRITTY;
        }
        int dot = fileName == null ? -1 : fileName.lastIndexOf('.');
        String ext = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        return switch (ext) {
            case "yaml", "yml" -> Format.BASE16;
            case "toml" -> Format.ALACRITTY;
            case "conf" -> Format.KITTY;
            case "json" -> Format.WINDOWS_TERMINAL;
            default -> null;
        };
    }

    /** Where the first character that is not white space or inside a JSON comment is; -1 for none. */
    private static int firstSignificant(String t) {
        int i = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (t.startsWith("//", i)) {
                int nl = t.indexOf('\n', i);
                i = nl < 0 ? t.length() : nl + 1;
            } else if (t.startsWith("/*", i)) {
                int end = t.indexOf("*/", i + 2);
                i = end < 0 ? t.length() : end + 2;
            } else {
                return i;
            }
        }
        return -1;
    }

    private static boolean looksLikeToml(String text) {
        return !YAML_COLORS.matcher(text).find();
    }

    // --- the formats -------------------------------------------------------------------------

    /** What one source says, in Artuditu's keys; {@code missing} collects the source keys it lacks. */
    private static final class Source {
        String name;
        String author;
        String variant;
        String slug;
        final Map<String, Integer> colors = new LinkedHashMap<>();
        final Map<String, Integer> workbench = new LinkedHashMap<>();
        final List<String> missing = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        /** How the missing keys are named to the user: what a complete source has. */
        String complete;
    }

    /** base16's standard terminal mapping: Artuditu key, then the base16 slot. */
    private static final String[][] BASE16_COLORS = {
        {"foreground", "base05"}, {"background", "base00"}, {"cursor", "base05"}, {"selection_background", "base02"},
        {"black", "base00"}, {"red", "base08"}, {"green", "base0B"}, {"yellow", "base0A"}, {"blue", "base0D"},
        {"magenta", "base0E"}, {"cyan", "base0C"}, {"white", "base05"},
        {"bright_black", "base03"}, {"bright_red", "base08"}, {"bright_green", "base0B"}, {"bright_yellow", "base0A"},
        {"bright_blue", "base0D"}, {"bright_magenta", "base0E"}, {"bright_cyan", "base0C"}, {"bright_white", "base07"},
    };
    /** The workbench colours base16's styling guide gives a meaning: Artuditu key, then the slot. */
    private static final String[][] BASE16_WORKBENCH = {
        {"border", "base03"}, {"tab_bar_background", "base01"}, {"tab_bar_foreground", "base04"},
        {"sidebar_background", "base01"}, {"sidebar_foreground", "base04"},
    };

    private static void base16(JsonNode root, Source s) throws ThemeFormat.Invalid {
        if (root == null || !root.isObject()) {
            throw new ThemeFormat.Invalid("not a base16 scheme: the YAML is not a mapping of keys");
        }
        String system = text(root, "system", "");
        if (system != null && !system.equals("base16")) {
            throw new ThemeFormat.Invalid("system \"" + clip(system) + "\" is not base16: only base16 schemes are read");
        }
        JsonNode palette = root.get("palette");
        if (palette != null && !palette.isObject()) {
            throw new ThemeFormat.Invalid("palette must be a mapping of base00 to base0F");
        }
        String where = palette != null ? "palette." : "";
        JsonNode slots = palette != null ? palette : root;
        s.name = text(root, "name", "");
        if (s.name == null) {
            s.name = text(root, "scheme", "");
        }
        s.author = text(root, "author", "");
        s.slug = text(root, "slug", "");
        String variant = text(root, "variant", "");
        if (variant != null && !variant.equals("dark") && !variant.equals("light")) {
            s.notes.add("variant \"" + clip(variant) + "\" is neither dark nor light: taken from the background instead");
            variant = null;
        }
        s.variant = variant;
        // slots by upper-case hex digit, whichever case the file uses
        Map<String, JsonNode> bySlot = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : slots.properties()) {
            String k = e.getKey();
            if (k.length() == 6 && k.toLowerCase(Locale.ROOT).startsWith("base")) {
                String slot = "base" + k.substring(4).toUpperCase(Locale.ROOT);
                if (bySlot.put(slot, e.getValue()) != null) {
                    throw new ThemeFormat.Invalid(where + slot + " is given twice");
                }
            }
        }
        Map<String, Integer> value = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            String slot = String.format(Locale.ROOT, "base%02X", i);
            JsonNode v = bySlot.get(slot);
            if (v == null || v.isNull()) {
                s.missing.add(where + slot);
            } else {
                value.put(slot, color(v, where + slot, true));
            }
        }
        s.complete = "a base16 scheme gives all of base00 to base0F";
        if (!s.missing.isEmpty()) {
            return;
        }
        for (String[] m : BASE16_COLORS) {
            s.colors.put(m[0], value.get(m[1]));
        }
        for (String[] m : BASE16_WORKBENCH) {
            s.workbench.put(m[0], value.get(m[1]));
        }
    }

    private static final String[] ANSI = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

    private static void alacritty(JsonNode root, Source s) throws ThemeFormat.Invalid {
        if (root == null || !root.isObject()) {
            throw new ThemeFormat.Invalid("not an Alacritty theme: no [colors] table");
        }
        JsonNode colors = root.get("colors");
        if (colors == null) {
            JsonNode imports = root.has("import") ? root.get("import") : root.path("general").get("import");
            throw new ThemeFormat.Invalid("not an Alacritty theme: no [colors] table"
                    + (imports != null ? " (it imports " + clip(imports.toString()) + "; import that file instead)" : ""));
        }
        if (!colors.isObject()) {
            throw new ThemeFormat.Invalid("colors must be a table ([colors.primary], [colors.normal], …)");
        }
        if (colors.has("foreground") && colors.has("black") && root.has("id")) {
            throw new ThemeFormat.Invalid("this is already an Artuditu theme: install it with artu theme install");
        }
        JsonNode primary = table(colors, "colors.primary");
        s.complete = "an Alacritty theme gives colors.primary foreground and background and the eight colours of"
                + " colors.normal and colors.bright";
        need(s, "foreground", primary, "foreground", "colors.primary.", false);
        need(s, "background", primary, "background", "colors.primary.", false);
        JsonNode cursor = table(colors, "colors.cursor");
        optional(s, s.colors, "cursor", cursor, "cursor", "colors.cursor.");
        JsonNode selection = table(colors, "colors.selection");
        optional(s, s.colors, "selection_foreground", selection, "text", "colors.selection.");
        optional(s, s.colors, "selection_background", selection, "background", "colors.selection.");
        JsonNode normal = table(colors, "colors.normal");
        JsonNode bright = table(colors, "colors.bright");
        for (String c : ANSI) {
            need(s, c, normal, c, "colors.normal.", false);
        }
        for (String c : ANSI) {
            need(s, "bright_" + c, bright, c, "colors.bright.", false);
        }
    }

    /** kitty's colour keys: Artuditu key, then kitty's; color0 to color15 follow. */
    private static final String[][] KITTY_COLORS = {
        {"foreground", "foreground"}, {"background", "background"}, {"cursor", "cursor"},
        {"selection_foreground", "selection_foreground"}, {"selection_background", "selection_background"},
    };
    /** kitty's own tab bar and window border colours, where Artuditu has the same thing. */
    private static final String[][] KITTY_WORKBENCH = {
        {"border", "inactive_border_color"}, {"border_focused", "active_border_color"},
        {"tab_bar_background", "tab_bar_background"}, {"tab_bar_foreground", "inactive_tab_foreground"},
        {"tab_active_background", "active_tab_background"}, {"tab_active_foreground", "active_tab_foreground"},
    };
    private static final Pattern KITTY_META = Pattern.compile("^##[ \\t]*(name|author)[ \\t]*:[ \\t]*(.*?)[ \\t]*$");

    private static void kitty(String text, Source s) throws ThemeFormat.Invalid {
        ObjectNode keys = JsonNodeFactory.instance.objectNode();
        int lineNo = 0;
        for (String raw : text.split("\r?\n", -1)) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                var m = KITTY_META.matcher(line);
                if (m.matches() && !m.group(2).isEmpty()) {
                    if (m.group(1).equals("name") && s.name == null) {
                        s.name = m.group(2);
                    } else if (m.group(1).equals("author") && s.author == null) {
                        s.author = m.group(2);
                    }
                }
                continue;
            }
            int sp = indexOfWhitespace(line);
            String key = sp < 0 ? line : line.substring(0, sp);
            String value = sp < 0 ? "" : line.substring(sp).strip();
            if (key.equals("include") || key.equals("globinclude") || key.equals("envinclude")) {
                s.notes.add("line " + lineNo + ": " + key + " " + clip(value) + " is not followed");
                continue;
            }
            // kitty takes the last of a key given twice; so does this
            keys.put(key, value);
        }
        s.complete = "a kitty theme gives foreground, background and color0 to color15";
        boolean any = false;
        for (String[] m : KITTY_COLORS) {
            any |= keys.has(m[1]);
        }
        for (int i = 0; i < 16; i++) {
            any |= keys.has("color" + i);
        }
        if (!any) {
            throw new ThemeFormat.Invalid("not a kitty theme: no foreground, background or color0 to color15 lines");
        }
        need(s, "foreground", keys, "foreground", "", false);
        need(s, "background", keys, "background", "", false);
        for (int i = 2; i < KITTY_COLORS.length; i++) {
            optional(s, s.colors, KITTY_COLORS[i][0], keys, KITTY_COLORS[i][1], "");
        }
        for (int i = 0; i < 16; i++) {
            need(s, ThemeFormat.PALETTE_KEYS.get(i), keys, "color" + i, "", false);
        }
        for (String[] m : KITTY_WORKBENCH) {
            optional(s, s.workbench, m[0], keys, m[1], "");
        }
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Windows Terminal's scheme keys: Artuditu key, then Windows Terminal's. */
    private static final String[][] WT_REQUIRED = {
        {"foreground", "foreground"}, {"background", "background"},
        {"black", "black"}, {"red", "red"}, {"green", "green"}, {"yellow", "yellow"}, {"blue", "blue"},
        {"magenta", "purple"}, {"cyan", "cyan"}, {"white", "white"},
        {"bright_black", "brightBlack"}, {"bright_red", "brightRed"}, {"bright_green", "brightGreen"},
        {"bright_yellow", "brightYellow"}, {"bright_blue", "brightBlue"}, {"bright_magenta", "brightPurple"},
        {"bright_cyan", "brightCyan"}, {"bright_white", "brightWhite"},
    };

    private static void windowsTerminal(JsonNode root, String wanted, Source s) throws ThemeFormat.Invalid {
        List<JsonNode> schemes = new ArrayList<>();
        if (root != null && root.isArray()) {
            root.forEach(schemes::add);
        } else if (root != null && root.isObject() && root.has("schemes")) {
            if (!root.get("schemes").isArray()) {
                throw new ThemeFormat.Invalid("schemes must be an array of colour schemes");
            }
            root.get("schemes").forEach(schemes::add);
        } else if (root != null && root.isObject()) {
            schemes.add(root);
        } else {
            throw new ThemeFormat.Invalid("not a Windows Terminal scheme: the JSON is not an object or an array");
        }
        for (int i = 0; i < schemes.size(); i++) {
            if (!schemes.get(i).isObject()) {
                throw new ThemeFormat.Invalid("scheme " + (i + 1) + " is not a JSON object");
            }
        }
        JsonNode scheme = pick(schemes, wanted);
        String where = schemes.size() > 1 || root.has("schemes") ? "scheme \"" + clip(nameOf(scheme)) + "\": " : "";
        s.name = text(scheme, "name", where);
        s.complete = "a Windows Terminal scheme gives foreground, background and the sixteen colours black to brightWhite";
        for (String[] m : WT_REQUIRED) {
            need(s, m[0], scheme, m[1], where, false);
        }
        optional(s, s.colors, "cursor", scheme, "cursorColor", where);
        optional(s, s.colors, "selection_background", scheme, "selectionBackground", where);
    }

    private static JsonNode pick(List<JsonNode> schemes, String wanted) throws ThemeFormat.Invalid {
        if (schemes.isEmpty()) {
            throw new ThemeFormat.Invalid("the file holds no colour schemes");
        }
        if (wanted == null) {
            if (schemes.size() == 1) {
                return schemes.get(0);
            }
            throw new ThemeFormat.Invalid("the file holds " + schemes.size() + " colour schemes; choose one by its name"
                    + " (artu theme import --scheme NAME): " + names(schemes));
        }
        JsonNode folded = null;
        int foldedCount = 0;
        for (JsonNode n : schemes) {
            String name = nameOf(n);
            if (wanted.equals(name)) {
                return n;
            }
            if (name != null && wanted.equalsIgnoreCase(name)) {
                folded = n;
                foldedCount++;
            }
        }
        if (foldedCount == 1) {
            return folded;
        }
        throw new ThemeFormat.Invalid("no colour scheme is named \"" + clip(wanted) + "\"; the file holds: " + names(schemes));
    }

    private static String nameOf(JsonNode scheme) {
        JsonNode n = scheme.get("name");
        return n != null && n.isTextual() ? n.asText() : null;
    }

    private static String names(List<JsonNode> schemes) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (JsonNode s : schemes) {
            if (n == MAX_LISTED) {
                b.append(", and ").append(schemes.size() - n).append(" more");
                break;
            }
            String name = nameOf(s);
            b.append(n > 0 ? ", " : "").append(name == null ? "(a scheme without a name)" : "\"" + clip(name) + "\"");
            n++;
        }
        return b.toString();
    }

    // --- values ------------------------------------------------------------------------------

    /** A required colour: its value, or its source key added to {@code s.missing}. */
    private static void need(Source s, String key, JsonNode table, String sourceKey, String where, boolean bareHex)
            throws ThemeFormat.Invalid {
        JsonNode v = table == null ? null : table.get(sourceKey);
        if (v == null || v.isNull()) {
            s.missing.add(where + sourceKey);
            return;
        }
        s.colors.put(key, color(v, where + sourceKey, bareHex));
    }

    /**
     * An optional colour: absent, or a keyword meaning "the cell's own colour" (Alacritty's
     * {@code CellForeground}/{@code CellBackground}, kitty's {@code none}), leaves it to
     * Artuditu; anything else must be a colour.
     */
    private static void optional(Source s, Map<String, Integer> into, String key, JsonNode table, String sourceKey,
            String where) throws ThemeFormat.Invalid {
        JsonNode v = table == null ? null : table.get(sourceKey);
        if (v == null || v.isNull()) {
            return;
        }
        String t = v.isTextual() ? v.asText().strip() : null;
        if (t != null && (t.equals("CellForeground") || t.equals("CellBackground") || t.equals("none")
                || t.equals("background") || t.equals("foreground"))) {
            s.notes.add(where + sourceKey + " = " + t + " is not a colour: left out, Artuditu derives " + key);
            return;
        }
        into.put(key, color(v, where + sourceKey, false));
    }

    /** {@code #rrggbb}, {@code #rgb} or {@code 0xrrggbb}; with {@code bareHex} also {@code rrggbb} (classic base16). */
    private static int color(JsonNode v, String key, boolean bareHex) throws ThemeFormat.Invalid {
        if (!v.isTextual()) {
            throw new ThemeFormat.Invalid(key + " must be a colour string like \"#1d1f21\", not " + kind(v));
        }
        String t = v.asText().strip();
        String h = t.startsWith("0x") || t.startsWith("0X") ? "#" + t.substring(2)
                : bareHex && !t.startsWith("#") ? "#" + t : t;
        int c = h.length() == 7 || h.length() == 4 ? Rgb.parse(h) : -1;
        if (c < 0) {
            throw new ThemeFormat.Invalid(key + " = \"" + clip(t) + "\" is not a colour ("
                    + (bareHex ? "rrggbb or #rrggbb" : "#rrggbb, #rgb or 0xrrggbb") + ")");
        }
        return c;
    }

    private static String kind(JsonNode v) {
        if (v.isObject()) {
            return "a table";
        }
        if (v.isArray()) {
            return "a list";
        }
        if (v.isNumber()) {
            return "the number " + v.asText();
        }
        if (v.isBoolean()) {
            return v.asText();
        }
        return v.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    /** A metadata string, trimmed; null when absent or empty. */
    private static String text(JsonNode node, String key, String where) throws ThemeFormat.Invalid {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new ThemeFormat.Invalid(where + key + " must be a string, not " + kind(v));
        }
        String t = v.asText().strip();
        return t.isEmpty() ? null : t;
    }

    /** A sub-table, or null when absent. */
    private static JsonNode table(JsonNode parent, String path) throws ThemeFormat.Invalid {
        JsonNode v = parent.get(path.substring(path.lastIndexOf('.') + 1));
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            throw new ThemeFormat.Invalid(path + " must be a table, not " + kind(v));
        }
        return v;
    }

    // --- the result --------------------------------------------------------------------------

    private static Result build(Format format, Source s, String fileName, Options o) throws ThemeFormat.Invalid {
        if (!s.missing.isEmpty()) {
            throw new ThemeFormat.Invalid("missing colour" + (s.missing.size() == 1 ? " " : "s ")
                    + String.join(", ", s.missing) + " (" + s.complete + ")");
        }
        String stem = stem(fileName);
        String name = o.name() != null ? o.name() : s.name != null ? s.name : stem;
        if (name == null || name.isBlank()) {
            throw new ThemeFormat.Invalid("the source names no scheme: give the theme a name");
        }
        String id = o.id();
        if (id != null) {
            if (!ThemeFormat.ID.matcher(id).matches()) {
                throw new ThemeFormat.Invalid("id '" + clip(id) + "' must be 1-64 of a-z 0-9 _ . - starting with a letter or digit");
            }
        } else {
            id = s.slug != null && ThemeFormat.ID.matcher(s.slug).matches() ? s.slug : slug(s.name);
            if (id == null) {
                id = slug(stem);
            }
            if (id == null) {
                throw new ThemeFormat.Invalid("no id can be made from the scheme's name or the file name: give one");
            }
        }
        String text = ThemeFormat.write(id, name, s.author, s.variant, s.colors, s.workbench);
        Theme theme = reparse(text);
        if (s.variant == null) {
            // the variant ThemeFormat derives from the background, written down so loading it never warns
            text = ThemeFormat.write(id, name, s.author, theme.variant(), s.colors, s.workbench);
            theme = reparse(text);
        }
        return new Result(format, text, theme, s.notes);
    }

    private static Theme reparse(String text) throws ThemeFormat.Invalid {
        try {
            return ThemeFormat.parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (ThemeFormat.Invalid e) {
            throw new ThemeFormat.Invalid("the converted theme is not valid: " + e.getMessage());
        }
    }

    /** The file name without its folder and its last extension; null for none. */
    private static String stem(String fileName) {
        if (fileName == null) {
            return null;
        }
        String n = fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
        int dot = n.lastIndexOf('.');
        n = dot > 0 ? n.substring(0, dot) : n;
        return n.isBlank() ? null : n;
    }

    /**
     * A theme id from a name: accents dropped, lower case, every run of other characters one
     * {@code -}, at most 64 characters; null when nothing is left.
     */
    static String slug(String s) {
        if (s == null) {
            return null;
        }
        String n = Normalizer.normalize(s, Normalizer.Form.NFKD).toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder();
        boolean gap = false;
        for (int i = 0; i < n.length() && b.length() < 64; i++) {
            char c = n.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
                if (gap && b.length() > 0) {
                    b.append('-');
                }
                b.append(c);
                gap = false;
            } else if (Character.getType(c) != Character.NON_SPACING_MARK) {
                gap = true;
            }
        }
        String id = b.length() > 64 ? b.substring(0, 64) : b.toString();
        while (id.endsWith("-")) {
            id = id.substring(0, id.length() - 1);
        }
        return id.isEmpty() ? null : id;
    }

    private static String clip(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }

    // --- readers -----------------------------------------------------------------------------

    private static String utf8(byte[] bytes) throws ThemeFormat.Invalid {
        try {
            String t = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            return t.startsWith("\uFEFF") ? t.substring(1) : t;
        } catch (CharacterCodingException e) {
            throw new ThemeFormat.Invalid("not UTF-8 text");
        }
    }

    private static JsonNode toml(String text) throws ThemeFormat.Invalid {
        try {
            return new TomlMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new ThemeFormat.Invalid("not valid TOML: " + e.getOriginalMessage());
        }
    }

    private static JsonNode json(String text) throws ThemeFormat.Invalid {
        // settings.json as Windows Terminal writes it may hold comments and trailing commas
        JsonMapper m = JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
                .enable(JsonReadFeature.ALLOW_TRAILING_COMMA).build();
        try {
            return m.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ThemeFormat.Invalid("not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        }
    }

    /** The first YAML document, every scalar as its text. */
    private static JsonNode yaml(String text) throws ThemeFormat.Invalid {
        return Yaml.read(text);
    }

    /**
     * Kept apart so the YAML classes are resolved only when a YAML source is read. Scalars are
     * kept as written: YAML would read an unquoted base16 {@code 010101} as the octal number 65
     * and {@code 000000} as 0, and the colour is the text.
     */
    private static final class Yaml {
        static JsonNode read(String text) throws ThemeFormat.Invalid {
            // SnakeYAML's own bounds (3 MB of code points, 50 levels) lie beyond MAX_BYTES; aliases
            // are reported, never expanded. Its classes are not named here: the bundle imports
            // only Jackson's YAML package, optionally.
            com.fasterxml.jackson.dataformat.yaml.YAMLFactory f = new com.fasterxml.jackson.dataformat.yaml.YAMLFactory();
            try (JsonParser p = f.createParser(text)) {
                JsonToken t = p.nextToken();
                return t == null ? null : value(p, t);
            } catch (JsonProcessingException e) {
                throw new ThemeFormat.Invalid("not valid YAML: " + e.getOriginalMessage()
                        + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
            } catch (IOException e) {
                throw new ThemeFormat.Invalid("not valid YAML: " + e.getMessage());
            }
        }

        private static JsonNode value(JsonParser p, JsonToken t) throws IOException, ThemeFormat.Invalid {
            JsonNodeFactory nf = JsonNodeFactory.instance;
            if (p instanceof com.fasterxml.jackson.dataformat.yaml.YAMLParser y && y.isCurrentAlias()) {
                throw new ThemeFormat.Invalid("line " + p.currentLocation().getLineNr() + ": YAML aliases (*"
                        + clip(p.getText()) + ") are not followed; write the value out");
            }
            switch (t) {
                case START_OBJECT -> {
                    ObjectNode o = nf.objectNode();
                    for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                        String name = p.currentName();
                        JsonNode v = value(p, p.nextToken());
                        if (o.has(name)) {
                            throw new ThemeFormat.Invalid(name + " is given twice");
                        }
                        o.set(name, v);
                    }
                    return o;
                }
                case START_ARRAY -> {
                    var a = nf.arrayNode();
                    for (JsonToken k = p.nextToken(); k != JsonToken.END_ARRAY; k = p.nextToken()) {
                        a.add(value(p, k));
                    }
                    return a;
                }
                case VALUE_NULL -> {
                    return nf.nullNode();
                }
                default -> {
                    return nf.textNode(p.getText());
                }
            }
        }
    }
}
