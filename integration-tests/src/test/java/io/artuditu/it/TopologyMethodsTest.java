package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The topology families (workspace.*, tab.*, pane.* topology, layout.*) over the real
 * socket: each method once on its happy path, and every refusal issue 6 lists, each checked
 * to leave the whole session exactly as it was (a full-state read before and after).
 */
class TopologyMethodsTest extends OneServerPerClass {
    private static int folders;

    // ------------------------------------------------------------------ helpers

    static JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("result");
    }

    static String p(Object... kv) {
        ObjectNode o = Terms.params();
        for (int i = 0; i < kv.length; i += 2) {
            o.set((String) kv[i], Wire.M.valueToTree(kv[i + 1]));
        }
        return Terms.json(o);
    }

    /**
     * The whole session as clients can read it: the workspace rows (with their tab rows), and
     * for every pane tab its pane rows and its exported layout. Revisions are left out.
     */
    static ObjectNode state() throws IOException {
        ObjectNode st = Terms.params();
        JsonNode wl = ok("workspace.list", "{}");
        st.set("workspaces", strip(wl));
        ObjectNode snap = (ObjectNode) strip(ok("session.snapshot", "{}"));
        snap.remove("sequence");
        st.set("snapshot", withoutRuntimeFacts(snap));
        for (JsonNode w : wl.get("workspaces")) {
            for (JsonNode t : w.get("tabs")) {
                if (t.get("kind").asText().equals("panes")) {
                    String tab = t.get("tab_id").asText();
                    st.set("panes " + tab, withoutPaneMetrics(strip(ok("pane.list", p("tab_id", tab)))));
                    st.set("layout " + tab, strip(ok("layout.export", p("tab_id", tab))));
                }
            }
        }
        return st;
    }

    /**
     * A snapshot without what its processes change on their own: a shell that sets its title at
     * each prompt, the process scan catching up. What stays is the session's state.
     */
    static ObjectNode withoutRuntimeFacts(ObjectNode snapshot) {
        for (JsonNode w : snapshot.path("workspaces")) {
            for (JsonNode t : w.path("tabs")) {
                for (JsonNode pn : t.path("panes")) {
                    ((ObjectNode) pn).remove(List.of("title", "process", "process_scan", "agent"));
                }
            }
        }
        return snapshot;
    }

    /**
     * A pane list without what the terminals change on their own (scrollback, counters that
     * grow with every read of the process scan): what stays is the topology.
     */
    static JsonNode withoutPaneMetrics(JsonNode list) {
        ObjectNode o = (ObjectNode) list;
        o.remove(List.of("render_performance", "detection_performance", "detection_extractions", "detection_skips"));
        for (JsonNode row : o.path("panes")) {
            ((ObjectNode) row).remove(List.of("scroll_offset", "history_rows", "history_budget_bytes", "history_bytes",
                    "history_exact"));
        }
        return o;
    }

    private static JsonNode strip(JsonNode n) {
        ObjectNode o = n.deepCopy();
        o.remove("revision");
        return o;
    }

    /** {@code method} fails with {@code code} and the session is the same before and after. */
    static JsonNode refused(String method, String params, String code) throws IOException {
        return refused(method, params.getBytes(java.nio.charset.StandardCharsets.UTF_8), code);
    }

    static JsonNode refused(String method, byte[] params, String code) throws IOException {
        return refused("", method, params, code);
    }

    /** {@link #refused} for a request carrying {@code if_revision}. */
    static JsonNode refusedAt(long ifRevision, String method, String params, String code) throws IOException {
        return refused(",\"if_revision\":" + ifRevision, method, params.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                code);
    }

    private static JsonNode refused(String extra, String method, byte[] params, String code) throws IOException {
        ObjectNode before = state();
        byte[] head = ("{\"id\":\"t\",\"method\":\"" + method + "\"" + extra + ",\"params\":")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] req = new byte[head.length + params.length + 2];
        System.arraycopy(head, 0, req, 0, head.length);
        System.arraycopy(params, 0, req, head.length, params.length);
        req[req.length - 2] = '}';
        req[req.length - 1] = '\n';
        JsonNode r = Wire.exchange(sock, req, method);
        String shown = params.length > 300 ? new String(params, 0, 300, java.nio.charset.StandardCharsets.UTF_8) + "…" : new String(params, java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(code, Wire.code(r), method + " " + shown + " -> " + Terms.clip(r.toString()));
        assertEquals(before, state(), method + " " + shown + " left the session unchanged");
        return r.get("error");
    }

    /** A new workspace in a fresh folder; returns its workspace.open result. */
    static JsonNode open(String name) throws IOException {
        Path dir = work.resolve("ws" + (++folders));
        Files.createDirectories(dir);
        return ok("workspace.open", p("cwd", dir.toString(), "name", name));
    }

    static int indexOf(String wsId) throws IOException {
        for (JsonNode w : ok("workspace.list", "{}").get("workspaces")) {
            if (w.get("workspace_id").asText().equals(wsId)) {
                return w.get("workspace").asInt();
            }
        }
        throw new AssertionError("no workspace " + wsId);
    }

    static int workspaceCount() throws IOException {
        return ok("workspace.list", "{}").get("workspaces").size();
    }

    static JsonNode tabs(String wsId) throws IOException {
        return ok("tab.list", p("workspace_id", wsId)).get("tabs");
    }

    // ------------------------------------------------------------------ workspaces

    @Test
    void workspacesListRenamePinMoveAndEveryRefusal() throws Exception {
        String a = open("alpha").get("workspace_id").asText();
        String b = open("beta").get("workspace_id").asText();
        int n = workspaceCount();
        assertTrue(n >= 2);
        int ia = indexOf(a);

        JsonNode renamed = ok("workspace.rename", p("workspace_id", a, "name", "  api  "));
        assertEquals("api", renamed.get("name").asText());
        assertEquals(ia, renamed.get("workspace").asInt());
        JsonNode pinned = ok("workspace.pin", p("workspace_id", b, "pinned", true));
        assertTrue(pinned.get("pinned").asBoolean());
        assertEquals(0, pinned.get("display_position").asInt(), "a pinned workspace shows first");
        assertEquals(indexOf(b), pinned.get("workspace").asInt(), "pinning keeps the API index");
        ok("workspace.pin", p("workspace_id", b, "pinned", false));

        String active = ok("workspace.list", "{}").get("active").asText();
        JsonNode moved = ok("workspace.move", p("workspace_id", a, "to", n - 1));
        assertEquals(n - 1, indexOf(a));
        assertEquals(n - 1, moved.get("to").asInt());
        assertEquals(b, ok("workspace.get", p("workspace", moved.get("active").asInt())).get("workspace_id").asText(),
                "the active workspace (" + active + ") stays active");

        // every change moves the revision: a write based on a read from before it is refused
        long seen = ok("workspace.list", "{}").get("revision").asLong();
        ok("workspace.rename", p("workspace_id", b, "name", "beta2"));
        refusedAt(seen, "workspace.rename", p("workspace_id", a, "name", "stale"), "revision_conflict");
        seen = ok("workspace.list", "{}").get("revision").asLong();
        String wasActive = ok("workspace.list", "{}").get("workspaces").get(ok("workspace.list", "{}").get("active").asInt())
                .get("workspace_id").asText();
        ok("workspace.focus", p("workspace_id", wasActive.equals(a) ? b : a));
        refusedAt(seen, "workspace.pin", p("workspace_id", a, "pinned", true), "revision_conflict");
        seen = ok("workspace.list", "{}").get("revision").asLong();
        ok("workspace.move", p("workspace_id", a, "to", 0));
        refusedAt(seen, "workspace.rename", p("workspace", 0, "name", "moved"), "revision_conflict");

        // if_revision inside params is the same fence, for every mutating method
        seen = ok("workspace.list", "{}").get("revision").asLong();
        ok("workspace.rename", p("workspace_id", b, "name", "beta3"));
        refused("workspace.rename", p("workspace_id", a, "name", "stale", "if_revision", seen), "revision_conflict");
        long current = ok("workspace.list", "{}").get("revision").asLong();
        refusedAt(current, "workspace.rename", p("workspace_id", a, "name", "two", "if_revision", seen), "invalid_request");
        refused("workspace.rename", p("workspace_id", a, "name", "bad", "if_revision", "7"), "invalid_request");
        refused("workspace.list", p("if_revision", current), "invalid_request");
        JsonNode fresh = ok("workspace.rename", p("workspace_id", a, "name", "fresh", "if_revision", current));
        assertEquals("fresh", fresh.get("name").asText());
        assertEquals(current + 1, fresh.get("revision").asLong());
        JsonNode both = Wire.exchange(sock, "{\"id\":\"r\",\"method\":\"workspace.rename\",\"if_revision\":" + (current + 1)
                + ",\"params\":" + p("workspace_id", a, "name", "api", "if_revision", current + 1) + "}\n", "workspace.rename");
        assertEquals("api", both.at("/result/name").asText(), both.toString());

        // A pane that prints moves the event sequence but changes no state: a revision read
        // before its output is still current ("if another successful mutation already changed
        // state", the spec's rule for a conflict).
        long read = ok("workspace.list", "{}").get("revision").asLong();
        String pane = ok("workspace.get", p("workspace_id", a)).at("/tabs/0/panes/0").asText();
        ok("pane.send_input", p("pane", pane, "text", "echo printed\n"));
        JsonNode printed = ok("events.wait", p("event", "terminal.output", "after_sequence", read, "timeout_s", 10));
        assertTrue(printed.get("matched").asBoolean(), printed.toString());
        assertTrue(ok("workspace.list", "{}").get("revision").asLong() > read, "the output took a sequence number");
        JsonNode afterOutput = ok("workspace.rename", p("workspace_id", a, "name", "api", "if_revision", read));
        assertEquals("api", afterOutput.get("name").asText());
        refused("workspace.rename", p("workspace_id", a, "name", "late", "if_revision", read), "revision_conflict");

        // refusals
        refused("workspace.rename", p("workspace", n, "name", "x"), "not_found");
        refused("workspace.rename", p("workspace", -1, "name", "x"), "invalid_request");
        refused("workspace.rename", p("workspace_id", "workspace_zz", "name", "x"), "invalid_request");
        refused("workspace.rename", p("workspace_id", "workspace_0000000000000000", "name", "x"), "not_found");
        // position and id together must agree: a is workspace 0 here
        refused("workspace.rename", p("workspace", 1, "workspace_id", a, "name", "x"), "invalid_request");
        refused("workspace.rename", p("workspace_id", a, "name", "   "), "invalid_request");
        refused("workspace.rename", p("workspace_id", a, "name", "x".repeat(41)), "invalid_request");
        refused("workspace.rename", p("workspace_id", a, "name", "two\nlines"), "invalid_request");
        refused("workspace.pin", p("workspace", n, "pinned", true), "not_found");
        refused("workspace.pin", p("workspace_id", "nope", "pinned", true), "invalid_request");
        refused("workspace.move", p("workspace", n, "to", 0), "not_found");
        refused("workspace.move", p("from", 0, "to", 1), "invalid_request");
        refused("workspace.move", p("workspace_id", a, "to", n), "invalid_request");
        refused("workspace.move", p("workspace_id", a, "to", -1), "invalid_request");
        refused("workspace.move_block", p("workspaces", List.of(0, 0), "to", 0), "invalid_request");
        refused("workspace.move_block", p("workspaces", List.of(), "to", 0), "invalid_request");
        refused("workspace.move_block", p("workspaces", List.of(0, n), "to", 0), "not_found");
        refused("workspace.move_block", p("workspaces", List.of(0, 1), "to", n - 1), "invalid_request");
        refused("workspace.get", p("workspace", n), "not_found");
        refused("workspace.close", p("workspace", n), "not_found");
    }

    @Test
    void reportMetadataShowsInEveryRowAndRefusesWholeReports() throws Exception {
        String a = open("meta").get("workspace_id").asText();
        int i = indexOf(a);
        JsonNode r = ok("workspace.report_metadata", p("workspace_id", a, "metadata",
                java.util.Map.of("branch", "feature/login", "dirty", true, "port", 5173)));
        assertEquals(i, r.get("workspace").asInt());
        assertTrue(r.get("changed").asBoolean());
        JsonNode row = ok("workspace.get", p("workspace_id", a));
        assertEquals("{\"branch\":\"feature/login\",\"dirty\":true,\"port\":5173}", row.get("metadata").toString());
        assertEquals(row.get("metadata"), ok("workspace.list", "{}").get("workspaces").get(i).get("metadata"));
        long revision = row.get("revision").asLong();
        JsonNode same = ok("workspace.report_metadata", p("workspace", i, "metadata", java.util.Map.of("port", 5173)));
        assertFalse(same.get("changed").asBoolean());
        assertEquals(revision, same.get("revision").asLong(), "a report that changes nothing moves no revision");

        java.util.Map<String, Object> removal = new java.util.HashMap<>();
        removal.put("dirty", null);
        ok("workspace.report_metadata", p("workspace_id", a, "metadata", removal));
        assertEquals("{\"branch\":\"feature/login\",\"port\":5173}",
                ok("workspace.get", p("workspace_id", a)).get("metadata").toString());

        java.util.Map<String, Object> many = new java.util.TreeMap<>();
        for (int k = 0; k < 31; k++) {
            many.put("k" + k, k);
        }
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", many), "invalid_request"); // 33 in all
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", java.util.Map.of("ok", 1, "Bad Key", 2)),
                "invalid_request");
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", java.util.Map.of("a", "x".repeat(257))),
                "invalid_request");
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", java.util.Map.of("a", "two\nlines")),
                "invalid_request");
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", java.util.Map.of("a", 1.5)), "invalid_request");
        refused("workspace.report_metadata", p("workspace_id", a, "metadata", java.util.Map.of("a", List.of(1))),
                "invalid_request");
        refused("workspace.report_metadata", p("workspace_id", a), "invalid_request");
        refused("workspace.report_metadata", p("metadata", java.util.Map.of("a", "b")), "invalid_request");
        refused("workspace.report_metadata", p("workspace", workspaceCount(), "metadata", java.util.Map.of("a", "b")),
                "not_found");
        refused("workspace.report_metadata", p("workspace_id", "workspace_0000000000000000", "metadata",
                java.util.Map.of("a", "b")), "not_found");
        ok("workspace.close", p("workspace_id", a));
    }

    // ------------------------------------------------------------------ tabs

    @Test
    void tabsNewMoveSwapRenameCloseAndEveryRefusal() throws Exception {
        JsonNode opened = open("tabs");
        String ws = opened.get("workspace_id").asText();
        String t1 = opened.get("tab_id").asText();
        JsonNode second = ok("tab.new", p("workspace_id", ws, "name", "second"));
        assertEquals(2, second.get("tab").asInt());
        String t2 = second.get("tab_id").asText();
        JsonNode git = ok("tab.new", p("workspace_id", ws, "kind", "git"));
        assertEquals(3, git.get("tab").asInt());
        assertTrue(git.get("pane").isNull(), "a dashboard has no pane");
        String dash = git.get("tab_id").asText();
        String t4 = ok("tab.new", p("workspace_id", ws)).get("tab_id").asText();
        int w = indexOf(ws);
        ok("workspace.focus", p("workspace_id", ws));

        JsonNode moved = ok("tab.move", p("workspace_id", ws, "tab_id", t1, "to", 4));
        assertEquals(1, moved.get("from").asInt());
        assertEquals(4, moved.get("to").asInt());
        assertEquals(List.of(t2, dash, t4, t1), ids(tabs(ws)));
        assertEquals(3, moved.get("active").asInt(), "the active tab (the last new one) stays active");
        ok("tab.move", p("workspace_id", ws, "direction", "left")); // the active tab t4 one step left
        assertEquals(List.of(t2, t4, dash, t1), ids(tabs(ws)));
        JsonNode swapped = ok("tab.swap", p("workspace", w, "tab", 1, "with", 4));
        assertEquals(2, swapped.get("active").asInt());
        assertEquals(List.of(t1, t4, dash, t2), ids(tabs(ws)));
        ok("tab.rename", p("workspace", w, "tab", 1, "name", "  first "));
        assertEquals("first", tabs(ws).get(0).get("name").asText());
        ok("tab.rename", p("workspace", w, "tab", 1, "name", ""));
        assertTrue(tabs(ws).get(0).get("name").isNull(), "an empty name clears the label");

        // refusals: positions, ids, moves
        refused("tab.move", p("workspace", w, "tab", 0, "to", 1), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 5, "to", 1), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 1, "to", 0), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 1, "to", 5), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 1), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 2, "to", 2), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 1, "direction", "left"), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 4, "direction", "right"), "invalid_request");
        refused("tab.move", p("workspace", w, "tab", 2, "direction", "left", "to", 1), "invalid_request");
        refused("tab.move", p("workspace", w, "tab_id", "tab_xyz", "to", 1), "invalid_request");
        refused("tab.move", p("workspace", w, "tab_id", "tab_0000000000000000", "to", 1), "not_found");
        refused("tab.move", p("workspace", w, "direction", "up"), "invalid_request");
        refused("tab.move", p("workspace", workspaceCount(), "tab", 1, "to", 2), "not_found");
        refused("tab.swap", p("workspace", w, "tab", 1, "with", 1), "invalid_request");
        refused("tab.swap", p("workspace", w, "tab", 1, "with", 5), "invalid_request");
        refused("tab.swap", p("workspace", w, "tab", 0, "with", 2), "invalid_request");
        refused("tab.rename", p("workspace", w, "tab", 5, "name", "x"), "invalid_request");
        refused("tab.rename", p("workspace", w, "tab", 1, "name", "x".repeat(41)), "invalid_request");
        refused("tab.rename", p("workspace", w, "tab", 3, "name", "dash"), "invalid_request");
        refused("tab.close", p("workspace", w, "tab", 5), "invalid_request");
        refused("tab.close", p("tab_id", "bad"), "invalid_request");
        refused("tab.focus", p("workspace", w, "tab", 0), "invalid_request");
        refused("tab.new", p("workspace_id", ws, "kind", "nonsense"), "invalid_request");
        // a dashboard is no destination for a pane, has no layout and no panes
        String pane = opened.get("pane").asText();
        refused("pane.move", p("pane", pane, "tab_id", dash), "invalid_request");
        refused("layout.export", p("tab_id", dash), "invalid_request");
        refused("pane.list", p("tab_id", dash), "invalid_request");

        JsonNode closed = ok("tab.close", p("tab_id", t2));
        assertEquals(t2, closed.get("tab_id").asText());
        assertEquals(1, closed.get("closed_panes").size());
        assertEquals(List.of(t1, t4, dash), ids(tabs(ws)));
        ok("workspace.close", p("workspace_id", ws));
    }

    private static List<String> ids(JsonNode rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.get("tab_id").asText()));
        return out;
    }

    // ------------------------------------------------------------------ panes

    @Test
    void panesSplitMoveSwapFocusGeometryZoomPurposeCloseAndEveryRefusal() throws Exception {
        JsonNode opened = open("panes");
        String ws = opened.get("workspace_id").asText();
        String tab = opened.get("tab_id").asText();
        String p1 = opened.get("pane").asText();
        JsonNode split = ok("pane.split", p("pane", p1, "right", true));
        assertEquals("ok", split.get("type").asText(), "the spec's result type");
        String p2 = split.get("pane").asText();
        assertEquals(p1, split.get("from").asText());
        assertEquals(tab, split.get("tab_id").asText());
        String p3 = ok("pane.split", p("pane", p2, "down", true, "focus", false)).get("pane").asText();
        assertEquals(p2, ok("pane.current", "{}").get("pane").asText(), "focus:false keeps the focus");

        JsonNode l1 = ok("pane.layout", p("pane", p1));
        assertEquals(10000, l1.get("area").asInt());
        assertEquals(5000, l1.at("/rect/width").asInt());
        assertEquals(p2, ok("pane.neighbor", p("pane", p1, "direction", "right")).get("neighbor").asText());
        assertTrue(ok("pane.neighbor", p("pane", p1, "direction", "left")).get("neighbor").isNull());
        assertEquals(Set.of("left", "up", "down"), strings(ok("pane.edges", p("pane", p1)).get("edges")));
        assertEquals(p2, ok("pane.current", "{}").get("pane").asText(), "reads never move the focus");

        JsonNode resized = ok("pane.resize", p("pane", p1, "direction", "right", "cells", 10));
        assertEquals(5500, resized.at("/rect/width").asInt());
        ok("pane.swap", p("pane", p1, "with", p3));
        assertEquals(p3, ok("layout.export", p("tab_id", tab)).at("/root/a/pane").asText());
        ok("pane.focus", p("pane", p1));
        JsonNode fd = ok("pane.focus_direction", p("direction", "up"));
        assertTrue(fd.get("moved").asBoolean());
        assertEquals(p2, fd.get("focused").asText());
        assertTrue(ok("pane.zoom", p("pane", p2, "on", true)).get("zoomed").asBoolean());
        assertTrue(ok("pane.get", p("pane", p2)).get("zoomed").asBoolean());
        assertFalse(ok("pane.zoom", p("pane", p2)).get("zoomed").asBoolean(), "toggle");
        assertEquals("tests", ok("pane.purpose", p("pane", p2, "purpose", "  tests ")).get("purpose").asText());
        assertEquals("srv", ok("pane.rename", p("pane", p2, "name", "srv")).get("name").asText());

        // refusals
        refused("pane.split", p("pane", "99999", "direction", "right"), "not_found");
        refused("pane.split", p("pane", "x1", "direction", "right"), "invalid_request");
        refused("pane.split", p("pane", p1, "direction", "sideways"), "invalid_request");
        refused("pane.split", p("pane", p1, "down", true, "right", true), "invalid_request");
        refused("pane.split", p("pane", p1, "down", false), "invalid_request");
        refused("pane.split", p("pane", p1, "left", true, "direction", "right"), "invalid_request");
        refused("pane.swap", p("pane", p1, "with", p1), "invalid_request");
        refused("pane.move", p("pane", p1, "tab_id", tab), "invalid_request");
        refused("pane.move", p("pane", p1, "new_tab", true, "tab", 1), "invalid_request");
        refused("pane.move", p("pane", p1, "tab", 9), "invalid_request");
        refused("pane.resize", p("pane", p3, "direction", "left", "cells", 1), "invalid_request"); // p3 is on the left edge after the swap
        refused("pane.resize", p("pane", p1, "direction", "right", "cells", 0), "invalid_request");
        refused("pane.purpose", p("pane", p2, "purpose", "x".repeat(61)), "invalid_request");
        refused("pane.purpose", p("pane", p2, "purpose", "   "), "invalid_request");
        refused("pane.purpose", p("pane", p2, "purpose", "a\nb"), "invalid_request");
        refused("pane.purpose", p("pane", p2, "purpose", "x", "clear", true), "invalid_request");
        refused("pane.rename", p("pane", p2, "name", "x".repeat(41)), "invalid_request");
        refused("pane.focus", p("pane", "0x"), "invalid_request");
        refused("pane.neighbor", p("pane", p1, "direction", "diagonal"), "invalid_request");
        assertTrue(ok("pane.purpose", p("pane", p2, "clear", true)).get("purpose").isNull());

        // move to a new tab, then back
        JsonNode mv = ok("pane.move", p("pane", p3, "new_tab", true));
        assertEquals(2, mv.get("tab").asInt());
        ok("pane.move", p("pane", p3, "tab_id", tab));
        assertEquals(1, tabs(ws).size(), "the emptied tab went away");
        assertEquals(3, tabs(ws).get(0).get("panes").size());

        assertEquals(p3, ok("pane.close", p("pane", p3)).get("pane").asText());
        Terms.await("the closed pane leaves the tab", () -> tabs(ws).get(0).get("panes").size() == 2);
        ok("workspace.close", p("workspace_id", ws));
    }

    private static Set<String> strings(JsonNode a) {
        Set<String> s = new java.util.HashSet<>();
        a.forEach(x -> s.add(x.asText()));
        return s;
    }

    // ------------------------------------------------------------------ layouts

    @Test
    void layoutExportApplySetRatioAndEveryRefusal() throws Exception {
        JsonNode opened = open("layouts");
        String ws = opened.get("workspace_id").asText();
        String tab = opened.get("tab_id").asText();
        String p1 = opened.get("pane").asText();
        String p2 = ok("pane.split", p("pane", p1, "direction", "right")).get("pane").asText();
        String other = ok("tab.new", p("workspace_id", ws)).get("pane").asText();

        JsonNode exported = ok("layout.export", p("tab_id", tab));
        assertEquals("horizontal", exported.at("/root/axis").asText());
        String tree = "{\"axis\":\"vertical\",\"ratio\":0.25,\"a\":{\"pane\":\"" + p2 + "\"},\"b\":{\"pane\":\"" + p1 + "\"}}";
        JsonNode applied = ok("layout.apply", "{\"tab_id\":\"" + tab + "\",\"root\":" + tree + ",\"focus\":\"" + p1 + "\"}");
        assertEquals(p1, applied.get("focused").asText());
        assertEquals(Wire.M.readTree(tree), ok("layout.export", p("tab_id", tab)).get("root"));
        JsonNode ratio = ok("layout.set_split_ratio", p("tab_id", tab, "path", List.of(), "ratio", 0.001));
        assertTrue(ratio.get("ratio").asDouble() > 0.001, "clamped to the minimum pane size: " + ratio);
        assertEquals(ratio.get("ratio").asDouble(), ok("layout.export", p("tab_id", tab)).at("/root/ratio").asDouble());

        String a = "{\"pane\":\"" + p1 + "\"}";
        String b = "{\"pane\":\"" + p2 + "\"}";
        String at = "{\"tab_id\":\"" + tab + "\",\"root\":";
        refusedApply(at + split("horizontal", 0.5, a, a) + "}", "duplicate_pane");
        refusedApply(at + a + "}", "missing_pane");
        refusedApply(at + split("horizontal", 0.5, a, "{\"pane\":\"" + other + "\"}") + "}", "foreign_pane");
        refusedApply(at + split("horizontal", 0.5, a, "{\"pane\":\"99999\"}") + "}", "foreign_pane");
        refusedApply(at + split("diagonal", 0.5, a, b) + "}", "invalid_axis");
        refusedApply(at + split("horizontal", 1.5, a, b) + "}", "invalid_ratio");
        refusedApply(at + split("horizontal", -0.1, a, b) + "}", "invalid_ratio");
        refusedApply(at + "{\"axis\":\"horizontal\",\"ratio\":0.5,\"a\":" + a + "}}", "missing_child");
        refusedApply(at + split("horizontal", 0.5, a, b) + ",\"focus\":\"" + other + "\"}", null);
        refused("layout.set_split_ratio", p("tab_id", tab, "path", List.of("a"), "ratio", 0.5), "not_found");
        refused("layout.set_split_ratio", p("tab_id", tab, "path", List.of("c"), "ratio", 0.5), "invalid_request");
        refused("layout.set_split_ratio", p("tab_id", tab, "path", List.of(), "ratio", 2), "invalid_request");

        // 10,000 levels deep: refused fast, before any mutation
        StringBuilder deep = new StringBuilder(at);
        for (int i = 0; i < 10_000; i++) {
            deep.append("{\"axis\":\"horizontal\",\"ratio\":0.5,\"b\":").append(b).append(",\"a\":");
        }
        deep.append(a).append("}".repeat(10_000)).append("}");
        long t0 = System.nanoTime();
        refused("layout.apply", deep.toString(), "invalid_request");
        // about 1 MB, wide rather than deep
        StringBuilder big = new StringBuilder(at);
        big.append(wide(14, a, b)).append("}");
        assertTrue(big.length() > 500_000 && big.length() < 1_048_000, "about 1 MB: " + big.length());
        refused("layout.apply", big.toString(), "invalid_request");
        // 10 MB, as the issue names: past the 1 MiB request line, refused before it is parsed
        StringBuilder huge = new StringBuilder(at);
        while (huge.length() < 10_000_000) {
            huge.append(wide(14, a, b).replace("\"ratio\":0.5", "\"ratio\":0.50000000000000000000"));
        }
        refused("layout.apply", huge.append("}").toString(), "request_too_large");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 5_000, "the huge trees were refused fast: " + ms + " ms (with six state reads)");
        ok("workspace.close", p("workspace_id", ws));
    }

    private static String split(String axis, double ratio, String a, String b) {
        return "{\"axis\":\"" + axis + "\",\"ratio\":" + ratio + ",\"a\":" + a + ",\"b\":" + b + "}";
    }

    private static String wide(int depth, String a, String b) {
        if (depth == 0) {
            return a;
        }
        String child = wide(depth - 1, a, b);
        return split("horizontal", 0.5, child, child);
    }

    private static void refusedApply(String params, String reason) throws IOException {
        JsonNode e = refused("layout.apply", params, "invalid_request");
        if (reason != null) {
            assertEquals(reason, e.at("/details/reason").asText(), Terms.clip(params) + " -> " + e);
        }
    }

    @Test
    void workspaceCloseRemovesItsTabsAndIsRefusedTwice() throws Exception {
        String ws = open("closing").get("workspace_id").asText();
        JsonNode c = ok("workspace.close", p("workspace_id", ws));
        assertEquals(ws, c.get("workspace_id").asText());
        assertEquals(1, c.get("closed_panes").size());
        refused("workspace.close", p("workspace_id", ws), "not_found");
        assertNotEquals(ws, ok("workspace.list", "{}").path("workspaces").path(0).path("workspace_id").asText(""));
    }
}
