package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diff family over the real socket, on a repository the git binary made: the list and a
 * diff, notes added and sent to a scripted agent in a real PTY (the agents bundle's fake
 * claude, which the real detector recognises) while a shell pane is refused, the DIFF view
 * pane, and updating the family's bundle (notes kept, no class loader or service left).
 */
class DiffMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static String lines(int n, String prefix) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(prefix).append(i).append('\n');
        }
        return b.toString();
    }

    /** src/app.rs with lines 120-123 changed in the working tree, src/cli.rs with line 88 changed and staged. */
    Path repo() throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        GitMethodsTest.git(repo, "init", "-q", "-b", "main");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/app.rs"), lines(150, "line "));
        Files.writeString(repo.resolve("src/cli.rs"), lines(100, "cli "));
        GitMethodsTest.git(repo, "add", ".");
        GitMethodsTest.git(repo, "commit", "-q", "-m", "first");
        Files.writeString(repo.resolve("src/app.rs"), APP);
        Files.writeString(repo.resolve("src/cli.rs"), lines(100, "cli ").replace("cli 88\n", "fallback()\n"));
        GitMethodsTest.git(repo, "add", "src/cli.rs");
        return repo;
    }

    static final String APP = lines(150, "line ").replace("line 120\nline 121\nline 122\nline 123\n",
            "if (a) fail();\nif (b) fail();\nif (c) fail();\nif (d) fail();\n");

    @Test
    void reviewNotesReachAnAgentAndAShellIsRefused() throws Exception {
        Path repo = repo();
        try (ForegroundServer s = new ForegroundServer(home, Map.of("PATH", AgentMethodsTest.FAKES + ":"
                + System.getenv("PATH"), "FAKE_AGENT_WORK_MS", "300"))) {
            String shell = GitMethodsTest.ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString())
                    + "}").get("pane").asText();
            JsonNode list = GitMethodsTest.ok(s.socket, "diff.list", "{}");
            assertEquals(2, list.get("files").size(), list.toString());
            assertEquals("index", list.at("/base/kind").asText());
            JsonNode get = GitMethodsTest.ok(s.socket, "diff.get", "{\"path\":\"src/app.rs\",\"include_patch\":true}");
            assertEquals("h1", get.at("/hunks/0/id").asText());

            // the reference's example, exactly
            JsonNode applied = GitMethodsTest.ok(s.socket, "diff.note.apply", "{\"notes\":[{\"file\":\"src/app.rs\","
                    + "\"layer\":\"worktree\",\"new_line\":120,\"end_line\":123,\"kind\":\"suggestion\","
                    + "\"body\":\"Extract this validation\"},{\"file\":\"src/cli.rs\",\"layer\":\"staged\","
                    + "\"old_line\":88,\"body\":\"Is this fallback still required?\"}]}");
            assertEquals("diff_notes_applied", applied.get("type").asText());
            assertEquals("n1 src/app.rs open n2 src/cli.rs open", applied.at("/notes/0/id").asText() + " "
                    + applied.at("/notes/0/path").asText() + " " + applied.at("/notes/0/state").asText() + " "
                    + applied.at("/notes/1/id").asText() + " " + applied.at("/notes/1/path").asText() + " "
                    + applied.at("/notes/1/state").asText());

            JsonNode agent = GitMethodsTest.ok(s.socket, "agent.start", "{\"name\":\"fixer\",\"kind\":\"claude\",\"anchor\":\""
                    + shell + "\",\"focus\":false,\"timeout_s\":20}");
            assertTrue(agent.get("detected").asBoolean(), agent.toString());
            String pane = agent.get("pane").asText();

            JsonNode refused = Wire.call(s.socket, "diff.note.send", "{\"to\":\"" + shell + "\",\"all_open\":true}");
            assertEquals("invalid_request", Wire.code(refused), refused.toString());
            assertEquals("not_agent", refused.at("/error/details/reason").asText());
            assertEquals(0, GitMethodsTest.ok(s.socket, "diff.note.list", "{}").at("/notes/0/sent").size());

            JsonNode sent = GitMethodsTest.ok(s.socket, "diff.note.send", "{\"to\":\"" + pane + "\",\"all_open\":true}");
            assertEquals("[\"n1\",\"n2\"]", sent.get("ids").toString());
            // the fake agent echoes the first line it is submitted (the rest arrives while it works)
            Terms.await("the agent shows the grouped message", () -> GitMethodsTest.ok(s.socket, "agent.read",
                    "{\"target\":\"" + pane + "\"}").get("text").asText().contains("Review notes (2 notes) from Artuditu"));
            JsonNode notes = GitMethodsTest.ok(s.socket, "diff.note.list", "{}");
            assertEquals(pane, notes.at("/notes/0/sent/0/pane").asText());
            assertEquals("claude", notes.at("/notes/0/sent/0/agent").asText());

            // the agent edits the noted line: the note goes outdated with the next scan
            Files.writeString(repo.resolve("src/app.rs"), APP.replace("if (b) fail();", "validate(a, b, c, d);"));
            GitMethodsTest.ok(s.socket, "diff.refresh", "{}");
            assertEquals("outdated", GitMethodsTest.ok(s.socket, "diff.note.list", "{\"file\":\"src/app.rs\"}")
                    .at("/notes/0/state").asText());

            JsonNode open = GitMethodsTest.ok(s.socket, "diff.open", "{\"path\":\"src/app.rs\",\"placement\":\"tab\"}");
            String view = open.get("pane").asText();
            assertTrue(open.at("/command/0").asText().endsWith("artu"), open.toString());
            JsonNode nav = Wire.call(s.socket, "diff.navigate", "{\"pane\":\"" + shell + "\",\"action\":\"top\"}");
            assertEquals("not_a_diff_view", nav.at("/error/details/reason").asText(), nav.toString());
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "diff.navigate", "{\"pane\":\"" + view
                    + "\",\"action\":\"diagonal\"}")));
        }
    }

    @Test
    void updatingTheDiffBundleKeepsTheNotesAndLeavesNothingBehind() throws Exception {
        Path repo = repo();
        try (ForegroundServer s = new ForegroundServer(home)) {
            GitMethodsTest.ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            GitMethodsTest.ok(s.socket, "diff.list", "{}");
            GitMethodsTest.ok(s.socket, "diff.note.add", "{\"file\":\"src/app.rs\",\"new_line\":121,\"body\":\"kept\"}");
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Reactor.jar("io.artuditu.diff");
            for (int i = 0; i < 3; i++) {
                GitMethodsTest.ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.diff\",\"path\":"
                        + Wire.M.valueToTree(jar.toString()) + "}");
                Terms.await("diff.list answers after the update", () -> Wire.call(s.socket, "diff.list", "{}").has("result"));
                assertEquals(2, GitMethodsTest.ok(s.socket, "diff.list", "{}").get("files").size());
            }
            JsonNode notes = GitMethodsTest.ok(s.socket, "diff.note.list", "{}");
            assertEquals("kept", notes.at("/notes/0/body").asText(), "the notes survive the update");
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            assertFalse(ModuleReloadCyclesTest.leaks(pid).isEmpty());
        }
    }
}
