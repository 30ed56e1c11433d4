package io.artuditu.bench;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The transport floor for the round-trip figure: a JDK-only server of the same shape as
 * Artuditu's (one accept thread handing each connection to a pooled worker, which reads one
 * line, writes one canned pong line and closes), with no framework, no JSON and no peer
 * check. What Artuditu adds on top of this is its own cost.
 *
 * <pre>FloorServer SOCKET SECONDS   serves until SECONDS have passed, then exits</pre>
 */
public final class FloorServer {
    private static final byte[] PONG = ("{\"id\":\"1\",\"result\":{\"type\":\"pong\",\"version\":\"0.1.0-SNAPSHOT\","
            + "\"session\":\"default\",\"uhp\":\"1.0\"}}\n").getBytes(StandardCharsets.UTF_8);

    private FloorServer() {
    }

    public static void main(String[] args) throws Exception {
        Path socket = Path.of(args[0]);
        long seconds = Long.parseLong(args[1]);
        Files.deleteIfExists(socket);
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socket), 128);
        ExecutorService workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "floor-conn");
            t.setDaemon(true);
            return t;
        });
        Thread acceptor = new Thread(() -> {
            while (true) {
                try {
                    SocketChannel ch = listener.accept();
                    workers.execute(() -> serve(ch));
                } catch (IOException e) {
                    return;
                }
            }
        }, "floor-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        Thread.sleep(seconds * 1000);
        listener.close();
        Files.deleteIfExists(socket);
    }

    private static void serve(SocketChannel ch) {
        try (ch) {
            ByteBuffer in = ByteBuffer.allocate(512);
            while (!hasLine(in)) {
                if (!in.hasRemaining() || ch.read(in) < 0) {
                    return;
                }
            }
            ByteBuffer out = ByteBuffer.wrap(PONG);
            while (out.hasRemaining()) {
                ch.write(out);
            }
        } catch (IOException e) {
            // the client went away; nothing to report
        }
    }

    private static boolean hasLine(ByteBuffer in) {
        for (int i = 0; i < in.position(); i++) {
            if (in.get(i) == '\n') {
                return true;
            }
        }
        return false;
    }
}
