package io.artuditu.example.panedock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.sdk.ActionEvent;
import io.artuditu.sdk.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The component's handlers against a fake context: what it registers, calls and pushes. */
class PaneDockTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String SNAPSHOT = "{\"type\":\"session_snapshot\",\"workspaces\":[{\"name\":\"w\",\"active\":true,"
            + "\"tabs\":[{\"tab\":1,\"active\":true,\"focused\":\"1\",\"panes\":[{\"pane\":\"1\",\"command\":\"zsh\"},"
            + "{\"pane\":\"2\",\"command\":\"zsh\"}]}]}]}";

    private static FakeContext fake() {
        return new FakeContext("panedock", method -> {
            try {
                return method.equals("session.snapshot") ? M.readTree(SNAPSHOT) : FakeContext.ok();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void itRegistersBothActionsSubscribesAndPollsThroughTheSdk() {
        FakeContext f = fake();
        new PaneDock(f.context);
        assertEquals(java.util.Set.of("focus", "close"), f.actions.keySet());
        assertEquals(List.of(PaneDock.EVENTS), f.subscriptions);
        assertEquals(1, f.scheduled.size(), "one periodic refresh on the module's scheduler");
    }

    @Test
    void itPushesTheRowsOnceAndAgainOnlyWhenTheyChange() {
        FakeContext f = fake();
        PaneDock dock = new PaneDock(f.context);
        dock.refresh();
        dock.refresh();
        assertEquals(1, f.docks.size(), "the same rows are not pushed twice");
        List<Row> rows = f.docks.get(0);
        assertEquals(List.of("▸ zsh", "  zsh"), rows.stream().map(Row::text).toList());
    }

    @Test
    void focusAndCloseCallThePaneMethodsWithTheRowsValue() throws Exception {
        FakeContext f = fake();
        new PaneDock(f.context);
        f.actions.get("focus").run(new ActionEvent("focus", "2", null, -1, null));
        assertTrue(f.calls.contains("pane.focus {\"pane\":\"2\"}"), f.calls.toString());
        f.actions.get("close").run(new ActionEvent("close", "2", null, -1, null));
        assertTrue(f.calls.contains("pane.close {\"pane\":\"2\"}"), f.calls.toString());
        assertEquals("session.snapshot {}", f.calls.get(f.calls.size() - 1), "each action refreshes the dock");
        assertThrows(IllegalArgumentException.class,
                () -> f.actions.get("focus").run(new ActionEvent("focus", null, null, -1, null)));
    }
}
