package io.artuditu.git.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.lib.RepositoryState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** git.status against repositories the real git binary made. */
class GitStatusTest {
    @TempDir
    Path tmp;
    final Harness h = new Harness();

    private ObjectNode status(GitRepo r) throws Exception {
        h.workspace(r.dir);
        return h.call("git.status", "{}");
    }

    @Test
    void aCleanBranchWithNoUpstreamIsCleanWithNoCounts() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        String head = r.commit("a.txt", "one\n", "first");
        ObjectNode s = status(r);
        assertEquals("git_status", s.get("type").asText());
        assertEquals(0, s.get("workspace").asInt());
        assertEquals(r.dir.toAbsolutePath().toString(), s.get("root").asText());
        assertEquals("main", s.get("branch").asText());
        assertEquals(head, s.get("head").asText());
        assertFalse(s.get("detached").asBoolean());
        assertTrue(s.get("upstream").isNull());
        assertTrue(s.get("ahead").isNull());
        assertTrue(s.get("behind").isNull());
        assertEquals("clean", s.get("state").asText());
        assertFalse(s.get("dirty").asBoolean());
        assertEquals("{\"staged\":0,\"unstaged\":0,\"untracked\":0,\"conflicted\":0}", s.get("counts").toString());
        assertFalse(s.get("truncated").asBoolean());
    }

    @Test
    void eachLayerIsCountedAndADirtyTreeIsStillStateClean() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "one\n", "first");
        r.commit("b.txt", "two\n", "second");
        r.write("new.txt", "staged\n").git("add", "new.txt");
        r.write("a.txt", "changed\n");
        Files.delete(r.dir.resolve("b.txt"));
        r.write("loose.txt", "x").write("dir/also.txt", "y");
        ObjectNode s = status(r);
        assertEquals("clean", s.get("state").asText(), "state is the operation in progress, not the tree");
        assertTrue(s.get("dirty").asBoolean());
        assertEquals("{\"staged\":1,\"unstaged\":2,\"untracked\":2,\"conflicted\":0}", s.get("counts").toString());
    }

    @Test
    void aWalkPastItsDeadlineStopsAndSaysTruncated() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "one\n", "first");
        r.write("loose.txt", "x");
        try (var repo = Repos.open(r.dir)) {
            ObjectNode late = Harness.JSON.createObjectNode();
            GitStatus.read(repo, late, System.nanoTime() - 1);
            assertTrue(late.get("truncated").asBoolean());
            assertEquals("main", late.get("branch").asText(), "HEAD and state are read before the walk");
            ObjectNode inTime = Harness.JSON.createObjectNode();
            GitStatus.read(repo, inTime);
            assertFalse(inTime.get("truncated").asBoolean());
            assertEquals(1, inTime.at("/counts/untracked").asInt());
        }
    }

    @Test
    void aFolderInsideTheRepositoryReadsTheWholeRepository() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("sub/deep/a.txt", "one\n", "first");
        h.workspace(r.dir.resolve("sub/deep"));
        ObjectNode s = h.call("git.status", "{}");
        assertEquals(r.dir.toAbsolutePath().toString(), s.get("root").asText());
        assertEquals("main", s.get("branch").asText());
    }

    @Test
    void aCloneReportsItsUpstreamAndAheadBehind() throws Exception {
        GitRepo origin = GitRepo.init(tmp.resolve("origin"));
        origin.commit("a.txt", "one\n", "first");
        GitRepo clone = new GitRepo(tmp);
        clone.git("clone", "-q", origin.dir.toString(), "clone");
        clone = new GitRepo(tmp.resolve("clone"));
        clone.commit("c1.txt", "1\n", "local one");
        clone.commit("c2.txt", "2\n", "local two");
        origin.commit("o.txt", "o\n", "upstream one");
        clone.git("fetch", "-q");
        ObjectNode s = status(clone);
        assertEquals("main", s.get("branch").asText());
        assertEquals("origin/main", s.get("upstream").asText());
        assertEquals(2, s.get("ahead").asInt());
        assertEquals(1, s.get("behind").asInt());
        assertEquals("clean", s.get("state").asText());
    }

    @Test
    void aMergeWithAConflictIsStateMergeWithTheConflictCounted() throws Exception {
        GitRepo r = conflictingBranches();
        assertNotEquals(0, r.run("merge", "other").status(), "the merge stops on the conflict");
        ObjectNode s = status(r);
        assertEquals("merge", s.get("state").asText());
        assertEquals("main", s.get("branch").asText());
        assertTrue(s.get("dirty").asBoolean());
        assertEquals(1, s.at("/counts/conflicted").asInt());
        assertEquals(0, s.at("/counts/staged").asInt(), "a conflicted path counts once, as conflicted");
        assertEquals(0, s.at("/counts/unstaged").asInt());
    }

    @Test
    void aRebaseInProgressIsStateRebaseOnADetachedHead() throws Exception {
        GitRepo r = conflictingBranches();
        r.git("checkout", "-q", "other");
        assertNotEquals(0, r.run("rebase", "main").status(), "the rebase stops on the conflict");
        ObjectNode s = status(r);
        assertEquals("rebase", s.get("state").asText());
        assertTrue(s.get("detached").asBoolean());
        assertTrue(s.get("branch").isNull());
        assertEquals(1, s.at("/counts/conflicted").asInt());
    }

    @Test
    void aCherryPickARevertAndABisectAreNamed() throws Exception {
        GitRepo r = conflictingBranches();
        assertNotEquals(0, r.run("cherry-pick", "other").status());
        assertEquals("cherry_pick", status(r).get("state").asText());
        r.git("cherry-pick", "--abort");
        r.git("bisect", "start");
        assertEquals("bisect", h.call("git.status", "{}").get("state").asText());
        r.git("bisect", "reset");
        r.commit("f.txt", "1\n", "to revert");
        r.commit("f.txt", "2\n", "on top");
        assertNotEquals(0, r.run("revert", "--no-edit", "HEAD~1").status());
        assertEquals("revert", h.call("git.status", "{}").get("state").asText());
    }

    @Test
    void everyJGitStateHasAWordAndNothingUnmodelledIsClean() {
        for (RepositoryState st : RepositoryState.values()) {
            String w = GitStatus.state(st);
            assertTrue(w.matches("clean|merge|rebase|cherry_pick|revert|bisect|unknown"), w);
            assertEquals(st == RepositoryState.SAFE, w.equals("clean"), st + " → " + w);
        }
        assertEquals("unknown", GitStatus.state(RepositoryState.APPLY));
    }

    @Test
    void aDetachedHeadHasNoBranchAndNoUpstream() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        String first = r.commit("a.txt", "1\n", "first");
        r.commit("a.txt", "2\n", "second");
        r.git("checkout", "-q", "--detach", first);
        ObjectNode s = status(r);
        assertTrue(s.get("branch").isNull());
        assertTrue(s.get("detached").asBoolean());
        assertEquals(first, s.get("head").asText());
        assertTrue(s.get("upstream").isNull());
        assertEquals("clean", s.get("state").asText());
    }

    @Test
    void aRepositoryWithNoCommitHasItsBranchAndNoHead() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.write("a.txt", "x");
        ObjectNode s = status(r);
        assertEquals("main", s.get("branch").asText());
        assertTrue(s.get("head").isNull());
        assertFalse(s.get("detached").asBoolean());
        assertEquals(1, s.at("/counts/untracked").asInt());
    }

    @Test
    void aFolderOutsideAnyRepositoryAndABareRepositoryAreRefusedByName() throws Exception {
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        h.workspace(plain);
        UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "git.status", "{}");
        assertEquals("workspace", e.details().get("field"));
        assertEquals("not_a_repository", e.details().get("reason"));
        assertEquals(plain.toString(), e.details().get("path"));

        GitRepo bare = GitRepo.init(tmp.resolve("bare.git"), "--bare");
        h.workspace(bare.dir);
        for (String m : new String[] {"git.status", "git.branches", "git.log", "git.open"}) {
            UhpException b = h.reject(ErrorCode.INVALID_REQUEST, m, "{\"workspace\":1}");
            assertEquals("bare_repository", b.details().get("reason"), m);
            UhpException n = h.reject(ErrorCode.INVALID_REQUEST, m, "{\"workspace\":0}");
            assertEquals("not_a_repository", n.details().get("reason"), m);
        }
        h.reject(ErrorCode.NOT_FOUND, "git.status", "{\"workspace\":2}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.status", "{\"path\":\"/\"}");
    }

    @Test
    void aWorkspaceFolderThatVanishedIsRefused() throws Exception {
        Path gone = Files.createDirectories(tmp.resolve("gone"));
        h.workspace(gone);
        Files.delete(gone);
        UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "git.status", "{}");
        assertEquals("no_folder", e.details().get("reason"));
    }

    @Test
    void readingChangesNeitherTheRepositoryNorTheModel() throws Exception {
        GitRepo r = conflictingBranches();
        r.run("merge", "other");
        byte[] index = Files.readAllBytes(r.dir.resolve(".git/index"));
        h.workspace(r.dir);
        var before = h.state;
        int events = h.published.size();
        JsonNode s = h.call("git.status", "{}");
        h.call("git.branches", "{}");
        h.call("git.log", "{}");
        assertEquals("merge", s.get("state").asText());
        assertTrue(java.util.Arrays.equals(index, Files.readAllBytes(r.dir.resolve(".git/index"))), "the index is not rewritten");
        assertEquals(before, h.state);
        assertEquals(events, h.published.size(), "a read publishes nothing");
    }

    /** main and other each change a.txt differently since their common commit; main checked out. */
    private GitRepo conflictingBranches() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "base\n", "base");
        r.git("checkout", "-q", "-b", "other");
        r.commit("a.txt", "theirs\n", "theirs");
        r.git("checkout", "-q", "main");
        r.commit("a.txt", "ours\n", "ours");
        return r;
    }
}
