package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the module tests ask a live server, and the server process itself: calls that must
 * succeed, the live widgets and docks of one module, and the names of the server's threads
 * as the kernel lists them ({@code /proc/PID/task/TID/comm}, 15 characters at most: a
 * module's SDK threads {@code module-<id>-<name>} show as their first 15).
 */
final class ModuleProbe {
    private final Path socket;
    private final long pid;

    ModuleProbe(ForegroundServer server) {
        this.socket = server.socket;
        this.pid = server.process.pid();
    }

    /** The result of {@code method}; fails the test on an error reply. */
    JsonNode ok(String method, String params) throws IOException {
        JsonNode r = Wire.call(socket, method, params);
        assertTrue(r.has("result"), method + " " + params + " -> " + Terms.clip(r.toString()));
        return r.get("result");
    }

    JsonNode ok(String method, JsonNode params) throws IOException {
        return ok(method, Terms.json(params));
    }

    static ObjectNode p(Object... kv) {
        ObjectNode o = Terms.params();
        for (int i = 0; i < kv.length; i += 2) {
            o.set((String) kv[i], Wire.M.valueToTree(kv[i + 1]));
        }
        return o;
    }

    /** {@code module.link} of an absolute path; the module must come up enabled. */
    void link(Path path) throws IOException {
        JsonNode r = ok("module.link", p("path", path.toString()));
        assertEquals("enabled", r.get("state").asText(), "linked and enabled: " + r);
    }

    /** The module's row of {@code module.info}. */
    JsonNode info(String id) throws IOException {
        return ok("module.info", p("id", id)).get("module");
    }

    /** The live widget {@code owner/id} in {@code ui.bar.list}, if shown. */
    Optional<JsonNode> widget(String owner, String id) throws IOException {
        for (JsonNode w : ok("ui.bar.list", "{}").get("widgets")) {
            if (w.get("key").asText().equals(owner + "/" + id)) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    /** The dock {@code id} of {@code owner} in {@code ui.dock.list}, if mounted. */
    Optional<JsonNode> dock(String owner, String id) throws IOException {
        for (JsonNode d : ok("ui.dock.list", "{}").get("docks")) {
            if (d.get("owner").asText().equals(owner) && d.get("id").asText().equals(id)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** What a person reads in a widget: its segments' symbols and texts, spacers as blanks, in order. */
    static String text(JsonNode content) {
        StringBuilder s = new StringBuilder();
        for (JsonNode seg : content) {
            if (seg.get("type").asText().equals("spacer")) {
                s.append(" ".repeat(seg.path("width").asInt(1)));
            } else {
                s.append(seg.has("symbol") ? seg.get("symbol").asText() : seg.path("text").asText());
            }
        }
        return s.toString();
    }

    /** The server's threads whose kernel name starts with {@code prefix}. */
    List<String> threads(String prefix) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).strip();
                    if (comm.startsWith(prefix)) {
                        out.add(comm);
                    }
                } catch (IOException ended) {
                    // the thread ended while we listed
                }
            }
        }
        return out;
    }

    /** The SDK threads of module {@code id}: what the kernel shows of {@code module-<id>-…}. */
    List<String> moduleThreads(String id) throws IOException {
        String full = "module-" + id + "-";
        return threads(full.length() > 15 ? full.substring(0, 15) : full);
    }

    /** Runs a program to its end (at most 5 minutes) and returns its output; fails on a non-zero status. */
    static String run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), String.join(" ", command) + " finishes");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out;
    }

    /** {@code git} in {@code repo} with a fixed identity and no signing, whatever the machine's config. */
    static void git(Path repo, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString(), "-c", "user.name=Artuditu Test",
                "-c", "user.email=test@artuditu.invalid", "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        run(repo, cmd);
    }
}
