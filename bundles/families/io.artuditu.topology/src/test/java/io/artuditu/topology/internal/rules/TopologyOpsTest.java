package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Pane;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the model runs itself ({@link TopologyOps}): adopting a running pane, a pane tab for {@code Workspaces.open}, and the limits they share with the families. */
class TopologyOpsTest extends TopologyFixture {
    /** Fills workspace 0 up to {@link Topology#MAX_TABS} with dashboard tabs (no panes). */
    void fillTabs() throws IOException {
        while (w0().tabs().size() < Topology.MAX_TABS) {
            apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        }
    }

    @Test
    void addPaneTabAdoptsAndCreatesTheWorkspace() {
        s = Topology.empty();
        Pane p = new Pane("7", "term_7", dir, List.of("sh"), null, null);
        Change<String> c = ops.lifecycle().addPaneTab(s, "workspace_00000000000000aa", "restored", dir, p, true);
        apply(c);
        assertEquals(List.of("workspace.created", "tab.created", "pane.created"),
                c.events().stream().map(TopologyEvent::name).toList());
        assertEquals(8, s.nextPane());
        assertEquals(Optional.of("7"), s.focusedPane());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.lifecycle().addPaneTab(t, "workspace_00000000000000aa", "r", dir, p, true));
    }

    @Test
    void addingAPaneTabToAFullWorkspaceIsRefusedLikeTabNew() throws IOException {
        s = Topology.empty();
        apply(ops.lifecycle().openWorkspace(s, dir, "w", sp));
        fillTabs();
        UhpException tabNew = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), TabKind.PANES, null, sp)));
        Pane p = new Pane("99", "term_99", dir, List.of("sh"), null, null);
        UhpException adopt = refused(ErrorCode.INVALID_REQUEST, t -> ops.lifecycle().addPaneTab(t, ws0(), null, dir, p, true));
        assertEquals(tabNew.details(), adopt.details());
        assertEquals(Map.of("field", "tab", "reason", "too_many"), adopt.details());
        assertEquals(Topology.MAX_TABS, w0().tabs().size());
    }

    @Test
    void workspacesOpenIntoAFullWorkspaceRefusesBeforeSpawning() throws IOException {
        s = Topology.empty();
        apply(ops.lifecycle().openWorkspace(s, dir, "w", sp));
        fillTabs();
        spawned.clear();
        Spawner mustNotRun = (id, ws, cwd) -> {
            throw new AssertionError("spawned although the workspace is full");
        };
        UhpException e = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openPaneTab(t, ws0(), dir, true, mustNotRun)));
        assertEquals(Map.of("field", "tab", "reason", "too_many"), e.details());
        // with room it adds a pane tab in the given folder, and focus makes it active
        apply(ops.tabs().close(s, tab(2).id()));
        Path sub = dir.resolve("sub");
        java.nio.file.Files.createDirectories(sub);
        String tabId = apply(ops.lifecycle().openPaneTab(s, ws0(), sub, false, sp));
        assertEquals(Topology.MAX_TABS, w0().tabs().size());
        assertEquals(sub, s.panes().get(spawned.get(0)).cwd());
        assertEquals(tab(Topology.MAX_TABS - 1).id(), w0().activeTab(), "no focus: the active tab stays");
        apply(ops.tabs().close(s, tab(3).id()));
        String focused = apply(ops.lifecycle().openPaneTab(s, ws0(), dir, true, sp));
        assertEquals(focused, w0().activeTab());
        assertFalse(focused.equals(tabId));
    }

    @Test
    void adoptingIntoANewWorkspacePastTheLimitIsRefusedLikeWorkspaceOpen() throws IOException {
        s = Topology.empty();
        while (s.workspaces().size() < Topology.MAX_WORKSPACES) {
            apply(ops.lifecycle().openWorkspace(s, dir, null, sp));
            // keep the workspace, free its pane: the workspace limit is what is tested
            Workspace last = s.workspaces().get(s.workspaces().size() - 1);
            apply(ops.tabs().close(s, last.tabs().get(0).id()));
        }
        UhpException open = refused(ErrorCode.INVALID_REQUEST, io(t -> ops.lifecycle().openWorkspace(t, dir, null, sp)));
        Pane p = new Pane("5000", "term_5000", dir, List.of("sh"), null, null);
        UhpException adopt = refused(ErrorCode.INVALID_REQUEST,
                t -> ops.lifecycle().addPaneTab(t, "workspace_ffffffffffffffff", "restored", dir, p, true));
        assertEquals(open.details(), adopt.details());
        assertEquals(Map.of("field", "workspace", "reason", "too_many"), adopt.details());
        // an existing workspace still takes it
        apply(ops.lifecycle().addPaneTab(s, ws0(), "restored", dir, p, false));
        assertEquals(Topology.MAX_WORKSPACES, s.workspaces().size());
    }

    @Test
    void everyWayOfCreatingAWorkspaceNamesItTheSame() throws IOException {
        Path longDir = dir.resolve("n".repeat(80));
        java.nio.file.Files.createDirectories(longDir);
        s = Topology.empty();
        String viaOpen = apply(ops.lifecycle().openWorkspace(s, longDir, null, sp));
        Pane p = new Pane("50", "term_50", longDir, List.of("sh"), null, null);
        apply(ops.lifecycle().addPaneTab(s, "workspace_00000000000000ee", null, longDir, p, false));
        String expected = "n".repeat(Topology.MAX_NAME);
        assertEquals(expected, s.workspace(viaOpen).orElseThrow().name());
        assertEquals(expected, s.workspace("workspace_00000000000000ee").orElseThrow().name());
        for (Workspace w : s.workspaces()) {
            apply(ops.workspaces().rename(s, w.id(), w.name())); // the same name is one rename accepts
        }
    }

    @Test
    void aFolderNameBecomesAValidWorkspaceName() {
        assertEquals("/", Lifecycle.folderName(Path.of("/")));
        assertEquals("api", Lifecycle.folderName(Path.of("/src/api")));
        assertEquals("a b", Lifecycle.folderName(Path.of("/x/a\nb")));
        assertEquals("x".repeat(39), Lifecycle.folderName(Path.of("/x/" + "x".repeat(39) + " tail")));
        String astral = "\uD83D\uDE00".repeat(50); // 50 code points, 100 chars
        assertEquals("\uD83D\uDE00".repeat(Topology.MAX_NAME), Lifecycle.folderName(Path.of("/x/" + astral)));
        assertEquals("/", Lifecycle.folderName(Path.of("/x/\u0001\u0002")));
        for (String n : List.of("a\nb", " pad ", "x".repeat(80), astral, "\t", "tab\there")) {
            String name = Lifecycle.folderName(Path.of("/x").resolve(n));
            assertEquals(name, Lifecycle.label("name", name, Topology.MAX_NAME, false), n);
        }
    }
}
