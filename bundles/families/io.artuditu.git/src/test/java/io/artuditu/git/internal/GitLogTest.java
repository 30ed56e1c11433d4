package io.artuditu.git.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** git.log: pages, refs, merges, and text made safe for a terminal. */
class GitLogTest {
    @TempDir
    Path tmp;
    final Harness h = new Harness();

    @Test
    void pagesWalkTheHistoryNewestFirstAndTheLastPageSaysSo() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            ids.add(0, r.commit("a.txt", i + "\n", "commit " + i));
        }
        h.workspace(r.dir);
        ObjectNode p1 = h.call("git.log", "{\"limit\":2}");
        assertEquals("HEAD", p1.get("ref").asText());
        assertEquals(ids.subList(0, 2), idsOf(p1));
        assertEquals(2, p1.get("next_skip").asInt());
        ObjectNode p2 = h.call("git.log", "{\"limit\":2,\"skip\":2}");
        assertEquals(ids.subList(2, 4), idsOf(p2));
        ObjectNode p3 = h.call("git.log", "{\"limit\":2,\"skip\":4}");
        assertEquals(ids.subList(4, 5), idsOf(p3));
        assertTrue(p3.get("next_skip").isNull());
        ObjectNode exact = h.call("git.log", "{\"limit\":5}");
        assertTrue(exact.get("next_skip").isNull(), "a page that ends exactly at the root says there is no more");
        assertEquals(0, h.call("git.log", "{\"skip\":9}").get("commits").size());
        assertEquals(5, h.call("git.log", "{}").get("commits").size(), "default limit 50");

        JsonNode c = p1.get("commits").get(0);
        assertEquals("commit 5", c.get("subject").asText());
        assertEquals("Ada Lovelace", c.get("author_name").asText());
        assertEquals("ada@example.org", c.get("author_email").asText());
        assertEquals(Long.parseLong(r.git("log", "-1", "--format=%at")) * 1000, c.get("time_ms").asLong());
        assertEquals(List.of(ids.get(1)), List.of(c.get("parents").get(0).asText()));
        assertEquals(r.git("rev-parse", "--short=7", ids.get(0)), c.get("short_id").asText());
    }

    @Test
    void aRefAnExpressionAndAMergeCommitsParents() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        String base = r.commit("a.txt", "1\n", "base");
        r.git("checkout", "-q", "-b", "side");
        String side = r.commit("b.txt", "2\n", "side work");
        r.git("checkout", "-q", "main");
        String main = r.commit("c.txt", "3\n", "main work");
        r.git("merge", "-q", "--no-ff", "-m", "merge side", "side");
        h.workspace(r.dir);
        JsonNode merge = h.call("git.log", "{\"limit\":1}").get("commits").get(0);
        assertEquals("merge side", merge.get("subject").asText());
        assertEquals(List.of(main, side), List.of(merge.get("parents").get(0).asText(), merge.get("parents").get(1).asText()));
        ObjectNode onSide = h.call("git.log", "{\"ref\":\"side\"}");
        assertEquals("side", onSide.get("ref").asText());
        assertEquals(List.of(side, base), idsOf(onSide));
        assertEquals(List.of(base), idsOf(h.call("git.log", "{\"ref\":\"side~1\"}")));
        assertEquals(0, h.call("git.log", "{\"ref\":\"" + base + "\"}").get("commits").get(0).get("parents").size());
    }

    @Test
    void controlCharactersInSubjectsAndNamesAreEscapedNeverSentRaw() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.write("a.txt", "1");
        r.git("add", "a.txt");
        r.git("-c", "user.name=Eve\u001b]0;pwned\u0007x", "commit", "-q", "-m", "red \u001b[31malert\u009b back\\slash\ttab");
        h.workspace(r.dir);
        JsonNode c = h.call("git.log", "{}").get("commits").get(0);
        assertEquals("red \\x1b[31malert\\x9b back\\\\slash\\x09tab", c.get("subject").asText());
        assertEquals("Eve\\x1b]0;pwned\\x07x", c.get("author_name").asText());
        for (JsonNode v : List.of(c.get("subject"), c.get("author_name"))) {
            assertTrue(v.asText().chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f || ch >= 0x80 && ch <= 0x9f), v.asText());
        }
    }

    @Test
    void longTextIsCutWithAnEllipsis() {
        String s = Repos.text("x".repeat(5000));
        assertEquals(Repos.MAX_TEXT, s.length());
        assertTrue(s.endsWith("…"));
        assertEquals("plain", Repos.text("plain"));
    }

    @Test
    void aRepositoryWithNoCommitHasAnEmptyHistory() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        h.workspace(r.dir);
        ObjectNode l = h.call("git.log", "{}");
        assertEquals(0, l.get("commits").size());
        assertTrue(l.get("next_skip").isNull());
        h.reject(ErrorCode.NOT_FOUND, "git.log", "{\"ref\":\"main\"}");
    }

    @Test
    void badRequestsAreRefusedWithTheFieldNamed() throws Exception {
        GitRepo r = GitRepo.init(tmp.resolve("repo"));
        r.commit("a.txt", "1\n", "first");
        r.git("tag", "-a", "-m", "tree tag", "treetag", "HEAD^{tree}");
        h.workspace(r.dir);
        UhpException missing = h.reject(ErrorCode.NOT_FOUND, "git.log", "{\"ref\":\"nope\"}");
        assertEquals("ref", missing.details().get("field"));
        UhpException tree = h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"ref\":\"treetag\"}");
        assertEquals("not_a_commit", tree.details().get("reason"));
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"limit\":0}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"limit\":501}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"skip\":-1}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"ref\":\"\"}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"ref\":\"" + "a".repeat(257) + "\"}");
        h.reject(ErrorCode.INVALID_REQUEST, "git.log", "{\"cursor\":\"x\"}");
    }

    private static List<String> idsOf(JsonNode log) {
        List<String> ids = new ArrayList<>();
        log.get("commits").forEach(c -> ids.add(c.get("id").asText()));
        return ids;
    }
}
