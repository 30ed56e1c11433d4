package io.artuditu.themes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.themes.ThemeImport.Format;
import io.artuditu.themes.ThemeImport.Options;
import io.artuditu.themes.ThemeImport.Result;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ThemeImport} on real-looking sources of each format (the fixtures under
 * {@code src/test/resources/io/artuditu/themes/import/} hold the published colours of
 * well-known schemes), and on what it must refuse.
 */
class ThemeImportTest {
    static byte[] fixture(String name) {
        try (InputStream in = ThemeImportTest.class.getResourceAsStream("import/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Result convert(String fixture) throws ThemeFormat.Invalid {
        return ThemeImport.convert(fixture(fixture), fixture, Options.NONE);
    }

    static Result convert(String text, String fileName, Options o) throws ThemeFormat.Invalid {
        return ThemeImport.convert(text.getBytes(StandardCharsets.UTF_8), fileName, o);
    }

    static String refused(String text, String fileName, Options o) {
        return assertThrows(ThemeFormat.Invalid.class, () -> convert(text, fileName, o)).getMessage();
    }

    static String hex(Theme t, String key) {
        int c = t.color(key);
        return c < 0 ? null : Rgb.hex(c);
    }

    /** The written text parses, by itself, to exactly the theme returned, with no warning about the variant. */
    static void roundTrips(Result r) throws ThemeFormat.Invalid {
        Theme again = ThemeFormat.parse(r.text().getBytes(StandardCharsets.UTF_8));
        assertEquals(r.theme(), again);
        assertTrue(r.text().contains("\nvariant = \"" + r.theme().variant() + "\"\n"), r.text());
        for (String w : r.theme().warnings()) {
            assertFalse(w.startsWith("variant") || w.startsWith("unknown key"), w);
        }
    }

    @Test
    void aClassicBase16SchemeTakesTheStandardTerminalMappingAndBase16sWorkbenchMeanings() throws Exception {
        Result r = convert("base16-tomorrow-night.yaml");
        Theme t = r.theme();
        assertEquals(Format.BASE16, r.format());
        assertEquals("tomorrow-night", t.id());
        assertEquals("Tomorrow Night", t.name());
        assertEquals("Chris Kempson (http://chriskempson.com)", t.author());
        assertEquals("dark", t.variant(), "taken from the background and written down");
        String[][] expected = {
            {"background", "#1d1f21"}, {"foreground", "#c5c8c6"}, {"cursor", "#c5c8c6"}, {"selection_background", "#373b41"},
            {"black", "#1d1f21"}, {"red", "#cc6666"}, {"green", "#b5bd68"}, {"yellow", "#f0c674"}, {"blue", "#81a2be"},
            {"magenta", "#b294bb"}, {"cyan", "#8abeb7"}, {"white", "#c5c8c6"},
            {"bright_black", "#969896"}, {"bright_red", "#cc6666"}, {"bright_green", "#b5bd68"},
            {"bright_yellow", "#f0c674"}, {"bright_blue", "#81a2be"}, {"bright_magenta", "#b294bb"},
            {"bright_cyan", "#8abeb7"}, {"bright_white", "#ffffff"},
            {"tab_bar_background", "#282a2e"}, {"sidebar_background", "#282a2e"},
            {"tab_bar_foreground", "#b4b7b4"}, {"sidebar_foreground", "#b4b7b4"}, {"border", "#969896"},
        };
        for (String[] e : expected) {
            assertEquals(e[1], hex(t, e[0]), e[0]);
        }
        assertEquals("#c5c8c6", hex(t, "selection_foreground"), "left to Artuditu: the foreground");
        assertTrue(r.text().contains("\n[workbench]\nborder = \"#969896\"\n"), r.text());
        assertEquals(List.of(), r.notes());
        roundTrips(r);
    }

    @Test
    void aTintedThemingSchemeGivesItsNameAuthorVariantAndPalette() throws Exception {
        Result dark = convert("gruvbox-dark-medium.yaml");
        assertEquals("gruvbox-dark-medium", dark.theme().id());
        assertEquals("Gruvbox dark, medium", dark.theme().name());
        assertEquals("dark", dark.theme().variant());
        assertEquals("#282828", hex(dark.theme(), "background"));
        assertEquals("#fb4934", hex(dark.theme(), "red"));
        assertEquals("#fbf1c7", hex(dark.theme(), "bright_white"));
        assertEquals("#3c3836", hex(dark.theme(), "sidebar_background"));
        roundTrips(dark);
        Result light = convert("solarized-light.yaml");
        assertEquals("solarized-light", light.theme().id());
        assertEquals("light", light.theme().variant());
        assertEquals("#fdf6e3", hex(light.theme(), "background"));
        assertEquals("#586e75", hex(light.theme(), "foreground"));
        assertEquals("#002b36", hex(light.theme(), "bright_white"));
        roundTrips(light);
    }

    @Test
    void unquotedBase16HexIsTheTextWrittenNotTheNumberYamlWouldMakeOfIt() throws Exception {
        StringBuilder b = new StringBuilder("scheme: Octal Trap\nauthor: nobody\n");
        String[] values = {"000000", "010101", "282828", "1e1f21", "e0e0e0", "ffffff", "0000ff", "777777",
            "cc6666", "de935f", "f0c674", "b5bd68", "8abeb7", "81a2be", "b294bb", "a3685a"};
        for (int i = 0; i < 16; i++) {
            b.append(String.format("base0%X: %s\n", i, values[i]));
        }
        Theme t = convert(b.toString(), "octal.yaml", Options.NONE).theme();
        assertEquals("#000000", hex(t, "background"));
        assertEquals("#010101", hex(t, "tab_bar_background"), "not 65, the octal number");
        assertEquals("#282828", hex(t, "selection_background"));
        assertEquals("#1e1f21", hex(t, "bright_black"), "not 1e1f21 read as a float");
    }

    @Test
    void alacrittyTomlMapsPrimaryCursorSelectionNormalAndBright() throws Exception {
        Result r = convert("dracula.toml");
        Theme t = r.theme();
        assertEquals(Format.ALACRITTY, r.format());
        assertEquals("dracula", t.id(), "Alacritty themes name nothing: the file name");
        assertEquals("dracula", t.name());
        assertNull(t.author());
        String[][] expected = {
            {"background", "#282a36"}, {"foreground", "#f8f8f2"}, {"cursor", "#f8f8f2"},
            {"selection_background", "#44475a"}, {"selection_foreground", "#f8f8f2"},
            {"black", "#21222c"}, {"red", "#ff5555"}, {"green", "#50fa7b"}, {"yellow", "#f1fa8c"}, {"blue", "#bd93f9"},
            {"magenta", "#ff79c6"}, {"cyan", "#8be9fd"}, {"white", "#f8f8f2"},
            {"bright_black", "#6272a4"}, {"bright_red", "#ff6e6e"}, {"bright_green", "#69ff94"},
            {"bright_yellow", "#ffffa5"}, {"bright_blue", "#d6acff"}, {"bright_magenta", "#ff92df"},
            {"bright_cyan", "#a4ffff"}, {"bright_white", "#ffffff"},
        };
        for (String[] e : expected) {
            assertEquals(e[1], hex(t, e[0]), e[0]);
        }
        assertFalse(r.text().contains("selection_foreground"), "CellForeground is no colour: left to Artuditu\n" + r.text());
        assertEquals(1, r.notes().size(), r.notes().toString());
        assertTrue(r.notes().get(0).startsWith("colors.selection.text = CellForeground is not a colour"), r.notes().toString());
        roundTrips(r);
    }

    @Test
    void alacrittysOlderYamlAndItsHexPrefixAreRead() throws Exception {
        Result r = convert("tango-dark.yml");
        assertEquals(Format.ALACRITTY, r.format());
        assertEquals("tango-dark", r.theme().id());
        assertEquals("#000000", hex(r.theme(), "background"));
        assertEquals("#d3d7cf", hex(r.theme(), "foreground"));
        assertEquals("#ffffff", hex(r.theme(), "cursor"));
        assertEquals("#75507b", hex(r.theme(), "magenta"));
        assertEquals("#eeeeec", hex(r.theme(), "bright_white"));
        String toml = new String(fixture("dracula.toml"), StandardCharsets.UTF_8).replace("\"#", "\"0x");
        assertEquals("#bd93f9", hex(convert(toml, "dracula-0x.toml", Options.NONE).theme(), "blue"));
        roundTrips(r);
    }

    @Test
    void kittyConfMapsColorNAndTakesNameAndAuthorFromItsMetadataComments() throws Exception {
        Result r = convert("gruvbox-dark.conf");
        Theme t = r.theme();
        assertEquals(Format.KITTY, r.format());
        assertEquals("gruvbox-dark", t.id());
        assertEquals("Gruvbox Dark", t.name());
        assertEquals("Pavel Pertsev", t.author());
        String[][] expected = {
            {"background", "#282828"}, {"foreground", "#ebdbb2"}, {"cursor", "#bdae93"},
            {"selection_foreground", "#ebdbb2"}, {"selection_background", "#d65d0e"},
            {"black", "#3c3836"}, {"red", "#cc241d"}, {"green", "#98971a"}, {"yellow", "#d79921"}, {"blue", "#458588"},
            {"magenta", "#b16286"}, {"cyan", "#689d6a"}, {"white", "#a89984"},
            {"bright_black", "#928374"}, {"bright_red", "#fb4934"}, {"bright_green", "#b8bb26"},
            {"bright_yellow", "#fabd2f"}, {"bright_blue", "#83a598"}, {"bright_magenta", "#d3869b"},
            {"bright_cyan", "#8ec07c"}, {"bright_white", "#fbf1c7"},
            {"tab_active_background", "#a89984"}, {"tab_active_foreground", "#282828"},
            {"tab_bar_foreground", "#ebdbb2"}, {"border_focused", "#d79921"}, {"border", "#665c54"},
        };
        for (String[] e : expected) {
            assertEquals(e[1], hex(t, e[0]), e[0]);
        }
        assertEquals(List.of("tab_bar_background = none is not a colour: left out, Artuditu derives tab_bar_background"),
                r.notes());
        roundTrips(r);
    }

    @Test
    void aKittyIncludeIsNotFollowedAndSaysSo() throws Exception {
        String conf = new String(fixture("gruvbox-dark.conf"), StandardCharsets.UTF_8) + "include ~/.config/kitty/extra.conf\n";
        Result r = convert(conf, "gruvbox-dark.conf", Options.NONE);
        assertTrue(r.notes().contains("line 45: include ~/.config/kitty/extra.conf is not followed"), r.notes().toString());
    }

    @Test
    void aWindowsTerminalSchemeMapsPurpleToMagenta() throws Exception {
        Result r = convert("campbell.json");
        Theme t = r.theme();
        assertEquals(Format.WINDOWS_TERMINAL, r.format());
        assertEquals("campbell", t.id());
        assertEquals("Campbell", t.name());
        String[][] expected = {
            {"background", "#0c0c0c"}, {"foreground", "#cccccc"}, {"cursor", "#ffffff"}, {"selection_background", "#ffffff"},
            {"black", "#0c0c0c"}, {"red", "#c50f1f"}, {"green", "#13a10e"}, {"yellow", "#c19c00"}, {"blue", "#0037da"},
            {"magenta", "#881798"}, {"cyan", "#3a96dd"}, {"white", "#cccccc"},
            {"bright_black", "#767676"}, {"bright_red", "#e74856"}, {"bright_green", "#16c60c"},
            {"bright_yellow", "#f9f1a5"}, {"bright_blue", "#3b78ff"}, {"bright_magenta", "#b4009e"},
            {"bright_cyan", "#61d6d6"}, {"bright_white", "#f2f2f2"},
        };
        for (String[] e : expected) {
            assertEquals(e[1], hex(t, e[0]), e[0]);
        }
        roundTrips(r);
    }

    @Test
    void windowsTerminalSettingsWithSeveralSchemesNeedOneNamedAndListThem() throws Exception {
        String settings = new String(fixture("settings.json"), StandardCharsets.UTF_8);
        String m = refused(settings, "settings.json", Options.NONE);
        assertTrue(m.startsWith("the file holds 3 colour schemes; choose one by its name (artu theme import --scheme NAME):"), m);
        assertTrue(m.endsWith("\"One Half Dark\", \"One Half Light\", \"Tango Dark\""), m);

        Result light = convert(settings, "settings.json", new Options(null, null, null, "One Half Light"));
        assertEquals("one-half-light", light.theme().id());
        assertEquals("light", light.theme().variant());
        assertEquals("#a626a4", hex(light.theme(), "magenta"));
        assertEquals("#4f525d", hex(light.theme(), "cursor"));
        roundTrips(light);
        assertEquals("Tango Dark", convert(settings, "settings.json", new Options(null, null, null, "tango dark")).theme().name(),
                "a name that differs only in case still picks the one scheme");
        String none = refused(settings, "settings.json", new Options(null, null, null, "Solarized"));
        assertTrue(none.startsWith("no colour scheme is named \"Solarized\"; the file holds: \"One Half Dark\""), none);
        String one = settings.substring(0, settings.indexOf("        },\n        {") + 10) + "\n    ]\n}\n";
        assertEquals("One Half Dark", convert(one, "settings.json", Options.NONE).theme().name(), "one scheme needs no name");
    }

    @Test
    void theFormatIsToldByContentFirstThenByExtension() throws Exception {
        for (String[] f : new String[][] {{"base16-tomorrow-night.yaml", "base16"}, {"gruvbox-dark-medium.yaml", "base16"},
            {"dracula.toml", "alacritty"}, {"tango-dark.yml", "alacritty"}, {"gruvbox-dark.conf", "kitty"},
            {"campbell.json", "windows-terminal"}, {"settings.json", "windows-terminal"}}) {
            String text = new String(fixture(f[0]), StandardCharsets.UTF_8);
            assertEquals(Format.of(f[1]), ThemeImport.detect(text, null), f[0] + " by its content alone");
            assertEquals(Format.of(f[1]), ThemeImport.detect(text, "downloaded.txt"), f[0] + " whatever its name");
        }
        assertEquals(Format.KITTY, ThemeImport.detect("# nothing but a comment\n", "theme.conf"));
        assertEquals(Format.BASE16, ThemeImport.detect("", "x.yml"));
        assertNull(ThemeImport.detect("hello world\n", "notes.txt"));
        assertEquals("cannot tell which format notes.txt is; name it: base16, alacritty, kitty, windows-terminal",
                refused("hello world\n", "notes.txt", Options.NONE));
        assertEquals(Format.WINDOWS_TERMINAL, Format.of("windows-terminal"));
        assertNull(Format.of("iterm"));
        assertEquals("base16|alacritty|kitty|windows-terminal", Format.ids());
    }

    @Test
    void aGivenFormatIdAndNameWin() throws Exception {
        String yaml = new String(fixture("base16-tomorrow-night.yaml"), StandardCharsets.UTF_8);
        Result r = convert(yaml, "x.yaml", new Options(Format.BASE16, "my.night_1", "My Night", null));
        assertEquals("my.night_1", r.theme().id());
        assertEquals("My Night", r.theme().name());
        assertTrue(refused(yaml, "x.yaml", new Options(Format.KITTY, null, null, null)).startsWith("not a kitty theme"));
        assertTrue(refused(yaml, "x.yaml", new Options(null, "My Night", null, null)).startsWith("id 'My Night' must be"));
        assertEquals("a scheme name chooses among Windows Terminal schemes; this is read as base16",
                refused(yaml, "x.yaml", new Options(null, null, null, "Tomorrow")));
        // neither the source nor the caller names it: the file name does
        String unnamed = yaml.replace("scheme: \"Tomorrow Night\"\n", "");
        assertEquals("night-owl", convert(unnamed, "/themes/Night Owl.yaml", Options.NONE).theme().id());
        assertEquals("Night Owl", convert(unnamed, "/themes/Night Owl.yaml", Options.NONE).theme().name());
        assertEquals("the source names no scheme: give the theme a name", refused(unnamed, null, Options.NONE));
    }

    @Test
    void everyMissingColourIsNamedAndNoneIsInvented() {
        String yaml = new String(fixture("base16-tomorrow-night.yaml"), StandardCharsets.UTF_8)
                .replace("base08: \"cc6666\"\n", "").replace("base0B: \"b5bd68\"\n", "");
        assertEquals("missing colours base08, base0B (a base16 scheme gives all of base00 to base0F)",
                refused(yaml, "t.yaml", Options.NONE));
        String tinted = new String(fixture("gruvbox-dark-medium.yaml"), StandardCharsets.UTF_8).replaceAll("  base0D: .*\n", "");
        assertEquals("missing colour palette.base0D (a base16 scheme gives all of base00 to base0F)",
                refused(tinted, "g.yaml", Options.NONE));
        String conf = new String(fixture("gruvbox-dark.conf"), StandardCharsets.UTF_8)
                .replaceAll("(?m)^color3 .*\n", "").replaceAll("(?m)^color11 .*\n", "").replaceAll("(?m)^foreground .*\n", "");
        assertEquals("missing colours foreground, color3, color11 (a kitty theme gives foreground, background and color0 to color15)",
                refused(conf, "g.conf", Options.NONE));
        String json = new String(fixture("campbell.json"), StandardCharsets.UTF_8).replace("\"brightPurple\": \"#B4009E\",", "");
        assertTrue(refused(json, "c.json", Options.NONE).startsWith("missing colour brightPurple (a Windows Terminal scheme"));
        String toml = new String(fixture("dracula.toml"), StandardCharsets.UTF_8);
        toml = toml.substring(0, toml.indexOf("[colors.bright]"));
        assertTrue(refused(toml, "d.toml", Options.NONE).startsWith("missing colours colors.bright.black, colors.bright.red,"
                + " colors.bright.green, colors.bright.yellow, colors.bright.blue, colors.bright.magenta, colors.bright.cyan,"
                + " colors.bright.white (an Alacritty theme gives"));
        assertTrue(refused("[colors.primary]\nbackground = \"#000000\"\n", "p.toml", Options.NONE)
                .startsWith("missing colours colors.primary.foreground, colors.normal.black,"));
    }

    @Test
    void aValueOfTheWrongTypeOrNotAColourIsRefusedByItsKey() {
        String yaml = new String(fixture("base16-tomorrow-night.yaml"), StandardCharsets.UTF_8);
        assertEquals("base00 must be a colour string like \"#1d1f21\", not a list",
                refused(yaml.replace("base00: \"1d1f21\"", "base00: [1, 2]"), "t.yaml", Options.NONE));
        assertEquals("base05 = \"c5c8\" is not a colour (rrggbb or #rrggbb)",
                refused(yaml.replace("base05: \"c5c8c6\"", "base05: c5c8"), "t.yaml", Options.NONE));
        assertEquals("scheme must be a string, not a table",
                refused(yaml.replace("scheme: \"Tomorrow Night\"", "scheme: {a: b}"), "t.yaml", Options.NONE));
        assertEquals("palette must be a mapping of base00 to base0F", refused("system: base16\nname: x\npalette: 3\n", "x.yaml",
                Options.NONE));
        String toml = new String(fixture("dracula.toml"), StandardCharsets.UTF_8);
        assertEquals("colors.normal.red must be a colour string like \"#1d1f21\", not the number 16733525",
                refused(toml.replace("red = \"#ff5555\"", "red = 0xff5555"), "d.toml", Options.NONE));
        assertEquals("colors.selection.background = \"grey\" is not a colour (#rrggbb, #rgb or 0xrrggbb)",
                refused(toml.replace("background = \"#44475a\"", "background = \"grey\""), "d.toml", Options.NONE));
        assertEquals("colors.normal must be a table, not the number 3",
                refused("[colors]\nnormal = 3\n[colors.primary]\nforeground = \"#fff\"\n", "d.toml", Options.NONE));
        String json = new String(fixture("campbell.json"), StandardCharsets.UTF_8);
        assertEquals("red must be a colour string like \"#1d1f21\", not true",
                refused(json.replace("\"red\": \"#C50F1F\"", "\"red\": true"), "c.json", Options.NONE));
        assertEquals("schemes must be an array of colour schemes", refused("{\"schemes\": {}}", "s.json", Options.NONE));
        assertEquals("scheme 2 is not a JSON object", refused("[{\"name\": \"a\"}, 7]", "s.json", Options.NONE));
        String conf = new String(fixture("gruvbox-dark.conf"), StandardCharsets.UTF_8);
        assertEquals("color1 = \"red\" is not a colour (#rrggbb, #rgb or 0xrrggbb)",
                refused(conf.replace("color1                  #cc241d", "color1 red"), "g.conf", Options.NONE));
    }

    @Test
    void garbageIsRefusedWithTheReasonAndNothingIsWritten() {
        byte[] binary = new byte[300];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (0x80 + i % 64);
        }
        assertEquals("not UTF-8 text", assertThrows(ThemeFormat.Invalid.class,
                () -> ThemeImport.convert(binary, "x.yaml", Options.NONE)).getMessage());
        assertTrue(refused("{ \"name\": ", "x.json", Options.NONE).startsWith("not valid JSON: "));
        assertTrue(refused("[colors.primary\nforeground = 1\n", "x.toml", Options.NONE).startsWith("not valid TOML: "));
        assertTrue(refused("scheme: [unclosed\nbase00: \"000000\"\n", "x.yaml", Options.NONE).startsWith("not valid YAML: "));
        assertEquals("not a base16 scheme: the YAML is not a mapping of keys",
                refused("- a\n- b\n", "x.yaml", new Options(Format.BASE16, null, null, null)));
        assertEquals("not a Windows Terminal scheme: the JSON is not an object or an array",
                refused("\"text\"", "x.json", new Options(Format.WINDOWS_TERMINAL, null, null, null)));
        assertEquals("the file holds no colour schemes", refused("[]", "x.json", Options.NONE));
        assertEquals("not a kitty theme: no foreground, background or color0 to color15 lines",
                refused("font_size 12\n", "kitty.conf", Options.NONE));
        assertEquals("not an Alacritty theme: no [colors] table (it imports [\"~/.config/alacritty/themes/dracula.toml\"];"
                + " import that file instead)", refused("[general]\nimport = [\"~/.config/alacritty/themes/dracula.toml\"]\n",
                        "alacritty.toml", Options.NONE));
    }

    @Test
    void anOversizedSourceIsRefusedBeforeAnythingIsParsed() {
        byte[] big = new byte[ThemeImport.MAX_BYTES + 1];
        Arrays.fill(big, (byte) 0xff); // not UTF-8 either: the size is checked first
        assertEquals("larger than 1048576 bytes", assertThrows(ThemeFormat.Invalid.class,
                () -> ThemeImport.convert(big, "big.yaml", Options.NONE)).getMessage());
    }

    @Test
    void yamlAliasesAndRepeatedKeysAreRefusedRatherThanGuessed() {
        String yaml = new String(fixture("base16-tomorrow-night.yaml"), StandardCharsets.UTF_8);
        String alias = refused(yaml.replace("base05: \"c5c8c6\"", "base05: &fg \"c5c8c6\"").replace("base07: \"ffffff\"",
                "base07: *fg"), "t.yaml", Options.NONE);
        assertTrue(alias.contains("YAML aliases (*fg) are not followed"), alias);
        String twice = refused(yaml + "base00: \"000000\"\n", "t.yaml", Options.NONE);
        assertTrue(twice.contains("base00"), twice);
        assertEquals("base0A is given twice", refused(yaml + "base0a: \"000000\"\n", "t.yaml", Options.NONE));
    }

    @Test
    void whatIsNotABase16SchemeOrAlreadyAnArtudituThemeIsSentElsewhere() throws Exception {
        assertEquals("system \"base24\" is not base16: only base16 schemes are read",
                refused(new String(fixture("gruvbox-dark-medium.yaml"), StandardCharsets.UTF_8).replace("\"base16\"", "\"base24\""),
                        "g.yaml", Options.NONE));
        String artuditu = convert("dracula.toml").text();
        assertEquals("this is already an Artuditu theme: install it with artu theme install",
                refused(artuditu, "dracula.toml", Options.NONE));
        Result variant = convert(new String(fixture("gruvbox-dark-medium.yaml"), StandardCharsets.UTF_8)
                .replace("variant: \"dark\"", "variant: \"dim\""), "g.yaml", Options.NONE);
        assertEquals("dark", variant.theme().variant());
        assertEquals(List.of("variant \"dim\" is neither dark nor light: taken from the background instead"), variant.notes());
    }

    @Test
    void aNameArtudituCannotHoldIsRefusedByTheCheckOfTheWrittenFile() {
        String yaml = new String(fixture("base16-tomorrow-night.yaml"), StandardCharsets.UTF_8);
        String longName = "Tomorrow Night ".repeat(6).strip();
        assertEquals("the converted theme is not valid: name: must be at most 64 bytes",
                refused(yaml.replace("\"Tomorrow Night\"", "\"" + longName + "\""), "t.yaml", Options.NONE));
        assertEquals("the converted theme is not valid: name: must match ^(?!\\s*$)[^\\x00-\\x1f\\x7f-\\x9f]*$",
                refused(yaml, "t.yaml", new Options(null, null, "Tomorrow\u0007", null)));
        assertEquals("the converted theme is not valid: id: \"terminal\" is reserved for the outer terminal's own colours",
                refused(yaml, "t.yaml", new Options(null, "terminal", null, null)));
    }

    @Test
    void idsAreSlugsOfTheName() {
        assertEquals("rose-pine-moon", ThemeImport.slug("Rosé Pine Moon"));
        assertEquals("gruvbox-dark-medium", ThemeImport.slug("Gruvbox dark, medium"));
        assertEquals("solarized-dark", ThemeImport.slug("  Solarized (dark)  "));
        assertEquals("3024-day", ThemeImport.slug("3024 Day"));
        assertNull(ThemeImport.slug("*** ***"));
        assertNull(ThemeImport.slug(null));
        String cut = ThemeImport.slug("a".repeat(63) + " b");
        assertEquals("a".repeat(63), cut, "cut at 64 without a trailing dash");
        assertTrue(ThemeFormat.ID.matcher(ThemeImport.slug("x".repeat(200))).matches());
    }
}
