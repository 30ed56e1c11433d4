package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The theme family over the real socket: the registry's order and its problems, theme.use and
 * config.patch checked against it, theme.reload, the watched home folder, a selected theme
 * that disappears, themes a bundle module ships, and updating the family's bundle (no thread,
 * class loader or service left behind).
 */
class ThemeMethodsTest {
    static final List<String> BUILTINS = List.of("default", "default-light", "catppuccin-latte", "catppuccin-mocha",
            "dracula", "gruvbox-dark", "nord", "one-dark", "solarized-dark", "solarized-light", "tokyonight");

    @TempDir
    Path home;

    static String theme(String id, String background) {
        return """
                id = "%s"
                name = "Theme %s"
                author = "Tests"
                variant = "dark"
                [colors]
                foreground = "#c0c0c0"
                background = "%s"
                black = "#000000"
                red = "#cc0000"
                green = "#00cc00"
                yellow = "#cccc00"
                blue = "#0000cc"
                magenta = "#cc00cc"
                cyan = "#00cccc"
                white = "#cccccc"
                bright_black = "#555555"
                bright_red = "#ff5555"
                bright_green = "#55ff55"
                bright_yellow = "#ffff55"
                bright_blue = "#5555ff"
                bright_magenta = "#ff55ff"
                bright_cyan = "#55ffff"
                bright_white = "#ffffff"
                """.formatted(id, id, background);
    }

    static JsonNode ok(Path sock, String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + ": " + r);
        return r.get("result");
    }

    static List<String> ids(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.get("themes").forEach(t -> out.add(t.get("id").asText()));
        return out;
    }

    static JsonNode entry(JsonNode list, String id) {
        for (JsonNode t : list.get("themes")) {
            if (t.get("id").asText().equals(id)) {
                return t;
            }
        }
        return null;
    }

    static String problem(JsonNode list, String fileEnd) {
        for (JsonNode p : list.get("problems")) {
            if (p.get("file").asText().endsWith(fileEnd)) {
                return p.get("message").asText();
            }
        }
        return null;
    }

    static String active(JsonNode list) {
        String a = null;
        for (JsonNode t : list.get("themes")) {
            if (t.get("active").asBoolean()) {
                assertNull(a, "one active entry: " + list);
                a = t.get("id").asText();
            }
        }
        assertEquals(a, list.get("active").asText());
        return a;
    }

    @Test
    void listShowsBuiltinsThenInstalledByIdThenTerminalAndLeavesBadFilesOutAsProblems() throws Exception {
        Path themes = Files.createDirectories(home.resolve("themes"));
        Files.writeString(themes.resolve("a-file.toml"), theme("zeta", "#101010"));
        Files.writeString(themes.resolve("b-file.toml"), theme("alpha", "#202020"));
        Files.writeString(themes.resolve("c-twin.toml"), theme("alpha", "#303030"));
        Files.writeString(themes.resolve("mine-nord.toml"), theme("nord", "#303030"));
        Files.writeString(themes.resolve("malformed.toml"), "id = \"x\"\n[colors\n");
        Files.writeString(themes.resolve("no-red.toml"), theme("nored", "#000000").replace("red = \"#cc0000\"\n", ""));
        Files.writeString(themes.resolve("bad-colour.toml"), theme("badc", "#000000").replace("\"#cc0000\"", "\"reddish\""));
        Files.write(themes.resolve("huge.toml"), ("# " + "x".repeat(100) + "\n").repeat(1000).getBytes(StandardCharsets.UTF_8));
        Path outside = Files.writeString(home.resolve("outside.toml"), theme("outside", "#000000"));
        Files.createSymbolicLink(themes.resolve("link-out.toml"), outside);
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode list = ok(s.socket, "theme.list", "{}");
            List<String> want = new ArrayList<>(BUILTINS);
            want.addAll(List.of("alpha", "zeta", "terminal"));
            assertEquals(want, ids(list));
            assertEquals("default", active(list));
            assertTrue(list.get("selected_available").asBoolean());
            JsonNode alpha = entry(list, "alpha");
            assertEquals("local", alpha.get("source").asText());
            assertEquals(themes.resolve("b-file.toml").toString(), alpha.get("path").asText());
            assertEquals("Tests", alpha.get("author").asText());
            assertEquals("#202020", alpha.at("/colors/background").asText());
            assertEquals("#555555", alpha.at("/workbench/border").asText(), "derived from bright black");
            assertEquals("builtin", entry(list, "nord").get("source").asText());
            assertEquals("#2e3440", entry(list, "nord").at("/colors/background").asText(), "the built-in keeps its id");
            JsonNode terminal = entry(list, "terminal");
            assertEquals("terminal", terminal.get("source").asText());
            assertTrue(terminal.get("colors").isNull());
            assertEquals("id 'alpha' is already used by b-file.toml", problem(list, "c-twin.toml"));
            assertEquals("id 'nord' is already used by the built-in theme nord", problem(list, "mine-nord.toml"));
            assertTrue(problem(list, "malformed.toml").startsWith("not valid TOML"), problem(list, "malformed.toml"));
            assertEquals("colors.red: is required", problem(list, "no-red.toml"));
            assertTrue(problem(list, "bad-colour.toml").contains("\"reddish\" is not a colour"));
            assertTrue(problem(list, "huge.toml").startsWith("larger than 65536 bytes"), "bounded before parsing");
            assertTrue(problem(list, "link-out.toml").startsWith("a symbolic link out of the themes folder"));
            assertEquals(7, list.get("problems").size(), list.get("problems").toString());

            JsonNode path = ok(s.socket, "theme.path", "{}");
            assertEquals("theme_path", path.get("type").asText());
            assertEquals(themes.toString(), path.get("path").asText());
        }
    }

    @Test
    void useAndConfigPatchAreCheckedAgainstTheRegistryAndAMissingIdChangesNothing() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home);
                EventStream events = new EventStream(s.socket,
                        "{\"id\":\"e\",\"method\":\"events.subscribe\",\"params\":{}}", true)) {
            events.nextJson(5);
            JsonNode used = ok(s.socket, "theme.use", "{\"id\":\"nord\"}");
            assertEquals("theme_selected", used.get("type").asText());
            assertEquals("nord", used.get("id").asText());
            JsonNode changed = awaitEvent(events, "theme.changed");
            assertEquals("use", changed.at("/data/reason").asText());
            assertEquals("nord", changed.at("/data/active").asText());
            Path file = home.resolve("config.toml");
            assertTrue(Files.readString(file).contains("nord"), "persisted");
            assertEquals("nord", ok(s.socket, "config.get", "{}").at("/config/theme").asText());
            assertEquals("nord", active(ok(s.socket, "theme.list", "{}")));

            String before = Files.readString(file);
            JsonNode missing = Wire.call(s.socket, "theme.use", "{\"id\":\"nope\"}");
            assertEquals("not_found", Wire.code(missing));
            assertEquals("nope", missing.at("/error/details/id").asText());
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":{\"id\":\"nope\"}}}")));
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "config.patch", "{\"patch\":{\"theme\":\"nope\"}}")));
            assertEquals(before, Files.readString(file), "the file is untouched");
            assertEquals("nord", ok(s.socket, "config.get", "{}").at("/config/theme").asText(), "and the live config");

            ok(s.socket, "config.patch", "{\"patch\":{\"theme\":\"dracula\"}}");
            assertEquals("config", awaitEvent(events, "theme.changed").at("/data/reason").asText());
            assertEquals("dracula", active(ok(s.socket, "theme.list", "{}")));
            ok(s.socket, "theme.use", "{\"id\":\"terminal\"}");
            JsonNode list = ok(s.socket, "theme.list", "{}");
            assertEquals("terminal", active(list));
            assertTrue(entry(list, "terminal").get("selected").asBoolean());

            for (String bad : new String[] {"{}", "{\"id\":5}", "{\"id\":\"\"}", "{\"id\":\"nord\",\"path\":\"/etc/x\"}"}) {
                assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "theme.use", bad)), bad);
            }
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "theme.reload", "{\"url\":\"https://x/t.toml\"}")),
                    "the API takes no URL");
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "theme.list", "{\"all\":true}")));
            assertEquals("terminal", ok(s.socket, "config.get", "{}").at("/config/theme").asText());
        }
    }

    static JsonNode awaitEvent(EventStream events, String name) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            JsonNode e = events.nextJson(10);
            if (e.path("event").asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no " + name + " within 10 s");
    }

    @Test
    void theFolderIsWatchedAndASelectedThemeThatDisappearsFallsBackButKeepsItsId() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home);
                EventStream events = new EventStream(s.socket,
                        "{\"id\":\"e\",\"method\":\"events.subscribe\",\"params\":{}}", true)) {
            events.nextJson(5);
            Path themes = home.resolve("themes");
            Path part = themes.resolve(".mine.toml.part");
            Files.writeString(part, theme("mine", "#102030"));
            Files.move(part, themes.resolve("mine.toml"), StandardCopyOption.ATOMIC_MOVE);
            Terms.await("a dropped file is listed without a command",
                    () -> ids(ok(s.socket, "theme.list", "{}")).contains("mine"));
            ok(s.socket, "theme.use", "{\"id\":\"mine\"}");
            awaitEvent(events, "theme.changed");

            Files.writeString(themes.resolve("mine.toml"), theme("mine", "#405060")); // edited in place
            JsonNode edited = awaitEvent(events, "theme.changed");
            assertEquals("watch", edited.at("/data/reason").asText());
            assertEquals("#405060", entry(ok(s.socket, "theme.list", "{}"), "mine").at("/colors/background").asText());

            Files.delete(themes.resolve("mine.toml"));
            JsonNode gone = awaitEvent(events, "theme.changed");
            assertFalse(gone.at("/data/selected_available").asBoolean());
            JsonNode reload = ok(s.socket, "theme.reload", "{}");
            assertEquals("themes_reloaded", reload.get("type").asText());
            assertFalse(reload.get("selected_available").asBoolean());
            assertEquals(BUILTINS.size() + 1, reload.get("count").asInt());
            assertEquals("mine", reload.get("configured").asText());
            assertEquals("default", reload.get("active").asText(), "falls back visually");
            assertEquals("mine", ok(s.socket, "config.get", "{}").at("/config/theme").asText(), "keeps the id");
            assertTrue(Files.readString(home.resolve("config.toml")).contains("mine"));

            // a broken file reported by an explicit reload, and the theme coming back
            Files.writeString(themes.resolve("broken.toml"), "id = ");
            Files.writeString(themes.resolve("mine.toml"), theme("mine", "#708090"));
            JsonNode back = ok(s.socket, "theme.reload", "{}");
            assertTrue(back.get("selected_available").asBoolean());
            assertEquals("mine", back.get("active").asText());
            assertEquals(1, back.get("problems").size());
            assertTrue(back.at("/problems/0/file").asText().endsWith("broken.toml"));
        }
        // the configured id survives a restart whether or not its file is there
        Files.delete(home.resolve("themes/mine.toml"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode list = ok(s.socket, "theme.list", "{}");
            assertEquals("mine", list.get("configured").asText());
            assertFalse(list.get("selected_available").asBoolean());
            assertEquals("default", active(list));
            ok(s.socket, "server.reload_config", "{}");
            assertEquals("mine", ok(s.socket, "config.get", "{}").at("/config/theme").asText(),
                    "a hand-edited or stale file is taken as written");
        }
    }

    /** A bundle module with no code: a module.toml and theme files. */
    static Path moduleJar(Path dir, Map<String, String> themes) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", "io.artuditu.it.themed");
        a.putValue("Bundle-Version", "1.0.0");
        Path jar = dir.resolve("themed.jar");
        try (OutputStream f = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(f, m)) {
            out.putNextEntry(new JarEntry("META-INF/artuditu/module.toml"));
            out.write("""
                    id = "themed"
                    name = "Themed"
                    version = "1.0.0"
                    api = "[1.0,2.0)"
                    description = "Ships themes and nothing else."
                    scopes = ["read"]
                    """.getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, String> e : themes.entrySet()) {
                out.putNextEntry(new JarEntry("META-INF/artuditu/themes/" + e.getKey()));
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
            }
        }
        return jar;
    }

    @Test
    void themesABundleModuleShipsComeAndGoWithTheModule() throws Exception {
        Path jar = moduleJar(Files.createDirectories(home.resolve("work")), Map.of(
                "dusk.toml", theme("dusk", "#1a1020"),
                "nord.toml", theme("nord", "#000000"),
                "broken.toml", "id = \"broken\"\n"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode linked = ok(s.socket, "module.link", "{\"path\":" + Wire.M.valueToTree(jar.toString()) + "}");
            assertEquals("themed", linked.get("id").asText());
            Terms.await("the module's theme is listed", () -> ids(ok(s.socket, "theme.list", "{}")).contains("dusk"));
            JsonNode list = ok(s.socket, "theme.list", "{}");
            JsonNode dusk = entry(list, "dusk");
            assertEquals("module", dusk.get("source").asText());
            assertEquals("themed", dusk.get("module").asText());
            assertEquals(ids(list).size() - 2, ids(list).indexOf("dusk"), "installed themes sort by id, before terminal");
            assertEquals("#2e3440", entry(list, "nord").at("/colors/background").asText(), "a module cannot take a built-in's id");
            assertTrue(problem(list, "/nord.toml").contains("already used by the built-in theme nord"));
            assertEquals("name: is required", problem(list, "/broken.toml"));
            for (JsonNode p : list.get("problems")) {
                assertEquals("themed", p.get("module").asText());
            }

            ok(s.socket, "theme.use", "{\"id\":\"dusk\"}");
            ok(s.socket, "module.disable", "{\"id\":\"themed\"}");
            Terms.await("a disabled module's themes go", () -> !ids(ok(s.socket, "theme.list", "{}")).contains("dusk"));
            JsonNode after = ok(s.socket, "theme.list", "{}");
            assertFalse(after.get("selected_available").asBoolean());
            assertEquals("default", active(after));
            assertTrue(after.get("problems").isEmpty(), "its problems go with it");
            ok(s.socket, "module.enable", "{\"id\":\"themed\"}");
            Terms.await("and come back with it", () -> "dusk".equals(ok(s.socket, "theme.list", "{}").get("active").asText()));
            ok(s.socket, "module.unlink", "{\"id\":\"themed\"}");
            Terms.await("an unlinked module's themes go", () -> !ids(ok(s.socket, "theme.list", "{}")).contains("dusk"));
        }
    }

    @Test
    void updatingTheThemesBundleKeepsTheSelectionAndOneWatcher() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "theme.use", "{\"id\":\"gruvbox-dark\"}");
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Cli.ROOT.resolve("bundles/families/io.artuditu.themes/target/io.artuditu.themes-0.1.0-SNAPSHOT.jar");
            for (int i = 0; i < 3; i++) {
                ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.themes\",\"path\":"
                        + Wire.M.valueToTree(jar.toString()) + "}");
                Terms.await("theme.list answers after the update",
                        () -> Wire.call(s.socket, "theme.list", "{}").has("result"));
                assertEquals("gruvbox-dark", ok(s.socket, "theme.list", "{}").get("active").asText(),
                        "the selection is the config's, so it survives");
                assertEquals(1L, ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.equals("themes-watch"))
                        .count(), "one watcher after update " + (i + 1));
            }
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            assertTrue(after.get("threads") <= before.get("threads") + 8, "threads " + before + " -> " + after);
            Files.writeString(home.resolve("themes/late.toml"), theme("late", "#000000"));
            Terms.await("the updated bundle's watcher works",
                    () -> ids(ok(s.socket, "theme.list", "{}")).contains("late"));
            ok(s.socket, "server.bundle.uninstall", "{\"bundle\":\"io.artuditu.themes\"}");
            Terms.await("no watcher once the bundle is gone", () -> ModuleReloadCyclesTest.threadNames(pid).stream()
                    .noneMatch(n -> n.equals("themes-watch")));
            JsonNode gone = Wire.call(s.socket, "theme.list", "{}");
            assertTrue(gone.has("error"), gone.toString());
            assertTrue(ok(s.socket, "config.get", "{}").at("/inactive/theme/id").asText().equals("gruvbox-dark"),
                    "the table is kept for when the family is back");
        }
    }
}
