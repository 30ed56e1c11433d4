package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The workspace family's rules ({@link WorkspaceOps}) and opening a workspace: every operation, every rejection. */
class WorkspaceOpsTest extends TopologyFixture {
    static Map<String, Object> entries(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    void fiveWorkspaces() throws IOException {
        s = Topology.empty();
        for (String n : List.of("a", "b", "c", "d", "e")) {
            apply(ops.lifecycle().openWorkspace(s, dir, n, sp));
        }
        apply(ops.workspaces().focus(s, s.workspaces().get(2).id()));
    }

    @Test
    void openCreatesWorkspaceTabAndPaneWithEvents() throws IOException {
        s = Topology.empty();
        Change<String> c = ops.lifecycle().openWorkspace(s, dir, null, sp);
        apply(c);
        assertTrue(c.result().matches("workspace_[0-9a-f]{16}"));
        assertEquals(c.result(), s.activeWorkspace());
        assertEquals(dir.getFileName().toString(), w0().name());
        assertTrue(tab(1).id().matches("tab_[0-9a-f]{16}"));
        assertEquals(TabKind.PANES, tab(1).kind());
        assertEquals(Optional.of("1"), s.focusedPane());
        assertEquals(List.of("workspace.created", "tab.created", "pane.created"),
                c.events().stream().map(TopologyEvent::name).toList());
        assertEquals("term_1", c.events().get(2).data().get("terminal_id"));
        assertEquals(2, s.nextPane());
        assertEquals(1, s.version());
    }

    @Test
    void openRejectionsChangeNothing() throws IOException {
        open();
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openWorkspace(t, dir.resolve("missing"), null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openWorkspace(t, Path.of("relative"), null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openWorkspace(t, dir, "  ", sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openWorkspace(t, dir, "x".repeat(41), sp)));
        Topology before = s;
        assertThrows(IOException.class, () -> ops.lifecycle().openWorkspace(before, dir, "ok", FAIL));
        assertEquals(before, s);
    }

    @Test
    void renameTrimsRejectsEmptyAndLongAndNeverTouchesDisk() throws IOException {
        open();
        Workspace r = apply(ops.workspaces().rename(s, ws0(), "  api  "));
        assertEquals("api", r.name());
        assertEquals(dir, w0().cwd());
        assertTrue(dir.toFile().isDirectory());
        apply(ops.workspaces().rename(s, ws0(), "é".repeat(40)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "   "));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "x".repeat(41)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\nb"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\u2028b"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), "a\u2029b"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, ws0(), null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().rename(t, workspaceAt(t, "workspace_x").workspaceId(),
                "a"));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().rename(t, "workspace_ffffffffffffffff", "a"));
        refused(ErrorCode.NOT_FOUND, t -> workspaceAt(t, 1));
        refused(ErrorCode.NOT_FOUND, t -> workspaceAt(t, -1));
    }

    @Test
    void worktreeGroupsShowTogetherAndAPinFloatsTheWholeGroup() throws IOException {
        fiveWorkspaces(); // a b c d e
        List<String> ids = s.workspaces().stream().map(Workspace::id).toList();
        // a, c and e are worktrees of one repository; b and d are not
        for (int i : new int[] {0, 2, 4}) {
            apply(ops.workspaces().reportMetadata(s, ids.get(i), entries("worktree_group", "/r/.git"), false));
        }
        // the group sits where its first member is, members in API order: a c e b d
        assertEquals(List.of(0, 3, 1, 4, 2), WorkspaceOps.displayPositions(s));
        // pinning d floats d alone; pinning the linked worktree e floats a, c and e together
        apply(ops.workspaces().pin(s, ids.get(3), true));
        assertEquals(List.of(1, 4, 2, 0, 3), WorkspaceOps.displayPositions(s));
        apply(ops.workspaces().pin(s, ids.get(4), true));
        assertEquals(List.of(0, 4, 1, 3, 2), WorkspaceOps.displayPositions(s));
        assertEquals(ids, s.workspaces().stream().map(Workspace::id).toList(), "API order unchanged");
    }

    @Test
    void pinChangesDisplayOrderOnlyAndFocusSwitches() throws IOException {
        open();
        String a = ws0();
        String b = apply(ops.lifecycle().openWorkspace(s, dir, "b", sp));
        assertEquals(b, s.activeWorkspace());
        apply(ops.workspaces().pin(s, b, true));
        assertEquals(List.of(a, b), s.workspaces().stream().map(Workspace::id).toList(), "API order unchanged");
        assertEquals(List.of(1, 0), WorkspaceOps.displayPositions(s));
        assertEquals(b, s.activeWorkspace(), "pinning does not steal focus");
        apply(ops.workspaces().focus(s, a));
        assertEquals(a, s.activeWorkspace());
        assertEquals(Optional.of("1"), s.focusedPane());
        Topology before = s;
        assertSame(before, ops.workspaces().focus(s, a).state(), "focusing the active workspace is no change");
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().pin(t, "workspace_0000000000000abc", true));
    }

    @Test
    void reportMetadataMergesRemovesReplacesAndSurvivesOtherChanges() throws IOException {
        open();
        Change<Workspace> c = ops.workspaces().reportMetadata(s, ws0(), entries("branch", "main", "dirty", true, "port", 3000L), false);
        apply(c);
        assertEquals(Map.of("branch", "main", "dirty", true, "port", 3000L), w0().metadata());
        assertEquals(List.of("branch", "dirty", "port"), List.copyOf(w0().metadata().keySet()), "sorted by key");
        assertEquals(1, c.events().size());
        assertEquals("workspace.metadata_changed", c.events().get(0).name());
        assertEquals(w0().metadata(), c.events().get(0).data().get("metadata"));

        apply(ops.workspaces().reportMetadata(s, ws0(), entries("branch", "feature/x", "dirty", null, "gone", null), false));
        assertEquals(Map.of("branch", "feature/x", "port", 3000L), w0().metadata(), "null removes; merge keeps the rest");

        Topology before = s;
        Change<Workspace> same = ops.workspaces().reportMetadata(s, ws0(), entries("branch", "feature/x"), false);
        assertSame(before, same.state(), "a report that changes nothing is no change");
        assertTrue(same.events().isEmpty());

        apply(ops.workspaces().rename(s, ws0(), "api"));
        apply(ops.workspaces().pin(s, ws0(), true));
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        assertEquals(Map.of("branch", "feature/x", "port", 3000L), w0().metadata(), "rename, pin, new tab keep it");

        apply(ops.workspaces().reportMetadata(s, ws0(), entries("ports", "3000,5173"), true));
        assertEquals(Map.of("ports", "3000,5173"), w0().metadata(), "replace drops every key not given");
        apply(ops.workspaces().reportMetadata(s, ws0(), Map.of(), true));
        assertEquals(Map.of(), w0().metadata());
    }

    @Test
    void reportMetadataRejectionsChangeNothing() throws IOException {
        open();
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("branch", "main"), false));
        for (String bad : new String[] {"", "Branch", "1st", "a b", "x".repeat(33), "é", "a/b"}) {
            refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("ok", "1", bad, "v"), false));
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "line\nbreak"), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "esc\u001b[31m"), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "line\u2028sep"), false));
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("a", "é".repeat(Topology.MAX_METADATA_VALUE)), false));
        refused(ErrorCode.INVALID_REQUEST,
                t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", "x".repeat(Topology.MAX_METADATA_VALUE + 1)), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("a", 1.5), false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), null, false));
        Map<String, Object> full = new java.util.TreeMap<>();
        for (int i = 0; i < Topology.MAX_METADATA - 2; i++) {
            full.put("k" + i, (long) i);
        }
        apply(ops.workspaces().reportMetadata(s, ws0(), full, false)); // 30 new + branch + a = 32
        assertEquals(Topology.MAX_METADATA, w0().metadata().size());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), entries("one_more", true), false));
        apply(ops.workspaces().reportMetadata(s, ws0(), entries("one_more", true, "a", null), false)); // one in, one out: allowed
        Map<String, Object> huge = new java.util.TreeMap<>();
        for (int i = 0; i <= 2 * Topology.MAX_METADATA; i++) {
            huge.put("r" + i, null);
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, ws0(), huge, false));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().reportMetadata(t, workspaceAt(t, "workspace_x").workspaceId(),
                entries("a", "b"), false));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().reportMetadata(t, "workspace_ffffffffffffffff", entries("a", "b"), false));
    }

    @Test
    void moveBlockKeepsOrderAndActive() throws IOException {
        fiveWorkspaces();
        apply(ops.workspaces().moveBlock(s, List.of(3, 0), 0));
        assertEquals(List.of("d", "a", "b", "c", "e"), names());
        assertEquals("c", s.active().orElseThrow().name());
        apply(ops.workspaces().moveBlock(s, List.of(0, 1), 3));
        assertEquals(List.of("b", "c", "e", "d", "a"), names());
        apply(ops.workspaces().move(s, 4, 0));
        assertEquals(List.of("a", "b", "c", "e", "d"), names());
        assertEquals("c", s.active().orElseThrow().name());
    }

    @Test
    void moveBlockValidatesEveryIndexFirst() throws IOException {
        fiveWorkspaces();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(), 0));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(1, 1), 0));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().moveBlock(t, List.of(0, 5), 0));
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().moveBlock(t, List.of(-1), 0));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(0, 1), 4));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, List.of(0), -1));
        List<Integer> huge = new ArrayList<>();
        for (int i = 0; i < 257; i++) {
            huge.add(i);
        }
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, huge, 0));
        List<Integer> withNull = new ArrayList<>();
        withNull.add(null);
        refused(ErrorCode.INVALID_REQUEST, t -> ops.workspaces().moveBlock(t, withNull, 0));
    }

    @Test
    void closeWorkspaceRemovesItsPanesAndMovesActivity() throws IOException {
        fiveWorkspaces();
        String c = s.workspaces().get(2).id();
        Change<List<String>> ch = ops.workspaces().close(s, c);
        apply(ch);
        assertEquals(List.of("3"), ch.result());
        assertFalse(s.panes().containsKey("3"));
        assertEquals("d", s.active().orElseThrow().name());
        assertEquals(List.of("tab.closed", "workspace.closed"), ch.events().stream().map(TopologyEvent::name).toList());
        refused(ErrorCode.NOT_FOUND, t -> ops.workspaces().close(t, c));
    }
}
