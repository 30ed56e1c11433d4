package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
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
