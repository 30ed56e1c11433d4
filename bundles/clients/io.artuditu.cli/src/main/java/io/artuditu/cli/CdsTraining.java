package io.artuditu.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The run the launcher archives classes from ({@code -XX:ArchiveClassesAtExit}) when it
 * has no class-data archive yet: one-shot commands against a stand-in server on a
 * temporary socket that answers every request with a result, so the archive holds every
 * class a successful {@code artu ping} (and a mapped command with flags) loads, whether or
 * not a real server is running; then {@code artu hook} reads a Claude Code hook's JSON and
 * reports it (two requests), the command every agent event runs.
 */
public final class CdsTraining {
    private static final String[][] COMMANDS = {{"ping"}, {"pane", "split", "--down"}, {"workspace", "rename", "0", "x"}};

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("artu-cds");
        Path sock = dir.resolve("s.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    answer(server, COMMANDS.length + 2);
                }
            }, "cds-training");
            t.start();
            PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
            // the real environment, as Artu.main reads it (its classes belong in the archive too)
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("ARTUDITU_SOCKET_PATH", sock.toString());
            env.remove("ARTUDITU_TOKEN");
            for (String[] c : COMMANDS) {
                new Artu(env, sink, sink).run(c);
            }
            // the hook's stdin is a stand-in too: training must never wait on the launcher's own stdin
            env.put("ARTUDITU_PANE_ID", "1");
            byte[] hookInput = ("{\"session_id\":\"0b6c3f0e-cds\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"/tmp\","
                    + "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}\n").getBytes(StandardCharsets.UTF_8);
            new Hook(env, new java.io.ByteArrayInputStream(hookInput), sink).run(null, java.util.List.of("claude", "Stop"));
            t.join(5_000);
        } finally {
            Files.deleteIfExists(sock);
            Files.deleteIfExists(dir);
        }
    }

    /** Reads each request line and answers {@code {"id":"1","result":{"type":"pong"}}}. */
    static void answer(ServerSocketChannel server, int count) {
        ByteBuffer reply = ByteBuffer.wrap("{\"id\":\"1\",\"result\":{\"type\":\"pong\"}}\n".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < count; i++) {
            try (SocketChannel c = server.accept()) {
                ByteBuffer in = ByteBuffer.allocate(4096);
                while (c.read(in) >= 0 && in.get(in.position() - 1) != '\n') {
                    if (!in.hasRemaining()) {
                        in.clear();
                    }
                }
                reply.rewind();
                while (reply.hasRemaining()) {
                    c.write(reply);
                }
            } catch (IOException e) {
                return;
            }
        }
    }
}
