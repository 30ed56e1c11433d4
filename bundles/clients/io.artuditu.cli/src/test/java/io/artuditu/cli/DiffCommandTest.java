package io.artuditu.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code artu diff}: diff.open for the workspace of the pane it runs in, against a stand-in server that records requests. */
class DiffCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> env, String... args) {
        return new Artu(env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
    }

    /** Answers each request line by its method; records the lines. */
    static Thread serve(ServerSocketChannel server, List<String> seen, int count) {
        Thread t = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                try (SocketChannel c = server.accept()) {
                    ByteBuffer in = ByteBuffer.allocate(65536);
                    while (c.read(in) >= 0 && (in.position() == 0 || in.get(in.position() - 1) != '\n')) {
                        // read the one request line
                    }
                    String line = new String(in.array(), 0, in.position(), StandardCharsets.UTF_8).trim();
                    seen.add(line);
                    String result = line.contains("\"pane.get\"")
                            ? "{\"type\":\"pane\",\"pane\":\"4\",\"workspace_id\":\"workspace_00000000000000b2\"}"
                            : "{\"type\":\"diff_open\",\"pane\":\"9\",\"path\":null,\"layer\":null}";
                    ByteBuffer reply = ByteBuffer.wrap(("{\"id\":\"1\",\"result\":" + result + "}\n").getBytes(StandardCharsets.UTF_8));
                    while (reply.hasRemaining()) {
                        c.write(reply);
                    }
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.start();
        return t;
    }

    @Test
    void insideAPaneItOpensTheViewInThatPanesWorkspace(@TempDir Path dir) throws Exception {
        Path sock = dir.resolve("s.sock");
        List<String> seen = new CopyOnWriteArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Thread t = serve(server, seen, 2);
            int status = run(Map.of("ARTUDITU_SOCKET_PATH", sock.toString(), "ARTUDITU_PANE_ID", "4"), "diff");
            t.join(5000);
            assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        }
        assertEquals(2, seen.size(), seen.toString());
        assertTrue(seen.get(0).contains("\"method\":\"pane.get\"") && seen.get(0).contains("\"pane\":\"4\""), seen.get(0));
        assertTrue(seen.get(1).contains("\"method\":\"diff.open\""), seen.get(1));
        assertTrue(seen.get(1).contains("\"workspace_id\":\"workspace_00000000000000b2\""), seen.get(1));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"type\":\"diff_open\""));
    }

    @Test
    void outsideAPaneItOpensTheViewInTheActiveWorkspace(@TempDir Path dir) throws Exception {
        Path sock = dir.resolve("s.sock");
        List<String> seen = new CopyOnWriteArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Thread t = serve(server, seen, 1);
            assertEquals(0, run(Map.of("ARTUDITU_SOCKET_PATH", sock.toString()), "diff"));
            t.join(5000);
        }
        assertEquals(1, seen.size());
        assertTrue(seen.get(0).contains("\"method\":\"diff.open\"") && seen.get(0).contains("\"params\":{}"), seen.get(0));
    }

    @Test
    void theViewProgramNeedsTheWorkbenchJar(@TempDir Path dir) {
        assertEquals(Artu.USAGE, run(Map.of("ARTUDITU_SOCKET_PATH", dir.resolve("none.sock").toString()), "diff", "view"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("diff view needs the workbench's jar"));
    }
}
