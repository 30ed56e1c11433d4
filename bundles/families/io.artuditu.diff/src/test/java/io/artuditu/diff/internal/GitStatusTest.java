package io.artuditu.diff.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The porcelain v2 parser, the status pass on real repositories and the counts that follow it. */
class GitStatusTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    private static final String H = "1111111111111111111111111111111111111111";
    private static final String I = "2222222222222222222222222222222222222222";
    private static final String Z = "0000000000000000000000000000000000000000";

    private static String rec(String... records) {
        return String.join("\0", records) + "\0";
    }

    @Test
    void parsesEveryKindWithExactNames() {
        String out = rec("1 .M N... 100644 100644 100644 " + H + " " + I + " a file with spaces.txt",
                "2 R. N... 100644 100644 100644 " + H + " " + H + " R100 new name\nwith newline.txt", "old\tname.txt",
                "u UU N... 100644 100644 100644 100644 " + H + " " + I + " " + H + " conflicted é.txt",
                "1 A. N... 000000 100644 100644 " + Z + " " + I + " added",
                "? ünïcode/ 名前.txt");
        GitStatus.Result r = GitStatus.parse(out.getBytes(StandardCharsets.UTF_8), false);
        assertFalse(r.truncated());
        List<GitStatus.Entry> e = r.entries();
        assertEquals(5, e.size());
        assertEquals("a file with spaces.txt", e.get(0).path());
        assertEquals('.', e.get(0).x());
        assertEquals('M', e.get(0).y());
        assertEquals(I, e.get(0).id(1));
        assertEquals('2', e.get(1).kind());
        assertEquals("new name\nwith newline.txt", e.get(1).path());
        assertEquals("old\tname.txt", e.get(1).origPath());
        assertEquals("renamed", GitStatus.status(e.get(1).x()));
        assertEquals('u', e.get(2).kind());
        assertEquals("conflicted é.txt", e.get(2).path());
        assertEquals(I, e.get(2).id(1), "stage 2 (ours)");
        assertNull(e.get(3).id(0), "the zero id is no side");
        assertEquals("added", GitStatus.status(e.get(3).x()));
        assertEquals("ünïcode/ 名前.txt", e.get(4).path());
    }

    @Test
    void cutOutputKeepsTheWholeRecordsAndSaysTruncated() {
        String out = rec("? a.txt") + "? b.t";
        GitStatus.Result r = GitStatus.parse(out.getBytes(StandardCharsets.UTF_8), false);
        assertTrue(r.truncated());
        assertEquals(1, r.entries().size());
        GitStatus.Result rename = GitStatus.parse(("2 R. N... 100644 100644 100644 " + H + " " + H + " R100 new\0")
                .getBytes(StandardCharsets.UTF_8), false);
        assertTrue(rename.truncated());
        assertEquals(0, rename.entries().size(), "a rename without its original path is dropped");
    }

    @Test
    void renamesUnmergedAndOddNamesFromRealGit() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.write("old name.txt", "1\n2\n3\n4\n5\n6\n7\n8\n").write("c.txt", "base\n");
        r.git("add", ".");
        r.git("commit", "-q", "-m", "one");
        r.git("checkout", "-q", "-b", "side");
        r.commit("c.txt", "side\n", "side");
        r.git("checkout", "-q", "main");
        r.write("c.txt", "main\n");
        r.git("commit", "-q", "-m", "main", "c.txt");
        assertEquals(1, r.run("merge", "-q", "side").status());
        r.git("mv", "old name.txt", "new\nname é.txt");
        r.write("über ü.txt", "u\n");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode l = h.call("diff.refresh", "{}");
            l = h.call("diff.list", "{}");
            List<String> rows = new ArrayList<>();
            for (JsonNode f : l.get("files")) {
                rows.add(f.get("layer").asText() + ":" + f.get("status").asText() + ":" + f.get("path").asText() + "<"
                        + f.get("old_path").asText() + ":" + f.get("additions") + "/" + f.get("deletions"));
            }
            assertEquals(List.of("conflict:unmerged:c.txt<null:null/null",
                    "staged:renamed:" + Text.name("new\nname é.txt") + "<old name.txt:0/0",
                    "untracked:untracked:über ü.txt<null:1/0"), rows);
            ObjectNode g = h.call("diff.get", "{\"path\":" + l.at("/files/1/path") + ",\"include_patch\":true}");
            assertEquals("old name.txt", g.get("old_path").asText());
            assertEquals(l.at("/files/1/fingerprint").asText(), g.get("fingerprint").asText(),
                    "the list and diff.get agree on the fingerprint");
        }
    }

    @Test
    void countsArriveAfterTheFirstListWithANewGeneration() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", "1\n2\n3\n", "one");
        r.write("a.txt", "1\ntwo\n3\n4\n");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode first = h.call("diff.list", "{}");
            long g = first.get("generation").asLong();
            assertTrue(first.at("/files/0/additions").isNull(), "the first answer comes before the counts: " + first);
            ObjectNode refreshed = h.call("diff.refresh", "{}");
            long g2 = refreshed.get("generation").asLong();
            assertTrue(g2 > g, "the counts pass moved the generation");
            assertTrue(h.events("diff.changed").stream().anyMatch(e -> e.at("/data/generation").asLong() == g2),
                    "and published diff.changed");
            ObjectNode l = h.call("diff.list", "{}");
            assertEquals(2, l.at("/files/0/additions").asInt());
            assertEquals(1, l.at("/files/0/deletions").asInt());
            assertEquals(first.at("/files/0/fingerprint"), l.at("/files/0/fingerprint"), "counts leave the fingerprint");
            assertEquals(g2, h.call("diff.refresh", "{}").get("generation").asLong(), "a rescan keeps the counts");
            assertEquals(2, h.call("diff.list", "{}").at("/files/0/additions").asInt());
        }
    }
}
