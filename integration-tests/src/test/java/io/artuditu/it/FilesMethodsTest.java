package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files family over the real socket, on a real git repository: the first tree waits for
 * the root, visibility follows config.patch live with files.changed, refresh sees the disk,
 * escapes are refused with their reason and change nothing, files.open runs $VISUAL in a
 * real pane, and updating the family's bundle leaves one worker thread (none once it is gone).
 */
class FilesMethodsTest {
    @TempDir
    Path home;
    @TempDir
    Path tmp;

    static JsonNode ok(Path sock, String method, String params) throws IOException {
        JsonNode r = Wire.call(sock, method, params);
        assertTrue(r.has("result"), method + " " + params + ": " + r);
        return r.get("result");
    }

    static List<String> paths(JsonNode tree) {
        List<String> out = new ArrayList<>();
        tree.get("rows").forEach(r -> out.add(r.get("path").asText()));
        return out;
    }

    static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "git " + List.of(args));
    }

    @Test
    void aWorkspaceTreeIsBrowsedRefreshedAndOpenedWithinItsRootOnly() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        git(root, "init", "-q");
        Files.writeString(root.resolve(".gitignore"), "*.log\n");
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/main.c"), "int main;\n");
        Files.writeString(root.resolve("debug.log"), "x");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Path record = tmp.resolve("editor-args");
        Path editor = tmp.resolve("ed.sh");
        Files.writeString(editor, "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + record + "\nexec sleep 60\n");
        Files.setPosixFilePermissions(editor, PosixFilePermissions.fromString("rwx------"));
        try (ForegroundServer s = new ForegroundServer(home, Map.of("VISUAL", editor.toString()))) {
            String ws = ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(root.toString()) + "}")
                    .get("workspace_id").asText();
            JsonNode tree = ok(s.socket, "files.tree", "{}");
            assertEquals(ws, tree.get("workspace_id").asText());
            assertEquals(List.of("out", "src"), paths(tree).stream().sorted().toList(),
                    "the first answer has the root read: hidden and ignored left out");
            long seq = ok(s.socket, "uhp.capabilities", "{}").get("event_sequence").asLong();
            ok(s.socket, "config.patch", "{\"patch\":{\"files\":{\"show_hidden\":true,\"show_ignored\":true}}}");
            JsonNode changed = ok(s.socket, "events.wait", "{\"event\":\"files.changed\",\"where\":{\"reason\":\"visibility\"},"
                    + "\"after_sequence\":" + seq + ",\"timeout_s\":10}");
            assertTrue(changed.get("matched").asBoolean(), changed.toString());
            assertEquals(List.of(".gitignore", "debug.log", "out", "src"),
                    paths(ok(s.socket, "files.tree", "{}")).stream().sorted().toList());

            Files.writeString(root.resolve("src/new.c"), "");
            ok(s.socket, "files.tree", "{\"expand\":[\"src\"]}");
            assertTrue(ok(s.socket, "files.refresh", "{}").get("changed").asBoolean());
            assertTrue(paths(ok(s.socket, "files.tree", "{}")).contains("src/new.c"));

            for (String bad : List.of("../outside", "%2e%2e/outside", "out/x", "/etc/passwd", "src/\u0001")) {
                JsonNode e = Wire.call(s.socket, "files.tree", "{\"expand\":[\"src\"," + Wire.M.valueToTree(bad) + "]}");
                assertEquals("invalid_request", Wire.code(e), bad + ": " + e);
                assertEquals(bad, e.at("/error/details/path").asText());
                JsonNode o = Wire.call(s.socket, "files.open", "{\"path\":" + Wire.M.valueToTree(bad) + "}");
                assertEquals("invalid_request", Wire.code(o), bad + ": " + o);
            }

            int panes = ok(s.socket, "pane.list", "{}").get("panes").size();
            JsonNode open = ok(s.socket, "files.open", "{\"path\":\"src/main.c\",\"line\":3}");
            assertEquals(panes + 1, ok(s.socket, "pane.list", "{}").get("panes").size());
            String file = root.toRealPath().resolve("src/main.c").toString();
            Terms.await("the editor ran with +3 and the file", () -> Files.exists(record)
                    && Files.readString(record).equals("+3\n" + file + "\n"));
            assertEquals(open.get("pane").asText(), ok(s.socket, "pane.list", "{}").get("panes")
                    .get(panes).get("pane").asText());
        }
    }

    @Test
    void updatingTheFilesBundleKeepsOneWorkerAndUninstallingItEndsIt() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("ws"));
        Files.writeString(root.resolve("a.txt"), "a");
        try (ForegroundServer s = new ForegroundServer(home)) {
            ok(s.socket, "workspace.open", "{\"cwd\":" + Wire.M.valueToTree(root.toString()) + "}");
            ok(s.socket, "files.tree", "{}");
            long pid = s.process.pid();
            Path jar = Reactor.jar("io.artuditu.files");
            for (int i = 0; i < 3; i++) {
                ok(s.socket, "server.bundle.update", "{\"bundle\":\"io.artuditu.files\",\"path\":"
                        + Wire.M.valueToTree(jar.toString()) + "}");
                Terms.await("files.tree answers after the update", () -> Wire.call(s.socket, "files.tree", "{}").has("result"));
                assertEquals(List.of("a.txt"), paths(ok(s.socket, "files.tree", "{}")), "the root is read again");
                assertEquals(1L, ModuleReloadCyclesTest.threadNames(pid).stream().filter(n -> n.equals("files-read"))
                        .count(), "one worker after update " + (i + 1));
            }
            ok(s.socket, "server.bundle.uninstall", "{\"bundle\":\"io.artuditu.files\"}");
            Terms.await("no worker once the bundle is gone", () -> ModuleReloadCyclesTest.threadNames(pid).stream()
                    .noneMatch(n -> n.equals("files-read")));
            assertFalse(Wire.call(s.socket, "files.tree", "{}").has("result"));
        }
    }
}
