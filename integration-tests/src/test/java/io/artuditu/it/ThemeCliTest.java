package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code artu theme install} and {@code artu theme import} through the real launcher and the
 * built jars: the file that lands in {@code $home/themes/}, the refusals that write nothing,
 * every import format, and the {@code theme.reload} the CLI sends to a running server (that
 * part needs the themes family in the server runtime).
 */
class ThemeCliTest {
    /** The import fixtures of the themes bundle's unit tests: published colours of well-known schemes. */
    static final Path FIXTURES = Cli.ROOT.resolve("bundles/families/io.artuditu.themes/src/test/resources/io/artuditu/themes/import");
    static final Path LIB = Cli.ROOT.resolve("distribution/target/artuditu/lib");
    static final List<String> REQUIRED = List.of("foreground", "background", "black", "red", "green", "yellow", "blue",
            "magenta", "cyan", "white", "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue",
            "bright_magenta", "bright_cyan", "bright_white");
    static final String THEME = String.join("\n",
            "# a hand-written theme",
            "id = \"harbour\"",
            "name = \"Harbour\"",
            "variant = \"dark\"",
            "",
            "[colors]",
            "foreground = \"#c5c8c6\"",
            "background = \"#1d1f21\"",
            "black = \"#1d1f21\"", "red = \"#cc6666\"", "green = \"#b5bd68\"", "yellow = \"#f0c674\"",
            "blue = \"#81a2be\"", "magenta = \"#b294bb\"", "cyan = \"#8abeb7\"", "white = \"#c5c8c6\"",
            "bright_black = \"#969896\"", "bright_red = \"#cc6666\"", "bright_green = \"#b5bd68\"",
            "bright_yellow = \"#f0c674\"", "bright_blue = \"#81a2be\"", "bright_magenta = \"#b294bb\"",
            "bright_cyan = \"#8abeb7\"", "bright_white = \"#ffffff\"", "");

    @TempDir
    Path home;
    @TempDir
    Path work;

    Map<String, String> env() {
        return Map.of("ARTUDITU_HOME", home.toString());
    }

    Path themes() {
        return home.resolve("themes");
    }

    Path write(String name, String text) throws IOException {
        return Files.writeString(work.resolve(name), text);
    }

    List<String> themeFiles() throws IOException {
        if (!Files.isDirectory(themes())) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(themes())) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void anInstalledThemeLandsOwnerOnlyInTheHomeAndAReinstallReplacesItWhole() throws Exception {
        Path source = write("harbour.toml", THEME);
        Cli.Result r = Cli.run(env(), "theme", "install", source.toString());
        assertEquals(0, r.status(), r.err());
        Path target = themes().resolve("harbour.toml");
        JsonNode out = Wire.M.readTree(r.out());
        assertEquals("theme_installed", out.get("type").asText());
        assertEquals(target.toString(), out.get("file").asText());
        assertFalse(out.get("replaced").asBoolean());
        assertTrue(out.get("reload").isNull(), "no server: nothing to reload");
        assertTrue(r.err().contains("the theme is installed and will be read when a server starts"), r.err());
        assertEquals(THEME, Files.readString(target));
        assertEquals("rw-------", mode(target));
        assertEquals("rwx------", mode(themes()));

        // Re-installs alternate two versions while a reader reads the file: it only ever sees one of them whole.
        String other = THEME.replace("name = \"Harbour\"", "name = \"Harbour at night\"");
        Path second = write("harbour-2.toml", other);
        AtomicBoolean done = new AtomicBoolean();
        List<String> seen = new ArrayList<>();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                try {
                    String now = Files.readString(target);
                    if (!now.equals(THEME) && !now.equals(other)) {
                        synchronized (seen) {
                            seen.add(now);
                        }
                    }
                } catch (NoSuchFileException e) {
                    synchronized (seen) {
                        seen.add("(no file)");
                    }
                } catch (IOException e) {
                    synchronized (seen) {
                        seen.add(e.toString());
                    }
                }
            }
        });
        reader.start();
        try {
            for (int i = 0; i < 4; i++) {
                Cli.Result again = Cli.run(env(), "theme", "install", (i % 2 == 0 ? second : source).toString());
                assertEquals(0, again.status(), again.err());
                assertTrue(Wire.M.readTree(again.out()).get("replaced").asBoolean());
            }
        } finally {
            done.set(true);
            reader.join(10_000);
        }
        assertEquals(List.of(), seen, "a reader saw a partial or missing file");
        assertEquals(THEME, Files.readString(target));
        assertEquals("rw-------", mode(target));
        assertEquals(List.of("harbour.toml"), themeFiles(), "no temporary file is left behind");
    }

    @Test
    void anInvalidOrOversizedFileIsRefusedAndNothingIsWritten() throws Exception {
        Cli.Result invalid = Cli.run(env(), "theme", "install", write("broken.toml", THEME.replace("red = \"#cc6666\"\n", ""))
                .toString());
        assertEquals(1, invalid.status(), invalid.err());
        assertTrue(invalid.err().contains("is not a valid theme: colors.red: is required; nothing was installed"), invalid.err());
        assertEquals("", invalid.out());

        Cli.Result big = Cli.run(env(), "theme", "install", write("big.toml", THEME + "#" + "x".repeat(70_000) + "\n").toString());
        assertEquals(2, big.status(), big.err());
        assertTrue(big.err().contains("is larger than 65536 bytes"), big.err());

        Cli.Result reserved = Cli.run(env(), "theme", "install", write("t.toml", THEME.replace("\"harbour\"", "\"terminal\""))
                .toString());
        assertEquals(1, reserved.status(), reserved.err());
        assertTrue(reserved.err().contains("id: \"terminal\" is reserved"), reserved.err());

        Cli.Result garbage = Cli.run(env(), "theme", "import", write("noise.bin", "\u0001\u0002 nothing here\n").toString());
        assertEquals(1, garbage.status(), garbage.err());
        assertTrue(garbage.err().contains("cannot import"), garbage.err());

        Cli.Result missing = Cli.run(env(), "theme", "install", work.resolve("absent.toml").toString());
        assertEquals(2, missing.status(), missing.err());
        assertEquals(List.of(), themeFiles());
    }

    @Test
    void theIdOfABuiltInThemeIsRefused() throws Exception {
        List<String> builtins = new ArrayList<>();
        try (ZipFile jar = new ZipFile(LIB.resolve("io.artuditu.themes.jar").toFile())) {
            var index = jar.getEntry("io/artuditu/themes/builtin/index.txt");
            assertTrue(index != null, "the themes jar ships the built-in index (themes/index.txt)");
            for (String line : new String(jar.getInputStream(index).readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.strip().endsWith(".toml")) {
                    builtins.add(line.strip());
                }
            }
            assertFalse(builtins.isEmpty(), "the built-in index lists the themes");
            String first = new String(jar.getInputStream(jar.getEntry("io/artuditu/themes/builtin/" + builtins.get(0)))
                    .readAllBytes(), StandardCharsets.UTF_8);
            String id = new TomlMapper().readTree(first).get("id").asText();
            Cli.Result r = Cli.run(env(), "theme", "install", write("copy.toml", THEME.replace("\"harbour\"", "\"" + id + "\""))
                    .toString());
            assertEquals(1, r.status(), r.err());
            assertTrue(r.err().contains("id '" + id + "' is a built-in theme's"), r.err());
            Cli.Result imported = Cli.run(env(), "theme", "import", FIXTURES.resolve("campbell.json").toString(), "--id", id);
            assertEquals(1, imported.status(), imported.err());
            assertTrue(imported.err().contains("give the theme another id with --id"), imported.err());
            assertEquals(List.of(), themeFiles());
        }
    }

    static final Set<String> BUILTIN_IDS = Set.of("dracula", "gruvbox-dark");

    @Test
    void everyFormatImportsAndItsPrintedThemeIsOneTheCliInstalls() throws Exception {
        String[][] cases = {
            {"base16-tomorrow-night.yaml", "tomorrow-night", "#cc6666"},
            {"gruvbox-dark-medium.yaml", "gruvbox-dark-medium", "#fb4934"},
            {"dracula.toml", "dracula", "#ff5555"},
            {"tango-dark.yml", "tango-dark", "#cc0000"},
            {"gruvbox-dark.conf", "gruvbox-dark", "#cc241d"},
            {"campbell.json", "campbell", "#c50f1f"},
        };
        for (String[] c : cases) {
            Path source = FIXTURES.resolve(c[0]);
            Cli.Result printed = Cli.run(env(), "theme", "import", source.toString(), "--print");
            assertEquals(0, printed.status(), c[0] + ": " + printed.err());
            JsonNode toml = new TomlMapper().readTree(printed.out());
            assertEquals(c[1], toml.get("id").asText(), c[0]);
            assertEquals(c[2], toml.at("/colors/red").asText(), c[0]);
            for (String k : REQUIRED) {
                assertTrue(toml.at("/colors/" + k).asText().matches("#[0-9a-f]{6}"), c[0] + " " + k + ": " + printed.out());
            }
            assertEquals(List.of(), themeFiles(), "--print installs nothing");
            // what --print shows is a theme file: install takes it as it is, unless a built-in
            // theme has its id (Dracula and gruvbox ship with Artuditu)
            Path file = write(c[1] + ".printed.toml", printed.out());
            Cli.Result installed = Cli.run(env(), "theme", "install", file.toString());
            if (BUILTIN_IDS.contains(c[1])) {
                assertEquals(1, installed.status(), c[0] + ": " + installed.err());
                assertTrue(installed.err().contains("id '" + c[1] + "' is a built-in theme's"), installed.err());
                assertEquals(List.of(), themeFiles());
                continue;
            }
            assertEquals(0, installed.status(), c[0] + ": " + installed.err());
            assertEquals(printed.out(), Files.readString(themes().resolve(c[1] + ".toml")));
            Files.delete(themes().resolve(c[1] + ".toml"));
        }
        Cli.Result several = Cli.run(env(), "theme", "import", FIXTURES.resolve("settings.json").toString());
        assertEquals(1, several.status());
        assertTrue(several.err().contains("\"One Half Dark\", \"One Half Light\", \"Tango Dark\""), several.err());
        Set<String> wanted = Set.of("one-half-light.toml", "night.toml", "kitty-theme.toml");
        Cli.Result picked = Cli.run(env(), "theme", "import", FIXTURES.resolve("settings.json").toString(), "--scheme",
                "One Half Light");
        assertEquals(0, picked.status(), picked.err());
        assertEquals("windows-terminal", Wire.M.readTree(picked.out()).get("format").asText());
        Cli.Result named = Cli.run(env(), "theme", "import", FIXTURES.resolve("base16-tomorrow-night.yaml").toString(),
                "--id", "night", "--name", "Night");
        assertEquals(0, named.status(), named.err());
        Path copy = write("theme.txt", Files.readString(FIXTURES.resolve("gruvbox-dark.conf")));
        Cli.Result explicit = Cli.run(env(), "theme", "import", copy.toString(), "--from", "kitty", "--id", "kitty-theme");
        assertEquals(0, explicit.status(), explicit.err());
        assertEquals(wanted, Set.copyOf(themeFiles()));
        for (String f : wanted) {
            assertEquals("rw-------", mode(themes().resolve(f)));
        }
        assertTrue(Files.readString(themes().resolve("night.toml")).contains("name = \"Night\""));
    }

    @Test
    void theOneShotPathLoadsNeitherTheThemesJarNorTomlNorYaml() throws Exception {
        Path log = work.resolve("classes.log");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:off", "-Xlog:class+load=info:file=" + log, "-cp", LIB.resolve("io.artuditu.cli.jar").toString(),
                    "io.artuditu.cli.Artu", "ping").redirectErrorStream(true);
            pb.environment().remove("ARTUDITU_SOCKET_PATH");
            pb.environment().putAll(s.env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith("{\"type\":\"pong\""), out);
        }
        String loaded = Files.readString(log);
        for (String jar : List.of("io.artuditu.themes.jar", "jackson-dataformat-toml.jar", "jackson-dataformat-yaml.jar",
                "snakeyaml.jar", "jackson-databind.jar")) {
            assertFalse(loaded.contains(jar), "artu ping loaded a class from " + jar);
        }
        assertFalse(loaded.contains("io.artuditu.cli.ThemeCommands"));
    }

    // --- with the themes family in the server --------------------------------------------------

    @Test
    void withAServerRunningTheInstallAsksItToReloadAndItListsTheTheme() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Cli.Result r = Cli.run(s.env, "theme", "install", write("harbour.toml", THEME).toString());
            assertEquals(0, r.status(), r.err());
            JsonNode reload = Wire.M.readTree(r.out()).get("reload");
            assertEquals("themes_reloaded", reload.path("type").asText(), r.out());
            assertTrue(reload.get("count").asInt() >= 1, r.out());
            assertEquals("[]", reload.get("problems").toString(), r.out());

            Cli.Result imported = Cli.run(s.env, "theme", "import", FIXTURES.resolve("dracula.toml").toString(),
                    "--id", "my-dracula");
            assertEquals(0, imported.status(), imported.err());
            assertEquals("themes_reloaded", Wire.M.readTree(imported.out()).at("/reload/type").asText());

            JsonNode list = Wire.call(s.socket, "theme.list", "{}").get("result");
            List<String> local = new ArrayList<>();
            for (JsonNode t : list.get("themes")) {
                if (t.get("source").asText().equals("local")) {
                    local.add(t.get("id").asText() + " " + t.get("path").asText());
                }
            }
            assertEquals(List.of("harbour " + themes().resolve("harbour.toml"),
                    "my-dracula " + themes().resolve("my-dracula.toml")), local);

            Cli.Result use = Cli.run(s.env, "theme", "use", "my-dracula");
            assertEquals(0, use.status(), use.err());
            assertEquals("theme_selected", Wire.M.readTree(use.out()).get("type").asText());
        }
    }

    @Test
    void aFileTheServerLeavesOutIsReportedByTheInstall() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Files.createDirectories(themes());
            Files.writeString(themes().resolve("old.toml"), "id = \"old\"\n");
            Cli.Result r = Cli.run(s.env, "theme", "install", write("harbour.toml", THEME).toString());
            assertEquals(0, r.status(), r.err());
            JsonNode problems = Wire.M.readTree(r.out()).at("/reload/problems");
            assertEquals(1, problems.size(), r.out());
            assertEquals(themes().resolve("old.toml").toString(), problems.get(0).get("file").asText());
            assertTrue(r.err().contains("the server left out " + themes().resolve("old.toml")), r.err());
        }
    }
}
