package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.api.home.SocketLocation;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server process as a user meets it: start, answer, refuse a twin, stop cleanly. */
class ServerLifecycleTest {
    @TempDir
    Path home;

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void startPingRawStatusStop() throws Exception {
        Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString());
        Cli.Result start = Cli.run(env, "server", "start");
        assertEquals(0, start.status(), start.err());
        assertTrue(start.out().contains("\"type\":\"pong\""), start.out());
        try {
            Path sock = home.resolve("artuditu.sock");
            assertEquals("rw-------", perms(sock));
            assertEquals("rwx------", perms(home));

            Cli.Result ping = Cli.run(env, "ping");
            assertEquals(0, ping.status(), ping.err());
            JsonNode pong = Wire.M.readTree(ping.out());
            assertEquals("default", pong.path("session").asText());
            assertEquals("", ping.err());

            // The spec's raw example, byte for byte through nc.
            ProcessBuilder nc = new ProcessBuilder("sh", "-c",
                    "printf '%s\\n' '{\"id\":\"1\",\"method\":\"ping\",\"params\":{}}' | nc -U -q 5 \"$SOCK\"");
            nc.environment().put("SOCK", sock.toString());
            Process p = nc.start();
            String raw = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), "nc is installed by .ci/run (netcat-openbsd)");
            assertEquals("pong", Wire.validated(raw, "ping").at("/result/type").asText());

            Cli.Result status = Cli.run(env, "server", "status");
            assertEquals(0, status.status());
            assertTrue(Wire.M.readTree(status.out()).path("running").asBoolean());

            Cli.Result caps = Cli.run(env, "uhp", "capabilities");
            assertEquals(0, caps.status(), caps.err());
            assertTrue(Wire.M.readTree(caps.out()).path("methods").toString().contains("\"uhp.stats\""));
        } finally {
            Cli.Result stop = Cli.run(env, "server", "stop");
            assertEquals(0, stop.status(), stop.err());
        }
        assertFalse(Files.exists(home.resolve("artuditu.sock")), "stop removes the socket");
        Cli.Result status = Cli.run(env, "server", "status");
        assertEquals(3, status.status());
        assertFalse(Wire.M.readTree(status.out()).path("running").asBoolean());
        Cli.Result ping = Cli.run(env, "ping");
        assertEquals(3, ping.status());
        assertTrue(ping.err().contains("artu server start"), ping.err());
        assertEquals("", ping.out());
    }

    @Test
    void serverStopEndsTheProcessWithStatus0AndRemovesTheSocket() throws Exception {
        ForegroundServer s = new ForegroundServer(home);
        try (s) {
            JsonNode r = Wire.call(s.socket, "server.stop", "{}");
            assertTrue(r.at("/result/stopping").asBoolean());
            assertEquals(0, s.awaitExit(), s.log());
            assertFalse(Files.exists(s.socket));
        }
    }

    @Test
    void aSecondServerOnTheSamePathRefusesWithAClearMessageAndTheFirstGoesOn() throws Exception {
        try (ForegroundServer first = new ForegroundServer(home)) {
            Cli.Result second = Cli.run(first.env, "server", "--foreground");
            assertNotEquals(0, second.status());
            assertTrue((second.out() + second.err()).contains("already running"), second.out() + second.err());
            assertEquals("pong", Wire.call(first.socket, "ping", "{}").at("/result/type").asText());
        }
    }

    @Test
    void aStaleSocketLeftByADeadServerIsReplaced() throws Exception {
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        Path sock = home.resolve("artuditu.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(sock));
        }
        assertTrue(Files.exists(sock), "the dead server's socket file is still there");
        try (ForegroundServer s = new ForegroundServer(home)) {
            assertEquals("pong", Wire.call(s.socket, "ping", "{}").at("/result/type").asText());
        }
    }

    @Test
    void aNamedSessionLivesUnderSessionsAndSaysItsName() throws Exception {
        try (ForegroundServer s = new ForegroundServer(home, "--session", "work")) {
            assertEquals(home.resolve("sessions/work/artuditu.sock"), s.socket);
            assertEquals("rwx------", perms(s.socket.getParent()));
            Cli.Result ping = Cli.run(s.env, "--session", "work", "ping");
            assertEquals("work", Wire.M.readTree(ping.out()).path("session").asText());
            Cli.Result other = Cli.run(s.env, "ping");
            assertEquals(3, other.status(), "the default session is a different server");
            Map<String, String> pane = Map.of("ARTUDITU_HOME", "/nonexistent", "ARTUDITU_SOCKET_PATH", s.socket.toString());
            Cli.Result inPane = Cli.run(pane, "ping");
            assertEquals("work", Wire.M.readTree(inPane.out()).path("session").asText(), "a pane keeps its socket");
        }
    }

    @Test
    void aHomeTooLongForASocketPathUsesTheShortAlias() throws Exception {
        Path deep = home.resolve("a".repeat(60)).resolve("b".repeat(60));
        Files.createDirectories(deep);
        SocketLocation loc = SocketLocation.resolve(deep, null, SocketLocation.currentUid());
        assertTrue(loc.aliased());
        Map<String, String> env = Map.of("ARTUDITU_HOME", deep.toString());
        assertEquals(0, Cli.run(env, "server", "start").status());
        try {
            assertTrue(Files.exists(loc.bind()));
            assertEquals("rwx------", perms(loc.bind().getParent()));
            Cli.Result ping = Cli.run(env, "ping");
            assertEquals(0, ping.status(), ping.err());
        } finally {
            assertEquals(0, Cli.run(env, "server", "stop").status());
        }
        assertFalse(Files.exists(loc.bind()));
    }

    @Test
    void schemaNeedsNoServer() throws Exception {
        Cli.Result schema = Cli.run(Map.of("ARTUDITU_HOME", home.toString()), "uhp", "schema");
        assertEquals(0, schema.status(), schema.err());
        JsonNode doc = Wire.M.readTree(schema.out());
        assertTrue(doc.path("methods").has("ping"));
        assertFalse(Files.exists(home.resolve("artuditu.sock")));
    }
}
