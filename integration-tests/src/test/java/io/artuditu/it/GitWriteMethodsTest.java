package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The git write methods over the real socket, run by the real git binary: staging one hunk of
 * a two-hunk change as a patch, a remote given as a URL and a helper transport refused, a
 * second index mutation refused while a slow commit runs in the background (its end arrives as
 * a git.op event, reads carry on), and updating the bundle afterwards leaves no thread, class
 * loader or service behind.
 */
class GitWriteMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static String q(String s) {
        return Wire.M.valueToTree(s).toString();
    }

    static Path repo(Path work) throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        GitMethodsTest.git(repo, "init", "-q", "-b", "main");
        GitMethodsTest.git(repo, "config", "user.name", "Ada");
        GitMethodsTest.git(repo, "config", "user.email", "ada@example.org");
        GitMethodsTest.git(repo, "config", "commit.gpgsign", "false");
        StringBuilder before = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            before.append("line ").append(i).append('\n');
        }
        Files.writeString(repo.resolve("c.txt"), before.toString());
        GitMethodsTest.git(repo, "add", "c.txt");
        GitMethodsTest.git(repo, "commit", "-q", "-m", "twenty lines");
        return repo;
    }

    @Test
    void oneHunkIsStagedAndBadRemotesAndABusyRootAreRefused() throws Exception {
        Path repo = repo(work);
        Files.writeString(repo.resolve("c.txt"), Files.readString(repo.resolve("c.txt"))
                .replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n"));
        String patch = GitMethodsTest.git(repo, "diff", "c.txt") + "\n";
        int first = patch.indexOf("\n@@") + 1;
        String hunk = patch.substring(0, patch.indexOf("\n@@", first) + 1);
        try (ForegroundServer s = new ForegroundServer(home)) {
            GitMethodsTest.ok(s.socket, "workspace.open", "{\"cwd\":" + q(repo.toString()) + "}");
            JsonNode staged = GitMethodsTest.ok(s.socket, "git.stage", "{\"patch\":" + q(hunk) + "}");
            assertEquals("git_op", staged.get("type").asText());
            assertEquals("succeeded", staged.get("state").asText(), staged.toString());
            String cached = GitMethodsTest.git(repo, "diff", "--cached");
            assertEquals(hunk.substring(hunk.indexOf("@@")), cached.substring(cached.indexOf("@@")) + "\n",
                    "git diff --cached shows exactly the hunk");
            // the same hunk again: refused, nothing changed
            JsonNode again = Wire.call(s.socket, "git.stage", "{\"patch\":" + q(hunk) + "}");
            assertEquals("invalid_request", Wire.code(again));
            assertEquals("patch_does_not_apply", again.at("/error/details/reason").asText());
            assertEquals(cached, GitMethodsTest.git(repo, "diff", "--cached"));

            // a remote is a name: a URL or a helper transport never reaches a command line
            for (String m : new String[] {"git.fetch", "git.pull", "git.push"}) {
                JsonNode r = Wire.call(s.socket, m, "{\"remote\":\"ext::sh -c whoami\"}");
                assertEquals("invalid_request", Wire.code(r), r.toString());
                assertEquals("not_a_remote_name", r.at("/error/details/reason").asText());
            }
            for (String url : new String[] {"ext::sh -c whoami", "fd::3", "file::/tmp/x"}) {
                JsonNode r = Wire.call(s.socket, "git.remote.add", "{\"name\":\"x\",\"url\":" + q(url) + "}");
                assertEquals("invalid_request", Wire.code(r), r.toString());
                assertEquals("transport_not_allowed", r.at("/error/details/reason").asText());
            }
            assertEquals("", GitMethodsTest.git(repo, "remote"), "no remote was added");

            // a slow commit (a hook that sleeps) answers running after the grace window
            Path hook = repo.resolve(".git/hooks/pre-commit");
            Files.writeString(hook, "#!/bin/sh\nsleep 4\n");
            Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
            long sequence = GitMethodsTest.ok(s.socket, "events.wait", "{\"event\":\"x.none\",\"timeout_s\":1}")
                    .get("sequence").asLong();
            JsonNode slow = GitMethodsTest.ok(s.socket, "git.commit", "{\"message\":\"Stage one hunk\"}");
            assertEquals("running", slow.get("state").asText(), slow.toString());
            String op = slow.get("op").asText();
            JsonNode busy = Wire.call(s.socket, "git.unstage", "{\"paths\":[\"c.txt\"]}");
            assertEquals("authority_conflict", Wire.code(busy), busy.toString());
            assertEquals(op, busy.at("/error/details/op").asText());
            assertEquals("git_operation_running", busy.at("/error/details/reason").asText());
            assertEquals("main", GitMethodsTest.ok(s.socket, "git.status", "{}").get("branch").asText(), "reads carry on");
            JsonNode w = GitMethodsTest.ok(s.socket, "events.wait", "{\"event\":\"git.op\",\"where\":{\"op\":" + q(op)
                    + ",\"state\":\"succeeded\"},\"timeout_s\":30,\"after_sequence\":" + sequence + "}");
            assertTrue(w.get("matched").asBoolean(), w.toString());
            assertEquals(0, w.at("/event/data/exit_code").asInt());
            assertEquals("Stage one hunk", GitMethodsTest.git(repo, "log", "-1", "--format=%s"));
            assertEquals("succeeded", GitMethodsTest.ok(s.socket, "git.op.get", "{\"op\":" + q(op) + "}").get("state").asText());
            Files.delete(hook);
            assertTrue(GitMethodsTest.git(repo, "diff").contains("+LINE 18"), "the other hunk stays unstaged");
        }
    }

    @Test
    void updatingTheBundleAfterWritesLeavesNothingBehind() throws Exception {
        Path repo = repo(work);
        try (ForegroundServer s = new ForegroundServer(home)) {
            GitMethodsTest.ok(s.socket, "workspace.open", "{\"cwd\":" + q(repo.toString()) + "}");
            GitMethodsTest.ok(s.socket, "git.branch.create", "{\"name\":\"warm\"}");
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Cli.ROOT.resolve("bundles/families/io.artuditu.git/target/io.artuditu.git-0.1.0-SNAPSHOT.jar");
            for (int i = 0; i < 3; i++) {
                GitMethodsTest.ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.git\",\"path\":"
                        + q(jar.toString()) + "}");
                Terms.await("git.branch.create answers after the update", () -> Wire.call(s.socket, "git.branch.create",
                        "{\"name\":\"b" + System.nanoTime() + "\"}").has("result"));
            }
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            assertFalse(ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.equals("git-op")).count() > 1,
                    "at most the newest engine's idle git-op thread");
        }
    }
}
