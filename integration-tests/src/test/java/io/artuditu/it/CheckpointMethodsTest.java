package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoints family over the real socket: a pane's agent state driven by
 * {@code agent.report} (a leased authoritative state) from working to done makes a checkpoint
 * ref in the real repository, with HEAD, the index file and the status untouched; untracked
 * files are in it and ignored ones are not; the newest N are kept; a restore is refused after
 * hand edits unless forced; updating the bundle leaves no thread, class loader or service.
 */
class CheckpointMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;
    long source = 0;

    static JsonNode ok(Path socket, String method, String params) throws IOException {
        JsonNode r = Wire.call(socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=Ada", "-c", "user.email=ada@example.org",
                "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("GIT_OPTIONAL_LOCKS", "0"); // the test's own status must not refresh the index
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "git " + cmd + ": " + out);
        return out.trim();
    }

    static String q(String s) {
        return Wire.M.valueToTree(s).toString();
    }

    Path repo() throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve(".gitignore"), "*.log\n");
        Files.writeString(repo.resolve("a.txt"), "one\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "first");
        return repo;
    }

    /** Drives pane's agent through working then {@code end} by leased reports; returns the checkpoint.created event or null. */
    JsonNode turn(Path sock, String pane, String end, boolean expectCheckpoint) throws Exception {
        long after = ok(sock, "events.wait", "{\"event\":\"none.ever\",\"timeout_s\":1}").get("sequence").asLong();
        ok(sock, "agent.report", "{\"pane\":" + q(pane) + ",\"source\":\"test/turns\",\"agent\":\"fx\","
                + "\"status\":\"working\",\"sequence\":" + (++source) + ",\"ttl_s\":300}");
        ok(sock, "agent.report", "{\"pane\":" + q(pane) + ",\"source\":\"test/turns\",\"agent\":\"fx\","
                + "\"status\":\"" + end + "\",\"sequence\":" + (++source) + ",\"ttl_s\":300}");
        JsonNode w = ok(sock, "events.wait", "{\"event\":\"checkpoint.created\",\"where\":{\"pane\":" + q(pane)
                + "},\"after_sequence\":" + after + ",\"timeout_s\":" + (expectCheckpoint ? 30 : 2) + "}");
        assertEquals(expectCheckpoint, w.get("matched").asBoolean(), "a checkpoint " + (expectCheckpoint ? "" : "not ")
                + "expected: " + w);
        return expectCheckpoint ? w.at("/event/data") : null;
    }

    @Test
    void anAgentTurnIsCheckpointedListedDiffedAndRestored() throws Exception {
        Path repo = repo();
        Files.writeString(repo.resolve("a.txt"), "one\ntwo\n");
        Files.writeString(repo.resolve("staged.txt"), "staged\n");
        git(repo, "add", "staged.txt");
        Files.writeString(repo.resolve("untracked.txt"), "new\n");
        Files.writeString(repo.resolve("debug.log"), "ignored\n");
        Path plain = Files.createDirectories(work.resolve("plain"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            String pane = ok(s.socket, "workspace.open", "{\"cwd\":" + q(repo.toString()) + "}").get("pane").asText();
            String head = git(repo, "rev-parse", "HEAD");
            byte[] index = Files.readAllBytes(repo.resolve(".git/index"));
            String status = git(repo, "status", "--porcelain", "--untracked-files=all");

            JsonNode made = turn(s.socket, pane, "done", true);
            String ref = "refs/artuditu/checkpoints/" + pane + "/1";
            assertEquals(ref, made.get("id").asText());
            assertEquals("working -> done", made.get("transition").asText());
            assertEquals("fx", made.get("agent").asText());
            assertEquals(ref, git(repo, "for-each-ref", "--format=%(refname)", "refs/artuditu/"));
            assertEquals(head, git(repo, "rev-parse", "HEAD"), "HEAD did not move");
            assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")), "the index file is the same bytes");
            assertEquals(status, git(repo, "status", "--porcelain", "--untracked-files=all"));
            List<String> files = List.of(git(repo, "ls-tree", "-r", "--name-only", ref).split("\n"));
            assertEquals(List.of(".gitignore", "a.txt", "staged.txt", "untracked.txt"), files, "untracked in, ignored out");

            JsonNode list = ok(s.socket, "checkpoint.list", "{\"pane\":" + q(pane) + "}");
            assertEquals(repo.toRealPath().toString(), Path.of(list.get("root").asText()).toRealPath().toString());
            JsonNode row = list.at("/checkpoints/0");
            assertEquals(ref, row.get("id").asText());
            assertEquals(pane + "/1", row.get("short_id").asText());
            assertEquals("fx", row.get("agent").asText());
            assertEquals(3, row.get("files_changed").asInt());
            assertEquals(head, row.get("head").asText());
            assertEquals(git(repo, "rev-parse", ref), row.get("commit").asText());

            // a turn that changed nothing records nothing; a manual checkpoint says so too
            turn(s.socket, pane, "idle", false);
            JsonNode same = ok(s.socket, "checkpoint.create", "{\"pane\":" + q(pane) + "}");
            assertFalse(same.get("created").asBoolean());
            assertEquals(ref, same.at("/checkpoint/id").asText());

            // the agent edits, its turn ends: a second checkpoint, and the two diff
            Files.writeString(repo.resolve("a.txt"), "agent\n");
            Files.delete(repo.resolve("untracked.txt"));
            Files.writeString(repo.resolve("added.txt"), "by the agent\n");
            JsonNode second = turn(s.socket, pane, "done", true);
            String ref2 = second.get("id").asText();
            JsonNode diff = ok(s.socket, "checkpoint.diff", "{\"from\":" + q(ref) + ",\"to\":" + q(pane + "/2") + "}");
            assertEquals("[{\"path\":\"a.txt\",\"status\":\"modified\"},{\"path\":\"added.txt\",\"status\":\"added\"},"
                    + "{\"path\":\"untracked.txt\",\"status\":\"deleted\"}]", diff.get("files").toString());
            Files.writeString(repo.resolve("hand.txt"), "typed by the person\n");
            JsonNode live = ok(s.socket, "checkpoint.diff", "{\"from\":" + q(ref2) + "}");
            assertTrue(live.get("to").isNull());
            assertEquals("[{\"path\":\"hand.txt\",\"status\":\"added\"}]", live.get("files").toString());

            // restore is refused after the person's edit, nothing written; forced it goes, undoable
            JsonNode refused = Wire.call(s.socket, "checkpoint.restore", "{\"id\":" + q(ref) + "}");
            assertEquals("invalid_request", Wire.code(refused), refused.toString());
            assertEquals("changed_since_checkpoint", refused.at("/error/details/reason").asText());
            assertEquals("[\"hand.txt\"]", refused.at("/error/details/changed").toString());
            assertEquals("agent\n", Files.readString(repo.resolve("a.txt")));
            long after = ok(s.socket, "events.wait", "{\"event\":\"none.ever\",\"timeout_s\":1}").get("sequence").asLong();
            JsonNode restored = ok(s.socket, "checkpoint.restore", "{\"id\":" + q(ref) + ",\"force\":true}");
            assertEquals("one\ntwo\n", Files.readString(repo.resolve("a.txt")));
            assertEquals("new\n", Files.readString(repo.resolve("untracked.txt")));
            assertFalse(Files.exists(repo.resolve("added.txt")));
            assertFalse(Files.exists(repo.resolve("hand.txt")), "the hand edit is in the undo checkpoint, not lost");
            assertEquals("ignored\n", Files.readString(repo.resolve("debug.log")));
            assertEquals(head, git(repo, "rev-parse", "HEAD"));
            assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")));
            assertEquals(status, git(repo, "status", "--porcelain", "--untracked-files=all"), "the first state again");
            String undo = restored.get("undo").asText();
            assertEquals("typed by the person", git(repo, "show", undo + ":hand.txt"));
            JsonNode ev = ok(s.socket, "events.wait", "{\"event\":\"checkpoint.restored\",\"after_sequence\":" + after
                    + ",\"timeout_s\":5}");
            assertTrue(ev.get("matched").asBoolean());
            assertEquals(undo, ev.at("/event/data/undo").asText());
            ok(s.socket, "checkpoint.restore", "{\"id\":" + q(undo) + "}");
            assertEquals("typed by the person\n", Files.readString(repo.resolve("hand.txt")), "undone");

            // bounded: with keep 2, only the newest two stay
            ok(s.socket, "config.patch", "{\"patch\":{\"checkpoints\":{\"keep\":2}}}");
            for (int i = 0; i < 3; i++) {
                Files.writeString(repo.resolve("a.txt"), "turn " + i + "\n");
                turn(s.socket, pane, "done", true);
            }
            JsonNode kept = ok(s.socket, "checkpoint.list", "{}").get("checkpoints");
            assertEquals(2, kept.size(), kept.toString());
            assertEquals(2, git(repo, "for-each-ref", "--format=%(refname)", "refs/artuditu/").split("\n").length);
            assertTrue(kept.get(0).get("seq").asLong() > kept.get(1).get("seq").asLong(), "newest first");

            // bad input: a clear error, nothing changed
            JsonNode bad = Wire.call(s.socket, "checkpoint.restore", "{\"id\":\"../../HEAD\"}");
            assertEquals("invalid_request", Wire.code(bad));
            assertEquals("bad_id", bad.at("/error/details/reason").asText());
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "checkpoint.restore", "{\"id\":\"" + pane + "/1\"}")),
                    "pruned");
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "checkpoint.diff", "{\"from\":\"main\"}")));
            assertEquals("turn 2\n", Files.readString(repo.resolve("a.txt")));
            ok(s.socket, "workspace.open", "{\"cwd\":" + q(plain.toString()) + "}");
            JsonNode notRepo = Wire.call(s.socket, "checkpoint.list", "{\"workspace\":1}");
            assertEquals("not_a_repository", notRepo.at("/error/details/reason").asText(), notRepo.toString());
        }
    }

    @Test
    void updatingTheCheckpointsBundleLeavesNothingBehindAndKeepsListening() throws Exception {
        Path repo = repo();
        try (ForegroundServer s = new ForegroundServer(home)) {
            String pane = ok(s.socket, "workspace.open", "{\"cwd\":" + q(repo.toString()) + "}").get("pane").asText();
            Files.writeString(repo.resolve("a.txt"), "before the update\n");
            turn(s.socket, pane, "done", true);
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Cli.ROOT.resolve(
                    "bundles/families/io.artuditu.checkpoints/target/io.artuditu.checkpoints-0.1.0-SNAPSHOT.jar");
            for (int i = 0; i < 3; i++) {
                ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.checkpoints\",\"path\":"
                        + q(jar.toString()) + "}");
                Terms.await("checkpoint.list answers after the update",
                        () -> Wire.call(s.socket, "checkpoint.list", "{}").has("result"));
            }
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            assertEquals(2, ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.startsWith("checkpoints-"))
                    .count(), "one listener and one worker");
            assertEquals(1, ok(s.socket, "checkpoint.list", "{}").get("checkpoints").size(), "the refs are the state");
            Files.writeString(repo.resolve("a.txt"), "after the update\n");
            JsonNode made = turn(s.socket, pane, "done", true);
            assertEquals("refs/artuditu/checkpoints/" + pane + "/2", made.get("id").asText());
        }
    }
}
