package io.artuditu.diff.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** diff.get: hunks, lines, the limits and the bad inputs, on real repositories. */
class DiffGetTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static String lines(int from, int to, String prefix) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i <= to; i++) {
            b.append(prefix).append(i).append('\n');
        }
        return b.toString();
    }

    @Test
    void hunksWithIdsAndLinesOnlyWhenAsked() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", lines(1, 40, "line "), "one");
        r.write("a.txt", lines(1, 40, "line ").replace("line 5\n", "five\n").replace("line 30\n", "line 30\nadded\n"));
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode g = h.call("diff.get", "{\"path\":\"a.txt\"}");
            assertEquals("worktree", g.get("layer").asText());
            assertEquals(2, g.get("additions").asInt());
            assertEquals(1, g.get("deletions").asInt());
            assertEquals(2, g.get("hunks").size());
            assertEquals("h1", g.at("/hunks/0/id").asText());
            assertEquals("@@ -2,7 +2,7 @@", g.at("/hunks/0/header").asText());
            assertEquals("h2", g.at("/hunks/1/id").asText());
            assertTrue(g.at("/hunks/0/lines").isNull());
            assertFalse(g.get("truncated").asBoolean());
            assertEquals("index", g.at("/base/kind").asText());
            ObjectNode p = h.call("diff.get", "{\"path\":\"a.txt\",\"include_patch\":true}");
            JsonNode l = p.at("/hunks/0/lines");
            assertEquals(8, l.size());
            assertEquals("context", l.get(0).get("kind").asText());
            assertEquals(2, l.get(0).get("old_line").asInt());
            assertEquals("delete", l.get(3).get("kind").asText());
            assertEquals("line 5", l.get(3).get("text").asText());
            assertTrue(l.get(3).get("new_line").isNull());
            assertEquals("add", l.get(4).get("kind").asText());
            assertEquals(5, l.get(4).get("new_line").asInt());
            assertEquals(g.get("fingerprint"), p.get("fingerprint"));
        }
    }

    @Test
    void aPathInTwoLayersNeedsTheLayer() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", "1\n", "one");
        r.write("a.txt", "2\n");
        r.git("add", "a.txt");
        r.write("a.txt", "3\n");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "diff.get", "{\"path\":\"a.txt\"}");
            assertEquals("ambiguous_layer", e.details().get("reason"));
            assertEquals(List.of("staged", "worktree"), e.details().get("layers"));
            ObjectNode s = h.call("diff.get", "{\"path\":\"a.txt\",\"layer\":\"staged\",\"include_patch\":true}");
            assertEquals("2", s.at("/hunks/0/lines/1/text").asText());
            ObjectNode w = h.call("diff.get", "{\"path\":\"a.txt\",\"layer\":\"worktree\",\"include_patch\":true}");
            assertEquals("3", w.at("/hunks/0/lines/1/text").asText());
            assertEquals("not_in_layer", h.reject(ErrorCode.INVALID_REQUEST, "diff.get",
                    "{\"path\":\"a.txt\",\"layer\":\"untracked\"}").details().get("reason"));
        }
    }

    @Test
    void binaryHugeLongLinesControlsAndBadBytes() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("keep.txt", "k\n", "one");
        Files.write(r.dir.resolve("bin.dat"), new byte[] {1, 2, 0, 3});
        try (RandomAccessFile f = new RandomAccessFile(r.dir.resolve("big.txt").toFile(), "rw")) {
            f.setLength(50L * 1024 * 1024);
        }
        r.write("long.txt", "x".repeat(100 * 1024) + "\nshort\n");
        r.write("esc.txt", "red \u001b[31mRED\u001b[0m bell\u0007 osc \u001b]0;title\u0007end\u009b1m\u007f\tz\r\n");
        Files.write(r.dir.resolve("latin1.txt"), "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode b = h.call("diff.get", "{\"path\":\"bin.dat\",\"include_patch\":true}");
            assertTrue(b.get("binary").asBoolean());
            assertEquals(0, b.get("hunks").size());
            assertTrue(b.get("additions").isNull());
            long t0 = System.nanoTime();
            ObjectNode big = h.call("diff.get", "{\"path\":\"big.txt\",\"include_patch\":true}");
            assertTrue(big.get("truncated").asBoolean());
            assertEquals("file_bytes", big.at("/truncation/reason").asText());
            assertEquals(50L * 1024 * 1024, big.at("/truncation/new_size").asLong());
            assertEquals(0, big.get("hunks").size());
            assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "the 50 MB file is not read whole");
            ObjectNode l = h.call("diff.get", "{\"path\":\"long.txt\",\"include_patch\":true}");
            JsonNode first = l.at("/hunks/0/lines/0");
            assertEquals(16 * 1024, first.get("text").asText().length());
            assertTrue(first.get("cut").asBoolean());
            assertEquals(1, l.at("/truncation/cut_lines").asInt());
            assertEquals("short", l.at("/hunks/0/lines/1/text").asText());
            ObjectNode e = h.call("diff.get", "{\"path\":\"esc.txt\",\"include_patch\":true}");
            assertEquals("red RED bell osc end\tz", e.at("/hunks/0/lines/0/text").asText());
            ObjectNode n = h.call("diff.get", "{\"path\":\"latin1.txt\",\"include_patch\":true}");
            assertEquals("caf\uFFFD", n.at("/hunks/0/lines/0/text").asText());
        }
    }

    @Test
    void rowsAreBounded() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("keep.txt", "k\n", "one");
        r.write("many.txt", lines(1, 25_000, ""));
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode g = h.call("diff.get", "{\"path\":\"many.txt\",\"include_patch\":true}");
            assertTrue(g.get("truncated").asBoolean());
            assertEquals("rows", g.at("/truncation/reason").asText());
            assertEquals(20_000, g.at("/hunks/0/lines").size());
            assertEquals(25_000, g.get("additions").asInt(), "the counts are the whole file's");
        }
    }

    @Test
    void namesWithSpacesNewlinesAndControlsAreEscapedAndUsable() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("keep.txt", "k\n", "one");
        r.write("with space.txt", "s\n");
        r.write("new\nline.txt", "n\n");
        r.write("bell\u0007.txt", "b\n");
        r.write("back\\slash.txt", "b\n");
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            String all = h.call("diff.list", "{}").get("files").toString();
            assertTrue(all.contains("\"with space.txt\""), all);
            assertTrue(all.contains("\"new\\\\x0aline.txt\""), all);
            assertTrue(all.contains("\"bell\\\\x07.txt\""), all);
            assertTrue(all.contains("\"back\\\\\\\\slash.txt\""), all);
            assertEquals("s", h.call("diff.get", "{\"path\":\"with space.txt\",\"include_patch\":true}")
                    .at("/hunks/0/lines/0/text").asText());
            assertEquals("n", h.call("diff.get", "{\"path\":\"new\\\\x0aline.txt\",\"include_patch\":true}")
                    .at("/hunks/0/lines/0/text").asText());
            assertEquals("b", h.call("diff.get", "{\"path\":\"back\\\\\\\\slash.txt\",\"include_patch\":true}")
                    .at("/hunks/0/lines/0/text").asText());
        }
    }

    @Test
    void pathsThatEscapeOrHoldControlsAreRefused() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", "1\n", "one");
        r.write("a.txt", "2\n");
        Files.createSymbolicLink(r.dir.resolve("out"), work);
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            for (String p : new String[] {"../x", "/etc/passwd", "%2e%2e/x", "a/%2E%2E/%2e%2e/x"}) {
                UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "diff.get", "{\"path\":\"" + p + "\"}");
                assertEquals("escapes_workspace", e.details().get("reason"), p);
            }
            assertEquals("control_character", h.reject(ErrorCode.INVALID_REQUEST, "diff.get",
                    "{\"path\":\"a\\u001b.txt\"}").details().get("reason"));
            h.reject(ErrorCode.NOT_FOUND, "diff.get", "{\"path\":\"no-such.txt\"}");
            // the link is a file of its own to Git: its text is the target, never what it points at
            ObjectNode link = h.call("diff.get", "{\"path\":\"out\",\"include_patch\":true}");
            assertEquals(work.toString(), link.at("/hunks/0/lines/0/text").asText());
        }
    }
}
