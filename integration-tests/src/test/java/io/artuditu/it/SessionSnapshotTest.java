package io.artuditu.it;

import static io.artuditu.it.TopologyMethodsTest.ok;
import static io.artuditu.it.TopologyMethodsTest.open;
import static io.artuditu.it.TopologyMethodsTest.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * session.snapshot over the real socket: its shape (Wire validates every reply against
 * session.json), that it agrees with the per-family reads, that it starts nothing and changes
 * nothing, and the sequence fence a client subscribes on.
 */
class SessionSnapshotTest extends OneServerPerClass {
    static JsonNode snapshot() throws Exception {
        return ok("session.snapshot", "{}");
    }

    @Test
    void theSnapshotHoldsEveryWorkspaceTabAndPaneAsTheFamiliesReportThem() throws Exception {
        JsonNode opened = open("snap");
        String ws = opened.get("workspace_id").asText();
        String p1 = opened.get("pane").asText();
        String p2 = ok("pane.split", p("pane", p1, "direction", "down")).get("pane").asText();
        ok("pane.purpose", p("pane", p2, "purpose", "tests"));
        String dash = ok("tab.new", p("workspace_id", ws, "kind", "git")).get("tab_id").asText();

        JsonNode s = snapshot();
        JsonNode list = ok("workspace.list", "{}");
        assertEquals(list.get("workspaces").size(), s.get("workspaces").size());
        JsonNode row = null;
        for (JsonNode w : s.get("workspaces")) {
            if (w.get("workspace_id").asText().equals(ws)) {
                row = w;
            }
        }
        assertNotNull(row, "the new workspace is in the snapshot");
        assertTrue(row.get("active").asBoolean());
        assertEquals(ws, s.get("active_workspace").asText());
        assertEquals("snap", row.get("name").asText());
        assertEquals(2, row.get("tabs").size());
        JsonNode paneTab = row.get("tabs").get(0);
        assertEquals(ok("layout.export", p("tab_id", paneTab.get("tab_id").asText())).get("root"), paneTab.get("root"));
        assertEquals(p2, paneTab.get("focused").asText());
        JsonNode dashRow = row.get("tabs").get(1);
        assertEquals(dash, dashRow.get("tab_id").asText());
        assertEquals("git", dashRow.get("kind").asText());
        assertTrue(dashRow.get("root").isNull());
        assertEquals(0, dashRow.get("panes").size());
        assertEquals(dash, row.get("active_tab").asText());

        JsonNode panes = paneTab.get("panes");
        assertEquals(List.of(p1, p2), List.of(panes.get(0).get("pane").asText(), panes.get(1).get("pane").asText()));
        assertEquals("tests", panes.get(1).get("purpose").asText());
        for (JsonNode pn : panes) {
            JsonNode status = Wire.call(sock, "pane.status", p("pane", pn.get("pane").asText())).get("result");
            assertEquals(status.get("terminal_id").asText(), pn.get("terminal_id").asText());
            assertEquals(status.get("pid").asLong(), pn.get("pid").asLong());
            assertEquals(status.get("command").asText(), pn.get("command").asText(), "argv[0]'s base name");
            assertTrue(pn.get("alive").asBoolean());
            assertFalse(pn.get("process").asText("").isEmpty(), "the root process's name: " + pn);
            assertFalse(pn.get("command").asText().contains("/"), "a base name, no path, no arguments");
        }
        ok("workspace.close", p("workspace_id", ws));
    }

    @Test
    void readingTheSnapshotChangesNothingAndStartsNothing() throws Exception {
        open("still");
        // until the new shell has exec'd, the kernel names the root process after the forking thread
        Terms.await("the shells have exec'd", () -> !snapshot().toString().contains("PtyProcess"));
        JsonNode a = snapshot();
        // the server's direct children are the panes' root processes (shells may fork on their own)
        long children = ProcessHandle.of(server.process.pid()).orElseThrow().children().count();
        for (int i = 0; i < 20; i++) {
            snapshot();
        }
        JsonNode b = snapshot();
        assertEquals(strip(a), strip(b));
        // (the revision is not compared: a shell that just started publishes events of its own)
        assertTrue(ProcessHandle.of(server.process.pid()).orElseThrow().children().count() <= children,
                "no process started");
        assertEquals(strip(a), strip(snapshot()));
    }

    private static JsonNode strip(JsonNode n) {
        com.fasterxml.jackson.databind.node.ObjectNode o = n.deepCopy();
        o.remove("revision");
        o.remove("sequence");
        return o;
    }

    @Test
    void theSequenceIsAFenceASubscriberReconcilesOn() throws Exception {
        String ws = open("fence").get("workspace_id").asText();
        try (EventStream events = new EventStream(sock,
                "{\"id\":\"sub\",\"method\":\"events.subscribe\",\"params\":{}}", true)) {
            JsonNode ack = events.nextJson(10);
            assertEquals("events_subscribed", ack.at("/result/type").asText(), ack.toString());
            JsonNode before = snapshot();
            long fence = before.get("sequence").asLong();
            assertTrue(fence <= before.get("revision").asLong(), "read before the state: " + before);
            assertTrue(fence >= ack.at("/result/sequence").asLong());

            String tab = ok("tab.new", p("workspace_id", ws, "kind", "orchestration")).get("tab_id").asText();
            long created = -1;
            for (int i = 0; i < 200 && created < 0; i++) {
                JsonNode e = events.nextJson(10);
                if ("tab.created".equals(e.path("event").asText()) && e.toString().contains(tab)) {
                    created = e.get("sequence").asLong();
                }
            }
            assertTrue(created > fence, "an event the first snapshot lacks comes after its fence: " + created + " > " + fence);
            assertFalse(before.toString().contains(tab));
            JsonNode after = snapshot();
            assertTrue(after.get("sequence").asLong() >= created, "a later snapshot's fence covers the event");
            assertTrue(after.toString().contains(tab), "and it holds the tab");
        }
        ok("workspace.close", p("workspace_id", ws));
    }

    /** Opt-in (-Dartuditu.snapshot.bench=true): session.snapshot p50 on a large session; prints, asserts nothing. */
    @Test
    @EnabledIfSystemProperty(named = "artuditu.snapshot.bench", matches = "true")
    void snapshotLatencyOnALargeSession() throws Exception {
        int workspaces = 20;
        int tabs = 5;
        int panes = Integer.getInteger("artuditu.snapshot.panes", 2); // 20 x 5 x 4 exceeds the 256-pane cap
        for (int w = 0; w < workspaces; w++) {
            JsonNode o = open("bench" + w);
            String ws = o.get("workspace_id").asText();
            for (int t = 0; t < tabs; t++) {
                String pane = t == 0 ? o.get("pane").asText() : ok("tab.new", p("workspace_id", ws)).get("pane").asText();
                for (int k = 1; k < panes; k++) {
                    pane = ok("pane.split", p("pane", pane, "direction", k % 2 == 0 ? "down" : "right")).get("pane").asText();
                }
            }
        }
        Thread.sleep(Long.getLong("artuditu.snapshot.settle_ms", 5000)); // let 200 shells finish starting
        List<Long> ns = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            snapshot();
        }
        int total = 0;
        for (int i = 0; i < 200; i++) {
            long t0 = System.nanoTime();
            String raw;
            try (java.nio.channels.SocketChannel ch = Wire.connect(sock)) {
                Wire.send(ch, "{\"id\":\"b\",\"method\":\"session.snapshot\",\"params\":{}}\n".getBytes());
                raw = Wire.readToEnd(ch);
            }
            ns.add(System.nanoTime() - t0);
            total = raw.length();
        }
        long[] sorted = ns.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("session.snapshot %d ws x %d tabs x %d panes: p50 %.2f ms, p90 %.2f ms, %d bytes (client round trip on a fresh connection, not validated)%n",
                workspaces, tabs, panes, sorted[sorted.length / 2] / 1e6, sorted[sorted.length * 9 / 10] / 1e6, total);
    }
}
