package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workbench's FILES dock rows and Git dashboard lines, from fixtures in the files, diff and git result shapes. */
class ReviewViewsTest {
    static JsonNode fixture(String name) throws IOException {
        return DiffViewTest.fixture(name);
    }

    @Test
    void filesDockRowsShowTheTreeWithChangeMarks() throws IOException {
        List<FilesDock.Entry> rows = FilesDock.entries(fixture("tree.json"));
        Map<String, String> marks = FilesDock.marks(fixture("list.json"));
        assertEquals("M", marks.get("src/app.rs"), "the worktree copy's mark wins over the staged one's");
        assertEquals("•", marks.get("src"), "a folder holding a change");
        assertEquals("•", marks.get("notes"));
        assertEquals("?", marks.get("notes/todo.md"));
        assertEquals(7, rows.size());
        FilesDock d = new FilesDock(null);
        d.rows = rows;
        d.marks = marks;
        ModuleUi.Dock dock = d.dock(100, true);
        assertEquals("FILES (Esc: back to the pane)", dock.heading());
        List<String> text = dock.rows().stream().map(ModuleUi.Row::text).toList();
        assertEquals(List.of("▸ notes/ •", "▾ src/ •", "    app.rs M", "    cli.rs M", "    lib.rs", "  Cargo.toml",
                "  logo.png M"), text);
        // a window of 3 rows keeps the cursor in sight
        d.cursor = 6;
        assertEquals(List.of("    lib.rs", "  Cargo.toml", "  logo.png M"),
                d.dock(3, false).rows().stream().map(ModuleUi.Row::text).toList());
        assertEquals("FILES", d.dock(3, false).heading());
        // a staged-only file is S
        JsonNode staged = JsonUhp.JSON.readTree("{\"files\":[{\"path\":\"a/b.txt\",\"layer\":\"staged\",\"status\":\"modified\"}]}");
        assertEquals("S", FilesDock.marks(staged).get("a/b.txt"));
        assertEquals("•", FilesDock.marks(staged).get("a"));
    }

    @Test
    void gitDashboardShowsStatusBranchesLogAndTheRunningOperation() throws IOException {
        JsonNode op = JsonUhp.JSON.readTree("{\"op\":\"op-3\",\"kind\":\"commit\",\"root\":\"/src/app\",\"state\":\"running\"}");
        List<GitDashboard.Line> lines = GitDashboard.lines(fixture("git-status.json"), fixture("git-branches.json"),
                fixture("git-log.json"), op, null);
        List<String> text = lines.stream().map(GitDashboard.Line::text).toList();
        assertEquals("GIT  /src/app", text.get(0));
        assertEquals("on main → origin/main  ↑2 ↓1   state: merge   dirty", text.get(1));
        assertEquals("bad", lines.get(1).role(), "a merge in progress is not shown as clean");
        assertEquals("staged 0   unstaged 0   untracked 0   conflicted 1", text.get(2));
        assertEquals("operation op-3 commit: running", text.get(3));
        assertTrue(text.contains("BRANCHES  2 local, 1 remote"), text.toString());
        assertTrue(text.contains("* main  b05293f Fix the parser   origin/main ↑2 ↓1"), text.toString());
        assertTrue(text.contains("  feature  e8cdd41 Start the feature"), text.toString());
        assertTrue(text.contains("b05293f  Fix the parser  — Ada Lovelace"), text.toString());
        assertTrue(text.contains("  … more: artu git log --skip 1"));

        Canvas c = new Canvas(80, 20);
        GitDashboard.draw(c, new Layout.Rect(0, 1, 80, 18), Theme.TERMINAL, lines);
        assertTrue(DiffViewTest.row(c, 1).startsWith(" GIT  /src/app"));

        List<String> before = GitDashboard.lines(null, null, null, null, null).stream().map(GitDashboard.Line::text).toList();
        assertEquals(List.of("GIT", "reading the repository…"), before);
        List<String> none = GitDashboard.lines(null, null, null, null, "this server has no git family (unknown_method)")
                .stream().map(GitDashboard.Line::text).toList();
        assertEquals("this server has no git family (unknown_method)", none.get(1));
        JsonNode detached = JsonUhp.JSON.readTree("{\"root\":\"/r\",\"branch\":null,\"detached\":true,\"head\":\"0123456789abcdef\","
                + "\"upstream\":null,\"state\":\"rebase\",\"dirty\":false,\"counts\":{}}");
        assertEquals("detached at 0123456  (no upstream)   state: rebase",
                GitDashboard.lines(detached, null, null, null, null).get(1).text());
    }

    @Test
    void aGitTabIsADashboardInTheModel() throws IOException {
        JsonNode snap = JsonUhp.JSON.readTree("{\"sequence\":3,\"active_workspace\":\"w\",\"workspaces\":[{\"workspace_id\":\"w\","
                + "\"workspace\":0,\"tabs\":[{\"tab_id\":\"t1\",\"tab\":1,\"kind\":\"panes\",\"panes\":[]},"
                + "{\"tab_id\":\"t2\",\"tab\":2,\"kind\":\"git\",\"panes\":[]}]}]}");
        Model m = Model.parse(snap);
        assertEquals(false, m.active().tabs().get(0).git());
        assertEquals(true, m.active().tabs().get(1).git());
        assertEquals("git", m.active().tabs().get(1).label());
    }
}
