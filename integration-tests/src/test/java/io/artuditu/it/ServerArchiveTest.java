package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's class-data-sharing archive (distribution/target/artuditu/server.jsa, written by
 * the build): a start maps the bundles' classes from it, and a start whose archive is broken,
 * stale or gone still answers, quietly (the JVM falls back to loading every class).
 */
class ServerArchiveTest {
    static final Path ARCHIVE = Cli.ROOT.resolve("distribution/target/artuditu/server.jsa");

    @TempDir
    Path home;
    @TempDir
    Path tmp;

    private ForegroundServer server(String extraOpts) throws Exception {
        return new ForegroundServer(home, Map.of("ARTUDITU_SERVER_JAVA_OPTS",
                "-Dartuditu.uhp.strict-results=true " + extraOpts));
    }

    private static void answersAndStops(ForegroundServer s) throws Exception {
        assertEquals("pong", Wire.call(s.socket, "ping", "{}").at("/result/type").asText());
        assertTrue(Wire.call(s.socket, "server.stop", "{}").at("/result/stopping").asBoolean());
        assertEquals(0, s.awaitExit(), s.log());
    }

    @Test
    void theBuildWritesAnArchiveThatAStartLoadsTheBundlesClassesFrom() throws Exception {
        assertTrue(Files.size(ARCHIVE) > 0, "the package phase writes " + ARCHIVE);
        assertTrue(Files.getLastModifiedTime(ARCHIVE).compareTo(
                Files.getLastModifiedTime(Cli.ROOT.resolve("distribution/target/artuditu.jar"))) > 0,
                "the archive is newer than the jar it was made from");
        Path classes = tmp.resolve("classes.log");
        try (ForegroundServer s = server("-Xlog:class+load=info:file=" + classes)) {
            answersAndStops(s);
        }
        String log = Files.readString(classes);
        // A bundle's class (loaded by the framework's class loader, not the JVM's own).
        assertTrue(log.lines().anyMatch(l -> l.contains(" io.artuditu.server.internal.ServerComponent ")
                && l.contains("shared objects file")), "ServerComponent comes from the archive");
        assertTrue(log.lines().anyMatch(l -> l.contains(" org.apache.felix.framework.Felix ")
                && l.contains("shared objects file")), "the framework comes from the archive");
    }

    @Test
    void writingTheArchiveInsideAPaneLeavesThatPanesServerAlone() throws Exception {
        try (ForegroundServer s = server("")) {
            // What a pane's shell has: the build (artu server --write-archive) run from it must
            // ping and stop its own training server, never the one these point at.
            Cli.Result write = Cli.run(Map.of("ARTUDITU_SOCKET_PATH", s.socket.toString(),
                    "ARTUDITU_PANE_ID", "1"), "server", "--write-archive");
            assertEquals(0, write.status(), write.out() + write.err());
            assertTrue(write.out().contains("wrote " + ARCHIVE), write.out());
            assertTrue(s.process.isAlive(), s.log());
            answersAndStops(s);
        }
        assertTrue(Files.getLastModifiedTime(ARCHIVE).compareTo(
                Files.getLastModifiedTime(Cli.ROOT.resolve("distribution/target/artuditu.jar"))) > 0);
    }

    @Test
    void aStartWithABrokenArchiveStillAnswersAndSaysNothingAboutIt() throws Exception {
        Path broken = tmp.resolve("broken.jsa");
        byte[] noise = new byte[64 * 1024];
        new Random(16).nextBytes(noise);
        Files.write(broken, noise);
        // The last -XX:SharedArchiveFile wins over the one artu passes.
        try (ForegroundServer s = server("-XX:SharedArchiveFile=" + broken)) {
            answersAndStops(s);
            assertFalse(s.log().toLowerCase().contains("cds"), s.log());
            assertFalse(s.log().toLowerCase().contains("shared"), s.log());
        }
    }

    @Test
    void aStartWithAnArchiveOfOtherJarsStillAnswers() throws Exception {
        // Made for the thin CLI's class path: every class path entry mismatches the server's.
        Path other = tmp.resolve("other.jsa");
        Path lib = Cli.ROOT.resolve("distribution/target/artuditu/lib");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ArchiveClassesAtExit=" + other, "-cp",
                lib.resolve("io.artuditu.cli.jar").toString(), "io.artuditu.cli.Artu", "help")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("cli.log").toFile()).start();
        p.waitFor();
        assertTrue(Files.size(other) > 0, Files.readString(tmp.resolve("cli.log")));
        try (ForegroundServer s = server("-XX:SharedArchiveFile=" + other)) {
            answersAndStops(s);
            assertFalse(s.log().toLowerCase().contains("cds"), s.log());
        }
    }

    @Test
    void aStartWithoutAnArchiveStillAnswers() throws Exception {
        try (ForegroundServer s = server("-XX:SharedArchiveFile=" + tmp.resolve("missing.jsa"))) {
            answersAndStops(s);
            assertFalse(s.log().toLowerCase().contains("cds"), s.log());
        }
    }
}
