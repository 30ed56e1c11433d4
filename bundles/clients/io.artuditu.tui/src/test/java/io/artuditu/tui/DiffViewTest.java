package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.tui.DiffData.FileDiff;
import io.artuditu.tui.DiffData.Note;
import io.artuditu.tui.DiffModel.Kind;
import io.artuditu.tui.DiffModel.Row;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DIFF view's model, drawing and patches, from JSON fixtures in the diff family's result
 * shapes ({@code src/test/resources/diff}: a {@code diff.list}, a {@code diff.get} of
 * {@code app.rs.old} → {@code app.rs.new} as git diffs them, its notes).
 */
class DiffViewTest {
    static JsonNode fixture(String name) throws IOException {
        try (InputStream in = DiffViewTest.class.getResourceAsStream("/diff/" + name)) {
            return JsonUhp.JSON.readTree(in);
        }
    }

    static String text(String name) throws IOException {
        try (InputStream in = DiffViewTest.class.getResourceAsStream("/diff/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The model on src/app.rs (worktree layer) with its diff and notes, {@code width} columns wide. */
    static DiffModel loaded(int width) throws IOException {
        DiffModel m = new DiffModel();
        m.width = width;
        assertTrue(m.setFiles(DiffData.files(fixture("list.json")), "src/app.rs", "worktree"));
        m.setDiff(FileDiff.parse(fixture("get-app.json")), DiffData.notes(fixture("notes-app.json")));
        return m;
    }

    static List<Row> lines(DiffModel m) {
        return m.rows.stream().filter(r -> r.kind() == Kind.LINE).toList();
    }

    /** The row index showing {@code side} line {@code n}. */
    static int rowOf(DiffModel m, String side, int n) {
        for (int i = 0; i < m.rows.size(); i++) {
            Integer at = m.rows.get(i).number(side, m.split());
            if (at != null && at == n) {
                return i;
            }
        }
        throw new AssertionError(side + " " + n + " not shown");
    }

    @Test
    void theListKeepsLayersApartAndCountsWhatTheServerSent() throws IOException {
        DiffModel m = loaded(100);
        assertEquals(5, m.files.size());
        assertEquals(1, m.selected, "the worktree copy of src/app.rs, not the staged one");
        assertEquals("M src/app.rs +3 -3 ✎2", m.file().label());
        assertEquals("M src/cli.rs ✎1", m.files.get(2).label(), "counts not loaded yet are left out, not drawn as 0");
        assertEquals("M logo.png bin", m.files.get(3).label());
        assertEquals("? notes/todo.md +4 -0", m.files.get(4).label());
        assertEquals(3, m.unresolvedNotes());
    }

    @Test
    void stackedRowsHoldEverySourceLineOnceWithNotesUnderTheirLines() throws IOException {
        DiffModel m = loaded(100);
        assertFalse(m.split(), "auto under 120 columns is stacked");
        int sourceLines = 0;
        for (DiffData.Hunk h : m.diff.hunks()) {
            sourceLines += h.lines().size();
        }
        assertEquals(sourceLines, lines(m).size());
        assertEquals(3, m.rows.stream().filter(r -> r.kind() == Kind.HUNK).count());
        // n3's lines are not in this diff: listed first, under a heading
        assertEquals(Kind.INFO, m.rows.get(0).kind());
        assertEquals("n3", m.rows.get(1).note().id());
        // n1 under new line 3, n2 (two body lines) under old line 20
        int n1 = rowOf(m, "new", 3) + 1;
        assertEquals("n1", m.rows.get(n1).note().id());
        assertTrue(m.rows.get(n1).text().startsWith("✎ n1 question [open] L3: Why multiply"), m.rows.get(n1).text());
        int n2 = rowOf(m, "old", 20) + 1;
        assertEquals("n2", m.rows.get(n2).note().id());
        assertTrue(m.rows.get(n2).text().contains("issue [open] sent old L20: i32 was right"), m.rows.get(n2).text());
        assertEquals("  see the caller", m.rows.get(n2 + 1).text());
        assertEquals("h1", m.diff.hunks().get(m.rows.get(m.cursor).hunk()).id(), "the cursor starts on the first line");
    }

    @Test
    void splitPairsEachDeletionWithTheAdditionAfterItAndMarksTheChangedWords() throws IOException {
        DiffModel stacked = loaded(119);
        DiffModel split = loaded(120);
        assertFalse(stacked.split());
        assertTrue(split.split(), "auto from 120 columns is split");
        // two deletion/addition pairs become one row each
        assertEquals(lines(stacked).size() - 2, lines(split).size());
        Row pair = split.rows.get(rowOf(split, "new", 3));
        assertEquals(3, pair.left().oldLine());
        assertEquals(3, pair.right().newLine());
        String old = pair.left().text();
        String neu = pair.right().text();
        assertEquals("    let total = alpha + beta;", old);
        assertTrue(pair.marks().marked(true, old.indexOf('+')), "the replaced operator is marked");
        assertFalse(pair.marks().marked(true, old.indexOf("alpha")), "a word both sides keep is not");
        assertTrue(pair.marks().marked(false, neu.indexOf('*')));
        assertTrue(pair.marks().marked(false, neu.indexOf("gamma")));
        assertFalse(pair.marks().marked(false, neu.indexOf("total")));
        // the lone addition has no partner and no marks
        Row lone = split.rows.get(rowOf(split, "new", 5));
        assertNull(lone.left());
        assertTrue(lone.marks().old().isEmpty() && lone.marks().neu().isEmpty());
        // stacked rows carry the same marks
        Row del = stacked.rows.get(rowOf(stacked, "old", 20));
        assertTrue(del.line().delete());
        assertTrue(del.marks().marked(true, del.line().text().indexOf("i32")));
        assertFalse(del.marks().marked(true, del.line().text().indexOf("check")));
        // forced views win over the width
        split.setView("stack");
        assertFalse(split.split());
        stacked.setView("split");
        assertTrue(stacked.split());
    }

    @Test
    void wordDiffIsBounded() {
        String a = "x ".repeat(WordDiff.MAX_TOKENS);
        String b = "y ".repeat(WordDiff.MAX_TOKENS);
        assertEquals(WordDiff.Marks.NONE, WordDiff.of(a, b), "too many tokens: no marks, the line colour says it");
        WordDiff.Marks m = WordDiff.of("foo(bar)", "foo(baz)");
        assertEquals(List.of("bar"), m.old().stream().map(r -> "foo(bar)".substring(r[0], r[1])).toList());
        assertEquals(WordDiff.Marks.NONE, WordDiff.of("same", "same"));
    }

    @Test
    void everyNavigateActionMovesTheCursorAsTheReferenceSays() throws IOException {
        DiffModel m = loaded(100);
        int first = m.firstLine();
        assertEquals(first, m.cursor);
        m.step("next");
        assertEquals(rowOf(m, "new", 2), m.cursor);
        m.step("next_line");
        m.step("previous");
        m.step("previous_line");
        assertEquals(first, m.cursor);
        m.step("previous_line");
        assertEquals(first, m.cursor, "the first line stays put");
        m.step("next_hunk");
        assertEquals(rowOf(m, "old", 17), m.cursor, "the first line of h2");
        m.step("next_hunk");
        assertEquals(rowOf(m, "old", 25), m.cursor);
        m.step("next_hunk");
        assertEquals(rowOf(m, "old", 25), m.cursor, "no hunk after the last");
        m.step("next_line");
        m.step("previous_hunk");
        assertEquals(rowOf(m, "old", 25), m.cursor, "back to the start of this hunk first");
        m.step("previous_hunk");
        assertEquals(rowOf(m, "old", 17), m.cursor);
        m.step("bottom");
        assertEquals(m.lastLine(), m.cursor);
        assertEquals(30, m.rows.get(m.cursor).line().oldLine());
        m.step("next_line");
        assertEquals(m.lastLine(), m.cursor);
        m.step("top");
        assertEquals(first, m.cursor);
        m.step("next_note");
        assertEquals(rowOf(m, "new", 3), m.cursor);
        m.step("next_note");
        assertEquals(rowOf(m, "old", 20), m.cursor);
        m.step("previous_note");
        assertEquals(rowOf(m, "new", 3), m.cursor);
        // past the last note of this file: the next file that has open notes, to its first note
        m.step("next_note");
        assertEquals(DiffModel.Effect.LOAD_FILE, m.step("next_note"));
        assertEquals("src/cli.rs", m.file().path());
        assertEquals(DiffModel.Land.FIRST_NOTE, m.land);
        assertEquals(DiffModel.Effect.LOAD_FILE, m.step("previous_file"));
        assertEquals(1, m.selected);
        assertEquals(DiffModel.Effect.LOAD_FILE, m.step("next_file"));
        assertEquals(2, m.selected);
        m.step("next_file");
        m.step("next_file");
        assertEquals(DiffModel.Effect.NONE, m.step("next_file"), "the last file stays selected");
        assertEquals(DiffModel.Effect.UNKNOWN, m.step("sideways"));
    }

    @Test
    void aNewDiffOrAWidthChangeKeepsTheCursorOnItsSourceLine() throws IOException {
        DiffModel m = loaded(100);
        m.cursor = rowOf(m, "new", 21);
        m.setWidth(150);
        assertTrue(m.split());
        assertEquals(21, m.rows.get(m.cursor).number("new", true));
        m.setDiff(FileDiff.parse(fixture("get-app.json")), List.of());
        assertEquals(21, m.rows.get(m.cursor).number("new", true), "a reload (diff.changed) keeps the place");
        assertTrue(m.rows.stream().noneMatch(r -> r.kind() == Kind.NOTE));
    }

    @Test
    void aNoteAnchorsToTheCursorsSideOrTheSelectionsLinesOnIt() throws IOException {
        DiffModel m = loaded(100);
        m.cursor = rowOf(m, "old", 20);
        assertEquals(new DiffModel.Anchor("old", 20, 20), m.anchor(), "stacked: a deletion anchors to the old side");
        m.cursor = rowOf(m, "new", 5);
        m.mark = rowOf(m, "old", 3);
        assertEquals(new DiffModel.Anchor("new", 3, 5), m.anchor(), "the selection's new lines, the deleted one has none");
        m.mark = -1;
        DiffModel s = loaded(140);
        s.cursor = rowOf(s, "old", 20);
        s.side = "old";
        assertEquals(new DiffModel.Anchor("old", 20, 20), s.anchor(), "split: the column under the cursor");
        s.cursor = rowOf(s, "new", 5);
        assertNull(s.anchor(), "a lone addition has no old line");
        s.side = "new";
        assertEquals(new DiffModel.Anchor("new", 5, 5), s.anchor());
    }

    @Test
    void resolveFindsTheNoteUnderTheCursor() throws IOException {
        DiffModel m = loaded(100);
        m.cursor = rowOf(m, "new", 3);
        assertEquals("n1", m.noteAtCursor().id());
        m.cursor = rowOf(m, "old", 20);
        assertEquals("n2", m.noteAtCursor().id());
        m.cursor = rowOf(m, "new", 2);
        assertNull(m.noteAtCursor());
        assertEquals("h1", m.hunkAtCursor().id());
    }

    @Test
    void notesOfTheOtherLayerAreNotDrawn() throws IOException {
        List<Note> notes = DiffData.notes(fixture("notes-app.json"));
        assertEquals(3, DiffView.forLayer(notes, "worktree").size());
        assertEquals(0, DiffView.forLayer(notes, "staged").size());
    }

    @Test
    void theKeysCoverEveryNavigateAction() {
        Set<String> got = new HashSet<>();
        for (String k : List.of("j", "k", "J", "K", "]", "[", "n", "N", "m", "M", "g", "G")) {
            got.add(DiffView.command(Input.Key.ch(k)));
        }
        for (String n : List.of("down", "up", "tab", "back_tab", "home", "end")) {
            got.add(DiffView.command(Input.Key.named(n)));
        }
        for (String a : DiffModel.ACTIONS) {
            if (!a.equals("next") && !a.equals("previous")) {
                assertTrue(got.contains(a), a + " has a key");
            }
        }
        assertEquals("add_note", DiffView.command(Input.Key.ch("a")));
        assertEquals("resolve", DiffView.command(Input.Key.ch("r")));
        assertEquals("stage", DiffView.command(Input.Key.ch("s")));
        assertEquals("send", DiffView.command(Input.Key.ch("S")));
        assertEquals("quit", DiffView.command(Input.Key.ch("q")));
    }

    @Test
    void navigateEventsAreFollowedForThisPaneOnly() throws IOException {
        DiffView v = new DiffView(null, "7", null, null, "auto");
        assertNotNull(v.onEvent("diff.view.navigate", JsonUhp.JSON.readTree("{\"pane\":\"7\",\"action\":\"next_hunk\"}")));
        assertNull(v.onEvent("diff.view.navigate", JsonUhp.JSON.readTree("{\"pane\":\"8\",\"action\":\"next_hunk\"}")));
        assertNull(v.onEvent("diff.view.navigate", JsonUhp.JSON.readTree("{\"pane\":\"7\",\"action\":\"rm -rf\"}")));
        assertNull(v.onEvent("pane.created", JsonUhp.JSON.readTree("{}")));
        v.model.width = 100;
        v.model.setFiles(DiffData.files(fixture("list.json")), "src/app.rs", "worktree");
        v.model.setDiff(FileDiff.parse(fixture("get-app.json")), List.of());
        v.onEvent("diff.view.navigate", JsonUhp.JSON.readTree("{\"pane\":\"7\",\"action\":\"bottom\"}")).run();
        assertEquals(v.model.lastLine(), v.model.cursor);
        assertEquals(List.of("diff.changed", "diff.note.changed", "diff.view.navigate"),
                JsonUhp.JSON.convertValue(DiffView.eventsParams().get("events"), List.class));
    }

    @Test
    void aMissingMethodIsOneClearLine() {
        assertEquals("diff.list is not served by this server (unknown_method): its family is not installed yet",
                DiffView.failureLine("diff.list", new JsonUhp.Failure("unknown_method", "unknown method diff.list")));
        assertEquals("git.stage: invalid_request: patch does not apply",
                DiffView.failureLine("git.stage", new JsonUhp.Failure("invalid_request", "patch does not apply")));
    }

    @Test
    void sendGoesToTheAgentsOfThisWorkspaceOnly() throws IOException {
        JsonNode list = JsonUhp.JSON.readTree("{\"type\":\"agents\",\"agents\":["
                + "{\"pane\":\"3\",\"agent\":\"claude\",\"name\":\"fixer\",\"status\":\"idle\",\"workspace_id\":\"w1\"},"
                + "{\"pane\":\"5\",\"agent\":\"codex\",\"name\":null,\"status\":\"working\",\"workspace_id\":\"w2\"},"
                + "{\"pane\":\"6\",\"agent\":\"claude\",\"name\":null,\"status\":\"exited\",\"workspace_id\":\"w1\"}]}");
        List<JsonNode> mine = DiffView.agentsOf(list, "w1", "7");
        assertEquals(1, mine.size());
        assertEquals("fixer (pane 3, idle)", DiffView.agentLabel(mine.get(0)));
        assertEquals(2, DiffView.agentsOf(list, null, "7").size(), "outside a pane: every live agent");
    }

    @Test
    void thePictureShowsTheListTheDiffAndTheNotes() throws IOException {
        DiffModel m = loaded(100);
        Canvas c = new Canvas(100, 40);
        new DiffRender().paint(c, m, "ready", null, 0);
        String all = screen(c);
        assertTrue(row(c, 0).contains("DIFF  src/app.rs  [worktree]  +3 -3"), row(c, 0));
        assertTrue(row(c, 0).contains("stack (auto)"));
        assertTrue(all.contains("STAGED"), all);
        assertTrue(all.contains("WORKTREE"));
        assertTrue(all.contains("UNTRACKED"));
        assertTrue(all.contains("M src/app.rs +3 -3 ✎2"));
        assertTrue(all.contains("✎ n1 question [open] L3: Why multiply here?"), all);
        assertTrue(all.contains("@@ -17,7 +18,7 @@ line 16"));
        assertTrue(all.contains("   3       -    let total = alpha + beta;"), all);
        assertTrue(row(c, 39).startsWith("ready"));

        DiffModel s = loaded(160);
        Canvas w = new Canvas(160, 40);
        new DiffRender().paint(w, s, null, null, 0);
        String split = screen(w);
        assertTrue(split.contains("-    let total = alpha + beta;"), split);
        int r = -1;
        for (int y = 0; y < 40; y++) {
            if (row(w, y).contains("alpha + beta") && row(w, y).contains("alpha * beta + gamma")) {
                r = y;
            }
        }
        assertNotEquals(-1, r, "old and new on one row:\n" + split);
        int plus = row(w, r).indexOf("alpha + beta") + "alpha ".length();
        assertTrue(io.artuditu.vt.Style.has(w.st[r * 160 + plus], io.artuditu.vt.Style.REVERSE),
                "the changed word is marked: " + row(w, r) + " @" + plus + " " + Long.toHexString(w.st[r * 160 + plus]));

        // a narrow pane has no list, and says what loads
        DiffModel empty = new DiffModel();
        assertEquals("reading the changes…", empty.rows.get(0).text(), "before the first diff.list answers");
        empty.setFiles(List.of(), null, null);
        Canvas n = new Canvas(50, 5);
        new DiffRender().paint(n, empty, "diff.list is not served by this server (unknown_method)", null, 0);
        assertTrue(screen(n).contains("no changes"));
        assertTrue(row(n, 4).startsWith("diff.list is not served"));
    }

    static String row(Canvas c, int y) {
        StringBuilder b = new StringBuilder();
        for (int x = 0; x < c.cols; x++) {
            b.append(c.ch[y * c.cols + x]);
        }
        return b.toString();
    }

    static String screen(Canvas c) {
        StringBuilder b = new StringBuilder();
        for (int y = 0; y < c.rows; y++) {
            b.append(row(c, y)).append('\n');
        }
        return b.toString();
    }

    // ---- the hunk patch against the real git ----

    static String git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.email=t@example.org", "-c", "user.name=t"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        if (p.exitValue() != 0) {
            throw new IOException("git " + String.join(" ", args) + ": " + out);
        }
        return out;
    }

    static int gitStatus(Path dir, Path stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(stdin.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return p.exitValue();
    }

    /** A repository whose index holds app.rs.old at src/app.rs and whose working tree holds app.rs.new. */
    static Path repo(Path dir) throws IOException, InterruptedException {
        git(dir, "init", "-q");
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(dir.resolve("src/app.rs"), text("app.rs.old"));
        git(dir, "add", "src/app.rs");
        git(dir, "commit", "-q", "-m", "base");
        Files.writeString(dir.resolve("src/app.rs"), text("app.rs.new"));
        return dir;
    }

    @Test
    void eachHunkAloneIsAPatchGitAppliesToTheIndex(@TempDir Path tmp) throws Exception {
        Path dir = repo(tmp);
        FileDiff d = FileDiff.parse(fixture("get-app.json"));
        for (DiffData.Hunk h : d.hunks()) {
            Path patch = tmp.resolve(h.id() + ".patch");
            Files.writeString(patch, HunkPatch.of("src/app.rs", null, "modified", h));
            assertEquals(0, gitStatus(dir, patch, "apply", "--cached", "--check"), h.id() + ":\n" + Files.readString(patch));
        }
        // stage h2 alone: the index now differs from HEAD by exactly that hunk
        Path h2 = tmp.resolve("h2.patch");
        assertEquals(0, gitStatus(dir, h2, "apply", "--cached"));
        String cached = git(dir, "diff", "--cached", "-U3");
        assertTrue(cached.contains("-fn check(x: i32) -> bool { x > 0 }\n+fn check(x: i64) -> bool { x >= 0 }\n"), cached);
        assertEquals(1, cached.split("\n@@ ", -1).length - 1, "one hunk:\n" + cached);
        assertFalse(cached.contains("gamma"));
        assertFalse(cached.contains("-line 28"));
        // the same patch again is stale: refused, the index unchanged
        assertNotEquals(0, gitStatus(dir, h2, "apply", "--cached", "--check"));
        // h3 (a pure deletion) and h1 (an insertion shifts it) still apply after h2 moved nothing before them
        assertEquals(0, gitStatus(dir, tmp.resolve("h3.patch"), "apply", "--cached"));
        assertEquals(0, gitStatus(dir, tmp.resolve("h1.patch"), "apply", "--cached"));
        assertEquals("", git(dir, "diff"), "every hunk staged: the working tree equals the index");
    }

    @Test
    void theHunkHeaderIsRecountedForItsLinesAlone() throws IOException {
        FileDiff d = FileDiff.parse(fixture("get-app.json"));
        String p = HunkPatch.of("src/app.rs", null, "modified", d.hunks().get(1));
        assertTrue(p.startsWith("diff --git a/src/app.rs b/src/app.rs\n--- a/src/app.rs\n+++ b/src/app.rs\n@@ -17,7 +17,7 @@\n"), p);
        String del = HunkPatch.of("src/app.rs", null, "modified", d.hunks().get(2));
        assertTrue(del.contains("@@ -25,6 +25,5 @@\n"), del);
        assertEquals("\"a/we\\\"ird\\tname\"", HunkPatch.quote("a/we\"ird\tname"));
        assertTrue(HunkPatch.whole(d.hunks().get(0)));
        JsonNode cut = fixture("get-app.json").deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) cut.at("/hunks/0/lines/2")).put("cut", true);
        assertFalse(HunkPatch.whole(FileDiff.parse(cut).hunks().get(0)), "a line cut by the server makes no patch");
        assertEquals("a/with space", HunkPatch.quote("a/with space"));
    }

    @Test
    void aStagedHunkUnstagesWithTheSamePatchReversed(@TempDir Path tmp) throws Exception {
        Path dir = repo(tmp);
        git(dir, "add", "src/app.rs"); // everything staged: the staged layer shows the same hunks
        FileDiff d = FileDiff.parse(fixture("get-app.json"));
        Path patch = tmp.resolve("un.patch");
        Files.writeString(patch, HunkPatch.of("src/app.rs", null, "modified", d.hunks().get(0)));
        assertEquals(0, gitStatus(dir, patch, "apply", "--cached", "--reverse"));
        String cached = git(dir, "diff", "--cached");
        assertFalse(cached.contains("gamma"), cached);
        assertTrue(cached.contains("i64"));
    }
}
