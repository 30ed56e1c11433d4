package io.artuditu.themes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThemeFormatTest {
    static Theme parse(String text) throws ThemeFormat.Invalid {
        return ThemeFormat.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    static String invalid(String text) {
        return assertThrows(ThemeFormat.Invalid.class, () -> parse(text)).getMessage();
    }

    @Test
    void aPlainPaletteIsAThemeAndTheWorkbenchIsDerivedFromIt() throws Exception {
        Theme t = parse(Palettes.plain("plain", "#101010"));
        assertEquals("plain", t.id());
        assertEquals(List.of(), t.warnings());
        assertEquals(ThemeFormat.WORKBENCH_KEYS.size(), t.workbench().size());
        assertEquals(0x555555, t.workbench().get("border"), "border: bright black");
        assertEquals(0x5555ff, t.workbench().get("border_focused"), "focused border: bright blue");
        assertEquals(0xcc0000, t.workbench().get("agent_blocked"));
        assertEquals(0xcccc00, t.workbench().get("bar_warning"));
        assertEquals(Rgb.blend(0x101010, 0xc0c0c0, 0.12), t.workbench().get("tab_bar_background"));
        assertEquals(0xc0c0c0, t.colors().get("cursor"), "the cursor defaults to the foreground");
        assertEquals(0xffffff, t.workbench().get("tab_active_foreground"), "white reads best on dark blue");
    }

    @Test
    void workbenchColoursMayBeGivenAsHexOrAsAPaletteNameAndDerivationsFollowThem() throws Exception {
        Theme t = parse(Palettes.plain("wb", "#101010") + """
                cursor = "bright_red"

                [workbench]
                border = "#abc"
                tab_active_background = "bright_yellow"
                """);
        assertEquals(0xaabbcc, t.workbench().get("border"));
        assertEquals(0xffff55, t.workbench().get("tab_active_background"));
        assertEquals(0xffff55, t.workbench().get("header_focused_background"), "derived from the given one");
        assertEquals(0x000000, t.workbench().get("tab_active_foreground"), "black reads best on yellow");
        assertEquals(0xff5555, t.colors().get("cursor"));
    }

    @Test
    void requiredFieldsAndColoursAreNamedWhenMissing() {
        assertTrue(invalid(Palettes.plain("x", "#000000").replace("name = \"Test x\"\n", "")).contains("name: is required"));
        assertTrue(invalid(Palettes.plain("x", "#000000").replace("bright_cyan = \"#55ffff\"\n", ""))
                .contains("colors.bright_cyan: is required"));
        assertEquals("colors: is required", invalid("id = \"x\"\nname = \"x\"\n"));
        assertTrue(invalid("").contains("id: is required") || invalid("").contains("empty"));
    }

    @Test
    void badValuesAreRefusedWithTheKeyAndTheValue() {
        String p = Palettes.plain("x", "#000000");
        assertTrue(invalid(p.replace("red = \"#cc0000\"", "red = \"crimson\"")).contains("colors.red: \"crimson\" is not a colour"));
        assertTrue(invalid(p.replace("red = \"#cc0000\"", "red = \"#12345\"")).contains("not a colour"));
        assertTrue(invalid(p.replace("red = \"#cc0000\"", "red = 0xcc0000")).contains("colors.red: expected string, got integer"));
        assertTrue(invalid(p + "[workbench]\nborder = \"nope\"\n").contains("workbench.border"));
        assertTrue(invalid(p.replace("id = \"x\"", "id = \"Has Caps\"")).startsWith("id: must match"));
        assertTrue(invalid(p.replace("id = \"x\"", "id = \"terminal\"")).startsWith("id: \"terminal\" is reserved"));
        assertTrue(invalid(p.replace("variant = \"dark\"", "variant = \"dim\"")).startsWith("variant: must be one of"));
        assertTrue(invalid(p.replace("name = \"Test x\"", "name = \"a\\u0007b\"")).startsWith("name: must match"));
        assertEquals("name: must be at most 64 bytes", invalid(p.replace("name = \"Test x\"", "name = \"" + "n".repeat(65) + "\"")));
        assertTrue(invalid(p + "[colors]\n").contains("TOML"), "a table defined twice is malformed TOML");
        assertTrue(invalid("id = \"x\"\nid = \"y\"\n").contains("TOML"), "a duplicate key is malformed TOML");
        assertTrue(invalid("this is not toml").contains("TOML"));
    }

    @Test
    void sizeIsCheckedBeforeParsingAndBytesMustBeUtf8() {
        byte[] big = new byte[ThemeFormat.MAX_BYTES + 1];
        assertTrue(assertThrows(ThemeFormat.Invalid.class, () -> ThemeFormat.parse(big)).getMessage().contains("larger"));
        byte[] latin1 = "id = \"caf\u00e9\"".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("not UTF-8", assertThrows(ThemeFormat.Invalid.class, () -> ThemeFormat.parse(latin1)).getMessage());
    }

    @Test
    void unknownKeysAVariantThatDisagreesAndLowContrastAreWarningsNotErrors() throws Exception {
        Theme t = parse(Palettes.plain("w", "#f0f0f0").replace("foreground = \"#c0c0c0\"", "foreground = \"#d0d0d0\"")
                + "sparkle = \"#ffffff\"\n");
        assertEquals(List.of("unknown key colors.sparkle ignored", "variant says dark but the background is light",
                "low contrast between foreground and background (1.4:1)"), t.warnings());
        Theme v = parse(Palettes.plain("v", "#000000").replace("variant = \"dark\"\n", ""));
        assertEquals("dark", v.variant());
        assertEquals(List.of("variant not set: taken as dark from the background"), v.warnings());
    }

    @Test
    void writeThenParseGivesTheSameColours() throws Exception {
        Theme a = parse(Palettes.plain("rt", "#202020"));
        String text = ThemeFormat.write("rt", "Round \"trip\"", "Me", "dark", a.colors(), Map.of("border", 0x123456));
        Theme b = parse(text);
        assertEquals(a.colors(), b.colors());
        assertEquals("Round \"trip\"", b.name());
        assertEquals(0x123456, b.workbench().get("border"));
    }
}
