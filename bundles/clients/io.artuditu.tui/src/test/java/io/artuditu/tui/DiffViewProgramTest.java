package io.artuditu.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DIFF view program itself, in a real terminal (tmux), against a stand-in UHP server on a
 * Unix socket that answers from the fixtures, records every request, and checks a staged
 * patch with the real {@code git apply --cached --check} on a repository made from the
 * fixture's file: keys become the right requests, and a {@code diff.view.navigate} event for
 * this pane moves the cursor. (The real diff family's end-to-end test drives the same keys
 * against the real server once it is merged.)
 */
class DiffViewProgramTest {
    private final List<JsonNode> seen = new CopyOnWriteArrayList<>();
    private final List<OutputStream> streams = new CopyOnWriteArrayList<>();
    private ServerSocketChannel server;
    private String tmux;
    private Path repo;

    @AfterEach
    void stop() throws Exception {
        if (tmux != null) {
            new ProcessBuilder("tmux", "-L", tmux, "kill-server").start().waitFor(10, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.close();
        }
    }

    static boolean has(String cmd) {
        try {
            return new ProcessBuilder(cmd, "-V").start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private JsonNode answer(JsonNode req) throws Exception {
        String m = req.path("method").asText();
        JsonNode p = req.path("params");
        return switch (m) {
            case "ping" -> JsonUhp.JSON.readTree("{\"type\":\"pong\"}");
            case "pane.get" -> JsonUhp.JSON.readTree("{\"type\":\"pane\",\"pane\":\"7\",\"workspace_id\":\"w1\"}");
            case "diff.list" -> DiffViewTest.fixture("list.json");
            case "diff.get" -> DiffViewTest.fixture("get-app.json");
            case "diff.note.list" -> DiffViewTest.fixture("notes-app.json");
            case "diff.note.add" -> JsonUhp.JSON.readTree("{\"type\":\"diff_note\",\"note\":{\"id\":\"n9\",\"state\":\"open\"}}");
            case "diff.note.resolve" -> JsonUhp.JSON.readTree("{\"type\":\"diff_note\",\"note\":{\"id\":\"n1\",\"state\":\"resolved\"}}");
            case "agent.list" -> JsonUhp.JSON.readTree("{\"type\":\"agents\",\"agents\":[{\"pane\":\"3\",\"agent\":\"claude\","
                    + "\"name\":\"fixer\",\"status\":\"idle\",\"workspace_id\":\"w1\"},{\"pane\":\"5\",\"agent\":\"codex\","
                    + "\"status\":\"idle\",\"workspace_id\":\"w2\"}]}");
            case "diff.note.send" -> JsonUhp.JSON.readTree("{\"type\":\"diff_note_sent\",\"pane\":\"3\",\"ids\":[\"n1\",\"n2\"],\"bytes\":321}");
            case "git.stage" -> {
                Path patch = Files.createTempFile(repo.getParent(), "p", ".patch");
                Files.writeString(patch, p.path("patch").asText());
                boolean ok = DiffViewTest.gitStatus(repo, patch, "apply", "--cached", "--check") == 0;
                yield JsonUhp.JSON.readTree("{\"type\":\"git_op\",\"op\":\"op-1\",\"kind\":\"stage\",\"state\":\""
                        + (ok ? "succeeded" : "failed") + "\"}");
            }
            default -> null;
        };
    }

    private void serve() {
        while (server.isOpen()) {
            SocketChannel c;
            try {
                c = server.accept();
            } catch (IOException e) {
                return;
            }
            Thread t = new Thread(() -> {
                boolean keep = false;
                try {
                    BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(c), StandardCharsets.UTF_8));
                    OutputStream out = Channels.newOutputStream(c);
                    String line = in.readLine();
                    JsonNode req = JsonUhp.JSON.readTree(line);
                    seen.add(req);
                    ObjectNode reply = JsonUhp.JSON.createObjectNode().put("id", req.path("id").asText());
                    if (req.path("method").asText().equals("events.subscribe")) {
                        reply.putObject("result").put("type", "events_subscribed");
                        out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        streams.add(out); // held open (never read again: a blocked read would hold the writes)
                        keep = true;
                        return;
                    }
                    JsonNode r = answer(req);
                    if (r == null) {
                        reply.putObject("error").put("code", "unknown_method").put("message", "no");
                    } else {
                        reply.set("result", r);
                    }
                    out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (Exception e) {
                    // the client left
                } finally {
                    if (!keep) {
                        try {
                            c.close();
                        } catch (IOException e) {
                            // gone already
                        }
                    }
                }
            });
            t.setDaemon(true);
            t.start();
        }
    }

    private String capture() throws Exception {
        Process p = new ProcessBuilder("tmux", "-L", tmux, "capture-pane", "-p", "-t", "v").redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return s;
    }

    private void keys(String... keys) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", tmux, "send-keys", "-t", "v"));
        cmd.addAll(List.of(keys));
        new ProcessBuilder(cmd).start().waitFor(10, TimeUnit.SECONDS);
    }

    private String waitScreen(Predicate<String> ok, String what) throws Exception {
        long end = System.currentTimeMillis() + 20_000;
        String s = "";
        while (System.currentTimeMillis() < end) {
            s = capture();
            if (ok.test(s)) {
                return s;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("waited for " + what + "; the screen:\n" + s);
    }

    private JsonNode waitRequest(String method) throws Exception {
        long end = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < end) {
            for (JsonNode r : seen) {
                if (r.path("method").asText().equals(method)) {
                    seen.remove(r);
                    return r.path("params");
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + method + " request; seen: " + seen);
    }

    private void event(String name, String data) throws IOException {
        for (OutputStream o : streams) {
            o.write(("{\"event\":\"" + name + "\",\"sequence\":9,\"data\":" + data + "}\n").getBytes(StandardCharsets.UTF_8));
            o.flush();
        }
    }

    @Test
    void keysBecomeTheReviewRequestsAndNavigateEventsMoveTheView(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(has("tmux"), "tmux is not installed");
        repo = Files.createDirectories(tmp.resolve("repo"));
        DiffViewTest.repo(repo);
        Path sock = tmp.resolve("s.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(sock));
        Thread accept = new Thread(this::serve, "stand-in");
        accept.setDaemon(true);
        accept.start();
        tmux = "diffview" + ProcessHandle.current().pid();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        String cmd = "env ARTUDITU_HOME='" + tmp + "' ARTUDITU_SOCKET_PATH='" + sock + "' ARTUDITU_PANE_ID=7 TERM=xterm-256color '"
                + java + "' -cp '" + cp + "' io.artuditu.tui.DiffView --path src/app.rs --layer worktree; echo EXIT=$?; sleep 30";
        assertEquals(0, new ProcessBuilder("tmux", "-L", tmux, "new-session", "-d", "-s", "v", "-x", "150", "-y", "40", cmd)
                .start().waitFor());
        String s = waitScreen(x -> x.contains("alpha * beta + gamma"), "the diff");
        assertTrue(s.contains("DIFF  src/app.rs  [worktree]  +3 -3"), s);
        assertTrue(s.contains("split (auto)"), "150 columns: split\n" + s);
        assertTrue(s.contains("WORKTREE") && s.contains("STAGED"), s);
        assertTrue(s.contains("✎ n1 question [open]"), s);
        JsonNode list = waitRequest("diff.list");
        assertEquals("w1", list.path("workspace_id").asText(), "the pane's workspace, from pane.get");
        assertEquals("worktree", list.path("layer").asText());
        JsonNode get = waitRequest("diff.get");
        assertTrue(get.path("include_patch").asBoolean());
        assertEquals("src/app.rs", get.path("path").asText());
        JsonNode sub = waitRequest("events.subscribe");
        assertEquals(3, sub.path("events").size());

        // J: the second hunk; j j j: old 20 / new 21, the changed pair; a: a note on the new side
        keys("J", "j", "j", "j", "a");
        waitScreen(x -> x.contains("note on src/app.rs new L21:"), "the note prompt");
        keys("-l", "issue: keep i32");
        keys("Enter");
        JsonNode add = waitRequest("diff.note.add");
        assertEquals("src/app.rs", add.path("file").asText());
        assertEquals("worktree", add.path("layer").asText());
        assertEquals(21, add.path("new_line").asInt());
        assertTrue(add.path("old_line").isMissingNode() && add.path("end_line").isMissingNode(), add.toString());
        assertEquals("issue", add.path("kind").asText());
        assertEquals("keep i32", add.path("body").asText());
        waitScreen(x -> x.contains("added note n9"), "the note's confirmation");

        // s: the hunk under the cursor as a patch the real git applies to the index
        keys("s");
        JsonNode stage = waitRequest("git.stage");
        assertTrue(stage.path("patch").asText().contains("@@ -17,7 +17,7 @@"), stage.toString());
        waitScreen(x -> x.contains("staged hunk h2 of src/app.rs"), "the staging outcome (git apply --check passed)");

        // S: one agent in this workspace (pane 5 is in another): sent at once
        keys("S");
        JsonNode send = waitRequest("diff.note.send");
        assertEquals("3", send.path("to").asText());
        assertTrue(send.path("all_open").asBoolean());
        waitScreen(x -> x.contains("sent 2 notes to pane 3 (321 bytes)"), "the send outcome");

        // diff.navigate for another pane is ignored; for this one: top, then next_note lands on n1's line; r resolves it
        event("diff.view.navigate", "{\"pane\":\"8\",\"action\":\"bottom\"}");
        event("diff.view.navigate", "{\"pane\":\"7\",\"action\":\"top\"}");
        event("diff.view.navigate", "{\"pane\":\"7\",\"action\":\"next_note\"}");
        Thread.sleep(300);
        keys("r");
        JsonNode resolve = waitRequest("diff.note.resolve");
        assertEquals("n1", resolve.path("id").asText());

        // diff.changed reads the list again
        seen.clear();
        event("diff.changed", "{\"workspace_id\":\"w1\",\"generation\":8}");
        waitRequest("diff.list");

        keys("q");
        waitScreen(x -> x.contains("EXIT=0"), "the program's exit");
    }
}
