package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.it.TmuxClient.Screen;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The review loop end to end, as a person runs it: a scripted agent (the agents bundle's fake
 * claude, recognised by the real detector, with a hook script that edits files) works in a real
 * PTY inside a real git repository; the person's workbench runs in tmux and shows the DIFF view;
 * two notes are added from the view with {@code a}, {@code S} sends them, the agent receives the
 * grouped message on its standard input and rewrites the noted lines, and the notes go
 * {@code outdated}; one hunk is staged from the view with {@code s} and {@code git diff --cached}
 * shows exactly that hunk; a worktree is created for a second agent, and opening it twice gives
 * one workspace.
 *
 * <p>With {@code -Dartuditu.review.screen=FILE} the DIFF view's screen, as the person sees it
 * after sending the notes, is written to FILE (docs/review.md shows it).
 */
class ReviewLoopTest {
    static final int W = 140;
    static final int H = 36;

    @TempDir
    Path base;

    static String numbered(String prefix, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(prefix).append(' ').append(i).append('\n');
        }
        return b.toString();
    }

    /** The agent's hook: logs what it was sent, makes its first change, then answers review notes. */
    static String hook(Path log) {
        return "#!/usr/bin/env python3\n"
                + "import pathlib, sys\n"
                + "msg = sys.stdin.read()\n"
                + "with open(" + pyString(log.toString()) + ", 'a', encoding='utf-8') as f:\n"
                + "    f.write(msg + '\\n---\\n')\n"
                + "def edit(path, changes):\n"
                + "    p = pathlib.Path(path)\n"
                + "    lines = p.read_text().splitlines(True)\n"
                + "    for number, text in changes.items():\n"
                + "        lines[number - 1] = text + '\\n'\n"
                + "    p.write_text(''.join(lines))\n"
                + "if msg.strip() == 'make the change':\n"
                + "    edit('src/app.py', {10: 'def load(path):', 11: '    return open(path).read()', 30: 'TIMEOUT = 30'})\n"
                + "    edit('src/util.py', {5: 'def helper(x): return x * 2'})\n"
                + "elif 'Review notes' in msg:\n"
                + "    edit('src/app.py', {10: 'def load(path: str) -> str:'})\n"
                + "    edit('src/util.py', {5: 'def helper(x: int) -> int: return x * 2'})\n";
    }

    static String pyString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    static void git(Path dir, String... args) throws Exception {
        run(dir, args);
    }

    static String run(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.email=t@example.org", "-c", "user.name=Tess"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "git " + String.join(" ", args) + ": " + out);
        return out;
    }

    static JsonNode ok(ForegroundServer s, String method, String params) throws Exception {
        JsonNode r = Wire.call(s.socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    /**
     * Moves the view's cursor down with {@code j} until {@code a} offers a note on
     * {@code where} (e.g. {@code "src/app.py new L10"}), then types the note and Enter.
     */
    static void noteOn(TmuxClient t, String where, String body) throws Exception {
        for (int i = 0; i < 40; i++) {
            t.keys("a");
            Screen s = null;
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
            while (System.nanoTime() < end) { // a row with no source line answers with a status, not a prompt
                s = t.screen();
                if (s.text().contains("note on ")) {
                    break;
                }
                Thread.sleep(30);
            }
            if (s.text().contains("note on " + where + ":")) {
                t.type(body);
                t.keys("Enter");
                t.await("the note added", x -> x.text().contains("added note"));
                return;
            }
            if (s.text().contains("note on ")) {
                t.keys("Escape");
                t.await("the prompt closed", x -> !x.text().contains("note on "));
            }
            t.keys("j");
        }
        throw new AssertionError("no line " + where + " in the view:\n" + t.screen().text());
    }

    @Test
    void agentEditsReviewNotesGoBackAndComeBackOutdatedAHunkIsStagedAndAWorktreeOpensOnce() throws Exception {
        Path userHome = Files.createDirectories(base.resolve("user"));
        Files.writeString(userHome.resolve(".bashrc"), "PS1='$ '\nunset PROMPT_COMMAND\n");
        Path log = base.resolve("agent-received.txt");
        Path hook = Files.writeString(base.resolve("agent-hook"), hook(log));
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));

        Path repo = Files.createDirectories(base.resolve("shop"));
        git(repo, "init", "-q", "-b", "main");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/app.py"), numbered("# app line", 40));
        Files.writeString(repo.resolve("src/util.py"), numbered("# util line", 12));
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "The shop as it was");

        Map<String, String> serverEnv = Map.of("HOME", userHome.toString(), "SHELL", "/bin/bash",
                "PATH", AgentMethodsTest.FAKES + ":" + System.getenv("PATH"), "FAKE_AGENT_WORK_MS", "300",
                "FAKE_AGENT_HOOK", hook.toString());
        try (ForegroundServer s = new ForegroundServer(TuiTest.terminalLook(Files.createDirectories(base.resolve("home"))),
                serverEnv)) {
            JsonNode ws = ok(s, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            String workspace = ws.get("workspace_id").asText();
            String shell = ws.get("pane").asText();

            // The agent, in a real PTY of the workspace, makes its change.
            JsonNode agent = ok(s, "agent.start", "{\"name\":\"fixer\",\"kind\":\"claude\",\"anchor\":\"" + shell
                    + "\",\"focus\":false,\"timeout_s\":20}");
            assertTrue(agent.get("detected").asBoolean(), agent.toString());
            String agentPane = agent.get("pane").asText();
            ok(s, "agent.prompt", "{\"target\":\"" + agentPane + "\",\"text\":\"make the change\"}");
            Terms.await("the agent edited two files", () -> ok(s, "diff.refresh", "{}") != null
                    && ok(s, "diff.list", "{}").get("files").size() == 2);

            // The person's workbench in tmux, and the DIFF view in a tab of its own.
            Map<String, String> env = new HashMap<>(Map.of("HOME", userHome.toString(), "SHELL", "/bin/bash"));
            env.put("ARTUDITU_HOME", s.home.toString());
            env.put("ARTU_NO_BUILD", "1");
            try (TmuxClient t = new TmuxClient(base.resolve("tmux.sock"), "review", W, H, repo, env)) {
                t.awaitText("outer$");
                t.line(Cli.ARTU + " attach");
                t.await("the workbench", x -> x.row(0).startsWith(" shop "));
                JsonNode open = ok(s, "diff.open", "{\"workspace_id\":\"" + workspace + "\",\"placement\":\"tab\"}");
                String view = open.get("pane").asText();
                Screen screen = t.await("the DIFF view with both changed files and the first diff",
                        x -> x.text().contains("src/app.py") && x.text().contains("src/util.py")
                                && x.text().contains("def load(path):"));
                assertTrue(screen.text().contains("WORKTREE"), screen.text());

                // Two notes from the view (the cursor starts on the first file's first hunk, and j
                // walks down to the line): on app.py's new line 10, then on util.py's new line 5.
                noteOn(t, "src/app.py new L10", "issue: annotate the types of load");
                t.keys("n");
                t.await("util.py's diff", x -> x.text().contains("def helper(x): return x * 2"));
                noteOn(t, "src/util.py new L5", "suggestion: type the helper too");
                JsonNode notes = ok(s, "diff.note.list", "{\"workspace_id\":\"" + workspace + "\"}").get("notes");
                assertEquals(2, notes.size(), notes.toString());
                for (JsonNode n : notes) {
                    assertEquals("open", n.get("state").asText(), n.toString());
                }

                // S: one grouped message to the one agent of the workspace.
                t.keys("S");
                t.await("the notes sent", x -> x.text().contains("sent 2 notes to pane " + agentPane));
                Terms.await("the agent received the grouped message on its stdin", () -> Files.exists(log)
                        && Files.readString(log).contains("Review notes"));
                String received = Files.readString(log);
                assertTrue(received.contains("annotate the types of load") && received.contains("type the helper too")
                        && received.contains("src/app.py") && received.contains("src/util.py"), received);
                for (JsonNode n : ok(s, "diff.note.list", "{\"workspace_id\":\"" + workspace + "\"}").get("notes")) {
                    assertEquals(agentPane, n.at("/sent/0/pane").asText(), n.toString());
                }

                // The agent rewrote the noted lines: both notes go outdated, and the view shows so.
                Terms.await("both notes outdated", () -> {
                    JsonNode all = ok(s, "diff.note.list", "{\"workspace_id\":\"" + workspace + "\",\"state\":\"outdated\"}");
                    return all.get("notes").size() == 2;
                });
                screen = t.await("the view redrawn with the agent's fix", x -> x.text().contains("outdated"));
                String shot = System.getProperty("artuditu.review.screen");
                if (shot != null) {
                    Files.writeString(Path.of(shot), screen.text());
                }

                // s on app.py's second hunk (line 30): exactly that hunk lands in the index.
                t.keys("N");
                t.await("app.py's diff", x -> x.text().contains("def load(path: str) -> str:"));
                t.keys("g", "J", "J");
                t.keys("s");
                t.await("the hunk staged", x -> x.text().contains("staged hunk"));
                String cached = run(repo, "diff", "--cached");
                assertEquals(1, cached.lines().filter(l -> l.startsWith("@@")).count(), cached);
                assertTrue(cached.contains("+TIMEOUT = 30") && !cached.contains("load"), cached);
                assertTrue(run(repo, "diff").contains("def load(path: str) -> str:"), "the other hunk stays unstaged");
                assertEquals(view, ok(s, "diff.navigate", "{\"pane\":\"" + view + "\",\"action\":\"top\"}").get("pane").asText());
            }

            // A worktree for a second agent: opening it twice gives one workspace.
            ok(s, "worktree.create", "{\"workspace_id\":\"" + workspace + "\",\"name\":\"second\"}");
            int before = ok(s, "workspace.list", "{}").get("workspaces").size();
            JsonNode first = ok(s, "worktree.open", "{\"workspace_id\":\"" + workspace + "\",\"name\":\"second\"}");
            JsonNode again = ok(s, "worktree.open", "{\"workspace_id\":\"" + workspace + "\",\"name\":\"second\"}");
            assertEquals(first.get("workspace_id").asText(), again.get("workspace_id").asText());
            assertEquals(before + 1, ok(s, "workspace.list", "{}").get("workspaces").size());
            JsonNode second = ok(s, "agent.start", "{\"name\":\"second\",\"kind\":\"claude\",\"anchor\":\""
                    + first.get("pane").asText() + "\",\"focus\":false,\"timeout_s\":20}");
            assertTrue(second.get("detected").asBoolean(), second.toString());
            assertFalse(second.get("pane").asText().equals(agentPane));
        }
    }
}
