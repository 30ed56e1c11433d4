package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./artu install --prefix DIR}, then the installed {@code artu} against a real server. */
class CliInstallTest {
    @TempDir
    Path home;
    @TempDir
    Path prefix;

    private static Cli.Result exec(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("ARTUDITU_SOCKET_PATH");
        pb.environment().remove("ARTU_NO_BUILD");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd) + " finished");
        return new Cli.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void theInstalledArtuRunsTheBuiltJarsWithoutBuilding() throws Exception {
        // ./artu install builds first when sources are newer; the tests run on a built tree
        Map<String, String> env = new HashMap<>(Map.of("ARTUDITU_HOME", home.toString(), "PATH", System.getenv("PATH"),
                "ARTU_NO_BUILD", "1"));
        Cli.Result install = exec(env, Cli.ARTU.toString(), "install", "--prefix", prefix.toString());
        assertEquals(0, install.status(), install.err());
        Path artu = prefix.resolve("bin/artu");
        assertTrue(install.out().contains("installed " + artu), install.out());
        assertTrue(install.out().contains(prefix.resolve("bin") + " is not on PATH"), install.out());
        assertTrue(Files.isExecutable(artu));
        assertTrue(Files.readString(artu).contains("ARTU_NO_BUILD=1"), "the installed command never builds");

        env.put("PATH", prefix.resolve("bin") + ":" + System.getenv("PATH"));
        assertTrue(exec(env, Cli.ARTU.toString(), "install", "--prefix", prefix.toString()).out()
                .contains(prefix.resolve("bin") + " is on PATH"));
        assertEquals(3, exec(env, artu.toString(), "ping").status(), "no server yet");
        try (ForegroundServer s = new ForegroundServer(home)) {
            Cli.Result ping = exec(env, artu.toString(), "ping");
            assertEquals(0, ping.status(), ping.err());
            assertTrue(ping.out().startsWith("{\"type\":\"pong\""), ping.out());
            Cli.Result help = exec(env, artu.toString(), "pane", "split", "--help");
            assertEquals(0, help.status(), help.err());
            assertTrue(help.out().contains("--down") && help.out().contains("UHP method pane.split"), help.out());
        }
        assertEquals(2, exec(env, Cli.ARTU.toString(), "install", "--prefix").status());
    }
}
