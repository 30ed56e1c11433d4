package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 after the debounce interval: the next server on the same home restores the
 * workspaces, tabs and panes with the same ids, names, purposes and folders.
 */
class SessionCrashTest {
    @TempDir
    Path home;

    static JsonNode ok(Path socket, String method, String params) throws Exception {
        JsonNode r = Wire.call(socket, method, params);
        assertTrue(r.has("result"), method + " " + params + ": " + r);
        return r.get("result");
    }

    @Test
    void killNineThenRestartKeepsTheIds() throws Exception {
        Path a = Files.createDirectories(home.resolve("project-a"));
        Path b = Files.createDirectories(home.resolve("project-b"));
        JsonNode workspacesBefore;
        JsonNode pane1;
        JsonNode pane2;
        JsonNode pane3;
        ForegroundServer s = new ForegroundServer(home);
        try {
            JsonNode w = ok(s.socket, "workspace.open", "{\"cwd\":\"" + a + "\",\"name\":\"alpha\"}");
            String first = w.get("pane").asText();
            String second = ok(s.socket, "pane.split", "{\"pane\":\"" + first + "\",\"direction\":\"right\"}")
                    .get("pane").asText();
            ok(s.socket, "pane.rename", "{\"pane\":\"" + first + "\",\"name\":\"editor\"}");
            ok(s.socket, "pane.purpose", "{\"pane\":\"" + second + "\",\"purpose\":\"runs the tests\"}");
            String third = ok(s.socket, "workspace.open", "{\"cwd\":\"" + b + "\",\"name\":\"beta\"}").get("pane")
                    .asText();
            workspacesBefore = ok(s.socket, "workspace.list", "{}");
            pane1 = ok(s.socket, "pane.get", "{\"pane\":\"" + first + "\"}");
            pane2 = ok(s.socket, "pane.get", "{\"pane\":\"" + second + "\"}");
            pane3 = ok(s.socket, "pane.get", "{\"pane\":\"" + third + "\"}");
            Thread.sleep(1000); // well past the 250 ms debounce
            new ProcessBuilder("kill", "-9", Long.toString(s.process.pid())).start().waitFor();
            assertTrue(s.process.waitFor(10, TimeUnit.SECONDS));
            assertEquals(137, s.process.exitValue(), "killed by SIGKILL");
        } finally {
            s.close();
        }
        ForegroundServer again = new ForegroundServer(home);
        try {
            JsonNode workspacesAfter = ok(again.socket, "workspace.list", "{}");
            // the revision is the event sequence of a server, not part of the session
            ((com.fasterxml.jackson.databind.node.ObjectNode) workspacesBefore).remove("revision");
            ((com.fasterxml.jackson.databind.node.ObjectNode) workspacesAfter).remove("revision");
            assertEquals(workspacesBefore, workspacesAfter);
            for (JsonNode before : new JsonNode[] {pane1, pane2, pane3}) {
                JsonNode after = ok(again.socket, "pane.get", "{\"pane\":\"" + before.get("pane").asText() + "\"}");
                for (String k : new String[] {"pane", "workspace_id", "tab_id", "name", "purpose", "cwd", "focused"}) {
                    assertEquals(before.get(k), after.get(k), k + " of " + before + " vs " + after);
                }
            }
            // server.stop right after a change, well inside the debounce: the stop writes it, and
            // the panes' processes ending with the server do not empty the saved session
            ok(again.socket, "workspace.rename", "{\"workspace\":0,\"name\":\"renamed\"}");
            assertTrue(Wire.call(again.socket, "server.stop", "{}").at("/result/stopping").asBoolean());
            assertEquals(0, again.awaitExit(), again.log());
        } finally {
            again.close();
        }
        ForegroundServer third = new ForegroundServer(home);
        try {
            JsonNode list = ok(third.socket, "workspace.list", "{}");
            assertEquals("renamed", list.at("/workspaces/0/name").asText(), list.toString());
            assertEquals(workspacesBefore.at("/workspaces/0/workspace_id"), list.at("/workspaces/0/workspace_id"));
            for (JsonNode before : new JsonNode[] {pane1, pane2, pane3}) {
                assertEquals(before.get("tab_id"),
                        ok(third.socket, "pane.get", "{\"pane\":\"" + before.get("pane").asText() + "\"}").get("tab_id"));
            }
        } finally {
            third.close();
        }
    }
}
