package io.artuditu.agents.internal.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.pty.proc.ProcessEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The three layers, what each refuses, and identity from a process tree. */
@Timeout(30)
class ManifestSetTest {
    @TempDir
    Path home;

    static String manifest(String name, String processName) {
        return "name = \"" + name + "\"\n[process]\nnames = [\"" + processName + "\"]\n[launch]\ncommand = [\""
                + processName + "\"]\n";
    }

    Path folder(String name) throws IOException {
        return Files.createDirectories(home.resolve(name));
    }

    static List<String> names(ManifestSet s) {
        return s.active().stream().map(AgentManifest::name).collect(Collectors.toList());
    }

    @Test
    void laterLayersReplaceEarlierOnesByName() throws IOException {
        Path managed = folder("managed");
        Path user = folder("user");
        Files.writeString(managed.resolve("claude.toml"), manifest("claude", "claude-managed"));
        Files.writeString(managed.resolve("extra.toml"), manifest("extra", "extra"));
        Files.writeString(user.resolve("mine.toml"), manifest("extra", "extra-user"));

        ManifestSet set = ManifestSet.load(managed, user);

        assertEquals(List.of(), set.problems());
        assertEquals(List.of("aider", "claude", "codex", "extra", "gemini", "goose", "opencode"), names(set));
        AgentManifest claude = set.get("claude").orElseThrow();
        assertEquals("managed", claude.source());
        assertEquals(managed.toRealPath().resolve("claude.toml").toString(), claude.path());
        assertEquals("user", set.get("extra").orElseThrow().source());
        assertEquals(List.of("extra-user"), List.copyOf(set.get("extra").orElseThrow().processNames()));
        assertEquals("builtin", set.get("codex").orElseThrow().source());
    }

    @Test
    void aBrokenUserManifestIsReportedAndSkippedWhileTheRestKeepWorking() throws IOException {
        Path user = folder("user");
        Files.writeString(user.resolve("a-good.toml"), manifest("good", "good"));
        Files.writeString(user.resolve("b-broken.toml"), manifest("broken", "broken") + "[[rules]]\nid = \"r\"\n");
        Files.writeString(user.resolve("c-claude.toml"), manifest("claude", "claude") + "surprise = 1\n");

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals(2, set.problems().size(), set.problems().toString());
        ManifestSet.Problem first = set.problems().get(0);
        assertEquals("user", first.source());
        assertTrue(first.path().endsWith("b-broken.toml"));
        assertEquals("rules[0].region: is required", first.message());
        assertTrue(set.problems().get(1).message().startsWith("launch.surprise: is not a known field"), set.problems().toString());
        assertTrue(set.get("good").isPresent());
        assertTrue(set.get("broken").isEmpty());
        assertEquals("builtin", set.get("claude").orElseThrow().source(), "the broken override left the built-in in place");
        assertEquals(7, set.active().size());
        assertTrue(set.identify(List.of(new ProcessEntry(1, 0, "bash", 0), new ProcessEntry(2, 1, "claude", 1))).isPresent());
    }

    @Test
    void aSecondManifestOfOneNameInOneLayerIsRefused() throws IOException {
        Path user = folder("user");
        Files.writeString(user.resolve("a.toml"), manifest("twin", "one"));
        Files.writeString(user.resolve("b.toml"), manifest("twin", "two"));

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals(1, set.problems().size());
        assertTrue(set.problems().get(0).path().endsWith("b.toml"));
        assertTrue(set.problems().get(0).message().startsWith("manifest twin is already declared in this layer by "));
        assertEquals(List.of("one"), List.copyOf(set.get("twin").orElseThrow().processNames()));
    }

    @Test
    void aLinkOutOfTheFolderIsRefusedAndOneInsideIsFollowed() throws IOException {
        Path user = folder("user");
        Path outside = Files.writeString(home.resolve("outside.toml"), manifest("outsider", "outsider"));
        Files.createDirectories(user.resolve("kept"));
        Path inside = Files.writeString(user.resolve("kept/real.txt"), manifest("insider", "insider"));
        Files.createSymbolicLink(user.resolve("out.toml"), outside);
        Files.createSymbolicLink(user.resolve("in.toml"), inside);
        Files.createSymbolicLink(user.resolve("dangling.toml"), home.resolve("nothing.toml"));

        ManifestSet set = ManifestSet.load(null, user);

        assertTrue(set.get("insider").isPresent());
        assertTrue(set.get("outsider").isEmpty());
        List<String> messages = set.problems().stream().map(p -> Path.of(p.path()).getFileName() + ": " + p.message())
                .sorted().collect(Collectors.toList());
        assertEquals(2, messages.size(), messages.toString());
        assertTrue(messages.get(0).startsWith("dangling.toml: "), messages.toString());
        assertTrue(messages.get(1).startsWith("out.toml: a symbolic link to "), messages.toString());
        assertTrue(messages.get(1).endsWith(", outside " + user.toRealPath()), messages.toString());
    }

    @Test
    void anOversizedFileIsRefusedBeforeItIsParsed() throws IOException {
        Path user = folder("user");
        Files.writeString(user.resolve("huge.toml"), manifest("huge", "huge") + "#" + "x".repeat(70_000) + "\n");

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals("the file is larger than 65536 bytes", set.problems().get(0).message());
        assertTrue(set.get("huge").isEmpty());
    }

    /** A FIFO would block a reader forever: it is refused without being opened. */
    @Test
    @EnabledOnOs(OS.LINUX)
    void somethingThatIsNotARegularFileIsNotOpened() throws Exception {
        Path user = folder("user");
        Process mk = new ProcessBuilder("mkfifo", user.resolve("fifo.toml").toString()).inheritIO().start();
        assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0);
        Files.createDirectories(user.resolve("folder.toml"));
        Files.writeString(user.resolve("ok.toml"), manifest("ok", "ok"));

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals(List.of("not a regular file", "not a regular file"),
                set.problems().stream().map(ManifestSet.Problem::message).collect(Collectors.toList()));
        assertTrue(set.get("ok").isPresent());
    }

    @Test
    void atMost64FilesAFolderAndDotFilesAndOtherNamesAreIgnored() throws IOException {
        Path user = folder("user");
        for (int i = 0; i < 70; i++) {
            Files.writeString(user.resolve(String.format("m%02d.toml", i)), manifest("m" + i, "m" + i));
        }
        Files.writeString(user.resolve(".hidden.toml"), "garbage");
        Files.writeString(user.resolve("notes.txt"), "garbage");

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals(1, set.problems().size(), set.problems().toString());
        assertTrue(set.problems().get(0).path().endsWith("m64.toml"));
        assertTrue(set.problems().get(0).message().startsWith("more than 64 manifests in "));
        assertTrue(set.problems().get(0).message().endsWith("this file and the 5 after it are ignored"));
        assertTrue(set.get("m63").isPresent());
        assertTrue(set.get("m64").isEmpty());
    }

    @Test
    void missingFoldersAreEmptyLayers() {
        ManifestSet set = ManifestSet.load(home.resolve("no-such"), null);
        assertEquals(List.of(), set.problems());
        assertEquals(6, set.active().size());
    }

    // --- identity ---

    static ProcessEntry p(long pid, long ppid, String name, int depth) {
        return new ProcessEntry(pid, ppid, name, depth);
    }

    static ProcessEntry script(long pid, long ppid, String name, int depth, String script) {
        return new ProcessEntry(pid, ppid, name, depth, script);
    }

    @Test
    void theAgentNearestTheRootWins() {
        ManifestSet set = ManifestSet.load(null, null);
        // bash → node (claude) → bash → aider: claude runs aider, the pane's agent is claude.
        List<ProcessEntry> tree = List.of(p(10, 1, "bash", 0), script(11, 10, "node", 1, "claude"),
                p(12, 11, "bash", 2), p(13, 12, "aider", 3));

        ManifestSet.Identity id = set.identify(tree).orElseThrow();

        assertEquals("claude", id.manifest().name());
        assertEquals(11, id.pid());
        assertEquals("script", id.via());
    }

    @Test
    void entriesAreTakenByDepthWhateverTheirOrder() {
        ManifestSet set = ManifestSet.load(null, null);
        List<ProcessEntry> tree = List.of(p(10, 1, "zsh", 0), p(13, 12, "codex", 2), p(12, 10, "goose", 1));

        ManifestSet.Identity id = set.identify(tree).orElseThrow();

        assertEquals("goose", id.manifest().name());
        assertEquals("process", id.via());
    }

    @Test
    void interpretersAreKnownByTheirScriptAndOtherScriptsAreNoAgent() {
        ManifestSet set = ManifestSet.load(null, null);
        assertEquals("gemini", set.identify(List.of(p(1, 0, "bash", 0), script(2, 1, "node", 1, "gemini-cli")))
                .orElseThrow().manifest().name());
        assertEquals("aider", set.identify(List.of(p(1, 0, "bash", 0), script(2, 1, "python3.12", 1, "aider")))
                .orElseThrow().manifest().name());
        assertTrue(set.identify(List.of(p(1, 0, "bash", 0), script(2, 1, "node", 1, "server"))).isEmpty());
        assertTrue(set.identify(List.of(p(1, 0, "bash", 0), p(2, 1, "node", 1))).isEmpty(), "no script known");
        assertTrue(set.identify(List.of(p(1, 0, "bash", 0), p(2, 1, "less", 1))).isEmpty());
        assertTrue(set.identify(List.of()).isEmpty());
    }

    @Test
    void theRootItselfCanBeTheAgent() {
        ManifestSet set = ManifestSet.load(null, null);
        ManifestSet.Identity id = set.identify(List.of(p(5, 1, "opencode", 0), p(6, 5, "bash", 1))).orElseThrow();
        assertEquals("opencode", id.manifest().name());
        assertEquals(5, id.pid());
    }

    @Test
    void aLaterLayerTakesOverAProcessName() throws IOException {
        Path user = folder("user");
        Files.writeString(user.resolve("wrapped.toml"), manifest("claude-wrapped", "claude"));

        ManifestSet set = ManifestSet.load(null, user);

        assertEquals("claude-wrapped", set.identify(List.of(p(1, 0, "bash", 0), p(2, 1, "claude", 1)))
                .orElseThrow().manifest().name());
        assertEquals("claude", set.identify(List.of(p(1, 0, "bash", 0), script(2, 1, "node", 1, "claude-code")))
                .orElseThrow().manifest().name(), "its scripts still name the built-in");
    }
}
