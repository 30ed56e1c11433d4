package io.artuditu.diff.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.testkit.GitRepo;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Review notes: validation, all-or-nothing batches, re-anchoring, persistence and sending. */
class NotesTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static String numbered(int n, String prefix) {
        return DiffGetTest.lines(1, n, prefix);
    }

    /** A repository whose a.txt (40 lines) has lines 10-12 and 30 changed in the working tree. */
    GitRepo repo() throws Exception {
        GitRepo r = GitRepo.init(work.resolve("repo"));
        r.commit("a.txt", numbered(40, "line "), "one");
        r.write("a.txt", numbered(40, "line ").replace("line 10\nline 11\nline 12\n", "ten\neleven\ntwelve\n")
                .replace("line 30\n", "thirty\n"));
        return r;
    }

    static String note(String extra) {
        return "{\"file\":\"a.txt\",\"body\":\"why?\"" + extra + "}";
    }

    @Test
    void addValidatesAndStoresContextFromTheSource() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ObjectNode n = h.call("diff.note.add", note(",\"new_line\":10,\"end_line\":11,\"kind\":\"issue\"")).with("note");
            assertEquals("n1", n.get("id").asText());
            assertEquals("open", n.get("state").asText());
            assertEquals("new", n.get("side").asText());
            assertEquals("[\"ten\",\"eleven\"]", n.get("quote").toString());
            assertEquals("person", n.at("/author/kind").asText());
            assertEquals("worktree", n.get("layer").asText());
            ObjectNode o = h.call("diff.note.add", note(",\"old_line\":10")).with("note");
            assertEquals("[\"line 10\"]", o.get("quote").toString());
            assertEquals("question", o.get("kind").asText());
            assertEquals(2, h.events("diff.note.changed").size());
            JsonNode files = h.call("diff.list", "{}").get("files");
            assertEquals(2, files.get(0).get("unresolved_notes").asInt());
            assertEquals("reviewed", files.get(0).get("review_state").asText());

            String[][] bad = {
                {note(",\"new_line\":20"), "line_outside_diff"},
                {note(",\"new_line\":12,\"end_line\":11"), "end_before_start"},
                {note(",\"new_line\":10,\"old_line\":10"), "one_side"},
                {note(""), "one_side"},
                {note(",\"new_line\":10,\"end_line\":16"), "line_outside_diff"},
                {"{\"file\":\"a.txt\",\"new_line\":10,\"body\":\"bad \\u001b[31m\"}", "control_character"},
                {"{\"file\":\"a.txt\",\"new_line\":10,\"body\":\"   \"}", "empty_body"},
                {"{\"file\":\"zzz.txt\",\"new_line\":1,\"body\":\"x\"}", "not_found"},
            };
            for (String[] b : bad) {
                UhpException e = h.reject(b[1].equals("not_found") ? ErrorCode.NOT_FOUND : ErrorCode.INVALID_REQUEST,
                        "diff.note.add", b[0]);
                assertEquals(b[1], e.details().get("reason"), b[0] + ": " + e.getMessage());
            }
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.add", "{\"file\":\"a.txt\",\"new_line\":10,\"body\":\""
                    + "x".repeat(9 * 1024) + "\"}");
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.add", note(",\"new_line\":10,\"context\":[\"forged\"]"));
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.add", note(",\"new_line\":10,\"kind\":\"rant\""));
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.add", note(",\"new_line\":0"));
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.list", "{\"state\":\"sent\"}");
            assertEquals(2, h.call("diff.note.list", "{}").get("notes").size(), "the refusals created nothing");
        }
    }

    @Test
    void aBatchOfFiftyWithTheLastBadCreatesNothing() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            ArrayNode items = Harness.JSON.createArrayNode();
            for (int i = 0; i < 50; i++) {
                items.addObject().put("file", "a.txt").put("layer", "worktree").put("new_line", i < 49 ? 10 + i % 3 : 25)
                        .put("body", "note " + i).put("kind", "suggestion");
            }
            ObjectNode p = Harness.JSON.createObjectNode();
            p.set("notes", items);
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "diff.note.apply", p.toString());
            assertEquals("notes[49].new_line", e.details().get("field"));
            assertEquals(0, h.call("diff.note.list", "{}").get("notes").size());
            assertTrue(h.events("diff.note.changed").isEmpty());
            ((ObjectNode) items.get(49)).put("new_line", 30);
            ObjectNode ok = h.call("diff.note.apply", p.toString());
            assertEquals(50, ok.get("notes").size());
            assertEquals("n50", ok.at("/notes/49/id").asText());
            assertEquals(50, h.call("diff.note.list", "{\"state\":\"open\"}").get("notes").size());
        }
    }

    @Test
    void notesReanchorAsTheCodeMoves() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            String moved = h.call("diff.note.add", note(",\"new_line\":10,\"end_line\":12")).at("/note/id").asText();
            String changed = h.call("diff.note.add", note(",\"new_line\":30")).at("/note/id").asText();
            String resolved = h.call("diff.note.add", note(",\"new_line\":11")).at("/note/id").asText();
            h.call("diff.note.resolve", "{\"id\":\"" + resolved + "\"}");
            // five lines inserted at the top move lines 10-12; line 30 is rewritten with its neighbours kept
            String now = Files.readString(r.dir.resolve("a.txt"));
            r.write("a.txt", "a\nb\nc\nd\ne\n" + now.replace("thirty\n", "THIRTY!\n"));
            h.call("diff.refresh", "{}");
            Map<String, JsonNode> by = byId(h);
            assertEquals("open", by.get(moved).get("state").asText());
            assertEquals(15, by.get(moved).get("line").asInt());
            assertEquals(17, by.get(moved).get("end_line").asInt());
            assertEquals("outdated", by.get(changed).get("state").asText());
            assertEquals("resolved", by.get(resolved).get("state").asText(), "resolved stays resolved");
            assertTrue(h.events("diff.note.changed").stream().anyMatch(e -> e.at("/data/change").asText().equals("reanchored")));
            // the whole neighbourhood rewritten: orphaned; the file gone: orphaned
            r.write("a.txt", "completely\ndifferent\n");
            h.call("diff.refresh", "{}");
            by = byId(h);
            assertEquals("orphaned", by.get(moved).get("state").asText());
            assertEquals("orphaned", by.get(changed).get("state").asText());
            h.call("diff.note.reopen", "{\"id\":\"" + resolved + "\"}");
            assertEquals("orphaned", byId(h).get(resolved).get("state").asText(), "a reopened note is re-anchored at once");
            String edited = h.call("diff.note.edit", "{\"id\":\"" + moved + "\",\"body\":\"new body\"}").at("/note/body").asText();
            assertEquals("new body", edited);
            h.call("diff.note.remove", "{\"id\":\"" + moved + "\"}");
            assertFalse(byId(h).containsKey(moved));
            h.reject(ErrorCode.NOT_FOUND, "diff.note.remove", "{\"id\":\"" + moved + "\"}");
        }
    }

    @Test
    void anOldSideNoteGoesOrphanedWhenTheChangeIsStaged() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            String id = h.call("diff.note.add", note(",\"old_line\":30")).at("/note/id").asText();
            r.git("add", "a.txt");
            h.call("diff.refresh", "{}");
            // the old side of the worktree layer is the index, which now holds the new text
            assertEquals("outdated", byId(h).get(id).get("state").asText());
        }
    }

    static Map<String, JsonNode> byId(Harness h) {
        Map<String, JsonNode> out = new java.util.HashMap<>();
        h.call("diff.note.list", "{}").get("notes").forEach(n -> out.put(n.get("id").asText(), n));
        return out;
    }

    @Test
    void notesSurviveARestartAndAreWrittenAtomically() throws Exception {
        GitRepo r = repo();
        String id;
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            id = h.call("diff.note.add", note(",\"new_line\":10,\"kind\":\"praise\"")).at("/note/id").asText();
        }
        try (java.util.stream.Stream<Path> files = Files.walk(home.resolve("review"))) {
            assertEquals(1, files.filter(Files::isRegularFile).count(), "one notes.json, no temporary file left");
        }
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            JsonNode n = byId(h).get(id);
            assertEquals("praise", n.get("kind").asText());
            assertEquals("[\"ten\"]", n.get("quote").toString());
            assertEquals("n2", h.call("diff.note.add", note(",\"new_line\":11")).at("/note/id").asText());
        }
    }

    @Test
    void authorPaneAndSendingToALiveAgentOnly() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            h.agentOf.put("1", "claude");
            ObjectNode n = h.call("diff.note.add", note(",\"new_line\":10,\"author_pane\":\"1\"")).with("note");
            assertEquals("pane", n.at("/author/kind").asText());
            assertEquals("1", n.at("/author/pane").asText());
            assertEquals("claude", n.at("/author/agent").asText());
            h.reject(ErrorCode.NOT_FOUND, "diff.note.add", note(",\"new_line\":10,\"author_pane\":\"99\""));
            h.call("diff.note.add", note(",\"new_line\":30,\"kind\":\"issue\"").replace("why?", "rename this\\nplease"));

            ObjectNode sent = h.call("diff.note.send", "{\"to\":\"1\",\"all_open\":true}");
            assertEquals("[\"n1\",\"n2\"]", sent.get("ids").toString());
            // outside bracketed paste mode a paste's line feeds go as carriage returns, as agent.send's do
            String raw = h.typed.get("term_1").toString(StandardCharsets.UTF_8);
            assertTrue(raw.endsWith("\r"), "submitted with Enter");
            String typed = raw.replace('\r', '\n');
            assertEquals(sent.get("bytes").asInt(), h.typed.get("term_1").size());
            assertTrue(typed.contains("a.txt:10 (worktree) [question] id n1"), typed);
            assertTrue(typed.contains("   > ten"), typed);
            assertTrue(typed.contains("   rename this\n   please"), typed);
            JsonNode after = byId(h).get("n1");
            assertEquals("1", after.at("/sent/0/pane").asText());
            assertEquals("claude", after.at("/sent/0/agent").asText());

            h.agentOf.remove("1");
            int before = h.typed.get("term_1").size();
            assertEquals("not_agent", h.reject(ErrorCode.INVALID_REQUEST, "diff.note.send", "{\"to\":\"1\",\"ids\":[\"n1\"]}")
                    .details().get("reason"));
            h.agentOf.put("1", "claude");
            h.exited.add("1");
            h.reject(ErrorCode.NOT_FOUND, "diff.note.send", "{\"to\":\"1\",\"ids\":[\"n1\"]}");
            h.exited.clear();
            h.reject(ErrorCode.NOT_FOUND, "diff.note.send", "{\"to\":\"1\",\"ids\":[\"n9\"]}");
            h.reject(ErrorCode.INVALID_REQUEST, "diff.note.send", "{\"to\":\"1\",\"ids\":[\"n1\"],\"all_open\":true}");
            assertEquals(before, h.typed.get("term_1").size(), "nothing typed by a refusal");
            assertEquals(1, byId(h).get("n1").get("sent").size(), "no delivery recorded by a refusal");
        }
    }

    @Test
    void aMessageOverTheCapIsRefusedWhole() throws Exception {
        GitRepo r = repo();
        try (Harness h = new Harness(home)) {
            h.workspace(r.dir);
            h.agentOf.put("1", "claude");
            for (int i = 0; i < 3; i++) {
                h.call("diff.note.add", "{\"file\":\"a.txt\",\"new_line\":10,\"body\":\"" + "y".repeat(8000) + "\"}");
            }
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "diff.note.send", "{\"to\":\"1\",\"all_open\":true}");
            assertEquals("message_too_large", e.details().get("reason"));
            assertTrue(h.typed.isEmpty());
            assertEquals(0, byId(h).get("n1").get("sent").size());
        }
    }
}
