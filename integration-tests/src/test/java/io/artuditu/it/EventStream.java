package io.artuditu.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.artuditu.uhp.client.UhpConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A streaming connection: sends one raw request, then a reader thread queues each line the
 * server sends. {@link #next} waits with a deadline; EOF is the line {@code null}
 * (reported as {@link #EOF}).
 */
final class EventStream implements AutoCloseable {
    static final String EOF = "\u0000EOF";
    final UhpConnection ch;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;

    EventStream(Path socket, String request, boolean read) throws IOException {
        ch = Wire.connect(socket);
        Wire.send(ch, (request + "\n").getBytes(StandardCharsets.UTF_8));
        reader = new Thread(this::readLoop, "test-stream-reader");
        reader.setDaemon(true);
        if (read) {
            reader.start();
        }
    }

    /** Starts reading (for a subscriber that was deliberately not reading). */
    void startReading() {
        reader.start();
    }

    private void readLoop() {
        try {
            for (String line; (line = ch.readLine()) != null; ) {
                lines.add(line);
            }
        } catch (IOException e) {
            // closed: report EOF
        }
        lines.add(EOF);
    }

    /** The next line, or fails after {@code seconds}. */
    String next(double seconds) throws InterruptedException {
        String l = lines.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
        if (l == null) {
            throw new AssertionError("no line within " + seconds + " s");
        }
        return l;
    }

    /** The next line as JSON; an event line is checked against its declared data schema. */
    JsonNode nextJson(double seconds) throws Exception {
        String l = next(seconds);
        if (l.equals(EOF)) {
            throw new AssertionError("the stream ended");
        }
        JsonNode n = Wire.M.readTree(l);
        if (n.has("event") && n.has("sequence")) {
            Wire.event(n, l);
        }
        return n;
    }

    /** A line already queued, or null. */
    String poll() {
        return lines.poll();
    }

    @Override
    public void close() {
        ch.close();
    }
}
