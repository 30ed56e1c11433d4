package io.artuditu.it;

import static io.artuditu.it.TopologyMethodsTest.ok;
import static io.artuditu.it.TopologyMethodsTest.open;
import static io.artuditu.it.TopologyMethodsTest.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

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

        JsonNode views = null;
        for (JsonNode v : s.get("views")) {
            if (v.get("tab_id").asText().equals(dash)) {
                views = v;
            }
        }
        assertNotNull(views, "the git dashboard is a native view: " + s.get("views"));
        assertEquals("git", views.get("kind").asText());
        assertEquals(ws, views.get("workspace_id").asText());
        assertEquals("{}", row.get("metadata").toString());

        // the root process's name comes from the shared process scan, once it has seen the shell
        Terms.await("the scan names both root processes", () -> {
            for (JsonNode pn : paneRow(snapshot(), ws).get("panes")) {
                if (pn.get("process").isNull()) {
                    return false;
                }
            }
            return true;
        });
        JsonNode panes = paneRow(snapshot(), ws).get("panes");
        assertEquals(List.of(p1, p2), List.of(panes.get(0).get("pane").asText(), panes.get(1).get("pane").asText()));
        assertEquals("tests", panes.get(1).get("purpose").asText());
        for (JsonNode pn : panes) {
            JsonNode status = Wire.call(sock, "pane.status", p("pane", pn.get("pane").asText())).get("result");
            assertEquals(status.get("terminal_id").asText(), pn.get("terminal_id").asText());
            assertEquals(status.get("pid").asLong(), pn.get("pid").asLong());
            assertEquals(status.get("command").asText(), pn.get("command").asText(), "argv[0]'s base name");
            assertTrue(pn.get("alive").asBoolean());
            assertFalse(pn.get("process").asText("").isEmpty(), "the root process's name: " + pn);
            assertEquals("ok", pn.get("process_scan").asText());
            assertTrue(pn.get("agent").isNull(), "a shell is no agent: " + pn);
            assertFalse(pn.get("command").asText().contains("/"), "a base name, no path, no arguments");
        }
        ok("workspace.close", p("workspace_id", ws));
    }

    /** The first pane tab of workspace {@code ws} in snapshot {@code s}. */
    static JsonNode paneRow(JsonNode s, String ws) {
        for (JsonNode w : s.get("workspaces")) {
            if (w.get("workspace_id").asText().equals(ws)) {
                for (JsonNode t : w.get("tabs")) {
                    if (t.get("kind").asText().equals("panes")) {
                        return t;
                    }
                }
            }
        }
        throw new AssertionError("no pane tab of " + ws + " in " + Terms.clip(s.toString()));
    }

    static JsonNode paneById(JsonNode s, String pane) {
        for (JsonNode w : s.get("workspaces")) {
            for (JsonNode t : w.get("tabs")) {
                for (JsonNode pn : t.get("panes")) {
                    if (pn.get("pane").asText().equals(pane)) {
                        return pn;
                    }
                }
            }
        }
        throw new AssertionError("no pane " + pane + " in " + Terms.clip(s.toString()));
    }

    static JsonNode workspaceRow(JsonNode s, String ws) {
        for (JsonNode w : s.get("workspaces")) {
            if (w.get("workspace_id").asText().equals(ws)) {
                return w;
            }
        }
        throw new AssertionError("no workspace " + ws);
    }

    @Test
    void titlesMetadataAndAnAgentShowInTheSnapshot() throws Exception {
        JsonNode opened = open("agents");
        String ws = opened.get("workspace_id").asText();
        String pane = opened.get("pane").asText();
        String term = ok("pane.get", p("pane", pane)).get("terminal_id").asText();
        ok("terminal.backend.set_title", p("terminal_id", term, "title", "build: api"));
        assertEquals("build: api", paneRow(snapshot(), ws).get("panes").get(0).get("title").asText());

        ok("workspace.report_metadata", p("workspace_id", ws, "metadata", java.util.Map.of("branch", "main", "port", 3000)));
        assertEquals("{\"branch\":\"main\",\"port\":3000}", workspaceRow(snapshot(), ws).get("metadata").toString());

        // an executable named like a known agent, as a pane's program (no shell start-up involved)
        java.nio.file.Path bin = work.resolve("agent-bin");
        java.nio.file.Files.createDirectories(bin);
        java.nio.file.Path claude = bin.resolve("claude");
        java.nio.file.Files.writeString(claude, "#!/bin/sh\nwhile :; do sleep 1; done\n");
        assertTrue(claude.toFile().setExecutable(true));
        JsonNode created = ok("terminal.backend.create", p("command", List.of(claude.toString()), "workspace_id", ws));
        String agentPane = created.get("pane").asText();
        Terms.await("the scan sees the agent", () -> !paneById(snapshot(), agentPane).get("agent").isNull());
        JsonNode row = paneById(snapshot(), agentPane);
        JsonNode agent = row.get("agent");
        assertEquals("claude", agent.get("name").asText());
        assertEquals("unknown", agent.get("status").asText(), "nothing on its screen a rule knows: claude's fallback: " + agent);
        assertEquals("process", agent.get("source").asText());
        assertEquals(created.get("pid").asLong(), agent.get("pid").asLong(), "the pane's root process is the agent");
        assertEquals("claude", row.get("process").asText());
        JsonNode shell = paneById(snapshot(), pane);
        assertEquals("ok", shell.get("process_scan").asText(), "one scan covers every pane: " + shell);
        assertTrue(shell.get("agent").isNull(), "a shell is no agent: " + shell);
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
        return TopologyMethodsTest.withoutRuntimeFacts(o);
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
}
