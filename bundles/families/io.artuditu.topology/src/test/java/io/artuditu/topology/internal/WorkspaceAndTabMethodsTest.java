package io.artuditu.topology.internal;

import static io.artuditu.uhp.api.ErrorCode.INVALID_REQUEST;
import static io.artuditu.uhp.api.ErrorCode.NOT_FOUND;
import static io.artuditu.uhp.api.ErrorCode.SPAWN_FAILED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** workspace.* and tab.*: every method, and every rejection the spec lists with the state unchanged. */
class WorkspaceAndTabMethodsTest {
    @TempDir
    Path dir;

    Harness h;
    String api;
    String web;
    String docs;

    @BeforeEach
    void threeWorkspaces() throws Exception {
        h = new Harness();
        for (String n : new String[] {"api", "web", "docs"}) {
            Files.createDirectory(dir.resolve(n));
            h.call("workspace.open", "{\"cwd\":\"" + dir.resolve(n) + "\"}");
        }
        api = h.model.state.workspaces().get(0).id();
        web = h.model.state.workspaces().get(1).id();
        docs = h.model.state.workspaces().get(2).id();
    }

    // ------------------------------------------------------------ workspace.*

    @Test
    void openCreatesAWorkspaceWithOneTabAndPaneAndMakesItActive() throws Exception {
        Files.createDirectory(dir.resolve("four"));
        ObjectNode r = h.call("workspace.open", "{\"cwd\":\"" + dir.resolve("four") + "\",\"name\":\"  Four \"}");
        assertEquals(3, r.get("workspace").intValue());
        assertEquals("Four", r.get("name").asText());
        assertEquals("4", r.get("pane").asText());
        assertEquals(r.get("workspace_id").asText(), h.model.state.activeWorkspace());
        h.reject(INVALID_REQUEST, "workspace.open", "{\"cwd\":\"relative/path\"}");
        h.reject(INVALID_REQUEST, "workspace.open", "{\"cwd\":\"" + dir.resolve("missing") + "\"}");
        h.reject(INVALID_REQUEST, "workspace.open", "{}");
        h.model.failSpawn = true;
        h.reject(SPAWN_FAILED, "workspace.open", "{\"cwd\":\"" + dir.resolve("four") + "\"}");
    }

    @Test
    void reportMetadataMergesShowsInRowsAndRejectsWholeRequests() throws Exception {
        ObjectNode r = h.call("workspace.report_metadata",
                "{\"workspace_id\":\"" + web + "\",\"metadata\":{\"branch\":\"main\",\"dirty\":true,\"port\":3000}}");
        assertEquals("workspace_metadata", r.get("type").asText());
        assertEquals(1, r.get("workspace").intValue());
        assertTrue(r.get("changed").booleanValue());
        assertEquals("{\"branch\":\"main\",\"dirty\":true,\"port\":3000}", r.get("metadata").toString());
        assertEquals(r.get("metadata"), h.read("workspace.get", "{\"workspace\":1}").get("metadata"));
        assertEquals("{}", h.read("workspace.get", "{\"workspace\":0}").get("metadata").toString());
        assertEquals("workspace.metadata_changed", h.model.published.get(h.model.published.size() - 1).name());
        int events = h.model.published.size();
        ObjectNode same = h.read("workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"branch\":\"main\"}}");
        assertFalse(same.get("changed").booleanValue());
        assertEquals(events, h.model.published.size(), "no change, no event");
        h.call("workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"dirty\":null}}");
        assertEquals("{\"branch\":\"main\",\"port\":3000}", h.read("workspace.get", "{\"workspace\":1}").get("metadata").toString());

        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":[]}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"ok\":\"1\",\"Bad\":\"x\"}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"a\":1.5}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"a\":{\"b\":1}}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"a\":99999999999999999999}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":1,\"metadata\":{\"a\":\"x\\ny\"}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"metadata\":{\"a\":\"b\"}}");
        h.reject(INVALID_REQUEST, "workspace.report_metadata", "{\"workspace\":0,\"workspace_id\":\"" + web
                + "\",\"metadata\":{\"a\":\"b\"}}");
        h.reject(NOT_FOUND, "workspace.report_metadata", "{\"workspace\":7,\"metadata\":{\"a\":\"b\"}}");
    }

    @Test
    void listIsInApiOrderWithDisplayPositionsAndNeverChangesAnything() {
        ObjectNode r = h.read("workspace.list", "{}");
        assertEquals(3, r.get("workspaces").size());
        assertEquals(2, r.get("active").intValue());
        ObjectNode row = (ObjectNode) r.get("workspaces").get(1);
        assertEquals(web, row.get("workspace_id").asText());
        assertEquals(1, row.get("workspace").intValue());
        assertEquals(1, row.get("display_position").intValue());
        assertEquals("web", row.get("name").asText());
        assertFalse(row.get("active").booleanValue());
        assertEquals(1, row.get("tabs").size());
        h.reject(INVALID_REQUEST, "workspace.list", "{\"bogus\":1}");
    }

    @Test
    void getByIndexIdOrActiveAndItsRefusals() {
        assertEquals(api, h.read("workspace.get", "{\"workspace\":0}").get("workspace_id").asText());
        assertEquals(1, h.read("workspace.get", "{\"workspace_id\":\"" + web + "\"}").get("workspace").intValue());
        assertEquals(docs, h.read("workspace.get", "{}").get("workspace_id").asText());
        h.reject(NOT_FOUND, "workspace.get", "{\"workspace\":3}");
        h.reject(INVALID_REQUEST, "workspace.get", "{\"workspace\":-1}");
        h.reject(INVALID_REQUEST, "workspace.get", "{\"workspace\":\"0\"}");
        h.reject(INVALID_REQUEST, "workspace.get", "{\"workspace_id\":\"nope\"}");
        h.reject(NOT_FOUND, "workspace.get", "{\"workspace_id\":\"workspace_ffffffffffffffff\"}");
        // Position and id may both be given when they name the same workspace.
        assertEquals(api, h.read("workspace.get", "{\"workspace\":0,\"workspace_id\":\"" + api + "\"}")
                .get("workspace_id").asText());
        h.reject(INVALID_REQUEST, "workspace.get", "{\"workspace\":1,\"workspace_id\":\"" + api + "\"}");
    }

    @Test
    void focusMakesAWorkspaceActive() {
        assertEquals("ok", h.call("workspace.focus", "{\"workspace\":0}").get("type").asText());
        assertEquals(api, h.model.state.activeWorkspace());
        h.reject(NOT_FOUND, "workspace.focus", "{\"workspace\":9}");
        h.reject(INVALID_REQUEST, "workspace.focus", "{}");
    }

    @Test
    void renameTrimsAndAnswersWithTheSpecsFieldsAndNeverTouchesTheFolder() {
        ObjectNode r = h.call("workspace.rename", "{\"workspace\":0,\"name\":\"  Backend  \"}");
        assertEquals("workspace_rename", r.get("type").asText());
        assertEquals(0, r.get("workspace").intValue());
        assertEquals("Backend", r.get("name").asText());
        assertEquals(dir.resolve("api").toString(), r.get("cwd").asText());
        assertFalse(r.get("pinned").booleanValue());
        assertEquals(0, r.get("display_position").intValue());
        assertTrue(Files.isDirectory(dir.resolve("api")));
        assertFalse(Files.exists(dir.resolve("Backend")));
        h.call("workspace.rename", "{\"workspace_id\":\"" + web + "\",\"name\":\"Front\"}");
        assertEquals("Front", h.model.state.workspaces().get(1).name());
        h.reject(INVALID_REQUEST, "workspace.rename", "{\"workspace\":0,\"name\":\"   \"}");
        h.reject(INVALID_REQUEST, "workspace.rename", "{\"workspace\":0,\"name\":\"" + "x".repeat(41) + "\"}");
        h.reject(INVALID_REQUEST, "workspace.rename", "{\"workspace\":0,\"name\":\"a\\nb\"}");
        h.reject(INVALID_REQUEST, "workspace.rename", "{\"workspace\":0}");
        h.reject(INVALID_REQUEST, "workspace.rename", "{\"name\":\"x\"}");
        h.reject(NOT_FOUND, "workspace.rename", "{\"workspace\":3,\"name\":\"x\"}");
        assertEquals("x".repeat(40), h.call("workspace.rename",
                "{\"workspace\":0,\"name\":\"" + "x".repeat(40) + "\"}").get("name").asText());
    }

    @Test
    void pinChangesDisplayOrderOnlyNotIndexNorFocus() {
        ObjectNode r = h.call("workspace.pin", "{\"workspace\":2,\"pinned\":true}");
        assertEquals("workspace_pin", r.get("type").asText());
        assertEquals(2, r.get("workspace").intValue());
        assertEquals(0, r.get("display_position").intValue());
        assertEquals(docs, h.model.state.workspaces().get(2).id());
        h.call("workspace.focus", "{\"workspace\":0}");
        h.call("workspace.pin", "{\"workspace\":1,\"pinned\":true}");
        assertEquals(api, h.model.state.activeWorkspace());
        assertEquals(2, h.read("workspace.get", "{\"workspace\":0}").get("display_position").intValue());
        h.reject(INVALID_REQUEST, "workspace.pin", "{\"workspace\":0}");
        h.reject(NOT_FOUND, "workspace.pin", "{\"workspace\":7,\"pinned\":true}");
    }

    @Test
    void moveAndMoveBlockKeepTheActiveWorkspace() {
        ObjectNode r = h.call("workspace.move", "{\"workspace\":2,\"to\":0}");
        assertEquals(0, r.get("to").intValue());
        assertEquals(0, r.get("active").intValue());
        assertEquals(docs, h.model.state.workspaces().get(0).id());
        h.call("workspace.move", "{\"workspace_id\":\"" + docs + "\",\"to\":2}");
        assertEquals(docs, h.model.state.workspaces().get(2).id());
        h.reject(NOT_FOUND, "workspace.move", "{\"workspace\":5,\"to\":0}");
        h.reject(INVALID_REQUEST, "workspace.move", "{\"workspace\":0,\"to\":3}");
        h.reject(INVALID_REQUEST, "workspace.move", "{\"to\":0}");

        ObjectNode b = h.call("workspace.move_block", "{\"workspaces\":[2,0],\"to\":1}");
        assertEquals("[1,2]", b.get("workspaces").toString());
        assertEquals(web, h.model.state.workspaces().get(0).id());
        assertEquals(docs, h.model.state.workspaces().get(1).id());
        assertEquals(api, h.model.state.workspaces().get(2).id());
        assertEquals(docs, h.model.state.activeWorkspace());
        h.reject(INVALID_REQUEST, "workspace.move_block", "{\"workspaces\":[],\"to\":0}");
        h.reject(INVALID_REQUEST, "workspace.move_block", "{\"workspaces\":[1,1],\"to\":0}");
        h.reject(NOT_FOUND, "workspace.move_block", "{\"workspaces\":[0,3],\"to\":0}");
        h.reject(INVALID_REQUEST, "workspace.move_block", "{\"workspaces\":[0,1],\"to\":2}");
        h.reject(INVALID_REQUEST, "workspace.move_block", "{\"workspaces\":[\"0\"],\"to\":0}");
        h.reject(INVALID_REQUEST, "workspace.move_block", "{\"workspaces\":[0]}");
        StringBuilder many = new StringBuilder("{\"workspaces\":[0");
        for (int i = 1; i < 257; i++) {
            many.append(',').append(i);
        }
        h.reject(INVALID_REQUEST, "workspace.move_block", many.append("],\"to\":0}").toString());
    }

    @Test
    void closeRemovesTheWorkspaceAndListsItsPanes() {
        ObjectNode r = h.call("workspace.close", "{\"workspace\":0}");
        assertEquals(api, r.get("workspace_id").asText());
        assertEquals("[\"1\"]", r.get("closed_panes").toString());
        assertEquals(2, h.model.state.workspaces().size());
        assertTrue(Files.isDirectory(dir.resolve("api")));
        h.reject(NOT_FOUND, "workspace.close", "{\"workspace\":2}");
        h.reject(INVALID_REQUEST, "workspace.close", "{}");
    }

    // ------------------------------------------------------------ tab.*

    /** docs gets four tabs: panes (1), panes (2), git (3), panes (4); tab 4 active. */
    void fourTabs() {
        h.call("tab.new", "{}");
        h.call("tab.new", "{\"kind\":\"git\"}");
        h.call("tab.new", "{\"name\":\"logs\"}");
    }

    @Test
    void newListAndGet() {
        ObjectNode r = h.call("tab.new", "{\"name\":\" build \"}");
        assertEquals(2, r.get("tab").intValue());
        assertEquals("panes", r.get("kind").asText());
        assertEquals("4", r.get("pane").asText());
        ObjectNode g = h.call("tab.new", "{\"workspace\":0,\"kind\":\"git\"}");
        assertTrue(g.get("pane").isNull());
        ObjectNode list = h.read("tab.list", "{}");
        assertEquals(2, list.get("tabs").size());
        assertEquals("build", list.get("tabs").get(1).get("name").asText());
        assertTrue(list.get("tabs").get(1).get("active").booleanValue());
        assertEquals("git", h.read("tab.get", "{\"workspace\":0,\"tab\":2}").get("kind").asText());
        assertEquals(r.get("tab_id").asText(), h.read("tab.get", "{}").get("tab_id").asText());
        assertEquals(2, h.read("tab.get", "{\"tab_id\":\"" + r.get("tab_id").asText() + "\"}").get("tab").intValue());
        h.reject(INVALID_REQUEST, "tab.new", "{\"kind\":\"spreadsheet\"}");
        h.reject(INVALID_REQUEST, "tab.new", "{\"name\":\"" + "y".repeat(41) + "\"}");
        h.reject(NOT_FOUND, "tab.new", "{\"workspace\":4}");
        h.reject(INVALID_REQUEST, "tab.get", "{\"tab\":3}");
        h.reject(INVALID_REQUEST, "tab.get", "{\"tab\":0}");
        h.reject(INVALID_REQUEST, "tab.get", "{\"tab_id\":\"tab_x\"}");
        h.reject(NOT_FOUND, "tab.get", "{\"tab_id\":\"tab_ffffffffffffffff\"}");
        // Position and id together: accepted when they name one tab (the position counts in
        // the id's workspace), refused when they disagree; the same rule for tab.swap's with.
        String second = r.get("tab_id").asText();
        assertEquals(2, h.read("tab.get", "{\"tab\":2,\"tab_id\":\"" + second + "\"}").get("tab").intValue());
        h.reject(INVALID_REQUEST, "tab.get", "{\"tab\":1,\"tab_id\":\"" + second + "\"}");
        h.reject(INVALID_REQUEST, "tab.get", "{\"workspace\":0,\"tab_id\":\"" + second + "\"}");
        h.reject(INVALID_REQUEST, "tab.swap", "{\"tab\":1,\"with\":1,\"with_tab_id\":\"" + second + "\"}");
        h.model.failSpawn = true;
        h.reject(SPAWN_FAILED, "tab.new", "{}");
    }

    @Test
    void focusSelectsOneExactTab() {
        fourTabs();
        assertEquals("ok", h.call("tab.focus", "{\"tab\":2}").get("type").asText());
        assertEquals(2, h.read("tab.get", "{}").get("tab").intValue());
        h.reject(INVALID_REQUEST, "tab.focus", "{\"tab\":0}");
        h.reject(INVALID_REQUEST, "tab.focus", "{\"tab\":5}");
        h.reject(INVALID_REQUEST, "tab.focus", "{}");
    }

    @Test
    void moveToAndByDirectionKeepTheActiveTab() {
        fourTabs();
        ObjectNode r = h.call("tab.move", "{\"tab\":1,\"to\":3}");
        assertEquals("tab_move", r.get("type").asText());
        assertEquals(1, r.get("from").intValue());
        assertEquals(3, r.get("to").intValue());
        assertEquals(4, r.get("active").intValue());
        ObjectNode d = h.call("tab.move", "{\"direction\":\"left\"}");
        assertEquals(4, d.get("from").intValue());
        assertEquals(3, d.get("to").intValue());
        assertEquals(3, d.get("active").intValue());
        for (String bad : new String[] {"{\"tab\":0,\"to\":2}", "{\"tab\":1}", "{\"tab\":1,\"to\":5}",
                "{\"tab\":9,\"to\":1}", "{\"tab\":2,\"to\":2}", "{\"tab\":1,\"to\":0}", "{\"tab\":1,\"direction\":\"left\"}",
                "{\"tab\":4,\"direction\":\"right\"}", "{\"tab\":1,\"to\":2,\"direction\":\"right\"}", "{\"to\":2}",
                "{}", "{\"direction\":\"up\"}"}) {
            h.reject(INVALID_REQUEST, "tab.move", bad);
        }
    }

    @Test
    void swapExchangesPositions() {
        fourTabs();
        ObjectNode r = h.call("tab.swap", "{\"tab\":4,\"with\":1}");
        assertEquals("tab_swap", r.get("type").asText());
        assertEquals(4, r.get("tab").intValue());
        assertEquals(1, r.get("with").intValue());
        assertEquals(1, r.get("active").intValue());
        assertEquals(2, h.model.published.stream().filter(e -> e.name().equals("tab.moved")).count());
        h.reject(INVALID_REQUEST, "tab.swap", "{\"tab\":2,\"with\":2}");
        h.reject(INVALID_REQUEST, "tab.swap", "{\"tab\":2,\"with\":5}");
        h.reject(INVALID_REQUEST, "tab.swap", "{\"tab\":0,\"with\":1}");
        h.reject(INVALID_REQUEST, "tab.swap", "{\"tab\":1}");
    }

    @Test
    void renameTargetsTheActiveTabAndRefusesDashboards() {
        fourTabs();
        assertEquals("ok", h.call("tab.rename", "{\"name\":\"  server \"}").get("type").asText());
        assertEquals("server", h.read("tab.get", "{\"tab\":4}").get("name").asText());
        h.call("tab.rename", "{\"tab\":4,\"name\":\"\"}");
        assertTrue(h.read("tab.get", "{\"tab\":4}").get("name").isNull());
        h.reject(INVALID_REQUEST, "tab.rename", "{\"tab\":3,\"name\":\"git\"}");
        h.reject(INVALID_REQUEST, "tab.rename", "{\"tab\":0,\"name\":\"x\"}");
        h.reject(INVALID_REQUEST, "tab.rename", "{\"tab\":5,\"name\":\"x\"}");
        h.reject(INVALID_REQUEST, "tab.rename", "{\"name\":\"" + "z".repeat(41) + "\"}");
        h.reject(INVALID_REQUEST, "tab.rename", "{\"tab\":1}");
    }

    @Test
    void closeRemovesTheTabAndListsItsPanes() {
        fourTabs();
        ObjectNode r = h.call("tab.close", "{\"tab\":2}");
        assertEquals("[\"4\"]", r.get("closed_panes").toString());
        assertEquals(3, h.read("tab.list", "{}").get("tabs").size());
        h.reject(INVALID_REQUEST, "tab.close", "{\"tab\":4}");
        h.reject(INVALID_REQUEST, "tab.close", "{}");
    }
}
