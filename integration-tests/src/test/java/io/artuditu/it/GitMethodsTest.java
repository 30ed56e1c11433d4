package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The git family over the real socket, on a repository the git binary made: status, branches,
 * log and the Git dashboard, the refusals, and updating the family's bundle (no class loader
 * or service left behind, the dashboard kept).
 */
class GitMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    static JsonNode ok(Path socket, String method, String params) throws IOException {
        JsonNode r = Wire.call(socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + r);
        return r.get("result");
    }

    static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=Ada", "-c", "user.email=ada@example.org",
                "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "git " + cmd + ": " + out);
        return out.trim();
    }

    @Test
    void theReadMethodsAndTheDashboardOverTheSocket() throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "1\n");
        git(repo, "add", "a.txt");
        git(repo, "commit", "-q", "-m", "first");
        git(repo, "branch", "feature");
        Files.writeString(repo.resolve("a.txt"), "2\n");
        Path plain = Files.createDirectories(work.resolve("plain"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            JsonNode st = ok(s.socket, "git.status", "{\"workspace\":0}");
            assertEquals("main", st.get("branch").asText());
            assertEquals("clean", st.get("state").asText());
            assertTrue(st.get("dirty").asBoolean());
            assertEquals(1, st.at("/counts/unstaged").asInt());
            JsonNode br = ok(s.socket, "git.branches", "{}");
            assertEquals("[\"feature\",\"main\"]", names(br.get("local")));
            JsonNode log = ok(s.socket, "git.log", "{\"limit\":1}");
            assertEquals("first", log.at("/commits/0/subject").asText());
            assertTrue(log.get("next_skip").isNull());

            JsonNode open = ok(s.socket, "git.open", "{}");
            assertTrue(open.get("created").asBoolean());
            String dashboard = open.get("tab_id").asText();
            JsonNode rename = Wire.call(s.socket, "tab.rename", "{\"name\":\"x\",\"tab\":2}");
            assertEquals("invalid_request", Wire.code(rename), "dashboards are not renamed: " + rename);
            JsonNode apply = Wire.call(s.socket, "layout.apply", "{\"tab\":2,\"tree\":{\"pane\":\"1\"}}");
            assertEquals("invalid_request", Wire.code(apply), apply.toString());
            JsonNode move = Wire.call(s.socket, "pane.move", "{\"pane\":\"1\",\"tab\":2}");
            assertEquals("invalid_request", Wire.code(move), move.toString());
            ok(s.socket, "tab.focus", "{\"tab\":1}");
            JsonNode again = ok(s.socket, "git.open", "{}");
            assertFalse(again.get("created").asBoolean());
            assertEquals(dashboard, again.get("tab_id").asText());

            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(plain.toString()) + "}");
            JsonNode refused = Wire.call(s.socket, "git.status", "{\"workspace\":1}");
            assertEquals("invalid_request", Wire.code(refused));
            assertEquals("not_a_repository", refused.at("/error/details/reason").asText());
            JsonNode tabs = ok(s.socket, "tab.list", "{\"workspace\":1}");
            assertEquals(1, tabs.get("tabs").size());
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "git.open", "{\"workspace\":1}")));
            assertEquals(1, ok(s.socket, "tab.list", "{\"workspace\":1}").get("tabs").size(), "no dashboard added");
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "git.status", "{\"workspace\":7}")));
        }
    }

    @Test
    void updatingTheGitBundleLeavesNothingBehind() throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "1\n");
        git(repo, "add", "a.txt");
        git(repo, "commit", "-q", "-m", "first");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(repo.toString()) + "}");
            ok(s.socket, "git.open", "{}");
            ok(s.socket, "git.status", "{}");
            long pid = s.process.pid();
            Map<String, Long> before = ModuleReloadCyclesTest.leaks(pid);
            Path jar = Cli.ROOT.resolve("bundles/families/io.artuditu.git/target/io.artuditu.git-0.1.0-SNAPSHOT.jar");
            for (int i = 0; i < 3; i++) {
                ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.git\",\"path\":"
                        + Wire.M.valueToTree(jar.toString()) + "}");
                Terms.await("git.status answers after the update", () -> Wire.call(s.socket, "git.status", "{}").has("result"));
                assertEquals("main", ok(s.socket, "git.status", "{}").get("branch").asText());
            }
            Map<String, Long> after = ModuleReloadCyclesTest.awaitSettled(pid, before);
            assertEquals(before.get("class loaders"), after.get("class loaders"), "the old bundles' class loaders are gone");
            assertEquals(before.get("services"), after.get("services"), "no service is left registered twice");
            assertFalse(ok(s.socket, "git.open", "{}").get("created").asBoolean(), "the dashboard is the model's; it stayed");
        }
    }

    private static String names(JsonNode rows) {
        List<String> n = new ArrayList<>();
        rows.forEach(r -> n.add(r.get("name").asText()));
        return Wire.M.valueToTree(n).toString();
    }
}
