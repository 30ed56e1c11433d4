package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worktrees family over the real socket, on a repository the git binary made: create,
 * open twice (one workspace, its shell has ARTUDITU_PORT, the group in the sidebar order),
 * the [worktrees] config applied live, a location inside a worktree refused, remove, and
 * updating the family's bundle (no class loader, service or worker thread left behind; the
 * port blocks kept).
 */
class WorktreeMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static JsonNode ok(Path socket, String method, String params) throws IOException {
        JsonNode r = Wire.call(socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    private Path repo() throws Exception {
        Path repo = Files.createDirectories(work.resolve("proj"));
        GitMethodsTest.git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "1\n");
        GitMethodsTest.git(repo, "add", "a.txt");
        GitMethodsTest.git(repo, "commit", "-q", "-m", "first");
        return repo;
    }

    @Test
    void createOpenTwiceListAndRemoveOverTheSocket() throws Exception {
        Path repo = repo();
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            JsonNode c = ok(s.socket, "worktree.create", "{\"name\":\"agent-2\"}");
            Path wt = work.toRealPath().resolve("proj-worktrees/agent-2");
            assertEquals(wt.toString(), c.get("path").asText());
            int port = c.get("port").asInt();
            assertTrue(Files.isRegularFile(wt.resolve("a.txt")));

            JsonNode first = ok(s.socket, "worktree.open", "{\"name\":\"agent-2\"}");
            assertTrue(first.get("created").asBoolean());
            String ws = first.get("workspace_id").asText();
            JsonNode again = ok(s.socket, "worktree.open", "{\"name\":\"agent-2\"}");
            assertFalse(again.get("created").asBoolean());
            assertEquals(ws, again.get("workspace_id").asText());
            JsonNode list = ok(s.socket, "workspace.list", "{}");
            assertEquals(2, list.get("workspaces").size(), "opening twice gives one workspace");
            JsonNode row = list.get("workspaces").get(1);
            assertEquals(ws, row.get("workspace_id").asText());
            assertEquals("main", ok(s.socket, "workspace.get", "{\"workspace_id\":\"" + ws + "\"}")
                    .at("/metadata/worktree_base").asText());

            // the worktree's shell has its port
            String pane = first.get("pane").asText();
            ok(s.socket, "pane.send_input", "{\"pane\":\"" + pane + "\",\"text\":\"echo PORT=$ARTUDITU_PORT.\",\"keys\":[\"enter\"]}");
            Terms.await("the pane prints its port", () -> ok(s.socket, "pane.read", "{\"pane\":\"" + pane + "\"}")
                    .get("text").asText().contains("PORT=" + port + "."));

            JsonNode wts = ok(s.socket, "worktree.list", "{\"workspace\":0}");
            assertEquals(2, wts.get("worktrees").size());
            assertEquals(ws, wts.at("/worktrees/1/workspace_id").asText());
            assertEquals(port, wts.at("/worktrees/1/port").asInt());

            // the config table, live: a location inside the main checkout is refused
            ok(s.socket, "config.patch", "{\"patch\":{\"worktrees\":{\"directory\":\"proj/inner\"}}}");
            JsonNode inside = Wire.call(s.socket, "worktree.create", "{\"workspace\":0,\"name\":\"x\"}");
            assertEquals("invalid_request", Wire.code(inside), inside.toString());
            assertEquals("inside_worktree", inside.at("/error/details/reason").asText());
            assertFalse(Files.exists(repo.resolve("inner")));

            JsonNode busy = Wire.call(s.socket, "worktree.remove", "{\"workspace\":0,\"name\":\"agent-2\"}");
            assertEquals("workspace_open", busy.at("/error/details/reason").asText(), busy.toString());
            ok(s.socket, "workspace.close", "{\"workspace_id\":\"" + ws + "\"}");
            JsonNode removed = ok(s.socket, "worktree.remove", "{\"workspace\":0,\"name\":\"agent-2\",\"delete_branch\":true}");
            assertTrue(removed.get("branch_deleted").asBoolean());
            assertFalse(Files.exists(wt));
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "worktree.open", "{\"workspace\":0,\"name\":\"agent-2\"}")));
        }
    }

    @Test
    void updatingTheWorktreesBundleLeavesNothingBehindAndKeepsThePorts() throws Exception {
        Path repo = repo();
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            int port = ok(s.socket, "worktree.create", "{\"name\":\"u\"}").get("port").asInt();
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Reactor.jar("io.artuditu.worktrees");
            for (int i = 0; i < 3; i++) {
                ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.worktrees\",\"path\":"
                        + Wire.M.valueToTree(jar.toString()) + "}");
                Terms.await("worktree.list answers after the update",
                        () -> Wire.call(s.socket, "worktree.list", "{}").has("result"));
                assertEquals(port, ok(s.socket, "worktree.list", "{}").at("/worktrees/1/port").asInt(),
                        "the port block is persisted");
                assertTrue(ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.equals("worktrees-git"))
                        .count() <= 1, "at most one worker after update " + (i + 1));
            }
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            ok(s.socket, "server.bundle.uninstall", "{\"bundle\":\"io.artuditu.worktrees\"}");
            Terms.await("no worker once the bundle is gone", () -> ModuleReloadCyclesTest.threadNames(pid).stream()
                    .noneMatch(n -> n.equals("worktrees-git")));
        }
    }
}
