package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.themes.ThemeImport;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpClientException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code artu theme install|import}: arguments, the checks before anything is written, the write, and the reload. */
class ThemeCommandsTest {
    static final String THEME = String.join("\n",
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
    static final String KITTY = String.join("\n",
            "## name: Harbour Night", "## author: A. Sailor",
            "foreground #c5c8c6", "background #1d1f21",
            "color0 #1d1f21", "color1 #cc6666", "color2 #b5bd68", "color3 #f0c674", "color4 #81a2be", "color5 #b294bb",
            "color6 #8abeb7", "color7 #c5c8c6", "color8 #969896", "color9 #cc6666", "color10 #b5bd68", "color11 #f0c674",
            "color12 #81a2be", "color13 #b294bb", "color14 #8abeb7", "color15 #ffffff", "");

    @TempDir
    Path home;
    @TempDir
    Path src;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int artu(String... args) {
        out.reset();
        err.reset();
        return new Artu(Map.of("ARTUDITU_HOME", home.toString()), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    /** The command with these built-in themes (a class path holding the index and their files). */
    private int withBuiltins(Map<String, String> builtins, String... args) throws IOException {
        Path root = Files.createDirectories(src.resolve("cp/" + ThemeCommands.BUILTIN));
        StringBuilder index = new StringBuilder();
        for (Map.Entry<String, String> b : builtins.entrySet()) {
            Files.writeString(root.resolve(b.getKey()), b.getValue());
            index.append(b.getKey()).append('\n');
        }
        Files.writeString(root.resolve("index.txt"), index);
        out.reset();
        err.reset();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {src.resolve("cp").toUri().toURL()}, null)) {
            UhpClient client = UhpClient.of(SocketLocation.forClient(Map.of("ARTUDITU_HOME", home.toString()), null));
            return new ThemeCommands(client, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), loader).run(List.of(args));
        }
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path source(String name, String text) throws IOException {
        return Files.writeString(src.resolve(name), text);
    }

    private Path themes() {
        return home.resolve("themes");
    }

    @Test
    void importTakesOneFileAndItsFlagsInAnyForm() throws Exception {
        ThemeCommands.Request r = ThemeCommands.parse(List.of("import", "--from", "kitty", "a.conf", "--id=harbour-night",
                "--name", "Harbour Night", "--scheme=One Half Dark", "--print"));
        assertEquals(Path.of("a.conf"), r.file());
        assertEquals(new ThemeImport.Options(ThemeImport.Format.KITTY, "harbour-night", "Harbour Night", "One Half Dark"),
                r.options());
        assertTrue(r.print());
        ThemeCommands.Request i = ThemeCommands.parse(List.of("install", "t.toml"));
        assertEquals("install", i.verb());
        assertEquals(ThemeImport.Options.NONE, i.options());
        assertFalse(i.print());
        assertEquals("--from takes base16, alacritty, kitty, windows-terminal, not iterm",
                assertThrows(ThemeCommands.Usage.class, () -> ThemeCommands.parse(List.of("import", "a", "--from", "iterm")))
                        .getMessage());
    }

    @Test
    void aWrongCommandLineExits2AndTouchesNothing() throws Exception {
        Path f = source("t.toml", THEME);
        String[][] bad = {{"theme", "install"}, {"theme", "install", f.toString(), f.toString()},
            {"theme", "install", f.toString(), "--print"}, {"theme", "install", "--id", "x", f.toString()},
            {"theme", "import"}, {"theme", "import", f.toString(), "--from", "iterm"},
            {"theme", "import", f.toString(), "--id", "Not An Id"}, {"theme", "import", f.toString(), "--id", "terminal"},
            {"theme", "import", f.toString(), "--name"}, {"theme", "import", f.toString(), "--name="},
            {"theme", "import", f.toString(), "--id", "a", "--id", "b"}, {"theme", "import", "--bogus", f.toString()},
            {"theme", "install", "bad\u0000name.toml"}};
        for (String[] args : bad) {
            assertEquals(Artu.USAGE, artu(args), String.join(" ", args));
            assertTrue(err().contains("usage: artu theme " + args[1] + " FILE"), err());
        }
        assertFalse(Files.exists(themes()));
    }

    @Test
    void helpNamesBothCommandsAndTheContractsVerbs() {
        assertEquals(0, artu("theme", "install", "--help"));
        assertTrue(out().startsWith("usage:\n  theme install FILE "), out());
        assertFalse(out().contains("theme import"), out());
        assertEquals(0, artu("help", "theme", "import"));
        assertTrue(out().contains("theme import FILE [--from base16|alacritty|kitty|windows-terminal]"), out());
        assertEquals(0, artu("theme", "--help"));
        assertTrue(out().contains("  theme install FILE") && out().contains("  theme import FILE"), out());
        assertTrue(out().contains("  theme list|path|use|reload   the contract's methods: artu theme VERB --help"), out());
        assertEquals(0, artu("--help"));
        assertTrue(out().contains("  theme install FILE"), out());
        assertEquals(Artu.USAGE, artu("theme"));
        assertEquals("artu: theme needs a verb (list, path, use, reload, install, import)\n", err());
        assertEquals(Artu.USAGE, artu("theme", "frob"));
        assertEquals("artu: unknown theme command: frob (list, path, use, reload, install, import)\n", err());
        assertEquals(List.of("start", "stop", "status"), Artu.localVerbs("server"));
    }

    @Test
    void installWithNoServerWritesTheFileOwnerOnlyAndSaysItWillBeRead() throws Exception {
        Path f = source("harbour.toml", THEME);
        assertEquals(Artu.OK, artu("theme", "install", f.toString()));
        Path target = themes().resolve("harbour.toml");
        assertEquals(THEME, Files.readString(target), "the file as given, comments and all");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(themes())));
        assertEquals("{\"type\":\"theme_installed\",\"id\":\"harbour\",\"name\":\"Harbour\",\"file\":" + MiniJson.quote(target.toString())
                + ",\"source\":" + MiniJson.quote(f.toString()) + ",\"replaced\":false,\"warnings\":[],\"reload\":null}\n", out());
        assertTrue(err().contains("no server is answering on " + home.resolve("artuditu.sock")
                + "; the theme is installed and will be read when a server starts"), err());

        Files.writeString(f, THEME.replace("name = \"Harbour\"", "name = \"Harbour Two\""));
        assertEquals(Artu.OK, artu("theme", "install", f.toString()));
        assertTrue(out().contains("\"name\":\"Harbour Two\"") && out().contains("\"replaced\":true"), out());
        assertTrue(Files.readString(target).contains("Harbour Two"));
        try (var files = Files.list(themes())) {
            assertEquals(List.of(target), files.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void anInvalidThemeIsRefusedWithTheReasonAndNothingIsWritten() throws Exception {
        Path f = source("broken.toml", THEME.replace("red = \"#cc6666\"\n", ""));
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", f.toString()));
        assertEquals("artu: " + f + " is not a valid theme: colors.red: is required; nothing was installed\n", err());
        assertEquals("", out());
        assertFalse(Files.exists(themes().resolve("harbour.toml")));
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("garbage.toml", "\u0000\u0001 not toml [").toString()));
        assertTrue(err().contains("is not a valid theme: not valid TOML"), err());
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("t.toml", THEME.replace("harbour", "terminal")).toString()));
        assertTrue(err().contains("id: \"terminal\" is reserved"), err());
        assertFalse(Files.exists(themes()));
    }

    @Test
    void aSourceThatIsNoFileOrTooLargeExits2() throws Exception {
        assertEquals(Artu.USAGE, artu("theme", "install", src.resolve("absent.toml").toString()));
        assertEquals("artu: " + src.resolve("absent.toml") + ": no such file\n", err());
        assertEquals(Artu.USAGE, artu("theme", "install", src.toString()));
        assertTrue(err().contains("is not a regular file"), err());
        Path big = source("big.toml", THEME + "# " + "x".repeat(64 * 1024) + "\n");
        assertEquals(Artu.USAGE, artu("theme", "install", big.toString()));
        assertTrue(err().contains("is larger than 65536 bytes"), err());
        Path huge = source("huge.yaml", "# " + "x".repeat(ThemeImport.MAX_BYTES) + "\n");
        assertEquals(Artu.USAGE, artu("theme", "import", huge.toString()));
        assertTrue(err().contains("is larger than 1048576 bytes"), err());
        Path fifo = src.resolve("fifo.toml");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0);
        assertEquals(Artu.USAGE, artu("theme", "install", fifo.toString()), "refused before it is opened, so nothing blocks");
        assertFalse(Files.exists(themes()));
    }

    @Test
    void aLinkedSourceIsReadButALinkedDestinationIsNeverReplaced() throws Exception {
        Path real = source("real.toml", THEME);
        Path link = Files.createSymbolicLink(src.resolve("link.toml"), real);
        assertEquals(Artu.OK, artu("theme", "install", link.toString()));
        Path target = themes().resolve("harbour.toml");
        assertFalse(Files.isSymbolicLink(target));
        Files.delete(target);
        Path elsewhere = source("elsewhere.toml", "# mine\n");
        Files.createSymbolicLink(target, elsewhere);
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", real.toString()));
        assertTrue(err().contains(target + " is a symbolic link: it is not replaced"), err());
        assertEquals("# mine\n", Files.readString(elsewhere));
        assertTrue(Files.isSymbolicLink(target));
    }

    @Test
    void anIdAnotherFileHoldsOrATargetHoldingAnotherThemeIsRefused() throws Exception {
        Files.createDirectories(themes());
        Files.writeString(themes().resolve("a-harbour.toml"), THEME);
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("h.toml", THEME).toString()));
        assertTrue(err().contains(themes().resolve("a-harbour.toml") + " already holds theme 'harbour'"), err());
        assertFalse(Files.exists(themes().resolve("harbour.toml")));
        Files.delete(themes().resolve("a-harbour.toml"));

        Files.writeString(themes().resolve("harbour.toml"), THEME.replace("id = \"harbour\"", "id = \"mine\""));
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("h.toml", THEME).toString()));
        assertTrue(err().contains("holds theme 'mine', not 'harbour': it is not replaced"), err());
        // an invalid file in the way is no theme: it is replaced
        Files.writeString(themes().resolve("harbour.toml"), "half-written");
        assertEquals(Artu.OK, artu("theme", "install", source("h.toml", THEME).toString()));
        assertEquals(THEME, Files.readString(themes().resolve("harbour.toml")));
    }

    @Test
    void theIdOfABuiltInThemeIsRefused() throws Exception {
        Path f = source("h.toml", THEME);
        assertEquals(Artu.ERROR_REPLY, withBuiltins(Map.of("harbour.toml", THEME), "install", f.toString()));
        assertEquals("artu: id 'harbour' is a built-in theme's (harbour.toml); give the theme another id in the file;"
                + " nothing was installed\n", err());
        assertEquals(Artu.ERROR_REPLY, withBuiltins(Map.of("harbour.toml", THEME), "import", source("h.conf", KITTY).toString(),
                "--id", "harbour"));
        assertTrue(err().contains("give the theme another id with --id"), err());
        // the id inside the built-in file counts, not its file name
        assertEquals(Artu.ERROR_REPLY, withBuiltins(Map.of("other-name.toml", THEME), "install", f.toString()));
        assertEquals(Artu.OK, withBuiltins(Map.of("other.toml", THEME.replace("\"harbour\"", "\"other\"")), "install",
                f.toString()));
        assertEquals(Map.of(), ThemeCommands.builtins(new URLClassLoader(new URL[0], null)), "no index: no built-ins");
    }

    @Test
    void importPrintsTheThemeOrInstallsItLikeInstall() throws Exception {
        Path conf = source("harbour-night.conf", KITTY);
        assertEquals(Artu.OK, artu("theme", "import", conf.toString(), "--print"));
        assertTrue(out().startsWith("# An Artuditu theme") && out().contains("\nid = \"harbour-night\"\nname = \"Harbour Night\"\n"
                + "author = \"A. Sailor\"\nvariant = \"dark\"\n"), out());
        assertFalse(Files.exists(themes()), "--print installs nothing");

        assertEquals(Artu.OK, artu("theme", "import", conf.toString(), "--name", "Night Harbour"));
        Path target = themes().resolve("harbour-night.toml");
        assertTrue(Files.readString(target).contains("name = \"Night Harbour\""));
        assertTrue(out().contains("\"format\":\"kitty\",\"notes\":[]"), out());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));

        assertEquals(Artu.ERROR_REPLY, artu("theme", "import", source("x.conf", "foreground #ffffff\n").toString()));
        assertTrue(err().startsWith("artu: cannot import " + src.resolve("x.conf") + ": missing colours background, color0,"), err());
    }

    @Test
    void theThemesFolderIsTheSelectedServersHomeSharedByItsSessions() {
        Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString());
        assertEquals(home.resolve("themes"), ThemeCommands.themesFolder(SocketLocation.forClient(env, null)));
        assertEquals(home.resolve("themes"), ThemeCommands.themesFolder(SocketLocation.forClient(env, "work")));
        Map<String, String> inPane = Map.of("ARTUDITU_SOCKET_PATH", home.resolve("sessions/work/artuditu.sock").toString());
        assertEquals(home.resolve("themes"), ThemeCommands.themesFolder(SocketLocation.forClient(inPane, null)));
        Map<String, String> inDefault = Map.of("ARTUDITU_SOCKET_PATH", home.resolve("artuditu.sock").toString());
        assertEquals(home.resolve("themes"), ThemeCommands.themesFolder(SocketLocation.forClient(inDefault, null)));
    }

    /** A stand-in server on the home's socket: answers one request with {@code reply} (null: never answers). */
    private Thread standIn(String reply, AtomicReference<String> request) throws IOException {
        Files.deleteIfExists(home.resolve("artuditu.sock"));
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(home.resolve("artuditu.sock")));
        Thread t = new Thread(() -> {
            try (server; SocketChannel c = server.accept()) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                ByteBuffer in = ByteBuffer.allocate(1);
                while (c.read(in) > 0 && in.get(0) != '\n') {
                    line.write(in.get(0));
                    in.clear();
                }
                request.set(line.toString(StandardCharsets.UTF_8));
                if (reply == null) {
                    Thread.sleep(3_000);
                    return;
                }
                c.write(ByteBuffer.wrap((reply + "\n").getBytes(StandardCharsets.UTF_8)));
            } catch (IOException | InterruptedException e) {
                // the test sees what arrived
            }
        });
        t.start();
        return t;
    }

    @Test
    void aServerThatAnswersIsAskedToReloadWithNoPathAndItsReplyIsPrinted() throws Exception {
        AtomicReference<String> request = new AtomicReference<>();
        Path target = themes().resolve("harbour.toml");
        String result = "{\"type\":\"themes_reloaded\",\"count\":3,\"selected_available\":true,\"problems\":[{\"file\":"
                + MiniJson.quote(themes().resolve("old.toml").toString()) + ",\"message\":\"colors.red: is required\"}],"
                + "\"revision\":4}";
        Thread t = standIn("{\"id\":\"1\",\"result\":" + result + "}", request);
        assertEquals(Artu.OK, artu("theme", "install", source("h.toml", THEME).toString()));
        t.join(5_000);
        assertEquals("{\"id\":\"1\",\"method\":\"theme.reload\",\"params\":{}}", request.get());
        assertTrue(out().endsWith(",\"reload\":" + result + "}\n"), out());
        assertEquals("artu: the server left out " + themes().resolve("old.toml") + ": colors.red: is required\n", err());

        t = standIn("{\"id\":\"1\",\"result\":{\"type\":\"themes_reloaded\",\"count\":0,\"selected_available\":true,"
                + "\"problems\":[{\"file\":" + MiniJson.quote(target.toString()) + ",\"message\":\"no\"}],\"revision\":5}}", request);
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("h.toml", THEME).toString()), "its own file left out");
        t.join(5_000);
        assertTrue(err().contains("the server did not take " + target + ": no"), err());

        t = standIn("{\"id\":\"1\",\"error\":{\"code\":\"method_not_found\",\"message\":\"no such method: theme.reload\"}}", request);
        assertEquals(Artu.ERROR_REPLY, artu("theme", "install", source("h.toml", THEME).toString()));
        t.join(5_000);
        assertTrue(out().endsWith(",\"reload\":null}\n"), out());
        assertEquals("artu: theme.reload: method_not_found: no such method: theme.reload; the theme is installed in " + target
                + "\n", err());
    }

    @Test
    void aServerThatNeverAnswersIsGivenUpOnInBoundedTime() throws Exception {
        AtomicReference<String> request = new AtomicReference<>();
        Thread t = standIn(null, request);
        UhpClient client = UhpClient.of(SocketLocation.forClient(Map.of("ARTUDITU_HOME", home.toString()), null))
                .withTimeouts(1_000, 300).withMaxLineBytes(1024);
        long start = System.nanoTime();
        UhpClientException.TimedOut e = assertThrows(UhpClientException.TimedOut.class, () -> client.call("theme.reload", "{}"));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 250 && ms < 2_500, ms + " ms");
        assertTrue(e.getMessage().contains("did not answer theme.reload within 300 ms"), e.getMessage());
        t.join(5_000);
        Files.delete(home.resolve("artuditu.sock"));
        assertThrows(UhpClientException.Unreachable.class, () -> client.call("ping", "{}"), "nothing listens");
    }
}
