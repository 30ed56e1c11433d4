package io.artuditu.git.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** git.branches against a real clone with local branches, an upstream and remote branches. */
class GitBranchesTest {
    @TempDir
    Path tmp;
    final Harness h = new Harness();

    @Test
    void localAndRemoteBranchesWithUpstreamAheadBehindAndLastCommit() throws Exception {
        GitRepo origin = GitRepo.init(tmp.resolve("origin"));
        origin.commit("a.txt", "1\n", "first");
        origin.git("branch", "release");
        new GitRepo(tmp).git("clone", "-q", origin.dir.toString(), "clone");
        GitRepo clone = new GitRepo(tmp.resolve("clone"));
        String local = clone.commit("b.txt", "2\n", "local work");
        clone.git("branch", "feature");
        origin.commit("c.txt", "3\n", "upstream work");
        clone.git("fetch", "-q");

        h.workspace(clone.dir);
        ObjectNode b = h.call("git.branches", "{}");
        assertEquals("git_branches", b.get("type").asText());
        assertEquals("main", b.get("current").asText());
        assertFalse(b.get("detached").asBoolean());
        assertFalse(b.get("truncated").asBoolean());
        assertEquals(List.of("feature", "main"), names(b.get("local")));
        JsonNode feature = b.get("local").get(0);
        assertFalse(feature.get("current").asBoolean());
        assertTrue(feature.get("upstream").isNull());
        assertTrue(feature.get("ahead").isNull());
        JsonNode main = b.get("local").get(1);
        assertTrue(main.get("current").asBoolean());
        assertEquals("origin/main", main.get("upstream").asText());
        assertEquals(1, main.get("ahead").asInt());
        assertEquals(1, main.get("behind").asInt());
        assertEquals(local, main.at("/commit/id").asText());
        assertEquals("local work", main.at("/commit/subject").asText());
        assertTrue(local.startsWith(main.at("/commit/short_id").asText()));
        assertTrue(main.at("/commit/short_id").asText().length() >= 7);
        assertEquals(Long.parseLong(clone.git("log", "-1", "--format=%at", local)) * 1000, main.at("/commit/time_ms").asLong());
        assertEquals(List.of("origin/main", "origin/release"), names(b.get("remote")), "origin/HEAD is an alias, left out");
        assertEquals("upstream work", b.get("remote").get(0).at("/commit/subject").asText());
    }

    @Test
    void aDetachedHeadHasNoCurrentBranch() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "1\n", "first");
        r.git("checkout", "-q", "--detach");
        h.workspace(r.dir);
        ObjectNode b = h.call("git.branches", "{}");
        assertTrue(b.get("current").isNull());
        assertTrue(b.get("detached").asBoolean());
        assertFalse(b.get("local").get(0).get("current").asBoolean());
        assertEquals(0, b.get("remote").size());
    }

    @Test
    void moreThanFiveHundredBranchesAreCutAndSaySo() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "1\n", "first");
        StringBuilder refs = new StringBuilder();
        String head = r.head();
        for (int i = 0; i < 510; i++) {
            refs.append(String.format("create refs/heads/b%03d %s%n", i, head));
        }
        java.nio.file.Files.writeString(tmp.resolve("refs.txt"), refs);
        ProcessBuilder pb = new ProcessBuilder("git", "update-ref", "--stdin").directory(r.dir.toFile())
                .redirectInput(tmp.resolve("refs.txt").toFile()).redirectErrorStream(true);
        assertEquals(0, pb.start().waitFor());
        h.workspace(r.dir);
        ObjectNode b = h.call("git.branches", "{}");
        assertEquals(GitBranches.MAX_BRANCHES, b.get("local").size());
        assertTrue(b.get("truncated").asBoolean());
        assertEquals("b000", b.get("local").get(0).get("name").asText(), "sorted by name, the first 500 kept");
    }

    private static List<String> names(JsonNode rows) {
        List<String> n = new ArrayList<>();
        rows.forEach(r -> n.add(r.get("name").asText()));
        return n;
    }
}
