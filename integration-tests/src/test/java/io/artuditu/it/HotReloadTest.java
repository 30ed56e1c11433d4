package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operators swap bundles while the server serves: through server.bundle.* over the socket
 * and through the drop-in folder, with the example module built by the reactor.
 */
class HotReloadTest {
    static final Path EXAMPLE = Reactor.jar("io.artuditu.example.echo");

    @TempDir
    Path home;

    private static boolean offers(ForegroundServer s, String method) throws Exception {
        for (JsonNode m : Wire.call(s.socket, "uhp.capabilities", "{}").at("/result/methods")) {
            if (m.get("name").asText().equals(method)) {
                return true;
            }
        }
        return false;
    }

    private static void await(String what, java.util.concurrent.Callable<Boolean> cond) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!cond.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within 20 s");
            Thread.sleep(50);
        }
    }

    @Test
    void installAnswerUninstallOverUhp() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            assertFalse(offers(s, "example.echo"));
            assertEquals("unknown_method", Wire.code(Wire.call(s.socket, "example.echo", "{\"text\":\"hi\"}")));

            JsonNode installed = Wire.call(s.socket, "server.bundle.install",
                    "{\"path\":" + Wire.M.writeValueAsString(EXAMPLE.toString()) + "}");
            assertEquals("bundle_installed", installed.at("/result/type").asText(), installed.toString());
            long id = installed.at("/result/bundle/id").asLong();
            assertTrue(offers(s, "example.echo"));
            JsonNode echo = Wire.call(s.socket, "example.echo", "{\"text\":\"hi\",\"upper\":true}");
            assertEquals("HI", echo.at("/result/text").asText(), echo.toString());
            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "example.echo", "{\"text\":5}")),
                    "the module's own schema is enforced");

            Cli.Result list = Cli.run(s.env, "call", "server.bundle.list");
            assertEquals(0, list.status(), list.err());
            assertTrue(list.out().contains("io.artuditu.example.echo"));

            JsonNode gone = Wire.call(s.socket, "server.bundle.uninstall", "{\"bundle\":" + id + "}");
            assertEquals("bundle_uninstalled", gone.at("/result/type").asText(), gone.toString());
            assertFalse(offers(s, "example.echo"));
            assertEquals("method_unavailable", Wire.code(Wire.call(s.socket, "example.echo", "{\"text\":\"hi\"}")));

            assertEquals("invalid_request", Wire.code(Wire.call(s.socket, "server.bundle.stop",
                    "{\"bundle\":\"io.artuditu.server\"}")), "core bundles cannot be stopped over UHP");
            assertEquals("not_found", Wire.code(Wire.call(s.socket, "server.bundle.start", "{\"bundle\":9999}")));
            assertEquals("pong", Wire.call(s.socket, "ping", "{}").at("/result/type").asText());
        }
    }

    @Test
    void callsDuringAnUpdateOfTheirFamilyAreHeldAndAnsweredNotRefused() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            JsonNode installed = Wire.call(s.socket, "server.bundle.install",
                    "{\"path\":" + Wire.M.writeValueAsString(EXAMPLE.toString()) + "}");
            long id = installed.at("/result/bundle/id").asLong();
            java.util.concurrent.atomic.AtomicBoolean updating = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
            Thread caller = new Thread(() -> {
                while (updating.get()) { // back to back, bounded by the updates below
                    try {
                        JsonNode r = Wire.call(s.socket, "example.echo", "{\"text\":\"hi\"}");
                        if ("hi".equals(r.at("/result/text").asText())) {
                            answered.incrementAndGet();
                        } else {
                            refused.add(r.toString());
                        }
                    } catch (Exception e) {
                        refused.add(e.toString());
                    }
                }
            });
            caller.start();
            for (int i = 0; i < 5; i++) {
                JsonNode up = Wire.call(s.socket, "server.bundle.update", "{\"bundle\":" + id + "}");
                assertEquals("bundle_updated", up.at("/result/type").asText(), up.toString());
            }
            updating.set(false);
            caller.join(20_000);
            assertEquals(java.util.List.of(), refused, "no call is refused while its family is replaced");
            assertTrue(answered.get() > 0);
            long held = Wire.call(s.socket, "uhp.stats", "{}").at("/result/requests/held_for_update").asLong();
            assertTrue(held > 0, "five updates under back-to-back calls held some of them: " + held);
        }
    }

    @Test
    void theDropInFolderTakesFinishedJarsOnly() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Path dropIn = home.resolve("bundles");
            assertTrue(Files.isDirectory(dropIn), "the server creates <home>/bundles");
            // A partial copy under a .part name is never taken; the rename makes it whole.
            Path part = dropIn.resolve("echo.jar.part");
            Files.copy(EXAMPLE, part);
            Thread.sleep(1_500);
            assertFalse(offers(s, "example.echo"), "a .part file is ignored");
            Files.move(part, dropIn.resolve("echo.jar"), StandardCopyOption.ATOMIC_MOVE);
            await("the dropped bundle answers", () -> offers(s, "example.echo"));
            assertEquals("hi", Wire.call(s.socket, "example.echo", "{\"text\":\"hi\"}").at("/result/text").asText());
            Files.delete(dropIn.resolve("echo.jar"));
            await("the removed bundle is gone", () -> !offers(s, "example.echo"));
            assertEquals("method_unavailable", Wire.code(Wire.call(s.socket, "example.echo", "{\"text\":\"hi\"}")));
        }
    }

    @Test
    void aModulesMethodIsACommandOnceInstalledWithNoChangeToTheCli() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home)) {
            Cli.Result before = Cli.run(s.env, "example", "echo", "--text", "hi");
            assertEquals(2, before.status(), before.err());
            assertTrue(before.err().contains("unknown command: example"), before.err());

            Cli.Result installed = Cli.run(s.env, "server", "bundle", "install", EXAMPLE.toString());
            assertEquals(0, installed.status(), installed.err());
            assertTrue(installed.out().contains("\"bundle_installed\""), installed.out());

            Cli.Result echo = Cli.run(s.env, "example", "echo", "--text", "hi", "--upper");
            assertEquals(0, echo.status(), echo.err());
            assertEquals("{\"type\":\"echo\",\"text\":\"HI\"}", echo.out().trim());
            Cli.Result help = Cli.run(s.env, "example", "echo", "--help");
            assertEquals(0, help.status(), help.err());
            assertTrue(help.out().contains("--text") && help.out().contains("--upper")
                    && help.out().contains("io.artuditu.example.echo"), help.out());
            Cli.Result typo = Cli.run(s.env, "example", "echo", "--txet", "hi");
            assertEquals(2, typo.status(), "an unknown flag of a live method is a usage error: " + typo.err());
            assertTrue(typo.err().contains("--text"), typo.err());
            Cli.Result missing = Cli.run(s.env, "example", "echo", "--upper");
            assertEquals(2, missing.status(), "its schema's required param is checked before sending: " + missing.err());
        }
    }

    @Test
    void aBundleInTheDropInFolderIsThereAtStart() throws Exception {
        Files.createDirectories(home.resolve("bundles"));
        Files.copy(EXAMPLE, home.resolve("bundles/echo.jar"));
        try (ForegroundServer s = new ForegroundServer(home)) {
            await("the drop-in bundle answers after start", () -> offers(s, "example.echo"));
            Cli.Result r = Cli.run(Map.of("ARTUDITU_HOME", home.toString()), "call", "example.echo", "{\"text\":\"x\"}");
            assertEquals("{\"type\":\"echo\",\"text\":\"x\"}", r.out().trim());
        }
    }
}
