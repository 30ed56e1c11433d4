package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtuTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Artu artu(Map<String, String> env) {
        return new Artu(env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void miniJsonSplitsMembersAndKeepsRawValues() {
        Map<String, String> m = MiniJson.members(" {\"id\":\"1\", \"result\":{\"a\":[1,{\"b\":\"}\"}],\"c\":\"x\\\"y\"} } ");
        assertEquals("\"1\"", m.get("id"));
        assertEquals("{\"a\":[1,{\"b\":\"}\"}],\"c\":\"x\\\"y\"}", m.get("result"));
        assertEquals("x\"y\u00e9", MiniJson.stringValue("\"x\\\"y\\u00e9\""));
        assertEquals("\"a\\nb\\\"\\u0001\"", MiniJson.quote("a\nb\"\u0001"));
        assertEquals(Map.of("n", "null", "t", "true", "x", "-1.5e3"), MiniJson.members("{\"n\":null,\"t\":true,\"x\":-1.5e3}"));
    }

    @Test
    void aResultGoesToStdoutAndAnErrorToStderrWithStatus1() {
        Artu a = artu(Map.of());
        assertEquals(0, a.print("{\"id\":\"1\",\"result\":{\"type\":\"pong\"}}"));
        assertEquals("{\"type\":\"pong\"}\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(1, a.print("{\"id\":\"1\",\"error\":{\"code\":\"not_found\",\"message\":\"no such pane: 42\"}}"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("artu: not_found: no such pane: 42"));
    }

    @Test
    void theSocketComesFromSessionThenPaneThenHome(@TempDir Path home) {
        Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString(), "ARTUDITU_SOCKET_PATH", "/pane/inherited.sock");
        assertEquals(Path.of("/pane/inherited.sock"), artu(env).locate(null).logical());
        assertEquals(home.resolve("sessions/w/artuditu.sock"), artu(env).locate("w").logical());
        assertEquals(home.resolve("artuditu.sock"), artu(Map.of("ARTUDITU_HOME", home.toString())).locate(null).logical());
    }

    @Test
    void withNoServerTheStatusIs3AndTheMessageSaysHowToStartOne(@TempDir Path home) {
        int status = artu(Map.of("ARTUDITU_HOME", home.toString())).run(new String[] {"--session", "x", "ping"});
        assertEquals(Artu.NO_SERVER, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("artu --session x server start"), err.toString());
    }

    @Test
    void usageErrorsExit2() {
        assertEquals(Artu.USAGE, artu(Map.of()).run(new String[] {"bogus"}));
        assertEquals(Artu.USAGE, artu(Map.of()).run(new String[] {"--session", "../x", "ping"}));
        assertEquals(Artu.USAGE, artu(Map.of()).run(new String[] {}));
    }

    @Test
    void tokenUsageErrorsExit2BeforeAnyRequest(@TempDir Path home) {
        Map<String, String> env = Map.of("ARTUDITU_HOME", home.toString());
        String[][] bad = {{"token"}, {"token", "bogus"}, {"token", "create"}, {"token", "create", "--ttl", "60"},
            {"token", "create", "--scope", "read", "--ttl", "soon"}, {"token", "create", "--scope"},
            {"token", "create", "read"}, {"token", "revoke"}, {"token", "revoke", "a", "b"}, {"token", "list", "x"}};
        for (String[] args : bad) {
            assertEquals(Artu.USAGE, artu(env).run(args), String.join(" ", args));
        }
        // Well-formed: it gets as far as the (absent) server.
        assertEquals(Artu.NO_SERVER, artu(env).run(new String[] {"token", "create", "--scope=read", "--scope", "admin", "--ttl=60"}));
    }

    @Test
    void schemaPrintsTheContractWithoutAServer() {
        assertEquals(0, artu(Map.of()).run(new String[] {"uhp", "schema"}));
        String s = out.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("\"uhp.capabilities\""), s);
        assertTrue(s.contains("\"envelope\""));
    }
}
