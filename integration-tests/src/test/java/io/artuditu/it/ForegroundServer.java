package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./artu server --foreground} in a temporary home, as a test fixture. The server
 * runs with strict results, so a handler whose result breaks its schema answers
 * {@code internal_error} and fails the test that called it.
 */
final class ForegroundServer implements AutoCloseable {
    final Path home;
    final Path socket;
    final Path log;
    final Process process;
    final Map<String, String> env = new HashMap<>();

    ForegroundServer(Path home, String... sessionArgs) throws IOException, InterruptedException {
        this(home, Map.of(), sessionArgs);
    }

    /** With {@code extraEnv} on top of the server's environment (its panes inherit it). */
    ForegroundServer(Path home, Map<String, String> extraEnv, String... sessionArgs) throws IOException, InterruptedException {
        this.home = home;
        this.socket = sessionArgs.length == 0 ? home.resolve("artuditu.sock")
                : home.resolve("sessions").resolve(sessionArgs[1]).resolve("artuditu.sock");
        this.log = Files.createTempFile("artuditu-server", ".log");
        env.put("ARTUDITU_HOME", home.toString());
        // The panes' shells start in a user home of their own, empty: what the developer's
        // ~/.bashrc does (a version manager's hook, a slow prompt) is no part of any test.
        Path userHome = Files.createDirectories(home.resolve("user-home"));
        env.put("HOME", userHome.toString());
        env.put("ARTUDITU_SERVER_JAVA_OPTS", "-Dartuditu.uhp.strict-results=true");
        env.putAll(extraEnv);
        String[] args = new String[sessionArgs.length + 2];
        System.arraycopy(sessionArgs, 0, args, 0, sessionArgs.length);
        args[sessionArgs.length] = "server";
        args[sessionArgs.length + 1] = "--foreground";
        this.process = Cli.builder(env, args).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        awaitPing();
    }

    private void awaitPing() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("server exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                if (Wire.call(socket, "ping", "{}").has("result")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw new AssertionError("server did not answer ping in 60 s:\n" + log());
    }

    String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Waits for the process to end and returns its exit status. */
    int awaitExit() throws InterruptedException {
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "server exits within 30 s:\n" + log());
        return process.exitValue();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("server ignored SIGTERM for 20 s:\n" + log());
            }
            assertFalse(Files.exists(socket), "SIGTERM removes the socket file too");
        }
        Files.deleteIfExists(log);
    }
}
