package io.artuditu.checkpoints.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot engine against real repositories made by the git binary. */
class CheckpointsTest {
    @TempDir
    Path work;
    @TempDir
    Path scratch;
    Path repo;
    Checkpoints engine;
    static final Instant T = Instant.parse("2026-12-07T10:00:00Z");

    static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=Ada", "-c", "user.email=ada@example.org",
                "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        // a status run by the test itself must not refresh the index it compares
        pb.environment().put("GIT_OPTIONAL_LOCKS", "0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "git " + cmd + ": " + out);
        return out.trim();
    }

    /** What a snapshot must leave as it was: HEAD, the index file's bytes and git status. */
    record Untouched(String head, byte[] index, String status) {
        static Untouched of(Path repo) throws Exception {
            return new Untouched(git(repo, "rev-parse", "HEAD"), Files.readAllBytes(repo.resolve(".git/index")),
                    git(repo, "status", "--porcelain", "--untracked-files=all"));
        }

        void check(Path repo) throws Exception {
            assertEquals(head, git(repo, "rev-parse", "HEAD"), "HEAD did not move");
            assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")), "the index file is byte for byte the same");
            assertEquals(status, git(repo, "status", "--porcelain", "--untracked-files=all"), "the status is the same");
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        repo = Files.createDirectories(work.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve(".gitignore"), "*.log\nbuild/\n");
        Files.writeString(repo.resolve("a.txt"), "one\n");
        Files.writeString(repo.resolve("c.txt"), "keep me\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "first");
        engine = new Checkpoints(scratch);
    }

    List<String> refs() throws Exception {
        String out = git(repo, "for-each-ref", "--format=%(refname)", "refs/artuditu/");
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    @Test
    void aSnapshotHoldsTrackedAndUntrackedFilesButNotIgnoredOnesAndTouchesNothing() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "one\ntwo\n");
        Files.writeString(repo.resolve("staged.txt"), "staged\n");
        git(repo, "add", "staged.txt");
        Files.writeString(repo.resolve("new file.txt"), "untracked\n");
        Files.writeString(repo.resolve("debug.log"), "ignored\n");
        Files.createDirectories(repo.resolve("build"));
        Files.writeString(repo.resolve("build/out.bin"), "ignored\n");
        Untouched before = Untouched.of(repo);
        long mtime = Files.getLastModifiedTime(repo.resolve("a.txt")).toMillis();

        Checkpoints.Made m = engine.snapshot(engine.repo(repo), "3", "claude", "working -> done", 20, T);

        before.check(repo);
        assertEquals(mtime, Files.getLastModifiedTime(repo.resolve("a.txt")).toMillis(), "no file was rewritten");
        assertEquals(List.of("refs/artuditu/checkpoints/3/1"), refs());
        Checkpoints.Entry e = m.entry();
        assertEquals("3/1", e.shortId());
        String files = git(repo, "ls-tree", "-r", "--name-only", e.ref());
        assertEquals(List.of(".gitignore", "a.txt", "c.txt", "new file.txt", "staged.txt"), List.of(files.split("\n")));
        assertEquals("one\ntwo", git(repo, "show", e.ref() + ":a.txt"));
        assertEquals(git(repo, "rev-parse", "HEAD"), git(repo, "rev-parse", e.ref() + "^"), "its parent is HEAD");
        String message = git(repo, "log", "-1", "--format=%B", e.ref());
        assertTrue(message.contains("Artuditu-Checkpoint-Pane: 3"), message);
        assertTrue(message.contains("Artuditu-Checkpoint-Agent: claude"), message);
        assertTrue(message.contains("Artuditu-Checkpoint-Transition: working -> done"), message);
        assertTrue(message.contains("Artuditu-Checkpoint-Time: 2026-12-07T10:00:00Z"), message);
        assertEquals(3, e.filesChanged(), "a.txt, staged.txt and the new file differ from HEAD");
        assertEquals("HEAD", git(repo, "rev-parse", "--abbrev-ref", "HEAD").equals("main") ? "HEAD" : "moved");
        assertTrue(git(repo, "log", "--all", "--format=%H").contains(e.commit()), "reachable from --all");
        assertEquals("", git(repo, "log", "--format=%H", "main", "--not", "HEAD"), "no branch moved");

        List<Checkpoints.Entry> listed = engine.entries(engine.repo(repo), null);
        assertEquals(1, listed.size());
        assertEquals(e.commit(), listed.get(0).commit());
        assertEquals("claude", listed.get(0).agent());
        assertEquals("2026-12-07T10:00:00Z", listed.get(0).createdAt());
        assertEquals(3, listed.get(0).filesChanged());
        assertTrue(Files.list(scratch).findAny().isEmpty(), "no temporary file stays behind");
    }

    @Test
    void anUnchangedWorktreeRecordsNothingAndOnlyTheNewestNArekept() throws Exception {
        Checkpoints.Repo r = engine.repo(repo);
        assertNotNull(engine.snapshot(r, "1", "codex", "working -> idle", 3, T).entry());
        Checkpoints.Made same = engine.snapshot(r, "1", "codex", "working -> idle", 3, T);
        assertNull(same.entry(), "the tree equals the newest checkpoint's");
        assertEquals(List.of("refs/artuditu/checkpoints/1/1"), refs());
        for (int i = 2; i <= 5; i++) {
            Files.writeString(repo.resolve("a.txt"), "version " + i + "\n");
            Checkpoints.Made m = engine.snapshot(r, "1", "codex", "working -> done", 3, T.plusSeconds(i));
            assertEquals(i, m.entry().seq());
            assertEquals(1, m.entry().filesChanged());
        }
        assertEquals(List.of("refs/artuditu/checkpoints/1/3", "refs/artuditu/checkpoints/1/4",
                "refs/artuditu/checkpoints/1/5"), refs());
        // another pane's checkpoints are counted and pruned apart
        assertNotNull(engine.snapshot(r, "2", null, "manual", 3, T).entry());
        assertEquals(List.of("5", "4", "3"), engine.entries(r, "1").stream().map(e -> "" + e.seq()).toList());
        assertEquals(4, engine.entries(r, null).size());
    }

    @Test
    void aRepositoryWithNoCommitYetIsSnapshotWithoutAParent() throws Exception {
        Path fresh = Files.createDirectories(work.resolve("fresh"));
        git(fresh, "init", "-q");
        Files.writeString(fresh.resolve("x.txt"), "x\n");
        Checkpoints.Repo r = engine.repo(fresh);
        assertNull(r.head());
        Checkpoints.Entry e = engine.snapshot(r, "9", "claude", "working -> done", 20, T).entry();
        assertEquals("x.txt", git(fresh, "ls-tree", "-r", "--name-only", e.ref()));
        assertEquals(e.commit(), git(fresh, "rev-list", "--max-parents=0", e.ref()));
        assertEquals(1, e.filesChanged());
        assertFalse(Files.exists(fresh.resolve(".git/index")), "no index was made");
    }

    @Test
    void foldersThatAreNotWorktreesAreRefused() throws Exception {
        Path plain = Files.createDirectories(work.resolve("plain"));
        UhpException e = assertThrows(UhpException.class, () -> engine.repo(plain));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals("not_a_repository", e.details().get("reason"));
        Path bare = work.resolve("bare.git");
        git(work, "init", "-q", "--bare", bare.toString());
        assertEquals("bare_repository", assertThrows(UhpException.class, () -> engine.repo(bare)).details().get("reason"));
        assertEquals("no_folder", assertThrows(UhpException.class, () -> engine.repo(work.resolve("gone")))
                .details().get("reason"));
    }

    @Test
    void diffsBetweenCheckpointsAndAgainstTheWorktree() throws Exception {
        Checkpoints.Repo r = engine.repo(repo);
        Checkpoints.Entry one = engine.snapshot(r, "4", "claude", "working -> done", 20, T).entry();
        Files.writeString(repo.resolve("a.txt"), "changed\n");
        Files.delete(repo.resolve("c.txt"));
        Files.writeString(repo.resolve("b.txt"), "new\n");
        Checkpoints.Entry two = engine.snapshot(r, "4", "claude", "working -> done", 20, T).entry();
        assertEquals(3, two.filesChanged());
        assertEquals("a.txt M,b.txt A,c.txt D", changes(engine.diff(r, one.tree(), two.tree())));
        Files.writeString(repo.resolve("d.txt"), "later\n");
        Files.writeString(repo.resolve("x.log"), "ignored\n");
        assertEquals("d.txt A", changes(engine.diff(r, two.tree(), engine.worktreeTree(r))));
    }

    static String changes(List<Checkpoints.Change> list) {
        return list.stream().map(c -> c.path() + " " + c.status()).collect(Collectors.joining(","));
    }

    @Test
    void restoreBringsTheFilesBackWithoutMovingHeadOrTheIndexAndCanBeUndone() throws Exception {
        Checkpoints.Repo r = engine.repo(repo);
        Checkpoints.Entry one = engine.snapshot(r, "5", "claude", "working -> done", 20, T).entry();
        Files.writeString(repo.resolve("a.txt"), "agent edit\n");
        Files.delete(repo.resolve("c.txt"));
        Files.createDirectories(repo.resolve("src/deep"));
        Files.writeString(repo.resolve("src/deep/new.txt"), "added by the agent\n");
        Files.writeString(repo.resolve("debug.log"), "ignored, stays\n");
        Checkpoints.Entry two = engine.snapshot(r, "5", "claude", "working -> done", 20, T).entry();
        String head = git(repo, "rev-parse", "HEAD");
        byte[] index = Files.readAllBytes(repo.resolve(".git/index"));

        Checkpoints.Restored done = engine.restore(r, one, false, 20, T);

        assertEquals("one\n", Files.readString(repo.resolve("a.txt")));
        assertEquals("keep me\n", Files.readString(repo.resolve("c.txt")));
        assertFalse(Files.exists(repo.resolve("src")), "the added file and its emptied folders are gone");
        assertEquals("ignored, stays\n", Files.readString(repo.resolve("debug.log")), "an ignored file is never removed");
        assertEquals(head, git(repo, "rev-parse", "HEAD"));
        assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")));
        assertEquals("", git(repo, "status", "--porcelain"), "the worktree is HEAD's again here");
        assertEquals(two.ref(), done.undo().ref(), "nothing changed since the newest, so it is the undo point");
        assertEquals(List.of("a.txt", "c.txt"), done.written());
        assertEquals(List.of("src/deep/new.txt"), done.removed());
        Checkpoints.Entry after = engine.entries(r, "5").get(0);
        assertEquals("restored 5/1", after.transition());
        assertEquals(one.tree(), after.tree());

        // a change since the newest checkpoint refuses a restore, and nothing is written
        Files.writeString(repo.resolve("a.txt"), "typed by hand\n");
        UhpException e = assertThrows(UhpException.class, () -> engine.restore(r, two, false, 20, T));
        assertEquals("changed_since_checkpoint", e.details().get("reason"));
        assertEquals(List.of("a.txt"), e.details().get("changed"));
        assertEquals(after.ref(), e.details().get("checkpoint"));
        assertEquals("typed by hand\n", Files.readString(repo.resolve("a.txt")));
        int before = engine.entries(r, "5").size();
        assertEquals(before, engine.entries(r, "5").size());

        // forced: the hand edit is checkpointed first, then the agent's state comes back
        Checkpoints.Restored forced = engine.restore(r, two, true, 20, T);
        assertEquals("before restore of 5/2", forced.undo().transition());
        assertEquals("typed by hand\n", git(repo, "show", forced.undo().ref() + ":a.txt") + "\n");
        assertEquals("agent edit\n", Files.readString(repo.resolve("a.txt")));
        assertEquals("added by the agent\n", Files.readString(repo.resolve("src/deep/new.txt")));
        assertFalse(Files.exists(repo.resolve("c.txt")));
        assertEquals(head, git(repo, "rev-parse", "HEAD"));
        assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")));

        // and undone
        engine.restore(r, forced.undo(), false, 20, T);
        assertEquals("typed by hand\n", Files.readString(repo.resolve("a.txt")));
        assertTrue(Files.list(scratch).findAny().isEmpty(), "no temporary file stays behind");
    }

    @Test
    void linkedWorktreesShareTheRefsButEachAnswersItsOwn() throws Exception {
        Path other = work.resolve("repo-worktrees/side");
        git(repo, "worktree", "add", "-q", "-b", "side", other.toString());
        Files.writeString(other.resolve("a.txt"), "on the side\n");
        Files.writeString(repo.resolve("a.txt"), "on main\n");
        byte[] sideIndex = Files.readAllBytes(Path.of(git(other, "rev-parse", "--absolute-git-dir")).resolve("index"));
        Checkpoints.Repo main = engine.repo(repo);
        Checkpoints.Repo side = engine.repo(other);
        assertEquals(other.toRealPath(), side.top().toRealPath());
        Checkpoints.Entry m = engine.snapshot(main, "1", "claude", "working -> done", 20, T).entry();
        // the same pane id in another worktree (a later server): the next sequence, its own list
        Checkpoints.Entry s2 = engine.snapshot(side, "1", "codex", "working -> done", 20, T).entry();
        assertEquals(2, s2.seq());
        assertEquals("on the side", git(repo, "show", s2.ref() + ":a.txt"));
        assertArrayEquals(sideIndex, Files.readAllBytes(Path.of(git(other, "rev-parse", "--absolute-git-dir"))
                .resolve("index")), "the linked worktree's own index is untouched");
        assertEquals(List.of(m.ref()), engine.entries(main, null).stream().map(Checkpoints.Entry::ref).toList());
        assertEquals(List.of(s2.ref()), engine.entries(side, "1").stream().map(Checkpoints.Entry::ref).toList());
        assertTrue(engine.find(main, "1/2").isEmpty(), "a checkpoint of another worktree is not restored here");
        assertNull(engine.snapshot(main, "1", "claude", "working -> done", 20, T).entry(),
                "unchanged against this worktree's newest, not the other's");
    }

    @Test
    void aFolderWithOtherContentWhereAFileComesBackRefusesTheWholeRestore() throws Exception {
        Checkpoints.Repo r = engine.repo(repo);
        Files.writeString(repo.resolve("x"), "a file\n");
        Checkpoints.Entry file = engine.snapshot(r, "6", null, "manual", 20, T).entry();
        Files.delete(repo.resolve("x"));
        Files.createDirectories(repo.resolve("x"));
        Files.writeString(repo.resolve("x/kept.log"), "ignored, and in the way\n");
        Files.writeString(repo.resolve("x/tracked.txt"), "untracked\n");
        Files.writeString(repo.resolve("a.txt"), "changed\n");
        engine.snapshot(r, "6", null, "manual", 20, T);
        UhpException e = assertThrows(UhpException.class, () -> engine.restore(r, file, false, 20, T));
        assertEquals("directory_in_the_way", e.details().get("reason"));
        assertEquals("changed\n", Files.readString(repo.resolve("a.txt")), "nothing was written");
        assertTrue(Files.exists(repo.resolve("x/tracked.txt")), "nothing was removed");
        assertEquals(2, engine.entries(r, "6").size(), "no checkpoint was taken for a refused restore");
        // without the ignored file the folder goes and the file comes back
        Files.delete(repo.resolve("x/kept.log"));
        engine.restore(r, file, false, 20, T);
        assertEquals("a file\n", Files.readString(repo.resolve("x")));
        assertEquals("one\n", Files.readString(repo.resolve("a.txt")));
    }
}
