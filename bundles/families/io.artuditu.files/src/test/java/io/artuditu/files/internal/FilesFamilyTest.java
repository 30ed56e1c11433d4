package io.artuditu.files.internal;

import static io.artuditu.files.internal.Harness.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.topology.Node;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.schema.JsonSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesFamilyTest {
    @TempDir
    Path tmp;

    private Path root() throws IOException {
        return Files.createDirectories(tmp.resolve("ws"));
    }

    private static void touch(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, p.getFileName().toString());
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "git " + List.of(args) + ": " + out);
    }

    @Test
    void theFirstTreeWaitsForTheRootAndListsFoldersFirstThenNames() throws Exception {
        Path root = root();
        touch(root.resolve("b.txt"));
        touch(root.resolve("A.md"));
        Files.createDirectory(root.resolve("src"));
        Files.createDirectory(root.resolve("Docs"));
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.tree", "{}");
            assertEquals(List.of("Docs", "src", "A.md", "b.txt"), paths(r));
            assertEquals(root.toString(), r.get("root").asText());
            assertEquals(Harness.WS, r.get("workspace_id").asText());
            assertEquals(1, r.get("generation").asLong());
            JsonNode file = r.get("rows").get(3);
            assertEquals("file", file.get("kind").asText());
            assertEquals(5, file.get("size").asLong());
            assertEquals(0, file.get("depth").asInt());
            assertEquals("dir", r.get("rows").get(0).get("kind").asText());
            assertFalse(r.get("truncated").asBoolean());
        }
    }

    @Test
    void expandOpensAFolderAndItsAncestorsAndCollapseRemembersWhatWasOpenBelow() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        touch(root.resolve("src/inner/y.c"));
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.tree", "{\"expand\":[\"src/inner\"]}");
            assertEquals(List.of("src", "src/inner", "src/inner/y.c", "src/x.c"), paths(r));
            assertEquals(2, r.get("rows").get(2).get("depth").asInt());
            assertTrue(r.get("rows").get(0).get("expanded").asBoolean());
            assertEquals(List.of("src"), paths(h.call("files.tree", "{\"collapse\":[\"src\"]}")));
            touch(root.resolve("src/inner/z.c"));
            assertEquals(List.of("src", "src/inner", "src/inner/y.c", "src/inner/z.c", "src/x.c"),
                    paths(h.call("files.tree", "{\"expand\":[\"src\"]}")),
                    "src/inner stayed open, and its listing, dropped while it did not show, is read again");
            ObjectNode sub = h.call("files.tree", "{\"path\":\"src/inner\"}");
            assertEquals(List.of("src/inner/y.c", "src/inner/z.c"), paths(sub));
            assertEquals("src/inner", sub.get("path").asText());
            // a path through the root's own spelling, absolute, is inside too
            assertEquals(List.of("src/inner/y.c", "src/inner/z.c"),
                    paths(h.call("files.tree", "{\"path\":\"" + root.resolve("src/inner") + "\"}")));
        }
    }

    @Test
    void hiddenAndGitIgnoredEntriesAreLeftOutByDefaultAndShownLiveWhenTheConfigSaysSo() throws Exception {
        Path root = root();
        git(root, "init", "-q");
        Files.writeString(root.resolve(".gitignore"), "*.log\nbuild/\n");
        touch(root.resolve("a.log"));
        touch(root.resolve("build/out.o"));
        touch(root.resolve(".env"));
        touch(root.resolve("src/x.c"));
        touch(root.resolve("tracked.log"));
        git(root, "add", "-f", "tracked.log");
        try (Harness h = new Harness(root)) {
            assertEquals(List.of("src", "tracked.log"), paths(h.call("files.tree", "{}")),
                    "a tracked file is never ignored; .git is never listed");
            h.family.apply(Harness.params("{\"show_hidden\":true,\"show_ignored\":false}"));
            ObjectNode r = h.call("files.tree", "{}");
            assertEquals(List.of("src", ".env", ".gitignore", "tracked.log"), paths(r));
            assertTrue(r.get("show_hidden").asBoolean());
            h.family.apply(Harness.params("{\"show_hidden\":true,\"show_ignored\":true}"));
            r = h.call("files.tree", "{\"expand\":[\"build\"]}");
            assertEquals(List.of("build", "build/out.o", "src", ".env", ".gitignore", "a.log", "tracked.log"), paths(r));
            assertTrue(r.get("rows").get(1).get("ignored").asBoolean(), "inside an ignored folder is ignored");
            assertTrue(r.get("rows").get(3).get("hidden").asBoolean());
            assertTrue(r.get("rows").get(5).get("ignored").asBoolean());
            assertEquals(List.of("visibility", "visibility"),
                    h.published.stream().map(p -> p.data().get("reason").asText()).toList());
            assertTrue(h.published.stream().allMatch(p -> p.event().equals("files.changed")));
        }
    }

    @Test
    void refreshRereadsAtOnceAndPublishesOnlyWhenSomethingChanged() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        try (Harness h = new Harness(root)) {
            h.call("files.tree", "{\"expand\":[\"src\"]}");
            touch(root.resolve("src/new.c"));
            assertEquals(List.of("src", "src/x.c"), paths(h.call("files.tree", "{}")), "listings are cached");
            ObjectNode r = h.call("files.refresh", "{}");
            assertTrue(r.get("changed").asBoolean());
            assertEquals(2, r.get("generation").asLong());
            assertEquals(1, h.published.size());
            assertEquals("files.changed", h.published.get(0).event());
            assertEquals("refresh", h.published.get(0).data().get("reason").asText());
            assertEquals(Harness.WS, h.published.get(0).data().get("workspace_id").asText());
            assertEquals(List.of("src", "src/new.c", "src/x.c"), paths(h.call("files.tree", "{}")));
            ObjectNode again = h.call("files.refresh", "{}");
            assertFalse(again.get("changed").asBoolean());
            assertEquals(2, again.get("generation").asLong());
            assertEquals(1, h.published.size(), "nothing changed, nothing published");
            // a folder removed while expanded leaves the tree quietly
            Files.delete(root.resolve("src/x.c"));
            Files.delete(root.resolve("src/new.c"));
            Files.delete(root.resolve("src"));
            assertTrue(h.call("files.refresh", "{}").get("changed").asBoolean());
            assertEquals(List.of(), paths(h.call("files.tree", "{}")));
        }
    }

    @Test
    void refreshBeforeAnyTreeIsTheFirstReadAndChangesNothingItCouldCompare() throws Exception {
        Path root = root();
        touch(root.resolve("a"));
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.refresh", "{}");
            assertFalse(r.get("changed").asBoolean());
            assertEquals(1, r.get("generation").asLong());
            assertEquals(List.of(), h.published);
        }
    }

    @Test
    void revealExpandsTheWayDownAndSelectsEvenWhatVisibilityWouldHide() throws Exception {
        Path root = root();
        touch(root.resolve("src/inner/y.c"));
        touch(root.resolve(".config/app.toml"));
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.reveal", "{\"path\":\"src/inner/y.c\"}");
            assertEquals("files_reveal", r.get("type").asText());
            assertEquals("src/inner/y.c", r.get("selected").asText());
            assertEquals(List.of("src", "src/inner", "src/inner/y.c"), paths(r));
            assertTrue(r.get("rows").get(2).get("selected").asBoolean());
            assertEquals("src/inner/y.c", h.call("files.tree", "{}").get("selected").asText(), "the selection is kept");
            r = h.call("files.reveal", "{\"path\":\".config/app.toml\"}");
            assertEquals(List.of(".config", ".config/app.toml", "src", "src/inner", "src/inner/y.c"), paths(r));
            h.reject(ErrorCode.NOT_FOUND, "files.reveal", "{\"path\":\"src/missing.c\"}");
        }
    }

    @Test
    void everyEscapeIsRefusedWithItsReasonAndChangesNothing() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        touch(outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("out-file"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("dangling"), tmp.resolve("nowhere"));
        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("../outside/secret.txt", "escapes_workspace");
        bad.put("src/../../outside", "escapes_workspace");
        bad.put("/etc/passwd", "escapes_workspace");
        bad.put(outside.resolve("secret.txt").toString(), "escapes_workspace");
        bad.put("%2e%2e/outside/secret.txt", "escapes_workspace");
        bad.put("src/%2E%2E/%2e%2e/outside", "escapes_workspace");
        bad.put("src/%zz", "bad_percent_encoding");
        bad.put("src/%ff", "bad_percent_encoding");
        bad.put("src/x\u0000.c", "control_character");
        bad.put("src/x%00.c", "control_character");
        bad.put("src/\nx.c", "control_character");
        bad.put("out/secret.txt", "symlink_escapes_workspace");
        bad.put("out", "symlink_escapes_workspace");
        bad.put("out-file", "symlink_escapes_workspace");
        bad.put("dangling", "symlink_escapes_workspace");
        try (Harness h = new Harness(root)) {
            h.call("files.tree", "{}");
            for (Map.Entry<String, String> e : bad.entrySet()) {
                String p = Harness.JSON.writeValueAsString(e.getKey());
                for (String[] m : new String[][] {{"files.open", "{\"path\":" + p + "}", "path"},
                        {"files.reveal", "{\"path\":" + p + "}", "path"},
                        {"files.tree", "{\"path\":" + p + "}", "path"},
                        {"files.tree", "{\"expand\":[\"src\"," + p + "]}", "expand[1]"},
                        {"files.tree", "{\"collapse\":[" + p + "]}", "collapse[0]"}}) {
                    UhpException x = h.reject(ErrorCode.INVALID_REQUEST, m[0], m[1]);
                    assertEquals(e.getValue(), x.details().get("reason"), m[0] + " " + m[1] + ": " + x.getMessage());
                    assertEquals(m[2], x.details().get("field"));
                    assertEquals(e.getKey(), x.details().get("path"));
                }
            }
            assertEquals(List.of("dangling", "out", "out-file", "src"), paths(h.call("files.tree", "{}")).stream()
                    .sorted().toList(), "the links are listed, src was never expanded");
        }
    }

    @Test
    void aLinkInsideTheRootIsListedButNeverExpandedAndEncodedNamesReachRealFiles() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        touch(root.resolve("my file.txt"));
        Files.createSymbolicLink(root.resolve("link"), root.resolve("src"));
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.tree", "{}");
            JsonNode link = r.get("rows").get(1);
            assertEquals("link", link.get("path").asText());
            assertEquals("symlink", link.get("kind").asText());
            UhpException e = h.reject(ErrorCode.INVALID_REQUEST, "files.tree", "{\"expand\":[\"link\"]}");
            assertEquals("symlink", e.details().get("reason"));
            assertEquals("not_a_directory",
                    h.reject(ErrorCode.INVALID_REQUEST, "files.tree", "{\"expand\":[\"my file.txt\"]}").details().get("reason"));
            assertEquals("my file.txt", h.call("files.reveal", "{\"path\":\"my%20file.txt\"}").get("selected").asText());
            // through the link, the folder is found by its real path
            assertEquals("src/x.c", h.call("files.reveal", "{\"path\":\"link/x.c\"}").get("selected").asText());
        }
    }

    @Test
    void openStartsTheEditorBesideTheFocusedPaneWithTheLine() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        try (Harness h = new Harness(root, Map.of("VISUAL", "myed --wait", "EDITOR", "nano"))) {
            ObjectNode r = h.call("files.open", "{\"path\":\"src/x.c\",\"line\":12}");
            assertEquals("files_open", r.get("type").asText());
            assertEquals("2", r.get("pane").asText());
            assertEquals("src/x.c", r.get("path").asText());
            Path real = root.toRealPath().resolve("src/x.c");
            assertEquals(List.of("myed", "--wait", "+12", real.toString()), h.model.launches.get(0).command());
            assertEquals(h.model.launches.get(0).command(),
                    Harness.JSON.convertValue(r.get("command"), List.class));
            var tab = h.model.state.workspaces().get(0).tabs().get(0);
            assertEquals(new Node.Split(io.artuditu.model.topology.Axis.HORIZONTAL, 0.5, new Node.Leaf("1"),
                    new Node.Leaf("2")), tab.root(), "to the right of pane 1");
            assertEquals("1", tab.focused(), "focus stays unless asked");
            h.call("files.open", "{\"path\":\"src/x.c\",\"split\":\"down\",\"focus\":true}");
            tab = h.model.state.workspaces().get(0).tabs().get(0);
            assertEquals("3", tab.focused());
        }
    }

    @Test
    void theEditorIsVisualThenEditorThenVi() {
        Path f = Path.of("/w/a.txt");
        assertEquals(List.of("vi", "/w/a.txt"), Editor.argv(Map.of(), null, f));
        assertEquals(List.of("vi", "+3", "/w/a.txt"), Editor.argv(Map.of("VISUAL", " "), 3, f));
        assertEquals(List.of("emacs", "-nw", "/w/a.txt"), Editor.argv(Map.of("EDITOR", "emacs -nw"), null, f));
        assertEquals(List.of("hx", "/w/a.txt"), Editor.argv(Map.of("VISUAL", "hx", "EDITOR", "nano"), null, f));
    }

    @Test
    void openRefusesFoldersMissingFilesAndAFailedSpawnChangesNothing() throws Exception {
        Path root = root();
        touch(root.resolve("src/x.c"));
        try (Harness h = new Harness(root)) {
            assertEquals("is_a_directory",
                    h.reject(ErrorCode.INVALID_REQUEST, "files.open", "{\"path\":\"src\"}").details().get("reason"));
            h.reject(ErrorCode.NOT_FOUND, "files.open", "{\"path\":\"src/none.c\"}");
            h.reject(ErrorCode.INVALID_REQUEST, "files.open", "{\"path\":\"src/x.c\",\"line\":0}");
            h.reject(ErrorCode.INVALID_REQUEST, "files.open", "{\"path\":\"src/x.c\",\"split\":\"left\"}");
            h.reject(ErrorCode.INVALID_REQUEST, "files.open", "{\"path\":\"\"}");
            h.model.failSpawn = true;
            h.reject(ErrorCode.SPAWN_FAILED, "files.open", "{\"path\":\"src/x.c\"}");
        }
    }

    @Test
    void aFolderListsAtMost2000EntriesAndSaysSo() throws Exception {
        Path root = root();
        for (int i = 0; i < FolderReader.MAX_ENTRIES + 5; i++) {
            Files.createFile(Files.createDirectories(root.resolve("big")).resolve("f" + i));
        }
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.tree", "{\"path\":\"big\"}");
            assertEquals(FolderReader.MAX_ENTRIES, r.get("rows").size());
            assertEquals(List.of("big"), Harness.JSON.convertValue(r.get("truncated_folders"), List.class));
            assertFalse(r.get("truncated").asBoolean());
        }
    }

    @Test
    void theRowsStopAt10000AndFoldersTooDeepAreRefused() throws Exception {
        Path root = root();
        for (int d = 0; d < 6; d++) {
            Path dir = Files.createDirectories(root.resolve("d" + d));
            for (int i = 0; i < 1_800; i++) {
                Files.createFile(dir.resolve("f" + i));
            }
        }
        Path deep = root;
        for (int i = 0; i <= Tree.MAX_DEPTH; i++) {
            deep = deep.resolve("n");
        }
        Files.createDirectories(deep);
        try (Harness h = new Harness(root)) {
            ObjectNode r = h.call("files.tree", "{\"expand\":[\"d0\",\"d1\",\"d2\",\"d3\",\"d4\",\"d5\"]}");
            assertEquals(Tree.MAX_ROWS, r.get("rows").size());
            assertTrue(r.get("truncated").asBoolean());
            String tooDeep = root.relativize(deep).toString();
            assertEquals("too_deep", h.reject(ErrorCode.INVALID_REQUEST, "files.tree",
                    "{\"expand\":[\"" + tooDeep + "\"]}").details().get("reason"));
            h.call("files.tree", "{\"expand\":[\"" + root.relativize(deep.getParent()) + "\"]}");
        }
    }

    @Test
    void aStoppedFamilyRefusesAtOnceAndItsWorkerEnds() throws Exception {
        Path root = root();
        Harness h = new Harness(root);
        h.call("files.tree", "{}");
        h.close();
        UhpException e = assertThrows(UhpException.class, () -> h.call("files.tree", "{}"));
        assertEquals(ErrorCode.TIMEOUT, e.code());
        assertEquals("busy", e.details().get("reason"));
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("files-read")
                && t.isAlive()), "the worker thread ended");
    }

    @Test
    void aWorkspaceWhoseFolderIsGoneIsNotFound() throws Exception {
        Path root = root();
        try (Harness h = new Harness(root)) {
            Files.delete(root);
            UhpException e = assertThrows(UhpException.class, () -> h.call("files.tree", "{}"));
            assertEquals(ErrorCode.NOT_FOUND, e.code());
            assertEquals("directory", e.details().get("kind"));
        }
    }

    @Test
    void theConfigTableDefaultsSatisfyItsSchema() {
        FilesFamily f = new FilesFamily(null, Map.of(), () -> null);
        try {
            ObjectNode d = f.defaults();
            assertEquals(Map.of("show_hidden", false, "show_ignored", false),
                    Map.of("show_hidden", d.get("show_hidden").asBoolean(), "show_ignored", d.get("show_ignored").asBoolean()));
            assertTrue(JsonSchema.compile(f.schema()).validate(d, "files").isEmpty());
            assertFalse(JsonSchema.compile(f.schema()).validate(Harness.params("{\"show_dotfiles\":true}"), "files").isEmpty());
        } finally {
            f.deactivate();
        }
    }
}
