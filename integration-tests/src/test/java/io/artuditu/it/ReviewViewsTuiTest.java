package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.it.TmuxClient.Screen;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench's review views against the real server, in tmux: {@code C-b g} opens the Git
 * dashboard tab, which draws {@code git.status}, the branches and the log of a real
 * repository; {@code C-b e} shows the FILES dock with the workspace's tree, and Enter on a
 * folder opens it through {@code files.tree}.
 */
class ReviewViewsTuiTest {
    static final int W = 140;
    static final int H = 32;

    @TempDir
    static Path base;
    static ForegroundServer server;
    static Path userHome;

    @BeforeAll
    static void startServer() throws Exception {
        userHome = Files.createDirectories(base.resolve("user"));
        Files.writeString(userHome.resolve(".bashrc"), "PS1='$ '\nunset PROMPT_COMMAND\n");
        server = new ForegroundServer(TuiTest.terminalLook(Files.createDirectories(base.resolve("home"))),
                Map.of("HOME", userHome.toString(), "SHELL", "/bin/bash"));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-c", "user.email=t@example.org", "-c", "user.name=Tess"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "git " + args[0] + ": " + out);
    }

    @Test
    void theGitDashboardAndTheFilesDockShowTheRepository() throws Exception {
        Path repo = Files.createDirectories(base.resolve("reviewrepo"));
        git(repo, "init", "-q", "-b", "main");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/app.rs"), "fn main() {}\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "Start the app");
        Files.writeString(repo.resolve("src/app.rs"), "fn main() { println!(\"hi\"); }\n");
        Files.writeString(repo.resolve("notes.txt"), "todo\n");
        JsonNode ws = Wire.call(server.socket, "workspace.open", "{\"cwd\":\"" + repo + "\"}").get("result");
        assertTrue(ws.has("workspace_id"), ws.toString());

        Map<String, String> env = new HashMap<>(Map.of("HOME", userHome.toString(), "SHELL", "/bin/bash"));
        env.put("ARTUDITU_HOME", server.home.toString());
        env.put("ARTU_NO_BUILD", "1");
        try (TmuxClient t = new TmuxClient(base.resolve("tmux.sock"), "tui", W, H, repo, env)) {
            t.awaitText("outer$");
            t.line(Cli.ARTU + " attach");
            t.await("the workbench", s -> s.row(0).startsWith(" reviewrepo ") && s.text().contains("$"));

            t.prefix("g");
            Screen s = t.await("the Git dashboard", x -> x.text().contains("on main") && x.text().contains("Start the app"));
            String text = s.text();
            assertTrue(text.contains("GIT  " + repo.toRealPath()) || text.contains("GIT  " + repo), text);
            assertTrue(text.contains("(no upstream)   state: clean   dirty"), text);
            assertTrue(text.contains("staged 0   unstaged 1   untracked 1   conflicted 0"), text);
            assertTrue(text.contains("BRANCHES  1 local, 0 remote"), text);
            assertTrue(text.contains("* main  "), text);
            assertTrue(text.contains("LOG  HEAD"), text);
            assertTrue(s.row(0).contains(":git"), "the tab is named for its kind:\n" + s.row(0));
            JsonNode tabs = Wire.call(server.socket, "session.snapshot", "{}").get("result");
            assertTrue(tabs.toString().contains("\"kind\":\"git\""), tabs.toString());

            // a file the agent saves is counted after r
            Files.writeString(repo.resolve("more.txt"), "x\n");
            t.keys("r");
            t.await("the dashboard read again", x -> x.text().contains("untracked 2"));

            t.prefix("e");
            s = t.await("the FILES dock", x -> x.text().contains("FILES (Esc") && x.text().contains("▸ src/"));
            assertTrue(s.text().contains("notes.txt"), s.text());
            assertTrue(s.row(H - 1).contains("FILES: Up/Down move"), s.row(H - 1));
            t.keys("Enter"); // the cursor is on src/, the first row
            s = t.await("src opened", x -> x.text().contains("▾ src/") && x.text().contains("app.rs"));
            JsonNode tree = Wire.call(server.socket, "files.tree", "{\"workspace_id\":\"" + ws.get("workspace_id").asText() + "\"}")
                    .get("result");
            assertTrue(tree.toString().contains("\"path\":\"src\",\"name\":\"src\",\"kind\":\"dir\",\"depth\":0,\"expanded\":true"),
                    "the tree state is the server's: " + tree);
            t.keys("Escape");
            t.await("the keys back with the panes", x -> x.text().contains("FILES") && !x.text().contains("FILES (Esc"));
            t.prefix("e");
            t.await("the dock focused again", x -> x.text().contains("FILES (Esc"));
            t.prefix("e");
            t.await("the dock hidden", x -> !x.text().contains("FILES"));
            assertEquals(0, Cli.run(env, "ping").status());
        }
    }
}
