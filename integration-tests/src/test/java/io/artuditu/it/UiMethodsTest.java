package io.artuditu.it;

import static io.artuditu.it.ScriptModules.head;
import static io.artuditu.it.ScriptModules.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ui family over the real socket: the Artuditu Bar, docks, notifications, toasts and
 * sidebars, with every limit the spec sets exceeded by one, and the rule that invalid
 * input changes nothing.
 */
class UiMethodsTest extends OneServerPerClass {
    static final String BARS17;

    static {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= 17; i++) {
            s.append("[[bars]]\nid = \"w").append(i).append("\"\n");
        }
        BARS17 = s.toString();
    }

    @BeforeAll
    static void modules() throws Exception {
        Path alpha = ScriptModules.folder(work, "alpha", head("alpha", "[\"read\", \"extensions\"]")
                + "[[actions]]\nid = \"act\"\nrun = \"bin/act.sh\"\n"
                + "[[bars]]\nid = \"status\"\n[[bars]]\nid = \"shared\"\npriority = 5\n"
                + "[[docks]]\nid = \"list\"\ntitle = \"Alpha list\"\n");
        ScriptModules.script(alpha, "bin/act.sh", "exit 0");
        ScriptModules.link(sock, alpha);
        Path beta = ScriptModules.folder(work, "beta", head("beta", "[\"read\"]")
                + "[[actions]]\nid = \"go\"\nrun = \"bin/go.sh\"\n[[bars]]\nid = \"shared\"\n[[bars]]\nid = \"own\"\n");
        ScriptModules.script(beta, "bin/go.sh", "exit 0");
        ScriptModules.link(sock, beta);
        for (String m : List.of("g1", "g2", "g3", "g4", "rate", "gone")) {
            ScriptModules.link(sock, ScriptModules.folder(work, m, head(m, "[\"read\"]") + BARS17
                    + "[[docks]]\nid = \"d\"\n"));
        }
    }

    static String seg(String text) {
        return "{\"type\":\"text\",\"text\":" + Wire.M.valueToTree(text) + "}";
    }

    static JsonNode push(String owner, String id, String content) throws IOException {
        return Wire.call(sock, "ui.bar.push", "{" + (owner == null ? "" : "\"owner\":\"" + owner + "\",") + "\"id\":\"" + id
                + "\",\"content\":" + content + "}");
    }

    static JsonNode widget(String key) throws IOException {
        for (JsonNode w : ok(sock, "ui.bar.list", "{}").get("widgets")) {
            if (w.get("key").asText().equals(key)) {
                return w;
            }
        }
        return null;
    }

    static void invalid(JsonNode reply, String fragment) {
        assertEquals("invalid_request", Wire.code(reply), reply.toString());
        assertTrue(reply.at("/error/message").asText().contains(fragment), reply.toString());
    }

    @Test
    void pushListMoveRemove() throws Exception {
        JsonNode r = push("alpha", "status", "[" + seg("CI") + ",{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"}]");
        assertEquals("alpha/status", r.at("/result/key").asText(), r.toString());
        assertTrue(r.at("/result/changed").asBoolean());
        assertFalse(push("alpha", "status", "[" + seg("CI") + ",{\"type\":\"symbol\",\"symbol\":\"✓\",\"tone\":\"success\"}]")
                .at("/result/changed").asBoolean(), "the same content again is no change");
        JsonNode w = widget("alpha/status");
        assertEquals("top-right", w.get("region").asText());
        assertEquals(3, w.get("width").asInt(), "CI is 2 columns, the check mark 1");
        JsonNode moved = ok(sock, "ui.bar.move", "{\"owner\":\"alpha\",\"id\":\"status\",\"region\":\"bottom-right\"}");
        assertEquals("bottom-right", moved.get("region").asText());
        assertEquals("bottom-right", widget("alpha/status").get("region").asText());
        assertTrue(ok(sock, "ui.bar.remove", "{\"owner\":\"alpha\",\"id\":\"status\"}").get("removed").asBoolean());
        assertEquals(null, widget("alpha/status"));
        assertFalse(ok(sock, "ui.bar.remove", "{\"owner\":\"alpha\",\"id\":\"status\"}").get("removed").asBoolean());
        push("alpha", "status", "[" + seg("back") + "]");
        assertEquals("bottom-right", widget("alpha/status").get("region").asText(), "remove keeps the placement");
        ok(sock, "ui.bar.move", "{\"owner\":\"alpha\",\"id\":\"status\",\"region\":\"top-right\"}");
    }

    @Test
    void everySegmentShapeOfTheSpecIsAccepted() throws Exception {
        String spec = "[{\"type\":\"text\", \"text\":\"CI\", \"tone\":\"muted\"},"
                + "{\"type\":\"symbol\", \"symbol\":\"✓\", \"tone\":\"success\"},"
                + "{\"type\":\"state\", \"state\":\"done\", \"label\":\"passing\"},"
                + "{\"type\":\"badge\", \"text\":\"2\", \"tone\":\"error\", \"action\":\"act\", \"value\":\"run-1842\"},"
                + "{\"type\":\"progress\", \"value\":3, \"total\":7, \"width\":8},"
                + "{\"type\":\"spacer\", \"width\":1},{\"type\":\"separator\"}]";
        JsonNode r = push("alpha", "status", spec);
        assertTrue(r.has("result"), r.toString());
        assertEquals(2 + 1 + 9 + 3 + 8 + 1 + 1, widget("alpha/status").get("width").asInt());
        for (String tone : List.of("normal", "muted", "accent", "success", "warning", "error")) {
            assertTrue(push("alpha", "status", "[{\"type\":\"text\",\"text\":\"t\",\"tone\":\"" + tone + "\"}]").has("result"));
        }
        for (String state : List.of("blocked", "working", "done", "idle", "unknown")) {
            assertTrue(push("alpha", "status", "[{\"type\":\"state\",\"state\":\"" + state + "\"}]").has("result"));
        }
        Thread.sleep(1100); // leave the rate window for the other tests
    }

    @Test
    void invalidContentLeavesThePreviousValue() throws Exception {
        push("alpha", "shared", "[" + seg("good") + "]");
        List<String> bad = new ArrayList<>();
        bad.add("[" + seg("bell\u0007") + "]");
        bad.add("[" + seg("esc\u001b[31m") + "]");
        bad.add("[" + seg("c1\u009b") + "]");
        bad.add("[" + seg("x".repeat(257)) + "]");
        StringBuilder seventeen = new StringBuilder("[");
        for (int i = 0; i < 17; i++) {
            seventeen.append(i == 0 ? "" : ",").append(seg("s"));
        }
        bad.add(seventeen.append("]").toString());
        bad.add("[" + seg("x".repeat(200)) + "," + seg("y".repeat(57)) + "]"); // 257 columns
        bad.add("[{\"type\":\"text\",\"text\":\"a\",\"action\":\"nope\"}]");
        bad.add("[{\"type\":\"badge\",\"text\":\"a\",\"action\":\"go\"}]"); // beta's action
        bad.add("[{\"type\":\"progress\",\"value\":8,\"total\":7}]");
        bad.add("[{\"type\":\"text\"}]");
        bad.add("[{\"type\":\"spacer\",\"text\":\"x\"}]");
        bad.add("[{\"type\":\"text\",\"text\":\"a\",\"value\":\"" + "v".repeat(257) + "\"}]");
        for (String content : bad) {
            JsonNode r = push("alpha", "shared", content);
            assertEquals("invalid_request", Wire.code(r), content + " -> " + r);
        }
        assertEquals("[" + seg("good") + "]", widget("alpha/shared").get("content").toString());
        StringBuilder sixteen = new StringBuilder("[");
        for (int i = 0; i < 16; i++) {
            sixteen.append(i == 0 ? "" : ",").append(seg("s"));
        }
        assertTrue(push("alpha", "shared", sixteen + "]").has("result"), "16 segments is the limit, not over it");
        assertTrue(push("alpha", "shared", "[" + seg("x".repeat(200)) + "," + seg("y".repeat(56)) + "]").has("result"),
                "256 columns is the limit");
        assertTrue(push("alpha", "shared", "[" + seg("é".repeat(128)) + "]").has("result"), "256 bytes is the limit");
        invalid(push("alpha", "shared", "[" + seg("é".repeat(128) + "e") + "]"), "257 bytes");
        Thread.sleep(1100);
    }

    @Test
    void ownerRules() throws Exception {
        invalid(push(null, "shared", "[" + seg("?") + "]"), "several modules");
        assertTrue(push(null, "own", "[" + seg("mine") + "]").has("result"), "an unambiguous id needs no owner");
        assertEquals("beta", widget("beta/own").get("owner").asText());
        invalid(push("beta", "status", "[" + seg("theirs") + "]"), "declares no bar status");
        assertEquals("not_found", Wire.code(push("ghost", "status", "[]")));
        assertEquals("not_found", Wire.code(push(null, "undeclared", "[]")));
        invalid(Wire.call(sock, "ui.bar.move", "{\"owner\":\"beta\",\"id\":\"status\",\"region\":\"off\"}"),
                "declares no bar");
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.bar.move",
                "{\"owner\":\"beta\",\"id\":\"own\",\"region\":\"middle\"}")), "regions are top-right, bottom-right, off");
    }

    @Test
    void sixteenWidgetsPerModuleAndSixtyFourInAll() throws Exception {
        for (int i = 1; i <= 16; i++) {
            assertTrue(push("g1", "w" + i, "[" + seg("g") + "]").has("result"));
        }
        assertEquals(16, ok(sock, "module.info", "{\"id\":\"g1\"}").at("/module/live_widgets").asInt());
        invalid(push("g1", "w17", "[" + seg("17th") + "]"), "16 live widgets");
        for (String m : List.of("g2", "g3")) {
            for (int i = 1; i <= 16; i++) {
                assertTrue(push(m, "w" + i, "[" + seg("g") + "]").has("result"));
            }
        }
        int live = ok(sock, "ui.bar.list", "{}").get("widgets").size();
        List<String> added = new ArrayList<>();
        for (int i = 1; live < 64; i++, live++) {
            assertTrue(push("g4", "w" + i, "[" + seg("g") + "]").has("result"));
            added.add("w" + i);
        }
        invalid(push("g4", "w16", "[" + seg("65th") + "]"), "64 live widgets");
        assertTrue(push("g1", "w1", "[" + seg("replacing is not adding") + "]").has("result"));
        for (String m : List.of("g1", "g2", "g3")) {
            for (int i = 1; i <= 16; i++) {
                ok(sock, "ui.bar.remove", "{\"owner\":\"" + m + "\",\"id\":\"w" + i + "\"}");
            }
        }
        for (String w : added) {
            ok(sock, "ui.bar.remove", "{\"owner\":\"g4\",\"id\":\"" + w + "\"}");
        }
    }

    @Test
    void thirtyUpdatesPerModulePerSecond() throws Exception {
        Thread.sleep(1100);
        int accepted = 0;
        JsonNode refused = null;
        long t0 = System.nanoTime();
        for (int i = 0; i < 31 && refused == null; i++) {
            JsonNode r = push("rate", "w1", "[" + seg("n" + i) + "]");
            if (r.has("result")) {
                accepted++;
            } else {
                refused = r;
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms < 1000) {
            assertEquals(30, accepted, "30 in one second are accepted");
            invalid(refused, "30 times a second");
            assertEquals("[" + seg("n29") + "]", widget("rate/w1").get("content").toString(), "the refused update changed nothing");
        }
        Thread.sleep(1100);
        assertTrue(push("rate", "w1", "[" + seg("later") + "]").has("result"), "the window moves on");
    }

    @Test
    void notifications() throws Exception {
        ok(sock, "ui.notification.clear", "{}");
        ok(sock, "ui.notification.push", "{\"text\":\"short\",\"ttl_ms\":1,\"dedupe_key\":\"a\"}");
        ok(sock, "ui.notification.push", "{\"text\":\"long\",\"ttl_ms\":1000000,\"dedupe_key\":\"b\"}");
        ok(sock, "ui.notification.push", "{\"text\":\"default\",\"dedupe_key\":\"c\"}");
        ArrayNode list = (ArrayNode) ok(sock, "ui.notification.list", "{}").get("notifications");
        assertEquals(500, list.get(0).get("ttl_ms").asInt(), "clamped up to 500 ms");
        assertEquals(60000, list.get(1).get("ttl_ms").asInt(), "clamped down to 60,000 ms");
        assertEquals(4000, list.get(2).get("ttl_ms").asInt());
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.notification.push", "{\"text\":\"x\",\"ttl_ms\":0}")),
                "a supplied TTL must be positive");
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.notification.push", "{\"text\":\"x\",\"ttl_ms\":-5}")));
        JsonNode rep = ok(sock, "ui.notification.push", "{\"text\":\"long again\",\"ttl_ms\":60000,\"dedupe_key\":\"b\"}");
        assertTrue(rep.get("replaced").asBoolean());
        JsonNode other = ok(sock, "ui.notification.push", "{\"owner\":\"alpha\",\"text\":\"alpha's b\",\"dedupe_key\":\"b\"}");
        assertFalse(other.get("replaced").asBoolean(), "dedupe is per (owner, dedupe_key)");
        assertEquals(1, ok(sock, "ui.notification.clear", "{\"owner\":\"alpha\"}").get("removed").asInt());
        ok(sock, "ui.notification.clear", "{}");
        for (int i = 0; i < 33; i++) {
            ok(sock, "ui.notification.push", "{\"text\":\"n" + i + "\",\"ttl_ms\":60000}");
        }
        list = (ArrayNode) ok(sock, "ui.notification.list", "{}").get("notifications");
        assertEquals(32, list.size(), "the queue holds 32");
        assertEquals("n1", list.get(0).get("text").asText(), "the oldest went first");
        invalid(Wire.call(sock, "ui.notification.push", "{\"text\":\"x\",\"action\":\"act\"}"), "needs its owner");
        invalid(Wire.call(sock, "ui.notification.push", "{\"owner\":\"alpha\",\"text\":\"x\",\"action\":\"go\"}"),
                "declares no action go");
        invalid(Wire.call(sock, "ui.notification.push", "{\"text\":\"tab\\there\"}"), "control character");
        assertEquals("not_found", Wire.code(Wire.call(sock, "ui.notification.push", "{\"owner\":\"ghost\",\"text\":\"x\"}")));
        assertEquals(32, ok(sock, "ui.notification.clear", "{}").get("removed").asInt());
    }

    @Test
    void aNotificationWhoseTtlRanOutLeavesTheListAndTheServerSaysSo() throws Exception {
        ok(sock, "ui.notification.clear", "{\"dedupe_key\":\"expiry\"}");
        long fence = ok(sock, "events.wait", "{\"event\":\"ui.notification.changed\",\"timeout_s\":1}").get("sequence")
                .asLong();
        long pushedAt = System.nanoTime();
        ok(sock, "ui.notification.push", "{\"text\":\"brief\",\"ttl_ms\":500,\"dedupe_key\":\"expiry\"}");
        JsonNode pushed = ok(sock, "events.wait", "{\"event\":\"ui.notification.changed\",\"after_sequence\":" + fence
                + ",\"timeout_s\":5}");
        assertTrue(pushed.get("matched").asBoolean(), "the push is announced: " + pushed);
        assertTrue(ok(sock, "ui.notification.list", "{}").get("notifications").findValuesAsText("text").contains("brief"));
        // The next changes come from the server alone; the one after which the list lacks it is its expiry.
        long after = pushed.at("/event/sequence").asLong();
        for (int i = 0; ; i++) {
            JsonNode changed = ok(sock, "events.wait", "{\"event\":\"ui.notification.changed\",\"after_sequence\":"
                    + after + ",\"timeout_s\":5}");
            assertTrue(changed.get("matched").asBoolean(), "the expiry is announced without a call: " + changed);
            after = changed.at("/event/sequence").asLong();
            if (!ok(sock, "ui.notification.list", "{}").get("notifications").findValuesAsText("text").contains("brief")) {
                long waitedMs = (System.nanoTime() - pushedAt) / 1_000_000;
                assertTrue(waitedMs >= 450, "not before the TTL ran out: " + waitedMs + " ms");
                return;
            }
            assertTrue(i < 5, "an announced change took it away");
        }
    }

    @Test
    void docks() throws Exception {
        String rows = "[{\"text\":\"one\",\"dot\":\"working\",\"action\":\"act\",\"value\":\"1\",\"menu\":[{\"title\":\"Open\","
                + "\"action\":\"act\",\"value\":\"o\"},{\"title\":\"\",\"action\":\"\"},{\"title\":\"Kill\",\"action\":\"act\","
                + "\"destructive\":true}]},{\"text\":\"two\"}]";
        ok(sock, "ui.dock.push", "{\"id\":\"list\",\"rows\":" + rows + "}");
        JsonNode dock = dock("alpha", "list");
        assertEquals("left", dock.get("side").asText());
        assertEquals("Alpha list", dock.get("title").asText(), "the manifest's title until a push gives one");
        assertEquals(Wire.M.readTree(rows), dock.get("rows"));
        ok(sock, "ui.dock.move", "{\"id\":\"list\",\"side\":\"right\"}");
        assertEquals("right", dock("alpha", "list").get("side").asText());
        ok(sock, "ui.dock.move", "{\"id\":\"list\",\"side\":\"left\"}");
        ObjectNode many = Wire.M.createObjectNode().put("id", "list");
        ArrayNode r = many.putArray("rows");
        for (int i = 0; i < 201; i++) {
            r.addObject().put("text", "r" + i);
        }
        invalid(Wire.call(sock, "ui.dock.push", many.toString()), "at most 200");
        invalid(Wire.call(sock, "ui.dock.push", "{\"id\":\"list\",\"rows\":[{\"text\":\"x\",\"action\":\"go\"}]}"),
                "declares no action go");
        invalid(Wire.call(sock, "ui.dock.push", "{\"id\":\"list\",\"rows\":[{\"text\":\"x\",\"menu\":[{\"title\":\"\\u001b\","
                + "\"action\":\"\"}]}]}"), "control character");
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.dock.push", "{\"id\":\"list\",\"rows\":[{\"title\":\"x\"}]}")),
                "only text is required, and nothing unknown is taken");
        assertEquals(Wire.M.readTree(rows), dock("alpha", "list").get("rows"), "refused pushes changed nothing");
        assertEquals("not_found", Wire.code(Wire.call(sock, "ui.dock.push", "{\"id\":\"nope\",\"rows\":[]}")));
        invalid(Wire.call(sock, "ui.dock.push", "{\"id\":\"d\",\"rows\":[]}"), "several modules");
        assertTrue(Wire.call(sock, "ui.dock.push", "{\"owner\":\"g1\",\"id\":\"d\",\"rows\":[]}").has("result"));
    }

    static JsonNode dock(String owner, String id) throws IOException {
        for (JsonNode d : ok(sock, "ui.dock.list", "{}").get("docks")) {
            if (d.get("owner").asText().equals(owner) && d.get("id").asText().equals(id)) {
                return d;
            }
        }
        throw new AssertionError("no dock " + owner + "/" + id);
    }

    @Test
    void toastIsAnEvent() throws Exception {
        long fence = ok(sock, "events.wait", "{\"event\":\"ui.toast\",\"timeout_s\":1}").get("sequence").asLong();
        ok(sock, "ui.toast", "{\"text\":\"hello\",\"level\":\"success\"}");
        JsonNode w = ok(sock, "events.wait", "{\"event\":\"ui.toast\",\"after_sequence\":" + fence + ",\"timeout_s\":5}");
        assertTrue(w.get("matched").asBoolean(), w.toString());
        assertEquals("hello", w.at("/event/data/text").asText(), w.toString());
        invalid(Wire.call(sock, "ui.toast", "{\"text\":\"\\u0007\"}"), "control character");
    }

    @Test
    void disablingAModuleClearsWhatItShows() throws Exception {
        assertTrue(push("gone", "w1", "[" + seg("here") + "]").has("result"));
        ok(sock, "ui.dock.push", "{\"owner\":\"gone\",\"id\":\"d\",\"rows\":[{\"text\":\"row\"}]}");
        ok(sock, "ui.notification.push", "{\"owner\":\"gone\",\"text\":\"note\",\"ttl_ms\":60000}");
        ok(sock, "module.disable", "{\"id\":\"gone\"}");
        assertEquals(null, widget("gone/w1"));
        for (JsonNode d : ok(sock, "ui.dock.list", "{}").get("docks")) {
            assertFalse(d.get("owner").asText().equals("gone"), d.toString());
        }
        for (JsonNode n : ok(sock, "ui.notification.list", "{}").get("notifications")) {
            assertFalse("gone".equals(n.path("owner").asText()), n.toString());
        }
        invalid(push("gone", "w1", "[]"), "not enabled");
        ok(sock, "module.enable", "{\"id\":\"gone\"}");
        assertTrue(push("gone", "w1", "[" + seg("back") + "]").has("result"));
    }

    @Test
    void sidebars() throws Exception {
        JsonNode left = ok(sock, "ui.sidebar", "{}");
        assertTrue(left.has("width") && left.has("visible"), left.toString());
        JsonNode right = ok(sock, "ui.sidebar", "{\"side\":\"right\",\"width\":40,\"visible\":true}");
        assertEquals(40, right.get("width").asInt());
        assertTrue(right.get("visible").asBoolean());
        assertEquals(40, ok(sock, "config.get", "{}").at("/config/sidebars/right/width").asInt(), "it is the config");
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.sidebar", "{\"width\":11}")));
        assertEquals("invalid_request", Wire.code(Wire.call(sock, "ui.sidebar", "{\"side\":\"top\"}")));
        ok(sock, "ui.sidebar", "{\"side\":\"right\",\"visible\":false}");
    }
}
