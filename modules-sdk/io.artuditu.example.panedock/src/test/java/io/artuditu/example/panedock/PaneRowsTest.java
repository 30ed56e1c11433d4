package io.artuditu.example.panedock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.artuditu.sdk.AgentState;
import io.artuditu.sdk.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class PaneRowsTest {
    private static final ObjectMapper M = new ObjectMapper();

    /** A snapshot as session.snapshot shapes it, cut to the fields the dock reads. */
    private static JsonNode snapshot() throws Exception {
        return M.readTree("""
                {"type":"session_snapshot","workspaces":[
                  {"workspace_id":"w0","name":"other","active":false,"tabs":[]},
                  {"workspace_id":"w1","name":"api","active":true,"tabs":[
                    {"tab":1,"tab_id":"t1","active":true,"focused":"2","panes":[
                      {"pane":"1","name":null,"title":"","process":"zsh","command":"zsh","agent":null},
                      {"pane":"2","name":"tests","title":"vim","process":"vim","command":"zsh","agent":null}]},
                    {"tab":2,"tab_id":"t2","active":false,"focused":"3","panes":[
                      {"pane":"3","name":null,"title":null,"process":"node","command":"zsh",
                       "agent":{"name":"claude","status":"working","source":"process","pid":9}},
                      {"pane":"4","name":null,"title":null,"process":null,"command":null,
                       "agent":{"name":"codex","status":"unknown","source":"process","pid":10}}]}]}]}
                """);
    }

    @Test
    void everyPaneOfTheActiveWorkspaceIsARowThatFocusesIt() throws Exception {
        JsonNode ws = PaneRows.activeWorkspace(snapshot());
        assertEquals("Panes · api", PaneRows.title(ws));
        List<Row> rows = PaneRows.rows(ws);
        assertEquals(List.of("  1: zsh", "▸ 1: tests", "  2: claude", "  2: codex"), rows.stream().map(Row::text).toList());
        assertEquals(List.of("1", "2", "3", "4"), rows.stream().map(Row::value).toList());
        assertTrue(rows.stream().allMatch(r -> r.action().equals("focus")));
    }

    @Test
    void aPaneShowsItsAgentsStateAndAnUnknownStateAsIdle() throws Exception {
        List<Row> rows = PaneRows.rows(PaneRows.activeWorkspace(snapshot()));
        assertNull(rows.get(0).dot(), "no agent, no dot");
        assertEquals(AgentState.WORKING, rows.get(2).dot());
        assertEquals(AgentState.IDLE, rows.get(3).dot());
    }

    @Test
    void theMenuIsFocusADividerAndADestructiveClose() throws Exception {
        Row r = PaneRows.rows(PaneRows.activeWorkspace(snapshot())).get(0);
        assertEquals("[{\"title\":\"Focus\",\"action\":\"focus\"},{\"title\":\"\",\"action\":\"\"},"
                + "{\"title\":\"Close\",\"action\":\"close\",\"destructive\":true}]", r.toJson().get("menu").toString());
    }

    @Test
    void withoutAWorkspaceTheDockSaysSo() throws Exception {
        JsonNode none = M.readTree("{\"workspaces\":[]}");
        assertNull(PaneRows.activeWorkspace(none));
        assertEquals(List.of("no workspace is open"), PaneRows.rows(null).stream().map(Row::text).toList());
    }

    @Test
    void labelsAreCutAndCleanedOfControlCharacters() {
        assertEquals("a\u2026", PaneRows.cut("abc", 2));
        assertEquals("ab", PaneRows.cut("a\u001bb", 10));
    }

    @Test
    void aHugeWorkspaceStopsAtTheDocksRowLimit() throws Exception {
        StringBuilder panes = new StringBuilder();
        for (int i = 1; i <= 250; i++) {
            panes.append(i > 1 ? "," : "").append("{\"pane\":\"").append(i).append("\",\"command\":\"sh\"}");
        }
        JsonNode ws = M.readTree("{\"name\":\"big\",\"active\":true,\"tabs\":[{\"tab\":1,\"active\":true,\"focused\":\"1\","
                + "\"panes\":[" + panes + "]}]}");
        List<Row> rows = PaneRows.rows(ws);
        assertEquals(PaneRows.MAX_ROWS, rows.size());
        assertEquals("… 51 more panes", rows.get(rows.size() - 1).text());
    }
}
