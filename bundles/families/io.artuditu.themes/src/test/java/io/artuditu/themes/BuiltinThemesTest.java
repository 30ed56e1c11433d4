package io.artuditu.themes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The theme files in the top-level themes/ folder, which this bundle ships as its built-ins. */
class BuiltinThemesTest {
    private static final Path THEMES = Path.of("../../../themes");

    private static List<String> index() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(THEMES.resolve("index.txt"))) {
            if (!line.isBlank()) {
                names.add(line.strip());
            }
        }
        return names;
    }

    private static Theme parse(String file) throws IOException, ThemeFormat.Invalid {
        return ThemeFormat.parse(Files.readAllBytes(THEMES.resolve(file)));
    }

    @Test
    void theIndexListsExactlyTheThemeFilesDefaultsFirstThenAlphabetically() throws IOException {
        List<String> files;
        try (Stream<Path> s = Files.list(THEMES)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".toml")).sorted().toList();
        }
        List<String> listed = index();
        assertEquals(listed.size(), new LinkedHashSet<>(listed).size(), "index.txt names a file twice: " + listed);
        assertEquals(files, listed.stream().sorted().toList(), "index.txt must list exactly the *.toml files");
        assertEquals("default.toml", listed.get(0));
        assertEquals("default-light.toml", listed.get(1));
        List<String> rest = listed.subList(2, listed.size());
        assertEquals(rest.stream().sorted().toList(), rest, "after the defaults the index is alphabetical");
    }

    @Test
    void theBundleShipsTheFolder() throws IOException {
        for (String name : index()) {
            try (InputStream in = ThemeFormat.class.getResourceAsStream("builtin/" + name)) {
                assertNotNull(in, name + " is not on the bundle's class path (see the pom's resources)");
                assertArrayEquals(Files.readAllBytes(THEMES.resolve(name)), in.readAllBytes(), name);
            }
        }
        try (InputStream in = ThemeFormat.class.getResourceAsStream("builtin/index.txt")) {
            assertNotNull(in, "index.txt is not on the bundle's class path");
        }
    }

    @Test
    void everyThemeParsesWithoutWarningsAndIsNamedByItsId() throws Exception {
        for (String file : index()) {
            Theme t = parse(file);
            assertEquals(List.of(), t.warnings(), file);
            assertEquals(file, t.id() + ".toml", "the file name is the id");
            assertNotNull(t.author(), file + " names its author");
        }
    }

    @Test
    void theDefaultReproducesTheWorkbenchsXterm256Colours() throws Exception {
        Map<String, Integer> xterm = new LinkedHashMap<>();
        xterm.put("tab_bar_background", 236);
        xterm.put("tab_bar_foreground", 250);
        xterm.put("tab_active_background", 33);
        xterm.put("tab_active_foreground", 231);
        xterm.put("sidebar_dim", 244);
        xterm.put("bar_accent", 75);
        xterm.put("sidebar_background", 235);
        xterm.put("sidebar_foreground", 250);
        xterm.put("sidebar_active_background", 238);
        xterm.put("sidebar_active_foreground", 231);
        xterm.put("border", 240);
        xterm.put("border_focused", 75);
        xterm.put("header_background", 237);
        xterm.put("header_foreground", 248);
        xterm.put("header_focused_background", 25);
        xterm.put("header_focused_foreground", 231);
        xterm.put("notification_background", 238);
        xterm.put("notification_foreground", 231);
        xterm.put("notification_error", 88);
        xterm.put("notification_warning", 130);
        xterm.put("notification_success", 22);
        xterm.put("prefix", 214);
        xterm.put("agent_working", 220);
        xterm.put("agent_blocked", 196);
        xterm.put("agent_done", 40);
        xterm.put("agent_idle", 75);
        xterm.put("agent_none", 240);
        xterm.put("bar_normal", 250);
        xterm.put("bar_muted", 244);
        xterm.put("bar_success", 40);
        xterm.put("bar_warning", 214);
        xterm.put("bar_error", 196);
        // a workbench key added to the format must be decided for the default too
        assertEquals(Set.copyOf(ThemeFormat.WORKBENCH_KEYS), Set.copyOf(xterm.keySet()));
        Theme t = parse("default.toml");
        assertEquals("Artuditu Dark", t.name());
        assertEquals("dark", t.variant());
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Integer> e : xterm.entrySet()) {
            int want = xterm256(e.getValue());
            int got = t.workbench().get(e.getKey());
            if (got != want) {
                wrong.add(e.getKey() + " is " + Rgb.hex(got) + ", not " + Rgb.hex(want) + " (xterm " + e.getValue() + ")");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theLightDefaultIsReadable() throws Exception {
        Theme t = parse("default-light.toml");
        assertEquals("light", t.variant());
        double k = Rgb.contrast(t.color("foreground"), t.color("background"));
        assertTrue(k >= 7.0, String.format(Locale.ROOT, "foreground on background %.2f:1", k));
        String[][] text = {
            {"tab_bar_foreground", "tab_bar_background"}, {"tab_active_foreground", "tab_active_background"},
            {"sidebar_foreground", "sidebar_background"}, {"sidebar_dim", "sidebar_background"},
            {"sidebar_active_foreground", "sidebar_active_background"}, {"header_foreground", "header_background"},
            {"header_focused_foreground", "header_focused_background"}, {"bar_normal", "tab_bar_background"},
            {"bar_muted", "tab_bar_background"}, {"bar_accent", "tab_bar_background"},
            {"bar_success", "tab_bar_background"}, {"bar_warning", "tab_bar_background"},
            {"bar_error", "tab_bar_background"}, {"notification_foreground", "notification_background"},
            {"notification_foreground", "notification_error"}, {"notification_foreground", "notification_warning"},
            {"notification_foreground", "notification_success"},
        };
        List<String> low = new ArrayList<>();
        for (String[] p : text) {
            double c = Rgb.contrast(t.color(p[0]), t.color(p[1]));
            if (c < 4.5) {
                low.add(String.format(Locale.ROOT, "%s on %s %.2f:1", p[0], p[1], c));
            }
        }
        assertEquals(List.of(), low, "workbench text below 4.5:1");
    }

    /** The colour of an xterm-256 index from 16 up: the 6x6x6 cube, then the grey ramp. */
    private static int xterm256(int i) {
        if (i >= 232) {
            int v = 8 + 10 * (i - 232);
            return v << 16 | v << 8 | v;
        }
        int c = i - 16;
        return level(c / 36) << 16 | level(c / 6 % 6) << 8 | level(c % 6);
    }

    private static int level(int n) {
        return n == 0 ? 0 : 55 + 40 * n;
    }
}
