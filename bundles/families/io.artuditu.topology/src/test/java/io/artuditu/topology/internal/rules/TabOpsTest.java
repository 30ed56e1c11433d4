package io.artuditu.topology.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Direction;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.uhp.api.ErrorCode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tab family's rules ({@link TabOps}): every operation, every rejection. */
class TabOpsTest extends TopologyFixture {
    List<String> tabIds() {
        return w0().tabs().stream().map(Tab::id).toList();
    }

    /** tab.move as a request names the tab: by position (null: the active one). */
    Change<TabOps.TabMove> move(Topology t, Integer tab, Integer to, Direction d) {
        Target x = tabAt(t, tab);
        return ops.tabs().move(t, x.tabId(), x.named(), to, d);
    }

    Change<TabOps.TabMove> swap(Topology t, int tab, int with) {
        return ops.tabs().swap(t, tabAt(t, tab).tabId(), tabAt(t, with).tabId());
    }

    Change<Void> rename(Topology t, Integer tab, String name) {
        return ops.tabs().rename(t, tabAt(t, tab).tabId(), name);
    }

    void fourTabs() throws IOException {
        open();
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, "two", sp));
        apply(ops.tabs().create(s, ws0(), TabKind.GIT, null, sp));
        apply(ops.tabs().create(s, ws0(), TabKind.PANES, null, sp));
        apply(ops.tabs().focus(s, tab(2).id()));
    }

    @Test
    void newTabAppendsAndActivates() throws IOException {
        open();
        Change<String> c = ops.tabs().create(s, ws0(), TabKind.MISSION_CONTROL, null, sp);
        apply(c);
        assertEquals(c.result(), w0().activeTab());
        assertNull(tab(2).root());
        assertEquals(List.of("tab.created"), c.events().stream().map(TopologyEvent::name).toList());
        assertEquals(1, spawned.size(), "a dashboard starts no process");
        Change<String> p = ops.tabs().create(s, ws0(), TabKind.PANES, "  logs ", sp);
        apply(p);
        assertEquals("logs", tab(3).label());
        assertEquals(Optional.of("2"), s.focusedPane());
        Topology before = s;
        assertThrows(IOException.class, () -> ops.tabs().create(before, ws0(), TabKind.PANES, null, FAIL));
        assertEquals(before, s);
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), null, null, sp)));
        refused(ErrorCode.INVALID_REQUEST, io(t -> ops.tabs().create(t, ws0(), TabKind.PANES, "x".repeat(41), sp)));
    }

    @Test
    void tabMoveToAndByDirectionKeepsActive() throws IOException {
        fourTabs();
        List<String> before = tabIds();
        TabOps.TabMove m = apply(move(s, 1, 4, null));
        assertEquals(new TabOps.TabMove(1, 4, 1), m);
        assertEquals(List.of(before.get(1), before.get(2), before.get(3), before.get(0)), tabIds());
        assertEquals(before.get(1), w0().activeTab());
        m = apply(move(s, null, null, Direction.RIGHT));
        assertEquals(new TabOps.TabMove(1, 2, 2), m);
        Change<TabOps.TabMove> c = move(s, 2, null, Direction.LEFT);
        assertEquals("tab.moved", c.events().get(0).name());
        assertEquals(2, c.events().get(0).data().get("from"));
    }

    @Test
    void tabMoveRejections() throws IOException {
        fourTabs();
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 0, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 5, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 1, 0, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 1, 5, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 2, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 1, null, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, null, 3, null));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 1, 2, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 1, null, Direction.LEFT));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 4, null, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> move(t, 2, null, Direction.UP));
    }

    @Test
    void tabSwapKeepsActive() throws IOException {
        fourTabs();
        List<String> before = tabIds();
        Change<TabOps.TabMove> c = swap(s, 2, 4);
        TabOps.TabMove m = apply(c);
        assertEquals(new TabOps.TabMove(2, 4, 4), m);
        assertEquals(List.of(before.get(0), before.get(3), before.get(2), before.get(1)), tabIds());
        assertEquals(2, c.events().size());
        refused(ErrorCode.INVALID_REQUEST, t -> swap(t, 2, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> swap(t, 0, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> swap(t, 1, 5));
    }

    @Test
    void tabRenameTrimsClearsAndRejects() throws IOException {
        fourTabs();
        apply(rename(s, null, "  build "));
        assertEquals("build", tab(2).label());
        apply(rename(s, 2, ""));
        assertNull(tab(2).label());
        apply(rename(s, 1, "x".repeat(40)));
        refused(ErrorCode.INVALID_REQUEST, t -> rename(t, 1, "x".repeat(41)));
        refused(ErrorCode.INVALID_REQUEST, t -> rename(t, 0, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> rename(t, 5, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> rename(t, 3, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> rename(t, 1, null));
    }

    @Test
    void tabFocusAndCloseMoveActivity() throws IOException {
        fourTabs();
        String second = tab(2).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().focus(t, tabById(t, "tab_zz").tabId()));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().focus(t, tabById(t, "tab_00000000000000ff").tabId()));
        Change<List<String>> c = ops.tabs().close(s, second);
        apply(c);
        assertEquals(List.of("2"), c.result());
        assertEquals(tab(2).id(), w0().activeTab(), "the tab to the right becomes active");
        assertEquals(TabKind.GIT, tab(2).kind());
        assertFalse(s.panes().containsKey("2"));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().close(t, second));
    }
}
