package io.artuditu.worktrees.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Workspace;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worktrees family on real repositories made by the real git binary: create (new and
 * existing branch, the location rule), open (one worktree, one workspace; the port in the
 * pane's launch and the metadata), list (adoption, merge state, dirty, disk, ports), remove
 * (dirty, unmerged branch), prune_merged and the setup-script approval flow.
 */
class WorktreesFamilyTest {
    @TempDir
    Path tmp;
    Path home;
    GitRepo repo;
    Harness h;

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(tmp.resolve("home"));
        repo = GitRepo.init(tmp.resolve("proj"));
        repo.commit("a.txt", "1\n", "first");
        h = new Harness(home);
        h.workspace(repo.dir);
    }

    private static String q(Object s) {
        return Harness.JSON.valueToTree(s.toString()).toString();
    }

    private Path real(Path p) throws Exception {
        return p.toRealPath();
    }

    @Test
    void createMakesANewBranchBesideTheRepositoryAndRecordsItsBase() throws Exception {
        ObjectNode r = h.call("worktree.create", "{\"name\":\"feat-a\"}");
        Path expected = real(tmp).resolve("proj-worktrees").resolve("feat-a");
        assertEquals(expected.toString(), r.get("path").asText());
        assertTrue(r.get("new_branch").asBoolean());
        assertEquals("feat-a", r.get("branch").asText());
        assertEquals("main", r.get("base").asText());
        assertEquals(repo.head(), r.get("head").asText());
        assertEquals("none", r.at("/setup/state").asText());
        assertTrue(Files.isRegularFile(expected.resolve("a.txt")));
        assertEquals("feat-a", repo.git("-C", expected.toString(), "branch", "--show-current"));
        int port = r.get("port").asInt();
        assertTrue(port >= State.FIRST_PORT && port % 10 == 0, "port " + port);
        assertEquals(1, h.events.size());
        assertTrue(h.events.get(0).startsWith("worktree.created "), h.events.toString());
    }

    @Test
    void createChecksOutAnExistingBranchFromAnotherBase() throws Exception {
        repo.git("branch", "dev");
        repo.git("checkout", "-q", "-b", "topic");
        String topic = repo.commit("b.txt", "b\n", "topic work");
        repo.git("checkout", "-q", "main");
        ObjectNode r = h.call("worktree.create", "{\"name\":\"t\",\"branch\":\"topic\",\"base\":\"dev\"}");
        assertFalse(r.get("new_branch").asBoolean());
        assertEquals(topic, r.get("head").asText());
        assertEquals("dev", r.get("base").asText());
        ObjectNode list = h.call("worktree.list", "{}");
        JsonNode row = row(list, "topic");
        assertEquals("dev", row.get("base").asText());
        assertTrue(row.get("base_recorded").asBoolean());
        assertFalse(row.get("merged").asBoolean(), "topic has a commit dev lacks");
        // a branch checked out elsewhere is refused
        UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "worktree.create", "{\"name\":\"m\",\"branch\":\"main\"}");
        assertEquals("branch_checked_out", e.details().get("reason"));
    }

    @Test
    void badNamesAndLocationsInsideAWorktreeAreRefusedAndNothingIsMade() throws Exception {
        for (String bad : List.of("..", "a..b", "-x", "a/b", "x.lock", "tab\\tname", "a\\u001bb")) {
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "worktree.create", "{\"name\":\"" + bad + "\"}");
            assertEquals("name", e.details().get("field"), bad);
        }
        assertEquals("bad_branch_name", h.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"ok\",\"branch\":\"a b\"}").details().get("reason"));
        assertEquals(ErrorCode.NOT_FOUND, h.reject(ErrorCode.NOT_FOUND, "worktree.create",
                "{\"name\":\"ok\",\"base\":\"nope\"}").code());
        // inside the main checkout, by path and by config
        UhpException in = h.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"x\",\"path\":" + q(repo.dir.resolve("sub/x")) + "}");
        assertEquals("inside_worktree", in.details().get("reason"));
        ObjectNode cfg = h.family.defaults().deepCopy();
        cfg.put("directory", "proj/.worktrees");
        h.family.apply(cfg);
        assertEquals("inside_worktree", h.reject(ErrorCode.INVALID_REQUEST, "worktree.create", "{\"name\":\"y\"}")
                .details().get("reason"));
        h.family.apply(h.family.defaults());
        // inside a linked worktree
        ObjectNode a = h.call("worktree.create", "{\"name\":\"a\"}");
        UhpException nested = h.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"z\",\"path\":" + q(Path.of(a.get("path").asText()).resolve("deep/z")) + "}");
        assertEquals("inside_worktree", nested.details().get("reason"));
        assertEquals(a.get("path").asText(), nested.details().get("worktree"));
        // through a link that leads into the main checkout
        Path link = Files.createSymbolicLink(tmp.resolve("into-repo"), repo.dir);
        assertEquals("inside_worktree", h.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"l\",\"path\":" + q(link.resolve("l")) + "}").details().get("reason"));
        assertEquals("bad_branch_name", h.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"ok\",\"branch\":\"@{-1}\"}").details().get("reason"));
        assertFalse(Files.exists(repo.dir.resolve("l")));
        assertFalse(Files.exists(repo.dir.resolve("sub")));
        assertFalse(Files.exists(repo.dir.resolve(".worktrees")));
        assertEquals(2, h.call("worktree.list", "{}").get("worktrees").size(), "only main and a");
        assertEquals("", repo.git("branch", "--list", "x", "y", "z"), "no branch created by a refusal");
    }

    @Test
    void openingAWorktreeTwiceGivesOneWorkspaceWithItsPortAndMetadata() throws Exception {
        ObjectNode c = h.call("worktree.create", "{\"name\":\"w1\"}");
        int port = c.get("port").asInt();
        ObjectNode first = h.call("worktree.open", "{\"name\":\"w1\"}");
        assertTrue(first.get("created").asBoolean());
        String ws = first.get("workspace_id").asText();
        assertEquals(ws, h.state.activeWorkspace());
        assertEquals(2, h.state.workspaces().size());
        assertEquals(String.valueOf(port), h.launches.get(h.launches.size() - 1).env().get("ARTUDITU_PORT"));
        assertEquals(h.state.requireWorkspace(ws).tabs().get(0).focused(), first.get("pane").asText());
        Workspace w = h.state.requireWorkspace(ws);
        assertEquals("main", w.metadata().get("worktree_base"));
        assertEquals((long) port, w.metadata().get("worktree_port"));
        assertEquals(c.get("group").asText(), w.metadata().get("worktree_group"));
        // back to the main workspace, then open again (by path): focused, not duplicated
        String main = h.state.workspaces().get(0).id();
        h.change(java.util.OptionalLong.empty(), (s, sp) -> new io.artuditu.model.topology.Change<>(
                s.next(s.workspaces(), main, s.panes(), s.nextPane()), List.of(), null));
        ObjectNode again = h.call("worktree.open", "{\"path\":" + q(c.get("path").asText()) + "}");
        assertFalse(again.get("created").asBoolean());
        assertEquals(ws, again.get("workspace_id").asText());
        assertEquals(ws, h.state.activeWorkspace());
        assertEquals(2, h.state.workspaces().size());
        assertEquals(ws, row(h.call("worktree.list", "{}"), "w1").get("workspace_id").asText());
        // the main checkout opened with worktree.open is its workspace, gaining the group
        ObjectNode m = h.call("worktree.open", "{\"path\":" + q(repo.dir) + "}");
        assertFalse(m.get("created").asBoolean());
        assertEquals(main, m.get("workspace_id").asText());
        assertEquals(c.get("group").asText(), h.state.requireWorkspace(main).metadata().get("worktree_group"));
        h.reject(ErrorCode.NOT_FOUND, "worktree.open", "{\"name\":\"nope\"}");
        h.reject(ErrorCode.INVALID_REQUEST, "worktree.open", "{\"name\":\"w1\",\"path\":\"/x\"}");
    }

    @Test
    void aWorktreeMadeOutsideIsAdoptedNotDuplicated() throws Exception {
        Path outside = tmp.resolve("elsewhere");
        repo.git("worktree", "add", "-q", "-b", "manual", outside.toString());
        ObjectNode list = h.call("worktree.list", "{}");
        assertEquals(2, list.get("worktrees").size());
        JsonNode row = row(list, "manual");
        assertEquals(real(outside).toString(), row.get("path").asText());
        assertFalse(row.get("base_recorded").asBoolean());
        assertEquals("main", row.get("base").asText(), "unknown base: the main checkout's branch");
        assertTrue(row.get("port").isNull(), "no block until opened");
        assertTrue(row.get("merged").asBoolean(), "no commits of its own");
        assertTrue(row.get("disk").get("bytes").asLong() > 0);
        ObjectNode o = h.call("worktree.open", "{\"name\":\"manual\"}");
        assertTrue(o.get("created").asBoolean());
        assertEquals(2, h.call("worktree.list", "{}").get("worktrees").size(), "still two");
        assertFalse(row(h.call("worktree.list", "{}"), "manual").get("port").isNull());
        // a workspace opened on the folder by hand is the one worktree.open focuses
        assertFalse(h.call("worktree.open", "{\"name\":\"manual\"}").get("created").asBoolean());
    }

    @Test
    void portBlocksAreUniqueAndSurviveARestart() throws Exception {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            ports.add(h.call("worktree.create", "{\"name\":\"p" + i + "\"}").get("port").asInt());
        }
        assertEquals(5, ports.size());
        for (int p : ports) {
            assertEquals(0, (p - State.FIRST_PORT) % State.BLOCK);
        }
        Harness again = new Harness(home);
        again.workspace(repo.dir);
        Set<Integer> after = new HashSet<>();
        again.call("worktree.list", "{}").get("worktrees").forEach(r -> {
            if (!r.get("main").asBoolean()) {
                after.add(r.get("port").asInt());
            }
        });
        assertEquals(ports, after, "persisted under the home");
        // a removed worktree's block is free again and the next create takes the lowest free one
        int first = h.call("worktree.list", "{}").get("worktrees").get(1).get("port").asInt();
        String name = h.call("worktree.list", "{}").get("worktrees").get(1).get("branch").asText();
        again.call("worktree.remove", "{\"name\":\"" + name + "\"}");
        assertEquals(first, again.call("worktree.create", "{\"name\":\"q\"}").get("port").asInt());
        // a worktree removed by hand gives its block back at the next list
        JsonNode other = again.call("worktree.list", "{}").get("worktrees").get(2);
        repo.git("worktree", "remove", other.get("path").asText());
        again.call("worktree.list", "{}");
        assertEquals(other.get("port").asInt(), again.call("worktree.create", "{\"name\":\"r\"}").get("port").asInt());
    }

    @Test
    void removeRefusesADirtyWorktreeUnlessForcedAndKeepsAnUnmergedBranch() throws Exception {
        ObjectNode c = h.call("worktree.create", "{\"name\":\"d\"}");
        Path wt = Path.of(c.get("path").asText());
        Files.writeString(wt.resolve("a.txt"), "changed\n");
        UhpException dirty = h.reject(ErrorCode.INVALID_REQUEST, "worktree.remove", "{\"name\":\"d\"}");
        assertEquals("dirty", dirty.details().get("reason"));
        assertTrue(Files.exists(wt.resolve("a.txt")));
        assertTrue(row(h.call("worktree.list", "{}"), "d").get("dirty").asBoolean());
        // commit there: the branch now holds a commit no other branch has
        GitRepo w = new GitRepo(wt);
        w.git("add", "a.txt");
        w.git("commit", "-q", "-m", "work");
        Files.writeString(wt.resolve("new.txt"), "untracked\n");
        UhpException unmerged = h.reject(ErrorCode.INVALID_REQUEST, "worktree.remove",
                "{\"name\":\"d\",\"force\":true,\"delete_branch\":true}");
        assertEquals("unmerged_branch", unmerged.details().get("reason"));
        assertTrue(Files.exists(wt.resolve("new.txt")), "checked before anything is removed");
        ObjectNode r = h.call("worktree.remove", "{\"name\":\"d\",\"force\":true}");
        assertFalse(r.get("branch_deleted").asBoolean());
        assertFalse(Files.exists(wt));
        assertEquals("d", repo.git("branch", "--list", "d").replace("*", "").trim(), "the branch is kept");
        assertTrue(h.events.get(h.events.size() - 1).startsWith("worktree.removed "));
        // a merged branch goes with delete_branch
        h.call("worktree.create", "{\"name\":\"m\"}");
        assertTrue(h.call("worktree.remove", "{\"name\":\"m\",\"delete_branch\":true}").get("branch_deleted").asBoolean());
        assertEquals("", repo.git("branch", "--list", "m"));
        // force_branch deletes the unmerged one
        h.call("worktree.create", "{\"name\":\"d2\",\"branch\":\"d\"}");
        assertTrue(h.call("worktree.remove", "{\"name\":\"d\",\"delete_branch\":true,\"force_branch\":true}")
                .get("branch_deleted").asBoolean());
        assertEquals("main_worktree", h.reject(ErrorCode.INVALID_REQUEST, "worktree.remove", "{\"name\":\"main\"}")
                .details().get("reason"));
    }

    @Test
    void removeRefusesAWorktreeAWorkspaceIsOpenOn() throws Exception {
        h.call("worktree.create", "{\"name\":\"o\"}");
        String ws = h.call("worktree.open", "{\"name\":\"o\"}").get("workspace_id").asText();
        UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "worktree.remove", "{\"name\":\"o\"}");
        assertEquals("workspace_open", e.details().get("reason"));
        assertEquals(ws, e.details().get("workspace_id"));
    }

    @Test
    void pruneMergedListsFirstAndRemovesOnlyWhenConfirmed() throws Exception {
        ObjectNode merged = h.call("worktree.create", "{\"name\":\"done\"}");
        GitRepo done = new GitRepo(Path.of(merged.get("path").asText()));
        done.commit("d.txt", "d\n", "done work");
        repo.git("merge", "-q", "--ff-only", "done");
        ObjectNode open = h.call("worktree.create", "{\"name\":\"wip\"}");
        new GitRepo(Path.of(open.get("path").asText())).commit("w.txt", "w\n", "wip work");
        ObjectNode dirty = h.call("worktree.create", "{\"name\":\"dirty\"}");
        Files.writeString(Path.of(dirty.get("path").asText()).resolve("x.txt"), "x\n");

        ObjectNode listed = h.call("worktree.prune_merged", "{}");
        assertFalse(listed.get("confirmed").asBoolean());
        assertEquals(1, listed.get("candidates").size());
        assertEquals("done", listed.at("/candidates/0/branch").asText());
        assertEquals("dirty", listed.at("/kept/0/reason").asText());
        assertEquals(0, listed.get("removed").size());
        assertTrue(Files.exists(Path.of(merged.get("path").asText())), "listing removes nothing");

        ObjectNode removed = h.call("worktree.prune_merged", "{\"confirm\":true}");
        assertEquals(1, removed.get("removed").size());
        assertTrue(removed.at("/removed/0/branch_deleted").asBoolean());
        assertFalse(Files.exists(Path.of(merged.get("path").asText())));
        assertTrue(Files.exists(Path.of(open.get("path").asText())));
        assertEquals("", repo.git("branch", "--list", "done"));
        assertNotEquals("", repo.git("branch", "--list", "wip"));
    }

    @Test
    void theSetupScriptRunsOnlyOnceItsExactContentIsApproved() throws Exception {
        repo.commit(".artuditu/worktree-setup.sh", "echo set up on $ARTUDITU_PORT > setup.out\n", "setup");
        ObjectNode c1 = h.call("worktree.create", "{\"name\":\"s1\"}");
        assertEquals("needs_approval", c1.at("/setup/state").asText());
        String hash = c1.at("/setup/hash").asText();
        Path s1 = Path.of(c1.get("path").asText());
        assertFalse(Files.exists(s1.resolve("setup.out")), "not run before approval");

        // a wrong hash is refused and approves nothing
        UhpException wrong = h.reject(ErrorCode.INVALID_REQUEST, "worktree.setup.approve",
                "{\"hash\":\"" + "0".repeat(64) + "\",\"worktree\":\"s1\"}");
        assertEquals("hash_mismatch", wrong.details().get("reason"));
        ObjectNode ok = h.call("worktree.setup.approve", "{\"hash\":\"" + hash + "\",\"worktree\":\"s1\",\"run\":true}");
        assertEquals("succeeded", ok.at("/setup/state").asText());
        assertEquals("set up on " + c1.get("port").asInt() + "\n", Files.readString(s1.resolve("setup.out")));

        ObjectNode c2 = h.call("worktree.create", "{\"name\":\"s2\"}");
        assertEquals("succeeded", c2.at("/setup/state").asText(), "approved once, runs in every new worktree");
        assertTrue(Files.exists(Path.of(c2.get("path").asText()).resolve("setup.out")));

        // approvals persist; a changed script asks again
        repo.commit(".artuditu/worktree-setup.sh", "echo changed > setup.out\n", "setup changed");
        Harness again = new Harness(home);
        again.workspace(repo.dir);
        ObjectNode c3 = again.call("worktree.create", "{\"name\":\"s3\"}");
        assertEquals("needs_approval", c3.at("/setup/state").asText());
        assertNotEquals(hash, c3.at("/setup/hash").asText());
        assertFalse(Files.exists(Path.of(c3.get("path").asText()).resolve("setup.out")));
        repo.git("checkout", "-q", "HEAD~1", "--", ".artuditu/worktree-setup.sh");
        repo.git("commit", "-q", "-m", "back");
        assertEquals("succeeded", again.call("worktree.create", "{\"name\":\"s4\"}").at("/setup/state").asText(),
                "the old content is still approved");
    }

    @Test
    void listedIgnoredFilesAreCopiedAndNothingElse() throws Exception {
        repo.commit(".gitignore", ".env\nbig.bin\nlink\n", "ignore");
        Files.writeString(repo.dir.resolve(".env"), "KEY=local\n");
        Files.write(repo.dir.resolve("big.bin"), new byte[2048]);
        Files.createSymbolicLink(repo.dir.resolve("link"), tmp.resolve("outside.txt"));
        Files.writeString(tmp.resolve("outside.txt"), "secret\n");
        ObjectNode cfg = h.family.defaults().deepCopy();
        cfg.putArray("copy_ignored").add(".env").add("big.bin").add("link").add("missing").add("../x").add("a.txt");
        cfg.put("copy_max_bytes", 1024);
        h.family.apply(cfg);
        ObjectNode c = h.call("worktree.create", "{\"name\":\"c\"}");
        Path wt = Path.of(c.get("path").asText());
        assertEquals("[\".env\"]", c.get("copied").toString());
        assertEquals("KEY=local\n", Files.readString(wt.resolve(".env")));
        assertEquals("[{\"path\":\"big.bin\",\"reason\":\"too_large\"},{\"path\":\"link\",\"reason\":\"not_a_regular_file\"},"
                + "{\"path\":\"missing\",\"reason\":\"missing\"},{\"path\":\"../x\",\"reason\":\"bad_path\"},"
                + "{\"path\":\"a.txt\",\"reason\":\"not_ignored\"}]", c.get("copy_skipped").toString());
        assertFalse(Files.exists(wt.resolve("link")));
        // the default copies nothing
        h.family.apply(h.family.defaults());
        assertEquals(0, h.call("worktree.create", "{\"name\":\"d\"}").get("copied").size());
    }

    @Test
    void aFolderThatIsNoRepositoryIsRefused() throws Exception {
        Harness other = new Harness(home);
        other.workspace(Files.createDirectories(tmp.resolve("plain")));
        assertEquals("not_a_repository", other.reject(ErrorCode.INVALID_REQUEST, "worktree.list", "{}")
                .details().get("reason"));
        assertEquals("not_a_repository", other.reject(ErrorCode.INVALID_REQUEST, "worktree.create",
                "{\"name\":\"x\"}").details().get("reason"));
    }

    private static JsonNode row(JsonNode list, String branch) {
        for (JsonNode r : list.get("worktrees")) {
            if (branch.equals(r.path("branch").asText())) {
                return r;
            }
        }
        throw new AssertionError("no worktree on " + branch + " in " + list);
    }
}
