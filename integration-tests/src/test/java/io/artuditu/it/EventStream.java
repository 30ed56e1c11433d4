package io.artuditu.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw streaming connection: sends one request, then a reader thread splits what the
 * server sends into lines. {@link #next} waits with a deadline; EOF is the line {@code null}
 * (reported as {@link #EOF}).
 */
final class EventStream implements AutoCloseable {
    static final String EOF = "\u0000EOF";
    final SocketChannel ch;
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
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer in = ByteBuffer.allocate(8192);
        try {
            while (ch.read(in) >= 0) {
                in.flip();
                while (in.hasRemaining()) {
                    byte b = in.get();
                    if (b == '\n') {
                        lines.add(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
                in.clear();
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
    public void close() throws IOException {
        ch.close();
    }
}
