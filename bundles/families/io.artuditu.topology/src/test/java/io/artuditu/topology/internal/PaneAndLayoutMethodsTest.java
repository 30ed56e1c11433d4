package io.artuditu.topology.internal;

import static io.artuditu.uhp.api.ErrorCode.INVALID_REQUEST;
import static io.artuditu.uhp.api.ErrorCode.NOT_FOUND;
import static io.artuditu.uhp.api.ErrorCode.SPAWN_FAILED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology pane.* methods and layout.*: every method, every rejection with the state
 * unchanged. Setup: workspace 0 with tab 1 = pane 1 | pane 2 (side by side, 2 focused) and
 * tab 2 = pane 3 (active), plus a git dashboard as tab 3.
 */
class PaneAndLayoutMethodsTest {
    @TempDir
    Path dir;

    Harness h;

    @BeforeEach
    void twoTabs() throws Exception {
        h = new Harness();
        Files.createDirectory(dir.resolve("api"));
        h.call("workspace.open", "{\"cwd\":\"" + dir.resolve("api") + "\"}");
        h.call("pane.split", "{\"direction\":\"right\"}");
        h.call("tab.new", "{}");
        h.call("tab.new", "{\"kind\":\"git\"}");
        h.call("tab.focus", "{\"tab\":2}");
    }

    /**
     * Every accepted change moves the revision (the event sequence), so if_revision catches a
     * stale write whatever the other client changed; a call that changes nothing does not.
     */
    @Test
    void everyChangeMovesTheRevisionAndANoOpDoesNot() {
        String[][] changes = {
            {"workspace.rename", "{\"workspace\":0,\"name\":\"api2\"}", "workspace.renamed"},
            {"workspace.pin", "{\"workspace\":0,\"pinned\":true}", "workspace.pinned"},
            {"tab.focus", "{\"tab\":1}", "tab.focused"},
            {"tab.rename", "{\"tab\":1,\"name\":\"main\"}", "tab.renamed"},
            {"pane.focus", "{\"pane\":\"1\"}", "pane.focused"},
            {"pane.focus_direction", "{\"pane\":\"1\",\"direction\":\"right\"}", "pane.focused"},
            {"pane.swap", "{\"pane\":\"1\",\"with\":\"2\"}", "pane.swapped"},
            {"pane.resize", "{\"pane\":\"2\",\"direction\":\"right\",\"cells\":3}", "layout.changed"},
            {"pane.zoom", "{\"pane\":\"1\",\"on\":true}", "layout.changed"},
            {"pane.rename", "{\"pane\":\"1\",\"name\":\"web\"}", "pane.renamed"},
            {"pane.purpose", "{\"pane\":\"1\",\"purpose\":\"dev server\"}", "pane.purpose_changed"},
            {"layout.set_split_ratio", "{\"tab\":1,\"path\":[],\"ratio\":0.3}", "layout.changed"},
            {"layout.apply", "{\"tab\":1,\"root\":{\"axis\":\"vertical\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},"
                    + "\"b\":{\"pane\":\"2\"}}}", "layout.changed"},
        };
        for (String[] c : changes) {
            long before = h.model.published.size();
            ObjectNode r = h.call(c[0], c[1]);
            assertTrue(r.get("revision").longValue() > before, c[0] + " moved the revision");
            assertEquals(c[2], h.model.published.get(h.model.published.size() - 1).name(), c[0]);
        }
        h.call("pane.zoom", "{\"pane\":\"1\",\"on\":true}"); // layout.apply ended the zoom
        long before = h.model.published.size();
        ObjectNode again = h.call("pane.zoom", "{\"pane\":\"1\",\"on\":true}");
        assertEquals(before, again.get("revision").longValue(), "zooming a zoomed pane changes nothing");
        h.call("tab.focus", "{\"tab\":1}");
        assertEquals(before, h.model.published.size(), "focusing the active tab changes nothing");
    }

    @Test
    void listGetAndCurrentDescribeWithoutChangingFocus() {
        ObjectNode list = h.read("pane.list", "{\"tab\":1}");
        assertEquals(2, list.get("panes").size());
        ObjectNode one = (ObjectNode) list.get("panes").get(0);
        assertEquals("1", one.get("pane").asText());
        assertTrue(one.get("purpose").isNull());
        assertEquals("{\"x\":0,\"y\":0,\"width\":5000,\"height\":10000}", one.get("rect").toString());
        assertEquals(1, h.read("pane.list", "{}").get("panes").size());
        assertEquals("3", h.read("pane.current", "{}").get("pane").asText());
        assertEquals("3", h.read("pane.get", "{}").get("pane").asText());
        ObjectNode two = h.read("pane.get", "{\"pane\":\"2\"}");
        assertEquals(1, two.get("tab").intValue());
        assertTrue(two.get("focused").booleanValue());
        assertFalse(two.get("current").booleanValue());
        h.reject(INVALID_REQUEST, "pane.get", "{\"pane\":\"abc\"}");
        h.reject(INVALID_REQUEST, "pane.get", "{\"pane\":7}");
        h.reject(NOT_FOUND, "pane.get", "{\"pane\":\"99\"}");
        h.reject(INVALID_REQUEST, "pane.list", "{\"tab\":3}");
        h.reject(INVALID_REQUEST, "pane.list", "{\"tab\":4}");
    }

    @Test
    void layoutNeighborAndEdgesAreGeometryInTheNormalizedArea() {
        ObjectNode l = h.read("pane.layout", "{\"pane\":\"2\"}");
        assertEquals(10000, l.get("area").intValue());
        assertEquals("{\"x\":5000,\"y\":0,\"width\":5000,\"height\":10000}", l.get("rect").toString());
        ObjectNode n = h.read("pane.neighbor", "{\"pane\":\"1\",\"direction\":\"right\"}");
        assertEquals("pane_neighbor", n.get("type").asText());
        assertEquals("1", n.get("pane").asText());
        assertEquals("2", n.get("neighbor").asText());
        assertTrue(h.read("pane.neighbor", "{\"pane\":\"1\",\"direction\":\"left\"}").get("neighbor").isNull());
        assertEquals("[\"right\",\"up\",\"down\"]", h.read("pane.edges", "{\"pane\":\"2\"}").get("edges").toString());
        h.reject(INVALID_REQUEST, "pane.neighbor", "{\"pane\":\"1\"}");
        h.reject(INVALID_REQUEST, "pane.neighbor", "{\"pane\":\"1\",\"direction\":\"diagonal\"}");
        h.reject(NOT_FOUND, "pane.layout", "{\"pane\":\"42\"}");
    }

    @Test
    void splitAddsAPaneWhereAskedAndFocusesItUnlessTold() {
        ObjectNode r = h.call("pane.split", "{\"pane\":\"3\",\"direction\":\"down\",\"focus\":false}");
        assertEquals("4", r.get("pane").asText());
        assertEquals("3", r.get("from").asText());
        assertEquals("term_4", r.get("terminal_id").asText());
        assertEquals(2, r.get("tab").intValue());
        assertEquals("3", h.model.state.focusedPane().orElseThrow());
        assertEquals("5", h.call("pane.split", "{\"direction\":\"left\"}").get("pane").asText());
        assertEquals("5", h.model.state.focusedPane().orElseThrow());
        assertEquals("ok", r.get("type").asText(), "the spec's result type");
        // The spec's form: one side flag set to true, as artu pane split --down; none means down.
        String below = h.call("pane.split", "{\"down\":true}").get("pane").asText();
        assertEquals(below, h.read("pane.neighbor", "{\"pane\":\"5\",\"direction\":\"down\"}").get("neighbor").asText());
        String next = h.call("pane.split", "{}").get("pane").asText();
        assertEquals(next, h.read("pane.neighbor", "{\"pane\":\"" + below + "\",\"direction\":\"down\"}")
                .get("neighbor").asText());
        String right = h.call("pane.split", "{\"right\":true,\"focus\":false}").get("pane").asText();
        assertEquals(right, h.read("pane.neighbor", "{\"pane\":\"" + next + "\",\"direction\":\"right\"}")
                .get("neighbor").asText());
        h.reject(INVALID_REQUEST, "pane.split", "{\"down\":true,\"right\":true}");
        h.reject(INVALID_REQUEST, "pane.split", "{\"down\":false}");
        h.reject(INVALID_REQUEST, "pane.split", "{\"left\":true,\"direction\":\"right\"}");
        h.reject(INVALID_REQUEST, "pane.split", "{\"left\":true,\"direction\":\"left\"}");
        h.reject(INVALID_REQUEST, "pane.split", "{\"down\":\"yes\"}");
        h.reject(INVALID_REQUEST, "pane.split", "{\"direction\":\"sideways\"}");
        h.reject(NOT_FOUND, "pane.split", "{\"pane\":\"77\",\"direction\":\"up\"}");
        h.model.failSpawn = true;
        h.reject(SPAWN_FAILED, "pane.split", "{\"direction\":\"up\"}");
    }

    @Test
    void splittingTooSmallIsRefused() {
        for (int i = 0; i < 5; i++) {
            h.call("pane.split", "{\"direction\":\"down\"}");
        }
        h.reject(INVALID_REQUEST, "pane.split", "{\"direction\":\"down\"}");
    }

    @Test
    void moveToAnotherTabOrANewTabAndItsRefusals() {
        ObjectNode r = h.call("pane.move", "{\"pane\":\"3\",\"tab\":1}");
        assertEquals("pane_move", r.get("type").asText());
        assertEquals("3", r.get("pane").asText());
        assertEquals(0, r.get("workspace").intValue());
        assertEquals(1, r.get("tab").intValue());
        assertEquals(2, h.model.state.workspaces().get(0).tabs().size(), "the emptied tab is removed");
        assertEquals("3", h.model.state.focusedPane().orElseThrow());
        ObjectNode n = h.call("pane.move", "{\"new_tab\":true}");
        assertEquals(3, n.get("tab").intValue());
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\"}");
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab\":3,\"new_tab\":true}");
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab\":2}");
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab\":1}");
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab\":9}");
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab\":0}");
        h.reject(NOT_FOUND, "pane.move", "{\"pane\":\"55\",\"new_tab\":true}");
    }

    @Test
    void moveRefusesOtherWorkspaces() throws Exception {
        Files.createDirectory(dir.resolve("web"));
        h.call("workspace.open", "{\"cwd\":\"" + dir.resolve("web") + "\"}");
        String foreign = h.model.state.workspaces().get(1).tabs().get(0).id();
        h.reject(INVALID_REQUEST, "pane.move", "{\"pane\":\"1\",\"tab_id\":\"" + foreign + "\"}");
    }

    @Test
    void swapFocusAndFocusDirection() {
        assertEquals("pane_swap", h.call("pane.swap", "{\"pane\":\"1\",\"with\":\"2\"}").get("type").asText());
        assertEquals(0, h.read("pane.layout", "{\"pane\":\"2\"}").get("rect").get("x").intValue());
        h.reject(INVALID_REQUEST, "pane.swap", "{\"pane\":\"1\",\"with\":\"1\"}");
        h.reject(INVALID_REQUEST, "pane.swap", "{\"pane\":\"1\",\"with\":\"3\"}");
        h.reject(INVALID_REQUEST, "pane.swap", "{\"pane\":\"1\"}");
        assertEquals("ok", h.call("pane.focus", "{\"pane\":\"2\"}").get("type").asText());
        assertEquals("2", h.model.state.focusedPane().orElseThrow());
        ObjectNode f = h.call("pane.focus_direction", "{\"direction\":\"right\"}");
        assertTrue(f.get("moved").booleanValue());
        assertEquals("1", f.get("focused").asText());
        ObjectNode none = h.call("pane.focus_direction", "{\"direction\":\"right\"}");
        assertFalse(none.get("moved").booleanValue());
        assertEquals("1", none.get("focused").asText());
        h.reject(INVALID_REQUEST, "pane.focus", "{}");
        h.reject(NOT_FOUND, "pane.focus", "{\"pane\":\"9\"}");
        h.reject(INVALID_REQUEST, "pane.focus_direction", "{}");
    }

    @Test
    void resizeMovesTheBorderAndRefusesAnEdge() {
        ObjectNode r = h.call("pane.resize", "{\"pane\":\"1\",\"direction\":\"right\",\"cells\":10}");
        assertEquals(5500, r.get("rect").get("width").intValue());
        h.reject(INVALID_REQUEST, "pane.resize", "{\"pane\":\"1\",\"direction\":\"left\",\"cells\":1}");
        h.reject(INVALID_REQUEST, "pane.resize", "{\"pane\":\"1\",\"direction\":\"right\",\"cells\":0}");
        h.reject(INVALID_REQUEST, "pane.resize", "{\"pane\":\"1\",\"direction\":\"right\"}");
        h.reject(INVALID_REQUEST, "pane.resize", "{\"pane\":\"1\",\"direction\":\"right\",\"cells\":10001}");
    }

    @Test
    void zoomRenamePurposeAndClose() {
        assertTrue(h.call("pane.zoom", "{\"pane\":\"1\"}").get("zoomed").booleanValue());
        assertFalse(h.call("pane.zoom", "{\"pane\":\"1\"}").get("zoomed").booleanValue());
        assertTrue(h.call("pane.zoom", "{\"pane\":\"1\",\"on\":true}").get("zoomed").booleanValue());

        assertEquals("srv", h.call("pane.rename", "{\"pane\":\"1\",\"name\":\" srv \"}").get("name").asText());
        assertTrue(h.call("pane.rename", "{\"pane\":\"1\",\"name\":\"\"}").get("name").isNull());
        h.reject(INVALID_REQUEST, "pane.rename", "{\"pane\":\"1\",\"name\":\"" + "n".repeat(41) + "\"}");
        h.reject(INVALID_REQUEST, "pane.rename", "{\"pane\":\"1\"}");

        ObjectNode p = h.call("pane.purpose", "{\"pane\":\"1\",\"purpose\":\"  frontend development server \"}");
        assertEquals("frontend development server", p.get("purpose").asText());
        assertEquals("frontend development server",
                h.read("pane.list", "{\"tab\":1}").get("panes").get(0).get("purpose").asText());
        assertEquals("é".repeat(60), h.call("pane.purpose",
                "{\"pane\":\"1\",\"purpose\":\"" + "é".repeat(60) + "\"}").get("purpose").asText());
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\",\"purpose\":\"" + "p".repeat(61) + "\"}");
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\",\"purpose\":\"two\\nlines\"}");
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\",\"purpose\":\"   \"}");
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\"}");
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\",\"purpose\":\"x\",\"clear\":true}");
        h.reject(INVALID_REQUEST, "pane.purpose", "{\"pane\":\"1\",\"clear\":false}");
        assertTrue(h.call("pane.purpose", "{\"pane\":\"1\",\"clear\":true}").get("purpose").isNull());

        assertEquals("2", h.call("pane.close", "{\"pane\":\"2\"}").get("pane").asText());
        assertEquals(1, h.read("pane.list", "{\"tab\":1}").get("panes").size());
        h.reject(NOT_FOUND, "pane.close", "{\"pane\":\"2\"}");
    }

    // ------------------------------------------------------------ layout.*

    @Test
    void exportThenApplyRearrangesWithoutSpawningOrClosing() {
        ObjectNode e = h.read("layout.export", "{\"tab\":1}");
        assertEquals("{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
                e.get("root").toString());
        assertEquals("2", e.get("focused").asText());
        int panes = h.model.state.panes().size();
        ObjectNode a = h.call("layout.apply", "{\"tab\":1,\"focus\":\"1\",\"root\":{\"axis\":\"vertical\",\"ratio\":0.25,"
                + "\"a\":{\"pane\":\"2\"},\"b\":{\"pane\":\"1\"}}}");
        assertEquals("1", a.get("focused").asText());
        assertEquals(panes, h.model.state.panes().size());
        assertEquals(2500, h.read("pane.layout", "{\"pane\":\"2\"}").get("rect").get("height").intValue());
        assertEquals("3", h.read("layout.export", "{}").get("root").get("pane").asText());
    }

    @Test
    void applyRefusesEveryBadTreeBeforeMutation() {
        String[] bad = {
            "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"1\"}}",
            "{\"pane\":\"1\"}",
            "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"3\"}}",
            "{\"axis\":\"diagonal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
            "{\"axis\":\"horizontal\",\"ratio\":1.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
            "{\"axis\":\"horizontal\",\"ratio\":\"half\",\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}}",
            "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"}}",
            "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"},\"c\":1}",
        };
        for (String root : bad) {
            h.reject(INVALID_REQUEST, "layout.apply", "{\"tab\":1,\"root\":" + root + "}");
        }
        h.reject(INVALID_REQUEST, "layout.apply", "{\"tab\":1,\"root\":{\"axis\":\"horizontal\",\"ratio\":0.5,"
                + "\"a\":{\"pane\":\"1\"},\"b\":{\"pane\":\"2\"}},\"focus\":\"3\"}");
        h.reject(INVALID_REQUEST, "layout.apply", "{\"tab\":3,\"root\":{\"pane\":\"1\"}}");
        h.reject(INVALID_REQUEST, "layout.apply", "{\"tab\":1}");
        // 10,000 levels deep: built in memory (a JSON parser would refuse it earlier), refused by the bound.
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode deep = f.objectNode().put("pane", "1");
        for (int i = 0; i < 10_000; i++) {
            ObjectNode s = f.objectNode().put("axis", "horizontal").put("ratio", 0.5);
            s.set("a", deep);
            s.set("b", f.objectNode().put("pane", "2"));
            deep = s;
        }
        ObjectNode params = f.objectNode().put("tab", 1);
        params.set("root", deep);
        long t0 = System.nanoTime();
        h.reject(INVALID_REQUEST, "layout.apply", params);
        assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "a huge tree is refused fast");
    }

    @Test
    void setSplitRatioByPathClampsAndRefusesBadPaths() {
        ObjectNode r = h.call("layout.set_split_ratio", "{\"tab\":1,\"path\":[],\"ratio\":0.3}");
        assertEquals(0.3, r.get("ratio").doubleValue(), 1e-9);
        assertEquals(3000, h.read("pane.layout", "{\"pane\":\"1\"}").get("rect").get("width").intValue());
        ObjectNode c = h.call("layout.set_split_ratio", "{\"tab\":1,\"path\":[],\"ratio\":0}");
        assertEquals(0.01, c.get("ratio").doubleValue(), 1e-9);
        h.reject(NOT_FOUND, "layout.set_split_ratio", "{\"tab\":1,\"path\":[\"a\"],\"ratio\":0.5}");
        h.reject(NOT_FOUND, "layout.set_split_ratio", "{\"tab\":1,\"path\":[\"a\",\"b\"],\"ratio\":0.5}");
        h.reject(INVALID_REQUEST, "layout.set_split_ratio", "{\"tab\":1,\"path\":[\"c\"],\"ratio\":0.5}");
        h.reject(INVALID_REQUEST, "layout.set_split_ratio", "{\"tab\":1,\"path\":[],\"ratio\":1.5}");
        h.reject(INVALID_REQUEST, "layout.set_split_ratio", "{\"tab\":1,\"path\":[]}");
        h.reject(INVALID_REQUEST, "layout.set_split_ratio", "{\"tab\":3,\"path\":[],\"ratio\":0.5}");
        h.reject(NOT_FOUND, "layout.set_split_ratio", "{\"path\":[],\"ratio\":0.5}");
    }
}
