package io.artuditu.diff.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** diff.list and diff.refresh over real repositories the git binary made. */
class DiffListTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static String rows(JsonNode files) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : files) {
            out.add(f.get("layer").asText() + ":" + f.get("status").asText() + ":" + f.get("path").asText() + ":"
                    + f.get("additions") + "/" + f.get("deletions"));
        }
        return String.join(" ", out);
    }

    @Test
    void everyLayerWithCountsAndTheBase() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.write("a.txt", "1\n2\n3\n").write("gone.txt", "x\n").write("staged.txt", "s\n");
        r.git("add", ".");
        r.git("commit", "-q", "-m", "one");
        r.write("a.txt", "1\ntwo\n3\n4\n");
        Files.delete(r.dir.resolve("gone.txt"));
        r.write("staged.txt", "s\nt\n");
        r.git("add", "staged.txt");
        r.write("new file.txt", "n\n");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode cold = h.call("diff.list", "{}");
            assertEquals(4, cold.get("files").size(), "the first list answers after the status pass: " + cold);
            h.call("diff.refresh", "{}"); // waits for the counts pass
            ObjectNode l = h.call("diff.list", "{}");
            assertEquals("worktree:modified:a.txt:2/1 worktree:deleted:gone.txt:0/1 untracked:untracked:new file.txt:1/0"
                    + " staged:modified:staged.txt:1/0", rows(sorted(l.get("files"))));
            assertEquals("index", l.at("/base/kind").asText());
            assertTrue(l.at("/base/commit").isNull());
            long g = l.get("generation").asLong();
            assertTrue(g >= 1);
            assertEquals("unreviewed", l.at("/files/0/review_state").asText());
            assertEquals(0, l.at("/files/0/unresolved_notes").asInt());
            assertEquals(1, h.call("diff.list", "{\"layer\":\"staged\"}").get("files").size());
            assertEquals(g, h.call("diff.refresh", "{}").get("generation").asLong(), "nothing changed: same generation");
            r.write("b.txt", "b\n");
            long g2 = h.call("diff.refresh", "{}").get("generation").asLong();
            assertTrue(g2 > g, "a scan that finds a new file moves the generation");
            assertTrue(h.events("diff.changed").stream().anyMatch(e -> e.at("/data/generation").asLong() == g2));
        }
    }

    private static List<JsonNode> sorted(JsonNode files) {
        List<JsonNode> out = new ArrayList<>();
        files.forEach(out::add);
        out.sort((a, b) -> order(a) - order(b));
        return out;
    }

    private static int order(JsonNode f) {
        return List.of("worktree", "untracked", "staged", "conflict").indexOf(f.get("layer").asText()) * 1000
                + f.get("path").asText().charAt(0);
    }

    private static String rows(List<JsonNode> files) {
        return rows(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().addAll(files));
    }

    @Test
    void aSavedFileShowsWithin300msByEvent() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("src/a.txt", "1\n", "one");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            assertEquals(0, h.call("diff.list", "{}").get("files").size());
            long t0 = System.nanoTime();
            r.write("src/a.txt", "2\n");
            long seen = -1;
            while (System.nanoTime() - t0 < 3_000_000_000L) {
                if (h.call("diff.list", "{}").get("files").size() == 1) {
                    seen = (System.nanoTime() - t0) / 1_000_000;
                    break;
                }
                Thread.sleep(5);
            }
            assertTrue(seen >= 0 && seen <= 300, "the saved file is listed within 300 ms: " + seen + " ms");
            assertFalse(h.events("diff.changed").isEmpty());
        }
    }

    @Test
    void theBaseBranchAndTheWorktreeDefault() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", "1\n", "one");
        r.git("checkout", "-q", "-b", "feature");
        r.commit("a.txt", "1\n2\n", "two");
        r.commit("b.txt", "b\n", "three");
        r.write("a.txt", "1\n2\n3\n");
        try (Harness h = new Harness(home)) {
            String ws = h.workspace(r.dir);
            ObjectNode idx = h.call("diff.list", "{}");
            assertEquals(1, idx.get("files").size());
            ObjectNode b = h.call("diff.list", "{\"base\":{\"branch\":\"main\"}}");
            assertEquals("branch", b.at("/base/kind").asText());
            assertEquals("main", b.at("/base/ref").asText());
            assertEquals(r.git("merge-base", "HEAD", "main"), b.at("/base/commit").asText());
            assertEquals("worktree:modified:a.txt:2/0 worktree:added:b.txt:1/0", rows(b.get("files")));
            ObjectNode g = h.call("diff.get", "{\"path\":\"a.txt\",\"base\":{\"branch\":\"main\"},\"include_patch\":true}");
            assertEquals(2, g.get("additions").asInt());
            ObjectNode ref = h.call("diff.list", "{\"base\":{\"ref\":\"HEAD~1\"}}");
            assertEquals("worktree:modified:a.txt:1/0 worktree:added:b.txt:1/0", rows(ref.get("files")));
            h.metadata(ws, "worktree_base", "main");
            ObjectNode def = h.call("diff.list", "{}");
            assertEquals("branch", def.at("/base/kind").asText(), "a worktree's base branch is the default");
            assertEquals("index", h.call("diff.list", "{\"base\":{\"index\":true}}").at("/base/kind").asText());
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "diff.list", "{\"base\":{\"branch\":\"nope\"}}");
            assertEquals("unknown_base", e.details().get("reason"));
            e = h.reject(ErrorCode.INVALID_REQUEST, "diff.list", "{\"base\":{\"ref\":\"HEAD..main\"}}");
            assertEquals("bad_ref", e.details().get("reason"));
            h.reject(ErrorCode.INVALID_REQUEST, "diff.list", "{\"base\":{\"ref\":\"a\",\"branch\":\"b\"}}");
        }
    }

    @Test
    void notARepositoryOrBareIsRefused() throws Exception {
        Path plain = Files.createDirectories(work.resolve("plain"));
        GitRepo bare = GitRepo.init(work.resolve("bare.git"), "--bare");
        try (Harness h = new Harness(home)) {
            h.workspace(plain);
            h.workspace(bare.dir);
            assertEquals("not_a_repository", h.reject(ErrorCode.INVALID_REQUEST, "diff.list", "{\"workspace\":0}")
                    .details().get("reason"));
            assertEquals("bare_repository", h.reject(ErrorCode.INVALID_REQUEST, "diff.list", "{\"workspace\":1}")
                    .details().get("reason"));
        }
    }

    @Test
    void aConflictIsItsOwnLayer() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", "1\n", "one");
        r.git("checkout", "-q", "-b", "other");
        r.commit("a.txt", "other\n", "other");
        r.git("checkout", "-q", "main");
        r.commit("a.txt", "mine\n", "mine");
        assertFalse(r.run("merge", "other").status() == 0);
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode l = h.call("diff.list", "{}");
            assertEquals("conflict:unmerged:a.txt:null/null", rows(l.get("files")));
            ObjectNode g = h.call("diff.get", "{\"path\":\"a.txt\",\"include_patch\":true}");
            assertTrue(g.toString().contains("<<<<<<<"), g.toString());
        }
    }
}
