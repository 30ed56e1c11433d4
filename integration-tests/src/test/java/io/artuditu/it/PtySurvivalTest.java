package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PTYs outlive bundles: with vim and a long sleep running in panes, the terminal family
 * and the emulator bundle are updated (and the terminal family stopped and started) over
 * UHP; the processes keep running with the same pid and terminal_id, and the screens come
 * back from the PTYs' retained output.
 */
class PtySurvivalTest {
    static final Path ROOT = Path.of(System.getProperty("artuditu.root"));

    @TempDir
    Path home;

    static JsonNode ok(JsonNode reply) {
        assertTrue(reply.has("result"), reply.toString());
        return reply.get("result");
    }

    static JsonNode create(ForegroundServer s, String argv) throws Exception {
        return ok(Wire.call(s.socket, "terminal.backend.create", "{\"command\":" + argv + ",\"cols\":80,\"rows\":24}"));
    }

    static String capture(ForegroundServer s, String terminal) throws Exception {
        return ok(Wire.call(s.socket, "terminal.backend.capture", "{\"terminal_id\":\"" + terminal + "\"}"))
                .get("text").asText();
    }

    static void awaitText(ForegroundServer s, String terminal, String needle) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        String last = "";
        while (System.nanoTime() < end) {
            JsonNode r = Wire.call(s.socket, "terminal.backend.capture", "{\"terminal_id\":\"" + terminal + "\"}");
            if (r.has("result")) {
                last = r.at("/result/text").asText();
                if (last.contains(needle)) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + needle + "' on " + terminal + ": " + last);
    }

    static boolean alive(long pid) {
        return Files.exists(Path.of("/proc/" + pid));
    }

    static void update(ForegroundServer s, String bsn) throws Exception {
        Path jar = Reactor.jar(bsn);
        JsonNode r = Wire.call(s.socket, "server.bundle.update",
                "{\"bundle\":\"" + bsn + "\",\"path\":" + Wire.M.writeValueAsString(jar.toString()) + "}");
        assertTrue(r.has("result"), bsn + ": " + r);
    }

    @Test
    void processesAndScreensSurviveUpdatesOfTheTerminalAndEmulatorBundles() throws Exception {
        Path file = home.resolve("notes.txt");
        Files.writeString(file, "survives bundle updates\n");
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode vim = create(s, "[\"vim\",\"-u\",\"NONE\",\"-N\"," + Wire.M.writeValueAsString(file.toString()) + "]");
            JsonNode sleep = create(s, "[\"sh\",\"-c\",\"echo sleeping; exec sleep 600\"]");
            String vimId = vim.get("terminal_id").asText();
            String sleepId = sleep.get("terminal_id").asText();
            awaitText(s, vimId, "survives bundle updates");
            awaitText(s, sleepId, "sleeping");

            for (String bsn : new String[] {"io.artuditu.terminal", "io.artuditu.vt"}) {
                update(s, bsn);
                awaitText(s, vimId, "survives bundle updates"); // the screen is rebuilt, vim was not asked to redraw
                awaitText(s, sleepId, "sleeping");
                assertTrue(alive(vim.get("pid").asLong()) && alive(sleep.get("pid").asLong()), "after updating " + bsn);
            }
            assertEquals("bundle_stopped", ok(Wire.call(s.socket, "server.bundle.stop",
                    "{\"bundle\":\"io.artuditu.terminal\"}")).get("type").asText());
            assertEquals("method_unavailable", Wire.code(Wire.call(s.socket, "terminal.backend.inventory", "{}")));
            assertTrue(alive(vim.get("pid").asLong()) && alive(sleep.get("pid").asLong()), "with the family stopped");
            ok(Wire.call(s.socket, "server.bundle.start", "{\"bundle\":\"io.artuditu.terminal\"}"));
            awaitText(s, vimId, "survives bundle updates");

            for (int i = 0; i < 5; i++) {
                update(s, "io.artuditu.terminal");
            }
            awaitText(s, vimId, "survives bundle updates");
            assertEquals(1, threads(s.process.pid(), "terminal-notify"), "each update ends the old notifier thread");

            JsonNode inventory = ok(Wire.call(s.socket, "terminal.backend.inventory", "{}"));
            String all = inventory.toString();
            assertTrue(all.contains(vimId) && all.contains(sleepId), all);
            assertEquals(vim.get("pid").asLong(), pidOf(inventory, vimId), "same process, same terminal_id");

            // The restored vim still takes input: insert a line and see it drawn.
            ok(Wire.call(s.socket, "terminal.backend.type_literal", "{\"terminal_id\":\"" + vimId + "\",\"text\":\"Ohello again\"}"));
            awaitText(s, vimId, "hello again");
            ok(Wire.call(s.socket, "terminal.backend.send_key", "{\"terminal_id\":\"" + vimId + "\",\"key\":\"esc\"}"));
            ok(Wire.call(s.socket, "terminal.backend.type_literal", "{\"terminal_id\":\"" + vimId + "\",\"text\":\":q!\\r\"}"));
            ok(Wire.call(s.socket, "terminal.backend.close", "{\"terminal_id\":\"" + sleepId + "\"}"));
        }
    }

    /**
     * The whole runtime reloads around running programs: every family bundle under
     * {@code bundles/families/} (the review loop's files, git, diff, worktrees and checkpoints
     * among them) is updated twice, one after another, while a pane runs vim and another a long
     * sleep. The processes keep their pids and screens, every family answers again, and the
     * second round leaves no more threads than the first (an old bundle's worker that outlived
     * its update would show up there).
     */
    @Test
    void everyFamilyBundleUpdatesWhileThePtysRun() throws Exception {
        Path file = home.resolve("notes.txt");
        Files.writeString(file, "survives every family's update\n");
        List<String> families = new ArrayList<>();
        try (var dirs = Files.list(ROOT.resolve("bundles/families"))) {
            dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).filter(n -> n.startsWith("io.artuditu."))
                    .sorted().forEach(families::add);
        }
        assertTrue(families.containsAll(List.of("io.artuditu.files", "io.artuditu.git", "io.artuditu.diff", "io.artuditu.worktrees",
                "io.artuditu.checkpoints")), families.toString());
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode vim = create(s, "[\"vim\",\"-u\",\"NONE\",\"-N\"," + Wire.M.writeValueAsString(file.toString()) + "]");
            JsonNode sleep = create(s, "[\"sh\",\"-c\",\"echo sleeping; exec sleep 600\"]");
            String vimId = vim.get("terminal_id").asText();
            awaitText(s, vimId, "survives every family's update");
            long[] threadsAfter = new long[2];
            for (int round = 0; round < 2; round++) {
                for (String bsn : families) {
                    update(s, bsn);
                    assertTrue(alive(vim.get("pid").asLong()) && alive(sleep.get("pid").asLong()), "after updating " + bsn);
                }
                awaitText(s, vimId, "survives every family's update");
                for (String method : List.of("ping", "workspace.list", "pane.list", "agent.list", "theme.list",
                        "module.list", "git.status", "worktree.list", "checkpoint.list", "files.tree", "diff.list")) {
                    awaitAnswer(s, method);
                }
                threadsAfter[round] = threadCount(s.process.pid());
            }
            assertTrue(threadsAfter[1] <= threadsAfter[0] + 2,
                    "a second round of updates grew the server's threads: " + threadsAfter[0] + " -> " + threadsAfter[1]);
            JsonNode inventory = ok(Wire.call(s.socket, "terminal.backend.inventory", "{}"));
            assertEquals(vim.get("pid").asLong(), pidOf(inventory, vimId), "same process, same terminal_id");
        }
    }

    /**
     * Waits for {@code method} to answer with a result, or an error that is the method's own
     * (a folder that is no repository, say) rather than {@code method_unavailable}: a family
     * re-registers shortly after its bundle restarts.
     */
    static void awaitAnswer(ForegroundServer s, String method) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        JsonNode r;
        do {
            r = Wire.call(s.socket, method, "{}");
            if (r.has("result") || !"method_unavailable".equals(Wire.code(r)) && !"unknown_method".equals(Wire.code(r))) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < end);
        throw new AssertionError(method + " never came back after the updates: " + r);
    }

    static long threadCount(long pid) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.count();
        }
    }

    /** Threads of a process by name (Linux keeps the first 15 characters in comm). */
    static long threads(long pid, String name) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).trim().equals(name);
                } catch (java.io.IOException e) {
                    return false;
                }
            }).count();
        }
    }

    static long pidOf(JsonNode inventory, String terminal) {
        for (JsonNode t : inventory.get("terminals")) {
            if (t.get("terminal_id").asText().equals(terminal)) {
                return t.get("pid").asLong();
            }
        }
        throw new AssertionError("no " + terminal + " in " + inventory);
    }
}
