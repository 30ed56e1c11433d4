package io.artuditu.themes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The theme format's schema file is what checks a theme: it ships in the jar, names exactly
 * the keys ThemeFormat knows, every refusal is worded as the schema validator words a
 * violation ({@code path: problem}, the path naming the field from the top of the file), and
 * every theme that loaded before loads.
 */
class ThemeSchemaTest {
    static final String P = Palettes.plain("x", "#000000");

    static String invalid(String text) {
        return assertThrows(ThemeFormat.Invalid.class, () -> ThemeFormat.parse(text.getBytes(StandardCharsets.UTF_8)),
                text).getMessage();
    }

    private static List<String> keys(JsonNode properties) {
        List<String> out = new ArrayList<>();
        properties.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theSchemaShipsInTheJarAndNamesTheKeysTheFormatKnows() throws Exception {
        try (InputStream in = ThemeFormat.class.getClassLoader().getResourceAsStream(ThemeFormat.SCHEMA)) {
            assertNotNull(in, ThemeFormat.SCHEMA + " is a resource of the jar");
        }
        JsonNode s = ThemeFormat.schema();
        List<String> colours = new ArrayList<>(ThemeFormat.TERMINAL_KEYS);
        colours.addAll(ThemeFormat.PALETTE_KEYS);
        assertEquals(colours, keys(s.at("/properties/colors/properties")));
        List<String> required = new ArrayList<>(List.of("foreground", "background"));
        required.addAll(ThemeFormat.PALETTE_KEYS);
        List<String> listed = new ArrayList<>();
        s.at("/properties/colors/required").forEach(n -> listed.add(n.asText()));
        assertEquals(required, listed);
        assertEquals(ThemeFormat.WORKBENCH_KEYS, keys(s.at("/properties/workbench/properties")),
                "every workbench key, in the order they are derived");
        assertEquals("^" + ThemeFormat.ID.pattern() + "$", s.at("/properties/id/pattern").asText());
        assertEquals(ThemeFormat.MAX_NAME, s.at("/properties/name/maxLength").intValue());
        assertEquals(ThemeFormat.MAX_AUTHOR, s.at("/properties/author/maxLength").intValue());
    }

    /** One bad file for each kind of violation the schema catches: the message is the validator's own. */
    @Test
    void eachKindOfViolationIsTheValidatorsMessageNamingTheField() throws Exception {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put(P.replace("name = \"Test x\"\n", ""), "name: is required");
        bad.put(P.replace("blue = \"#0000cc\"\n", ""), "colors.blue: is required");
        bad.put(P.replace("[colors]", "colors = 3\n[palette]"), "colors: expected object, got integer");
        bad.put(P.replace("red = \"#cc0000\"", "red = true"), "colors.red: expected string, got boolean");
        bad.put(P + "[workbench]\nborder = 1\n", "workbench.border: expected string, got integer");
        bad.put(P.replace("variant = \"dark\"", "variant = \"dusk\""), "variant: must be one of [\"dark\", \"light\"]");
        bad.put(P.replace("id = \"x\"", "id = \"X\""), "id: must match ^[a-z0-9][a-z0-9_.-]{0,63}$");
        bad.put(P.replace("name = \"Test x\"", "name = \"   \""),
                "name: must match ^(?!\\s*$)[^\\x00-\\x1f\\x7f-\\x9f]*$");
        bad.put(P.replace("name = \"Test x\"", "name = \"\""), "name: must be at least 1 bytes");
        bad.put(P.replace("variant = \"dark\"", "author = \"" + "a".repeat(129) + "\""),
                "author: must be at most 128 bytes");
        JsonSchema schema = JsonSchema.compile(ThemeFormat.schema());
        TomlMapper toml = new TomlMapper();
        for (Map.Entry<String, String> e : bad.entrySet()) {
            assertEquals(e.getValue(), invalid(e.getKey()), e.getKey());
            assertEquals(e.getValue(), schema.validate(toml.readTree(e.getKey()), "").orElseThrow().toString(),
                    "the format says what the validator says");
        }
    }

    /** What the schema cannot say is refused in the same shape: the field's path, then the reason. */
    @Test
    void colourParsingAndTheReservedIdAreWordedTheSameWay() {
        assertEquals("colors.red: \"#12345\" is not a colour (#rrggbb or #rgb)",
                invalid(P.replace("red = \"#cc0000\"", "red = \"#12345\"")));
        assertEquals("colors.red: \"bright_red\" is not a colour (#rrggbb or #rgb)",
                invalid(P.replace("red = \"#cc0000\"", "red = \"bright_red\"")), "a required colour names no other");
        assertTrue(invalid(P + "cursor = \"cursor\"\n").startsWith("colors.cursor: \"cursor\" is not a colour (#rrggbb, #rgb or"));
        assertTrue(invalid(P + "[workbench]\nprefix = \"gold\"\n").startsWith("workbench.prefix: \"gold\" is not a colour"));
        assertEquals("id: \"terminal\" is reserved for the outer terminal's own colours",
                invalid(P.replace("id = \"x\"", "id = \"terminal\"")));
    }

    /** Keys the schema does not name are warnings, never refusals, at every level. */
    @Test
    void keysTheSchemaDoesNotNameAreWarnedAboutAndIgnored() throws Exception {
        Theme t = ThemeFormat.parse((P.replace("variant = \"dark\"", "variant = \"dark\"\nglow = 2") + "sparkle = \"#fff\"\n"
                + "[workbench]\nborder = \"red\"\nshadow = 7\n[extra]\nx = 1\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("unknown key glow ignored", "unknown key extra ignored", "unknown key colors.sparkle ignored",
                "unknown key workbench.shadow ignored"), t.warnings());
        assertEquals(0xcc0000, t.workbench().get("border"));
    }

    /** Every built-in theme, and the documented example, passes the schema and loads without a warning. */
    @Test
    void everyBuiltInThemePassesTheSchema() throws Exception {
        JsonSchema schema = JsonSchema.compile(ThemeFormat.schema());
        TomlMapper toml = new TomlMapper();
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("../../../themes"))) {
            files = s.filter(p -> p.toString().endsWith(".toml")).sorted().toList();
        }
        assertEquals(11, files.size());
        for (Path f : files) {
            assertEquals("valid", schema.validate(toml.readTree(f.toFile()), "").map(Object::toString).orElse("valid"),
                    f.toString());
            assertEquals(List.of(), ThemeFormat.parse(Files.readAllBytes(f)).warnings(), f.toString());
        }
        String doc = Files.readString(Path.of("../../../docs/themes.md"));
        int at = doc.indexOf("```toml\n") + "```toml\n".length();
        Theme harbour = ThemeFormat.parse(doc.substring(at, doc.indexOf("```", at)).getBytes(StandardCharsets.UTF_8));
        assertEquals("harbour", harbour.id());
    }
}
