package io.artuditu.model.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        TabOps.TabMove m = apply(ops.tabs().move(s, ws0(), 1, 4, null));
        assertEquals(new TabOps.TabMove(1, 4, 1), m);
        assertEquals(List.of(before.get(1), before.get(2), before.get(3), before.get(0)), tabIds());
        assertEquals(before.get(1), w0().activeTab());
        m = apply(ops.tabs().move(s, ws0(), null, null, Direction.RIGHT));
        assertEquals(new TabOps.TabMove(1, 2, 2), m);
        Change<TabOps.TabMove> c = ops.tabs().move(s, ws0(), 2, null, Direction.LEFT);
        assertEquals("tab.moved", c.events().get(0).name());
        assertEquals(2, c.events().get(0).data().get("from"));
    }

    @Test
    void tabMoveRejections() throws IOException {
        fourTabs();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 0, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 5, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 0, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 5, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 2, 2, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, null, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), null, 3, null));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, 2, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 1, null, Direction.LEFT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 4, null, Direction.RIGHT));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().move(t, ws0(), 2, null, Direction.UP));
    }

    @Test
    void tabSwapKeepsActive() throws IOException {
        fourTabs();
        List<String> before = tabIds();
        Change<TabOps.TabMove> c = ops.tabs().swap(s, ws0(), 2, 4);
        TabOps.TabMove m = apply(c);
        assertEquals(new TabOps.TabMove(2, 4, 4), m);
        assertEquals(List.of(before.get(0), before.get(3), before.get(2), before.get(1)), tabIds());
        assertEquals(2, c.events().size());
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 2, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 0, 2));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().swap(t, ws0(), 1, 5));
    }

    @Test
    void tabRenameTrimsClearsAndRejects() throws IOException {
        fourTabs();
        apply(ops.tabs().rename(s, ws0(), null, "  build "));
        assertEquals("build", tab(2).label());
        apply(ops.tabs().rename(s, ws0(), 2, ""));
        assertNull(tab(2).label());
        apply(ops.tabs().rename(s, ws0(), 1, "x".repeat(40)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 1, "x".repeat(41)));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 0, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 5, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 3, "a"));
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().rename(t, ws0(), 1, null));
    }

    @Test
    void tabFocusAndCloseMoveActivity() throws IOException {
        fourTabs();
        String second = tab(2).id();
        refused(ErrorCode.INVALID_REQUEST, t -> ops.tabs().focus(t, "tab_zz"));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().focus(t, "tab_00000000000000ff"));
        Change<List<String>> c = ops.tabs().close(s, second);
        apply(c);
        assertEquals(List.of("2"), c.result());
        assertEquals(tab(2).id(), w0().activeTab(), "the tab to the right becomes active");
        assertEquals(TabKind.GIT, tab(2).kind());
        assertFalse(s.panes().containsKey("2"));
        refused(ErrorCode.NOT_FOUND, t -> ops.tabs().close(t, second));
    }
}
