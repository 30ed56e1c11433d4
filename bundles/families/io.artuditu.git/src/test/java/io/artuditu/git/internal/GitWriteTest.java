package io.artuditu.git.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write methods against real repositories, run by the real git binary: each method's
 * success, and the refusals of the issue's bad-input list that are git's (remote URLs as
 * names, helper transports, a busy root, a push that asks for a password, a patch that does
 * not apply, a repository mid-rebase, a silent process).
 */
class GitWriteTest {
    @TempDir
    Path tmp;
    Harness h = new Harness();

    @AfterEach
    void stop() {
        h.close();
    }

    /** A repository with one commit of a.txt and b.txt, identity in its own config, open as workspace 0. */
    GitRepo repo() throws IOException {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.git("config", "user.name", "Ada Lovelace");
        r.git("config", "user.email", "ada@example.org");
        r.git("config", "commit.gpgsign", "false");
        r.write("a.txt", "a\n").write("b.txt", "b\n");
        r.git("add", ".");
        r.git("commit", "-q", "-m", "first");
        h.workspace(r.dir);
        return r;
    }

    static String json(Object o) {
        return Harness.JSON.valueToTree(o).toString();
    }

    ObjectNode ok(String method, String params) {
        ObjectNode r = h.call(method, params);
        assertEquals("succeeded", r.get("state").asText(), method + " " + params + " -> " + r);
        assertEquals(0, r.get("exit_code").asInt());
        assertTrue(r.get("op").asText().startsWith("op-"));
        return r;
    }

    UhpException refused(String method, String params, String reason) {
        UhpException e = h.reject(ErrorCode.INVALID_REQUEST, method, params);
        assertEquals(reason, e.details().get("reason"), method + " " + params + ": " + e.getMessage());
        return e;
    }

    @Test
    void stageUnstageAndDiscardPaths() throws IOException {
        GitRepo r = repo();
        r.write("a.txt", "a2\n").write("new file.txt", "n\n");
        Files.delete(r.dir.resolve("b.txt"));
        ObjectNode res = ok("git.stage", "{\"paths\":[\"a.txt\",\"new file.txt\",\"b.txt\"]}");
        assertEquals("stage", res.get("kind").asText());
        assertEquals(r.dir.toRealPath().toString(), res.get("root").asText());
        assertEquals("a.txt\nb.txt\nnew file.txt", r.git("diff", "--cached", "--name-only"));
        ok("git.unstage", "{\"paths\":[\"a.txt\"]}");
        assertEquals("b.txt\nnew file.txt", r.git("diff", "--cached", "--name-only"));
        ok("git.discard", "{\"paths\":[\"a.txt\"]}");
        assertEquals("a\n", Files.readString(r.dir.resolve("a.txt")));
        assertTrue(Files.exists(r.dir.resolve("new file.txt")), "discard never removes a file");
        // pathspec magic is not interpreted: ':(glob)*' is a literal (missing) name
        h.call("git.stage", "{\"paths\":[\":(glob)*\"]}");
        assertEquals("b.txt\nnew file.txt", r.git("diff", "--cached", "--name-only"));
        // each operation published running, then its end
        List<ObjectNode> ev = h.opEvents;
        assertEquals("running", ev.get(0).get("state").asText());
        assertEquals("succeeded", ev.get(1).get("state").asText());
        assertEquals(res.get("op"), ev.get(1).get("op"));
    }

    @Test
    void unstageBeforeTheFirstCommit() throws IOException {
        GitRepo r = GitRepo.init(tmp.resolve("empty"));
        r.write("x.txt", "x\n");
        r.git("add", "x.txt");
        h.workspace(r.dir);
        ok("git.unstage", "{\"paths\":[\"x.txt\"]}");
        assertEquals("?? x.txt", r.git("status", "--porcelain"));
    }

    @Test
    void aNewBranchBeforeTheFirstCommitKeepsTheIndex() throws IOException {
        GitRepo r = GitRepo.init(tmp.resolve("empty"));
        r.write("x.txt", "x\n");
        r.git("add", "x.txt");
        h.workspace(r.dir);
        ok("git.checkout", "{\"branch\":\"topic\",\"create\":true}");
        assertEquals("refs/heads/topic", r.git("symbolic-ref", "HEAD"));
        assertEquals("A  x.txt", r.git("status", "--porcelain"));
    }

    @Test
    void aWorkspaceOnASubfolderNamesPathsFromThere() throws IOException {
        GitRepo r = repo();
        r.write("sub/x.txt", "x\n").write("top.txt", "t\n");
        h.workspace(r.dir.resolve("sub"));
        ok("git.stage", "{\"workspace\":1,\"paths\":[\"x.txt\"]}");
        assertEquals("sub/x.txt", r.git("diff", "--cached", "--name-only"));
        refused("git.stage", "{\"workspace\":1,\"paths\":[\"../top.txt\"]}", "escapes_workspace");
        ok("git.stage", "{\"workspace\":1,\"paths\":[\".\"]}");
        assertEquals("sub/x.txt", r.git("diff", "--cached", "--name-only"), "the folder is the workspace, not the repository");
    }

    @Test
    void pathsThatEscapeTheWorkspaceAreRefusedAndNothingIsStaged() throws IOException {
        GitRepo r = repo();
        r.write("a.txt", "changed\n");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("s.txt"), "secret\n");
        Files.createSymbolicLink(r.dir.resolve("link"), outside);
        refused("git.stage", "{\"paths\":[\"a.txt\",\"../outside/s.txt\"]}", "escapes_workspace");
        refused("git.stage", "{\"paths\":[" + json(outside.resolve("s.txt").toString()) + "]}", "escapes_workspace");
        refused("git.stage", "{\"paths\":[\"%2e%2e/outside/s.txt\"]}", "escapes_workspace");
        refused("git.stage", "{\"paths\":[\"a\\u001b.txt\"]}", "control_character");
        refused("git.stage", "{\"paths\":[\"link/s.txt\"]}", "symlink_escapes_workspace");
        refused("git.stage", "{\"paths\":[\"a.txt\"],\"patch\":\"x\"}", "paths_or_patch");
        refused("git.stage", "{}", "paths_or_patch");
        assertEquals("", r.git("diff", "--cached", "--name-only"), "nothing was staged");
        assertTrue(h.opEvents.isEmpty(), "a refusal starts no operation");
    }

    /** Lines 1..20, with lines 2 and 18 changed: two hunks. */
    static String twoHunks(GitRepo r) throws IOException {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            before.append("line ").append(i).append('\n');
            after.append(i == 2 || i == 18 ? "LINE " + i : "line " + i).append('\n');
        }
        r.commit("c.txt", before.toString(), "twenty lines");
        r.write("c.txt", after.toString());
        return r.git("diff", "c.txt") + "\n";
    }

    /** The patch's header and its first hunk. */
    static String firstHunk(String patch) {
        int first = patch.indexOf("\n@@") + 1;
        int second = patch.indexOf("\n@@", first) + 1;
        return patch.substring(0, second);
    }

    @Test
    void aHunkIsStagedUnstagedAndDiscardedAsAPatch() throws IOException {
        GitRepo r = repo();
        String patch = twoHunks(r);
        String hunk = firstHunk(patch);
        ok("git.stage", "{\"patch\":" + json(hunk) + "}");
        String cached = r.git("diff", "--cached", "-U3");
        assertTrue(cached.contains("+LINE 2") && !cached.contains("LINE 18"), cached);
        assertEquals(hunk.substring(hunk.indexOf("@@")), cached.substring(cached.indexOf("@@")) + "\n", "exactly that hunk");
        // the same hunk again no longer applies to the index: refused, nothing changed
        UhpException e = refused("git.stage", "{\"patch\":" + json(hunk) + "}", "patch_does_not_apply");
        assertEquals("patch", e.details().get("field"));
        assertEquals(cached, r.git("diff", "--cached", "-U3"));
        ok("git.unstage", "{\"patch\":" + json(hunk) + "}");
        assertEquals("", r.git("diff", "--cached"));
        // discard the second hunk from the working tree: the first stays
        String second = patch.substring(0, patch.indexOf("\n@@") + 1) + patch.substring(patch.indexOf("\n@@", patch.indexOf("\n@@") + 1) + 1);
        ok("git.discard", "{\"patch\":" + json(second) + "}");
        String left = Files.readString(r.dir.resolve("c.txt"));
        assertTrue(left.contains("LINE 2\n") && left.contains("line 18\n"), left);
        refused("git.discard", "{\"patch\":\"not a patch at all\\n\"}", "patch_does_not_apply");
    }

    @Test
    void commitAmendAndAllowEmpty() throws IOException {
        GitRepo r = repo();
        String before = r.head();
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        ok("git.commit", "{\"message\":\"Second\\n\\nwith a body\\tand a tab\"}");
        assertEquals("Second\n\nwith a body\tand a tab", r.git("log", "-1", "--format=%B"));
        assertEquals(before, r.git("rev-parse", "HEAD~1"));
        ok("git.commit", "{\"message\":\"Second, amended\",\"amend\":true}");
        assertEquals(before, r.git("rev-parse", "HEAD~1"), "amended, not added");
        ObjectNode nothing = h.call("git.commit", "{\"message\":\"nothing\"}");
        assertEquals("failed", nothing.get("state").asText());
        assertEquals(1, nothing.get("exit_code").asInt());
        assertTrue(nothing.get("message").asText().contains("nothing"), nothing.toString());
        ok("git.commit", "{\"message\":\"empty\",\"allow_empty\":true}");
        assertEquals("empty", r.git("log", "-1", "--format=%s"));
        String head = r.head();
        refused("git.commit", "{\"message\":\"   \\n\"}", "empty");
        refused("git.commit", "{\"message\":\"bell\\u0007\"}", "control_character");
        assertEquals(head, r.head());
    }

    @Test
    void commitRunsTheHooks() throws IOException {
        GitRepo r = repo();
        hook(r, "pre-commit", "#!/bin/sh\necho 'hook says no' >&2\nexit 1\n");
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        String head = r.head();
        ObjectNode res = h.call("git.commit", "{\"message\":\"x\"}");
        assertEquals("failed", res.get("state").asText());
        assertTrue(res.get("message").asText().contains("hook says no"), res.toString());
        assertEquals(head, r.head());
    }

    static void hook(GitRepo r, String name, String script) throws IOException {
        Path f = r.dir.resolve(".git/hooks/" + name);
        Files.writeString(f, script);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void checkoutAndBranches() throws IOException {
        GitRepo r = repo();
        String first = r.head();
        ok("git.branch.create", "{\"name\":\"feature\"}");
        assertEquals(first, r.git("rev-parse", "feature"));
        ok("git.checkout", "{\"branch\":\"feature\"}");
        assertEquals("feature", r.git("branch", "--show-current"));
        ok("git.checkout", "{\"branch\":\"topic\",\"create\":true}");
        assertEquals("topic", r.git("branch", "--show-current"));
        ok("git.checkout", "{\"ref\":\"HEAD\"}");
        assertEquals("", r.git("branch", "--show-current"), "detached");
        ok("git.checkout", "{\"branch\":\"main\"}");
        ok("git.branch.rename", "{\"from\":\"feature\",\"to\":\"feature2\"}");
        assertEquals("feature2\n* main\n  topic", r.git("branch"));
        ok("git.branch.create", "{\"name\":\"at-first\",\"start_point\":\"main\"}");
        ok("git.branch.delete", "{\"name\":\"at-first\"}");
        // refusals: names checked by git's ref rules, before anything runs
        refused("git.branch.create", "{\"name\":\"-f\"}", "invalid_branch_name");
        refused("git.branch.create", "{\"name\":\"a..b\"}", "invalid_branch_name");
        refused("git.branch.create", "{\"name\":\"x\",\"start_point\":\"--all\"}", "malformed");
        refused("git.branch.create", "{\"name\":\"main\"}", "exists");
        refused("git.branch.delete", "{\"name\":\"main\"}", "current_branch");
        refused("git.branch.rename", "{\"from\":\"topic\",\"to\":\"main\"}", "exists");
        refused("git.checkout", "{\"branch\":\"bad name\"}", "invalid_branch_name");
        assertEquals(ErrorCode.NOT_FOUND, h.reject(ErrorCode.NOT_FOUND, "git.checkout", "{\"branch\":\"nope\"}").code());
        assertEquals(ErrorCode.NOT_FOUND, h.reject(ErrorCode.NOT_FOUND, "git.checkout", "{\"ref\":\"nope\"}").code());
        assertEquals("feature2\n* main\n  topic", r.git("branch"));
    }

    @Test
    void aRepositoryMidRebaseIsLeftAsItIs() throws IOException {
        GitRepo r = repo();
        r.git("checkout", "-q", "-b", "side");
        r.commit("a.txt", "side\n", "side");
        r.git("checkout", "-q", "main");
        r.commit("a.txt", "main\n", "main");
        r.git("checkout", "-q", "side");
        assertNotEquals(0, r.run("rebase", "main").status(), "the rebase stops on a conflict");
        String head = r.head();
        String status = r.git("status", "--porcelain");
        UhpException e = refused("git.checkout", "{\"branch\":\"main\"}", "operation_in_progress");
        assertEquals("rebase", e.details().get("state"));
        refused("git.pull", "{}", "operation_in_progress");
        assertEquals(head, r.head());
        assertEquals(status, r.git("status", "--porcelain"));
        assertEquals("rebase", h.call("git.status", "{}").get("state").asText());
    }

    /** A bare repository beside the work repository, as its remote origin; main pushed. */
    GitRepo withOrigin(GitRepo r) throws IOException {
        Path bare = tmp.resolve("origin.git");
        GitRepo.init(bare, "--bare");
        r.git("remote", "add", "origin", bare.toString());
        r.git("push", "-q", "-u", "origin", "main");
        return new GitRepo(bare);
    }

    @Test
    void fetchPullAndPushByRemoteName() throws IOException {
        GitRepo r = repo();
        GitRepo origin = withOrigin(r);
        // another clone pushes a commit; fetch and pull bring it here
        Path other = tmp.resolve("other");
        new GitRepo(tmp).git("clone", "-q", origin.dir.toString(), other.toString());
        GitRepo o = new GitRepo(other);
        String theirs = o.commit("o.txt", "o\n", "theirs");
        o.git("push", "-q", "origin", "main");
        ok("git.fetch", "{\"remote\":\"origin\"}");
        assertEquals(theirs, r.git("rev-parse", "origin/main"));
        ok("git.pull", "{}");
        assertEquals(theirs, r.head());
        String mine = r.commit("m.txt", "m\n", "mine");
        ok("git.push", "{\"remote\":\"origin\",\"branch\":\"main\"}");
        assertEquals(mine, origin.git("rev-parse", "main"));
        ok("git.branch.create", "{\"name\":\"topic\"}");
        ok("git.push", "{\"remote\":\"origin\",\"branch\":\"topic\",\"set_upstream\":true}");
        assertEquals("origin", r.git("config", "branch.topic.remote"));
    }

    @Test
    void aRemoteIsANameNeverAUrl() throws IOException {
        GitRepo r = repo();
        withOrigin(r);
        for (String m : List.of("git.fetch", "git.pull", "git.push")) {
            refused(m, "{\"remote\":\"ext::sh -c whoami\"}", "not_a_remote_name");
            refused(m, "{\"remote\":\"origin:main\"}", "not_a_remote_name");
            refused(m, "{\"remote\":\"--upload-pack=touch /tmp/x\"}", "not_a_remote_name");
            refused(m, "{\"remote\":\"/tmp\"}", "not_a_remote_name");
            assertEquals(ErrorCode.NOT_FOUND, h.reject(ErrorCode.NOT_FOUND, m, "{\"remote\":\"upstream\"}").code());
        }
        refused("git.push", "{\"branch\":\"main\"}", "needs_remote");
        refused("git.push", "{\"remote\":\"origin\",\"branch\":\"main:other\"}", "invalid_branch_name");
        assertTrue(h.opEvents.isEmpty(), "no command ran");
    }

    @Test
    void addingARemoteTakesOnlyAllowedTransports() throws IOException {
        GitRepo r = repo();
        int n = 0;
        for (String url : List.of("https://example.org/a.git", "ssh://git@example.org:22/a.git", "git://example.org/a.git",
                "git@github.com:owner/repo.git", tmp.resolve("elsewhere.git").toString())) {
            ok("git.remote.add", "{\"name\":\"r" + n + "\",\"url\":" + json(url) + "}");
            assertEquals(url, r.git("config", "remote.r" + n + ".url"));
            n++;
        }
        for (String url : List.of("ext::sh -c whoami", "fd::17", "file::/tmp/x", "ext::sh -c touch% /tmp/pwned",
                "-uhelp", "--upload-pack=x", "foo://host/x", "http://example.org/a.git", "file:///tmp/x",
                "relative/path", "../up.git", "https://ex\u001bample.org/", "host:path", "https://", "https://-host/x")) {
            refused("git.remote.add", "{\"name\":\"bad\",\"url\":" + json(url) + "}", "transport_not_allowed");
        }
        refused("git.remote.add", "{\"name\":\"-x\",\"url\":\"https://example.org/a.git\"}", "not_a_remote_name");
        refused("git.remote.add", "{\"name\":\"a:b\",\"url\":\"https://example.org/a.git\"}", "not_a_remote_name");
        refused("git.remote.add", "{\"name\":\"r0\",\"url\":\"https://example.org/a.git\"}", "exists");
        assertEquals(1, r.run("config", "remote.bad.url").status(), "no remote bad");
    }

    @Test
    void aSecondIndexMutationDuringASlowOneIsRefusedAndReadsCarryOn() throws Exception {
        h.close();
        h = new Harness(GitProcess.Limits.DEFAULT, 200);
        GitRepo r = repo();
        hook(r, "pre-commit", "#!/bin/sh\nsleep 3\n");
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        long t0 = System.nanoTime();
        ObjectNode slow = h.call("git.commit", "{\"message\":\"slow\"}");
        assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "answered after the grace window, not at the end");
        assertEquals("running", slow.get("state").asText());
        assertTrue(slow.get("exit_code").isNull());
        String op = slow.get("op").asText();
        UhpException busy = h.reject(ErrorCode.AUTHORITY_CONFLICT, "git.stage", "{\"paths\":[\"b.txt\"]}");
        assertEquals(op, busy.details().get("op"));
        assertEquals("commit", busy.details().get("kind"));
        assertEquals("git_operation_running", busy.details().get("reason"));
        assertEquals("main", h.call("git.status", "{}").get("branch").asText(), "reads carry on");
        assertEquals("running", h.call("git.op.get", "{\"op\":" + json(op) + "}").get("state").asText());
        // a second workspace on the same worktree shares the writer
        h.workspace(r.dir);
        h.reject(ErrorCode.AUTHORITY_CONFLICT, "git.stage", "{\"workspace\":1,\"paths\":[\"b.txt\"]}");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"succeeded".equals(h.call("git.op.get", "{\"op\":" + json(op) + "}").get("state").asText())) {
            assertTrue(System.nanoTime() < deadline, "the commit ends");
            Thread.sleep(50);
        }
        assertEquals("slow", r.git("log", "-1", "--format=%s"));
        ObjectNode end = h.opEvents.get(h.opEvents.size() - 1);
        assertEquals(op, end.get("op").asText());
        assertEquals("succeeded", end.get("state").asText());
        assertEquals(0, end.get("exit_code").asInt());
        ok("git.stage", "{\"paths\":[\"b.txt\"]}");
        JsonNode list = h.call("git.op.list", "{}").get("ops");
        assertEquals(op, list.get(1).get("op").asText(), "newest first");
    }

    @Test
    void aSilentProcessIsKilled() throws Exception {
        h.close();
        h = new Harness(new GitProcess.Limits(500, 60_000, 64 * 1024), 10_000);
        GitRepo r = repo();
        Path marker = tmp.resolve("hook-finished");
        hook(r, "pre-commit", "#!/bin/sh\nsleep 3\ntouch " + marker + "\n");
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        String head = r.head();
        long t0 = System.nanoTime();
        ObjectNode res = h.call("git.commit", "{\"message\":\"never\"}");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("failed", res.get("state").asText(), res.toString());
        assertTrue(res.get("exit_code").isNull());
        assertTrue(res.get("message").asText().startsWith("killed: no output for 0.5 s"), res.toString());
        assertTrue(ms < 4_000, "killed after the silence limit, took " + ms + " ms");
        Thread.sleep(3_500);
        assertFalse(Files.exists(marker), "the hook was killed with git");
        assertEquals(head, r.head());
        assertFalse(Files.exists(r.dir.resolve(".git/index.lock")), "no lock left");
    }

    @Test
    void aTotalLimitKillsAChattyProcess() throws Exception {
        h.close();
        h = new Harness(new GitProcess.Limits(60_000, 700, 64 * 1024), 10_000);
        GitRepo r = repo();
        hook(r, "pre-commit", "#!/bin/sh\nwhile :; do echo tick; sleep 0.1; done\n");
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        ObjectNode res = h.call("git.commit", "{\"message\":\"never\"}");
        assertEquals("failed", res.get("state").asText());
        assertTrue(res.get("message").asText().startsWith("killed: running for 0.7 s\ntick"), res.toString());
    }

    @Test
    void aPushThatAsksForAPasswordFailsFast() throws Exception {
        GitRepo r = repo();
        AtomicInteger asked = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", x -> {
            asked.incrementAndGet();
            x.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"test\"");
            x.sendResponseHeaders(401, -1);
            x.close();
        });
        server.start();
        try {
            r.git("remote", "add", "secret", "http://127.0.0.1:" + server.getAddress().getPort() + "/repo.git");
            long t0 = System.nanoTime();
            ObjectNode res = h.call("git.push", "{\"remote\":\"secret\",\"branch\":\"main\"}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("failed", res.get("state").asText(), res.toString());
            assertNotEquals(0, res.get("exit_code").asInt());
            assertTrue(ms < 10_000, "failed in " + ms + " ms");
            assertTrue(asked.get() > 0, "the server was asked");
            assertTrue(res.get("message").asText().toLowerCase().contains("username")
                    || res.get("message").asText().toLowerCase().contains("authentication"), res.toString());
            System.out.println("push needing a password failed in " + ms + " ms");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void stoppingTheEngineKillsARunningOperation() throws Exception {
        h.close();
        h = new Harness(GitProcess.Limits.DEFAULT, 100);
        GitRepo r = repo();
        hook(r, "pre-commit", "#!/bin/sh\nsleep 30\n");
        r.write("a.txt", "a2\n");
        r.git("add", "a.txt");
        String op = h.call("git.commit", "{\"message\":\"x\"}").get("op").asText();
        long t0 = System.nanoTime();
        h.close();
        assertTrue(System.nanoTime() - t0 < 3_500_000_000L, "stopped within the join bound");
        ObjectNode end = h.opEvents.get(h.opEvents.size() - 1);
        assertEquals(op, end.get("op").asText());
        assertEquals("failed", end.get("state").asText());
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("git-op") && t.isAlive()),
                "no git-op thread left");
        assertNull(h.engine.get("op-999").orElse(null));
    }

    @Test
    void aFolderWithNoRepositoryOrABareOneIsRefused() throws IOException {
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        GitRepo bare = GitRepo.init(tmp.resolve("bare.git"), "--bare");
        h.workspace(plain);
        h.workspace(bare.dir);
        assertEquals("not_a_repository", h.reject(ErrorCode.INVALID_REQUEST, "git.stage",
                "{\"workspace\":0,\"paths\":[\"x\"]}").details().get("reason"));
        assertEquals("bare_repository", h.reject(ErrorCode.INVALID_REQUEST, "git.commit",
                "{\"workspace\":1,\"message\":\"x\"}").details().get("reason"));
        assertTrue(h.opEvents.isEmpty());
    }

    @Test
    void atMostEightOperationsRunAtOnce() throws Exception {
        h.close();
        h = new Harness(GitProcess.Limits.DEFAULT, 50);
        for (int i = 0; i <= GitEngine.MAX_RUNNING; i++) {
            GitRepo r = GitRepo.init(tmp.resolve("r" + i));
            hook(r, "pre-commit", "#!/bin/sh\nsleep 2\n");
            h.workspace(r.dir);
        }
        for (int i = 0; i < GitEngine.MAX_RUNNING; i++) {
            ObjectNode res = h.call("git.commit", "{\"workspace\":" + i + ",\"message\":\"m\",\"allow_empty\":true}");
            assertEquals("running", res.get("state").asText(), res.toString());
        }
        UhpException full = h.reject(ErrorCode.AUTHORITY_CONFLICT, "git.commit",
                "{\"workspace\":" + GitEngine.MAX_RUNNING + ",\"message\":\"m\",\"allow_empty\":true}");
        assertEquals("too_many_operations", full.details().get("reason"));
    }

    @Test
    void anUnknownOperationIsNotFound() {
        assertEquals("git_op", h.reject(ErrorCode.NOT_FOUND, "git.op.get", "{\"op\":\"op-42\"}").details().get("kind"));
    }
}
