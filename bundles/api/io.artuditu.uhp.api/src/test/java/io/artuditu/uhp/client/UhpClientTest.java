package io.artuditu.uhp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.artuditu.uhp.api.home.SocketLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client against a real Unix socket: a small server in the test answers each connection
 * as the case needs (a reply, a reply cut short, one too long, nothing at all).
 */
class UhpClientTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();
    /** Each request line the test server read, in order. */
    private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();

    interface Handler {
        void serve(SocketChannel ch) throws Exception;
    }

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A server on a fresh socket that hands every connection it accepts to {@code handler}, one at a time. */
    private Path server(Handler handler) throws IOException {
        Path sock = dir.resolve("s" + open.size() + ".sock");
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(sock));
        open.add(listener);
        Thread t = new Thread(() -> {
            while (listener.isOpen()) {
                try (SocketChannel ch = listener.accept()) {
                    handler.serve(ch);
                } catch (Exception e) {
                    // the next connection, or the end of the test
                }
            }
        }, "test-uhp-server");
        t.setDaemon(true);
        t.start();
        return sock;
    }

    /** Reads one request line (recorded in {@link #requests}). */
    private String request(SocketChannel ch) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (ch.read(one) > 0) {
            if (one.get(0) == '\n') {
                break;
            }
            line.write(one.get(0));
            one.clear();
        }
        String s = line.toString(StandardCharsets.UTF_8);
        requests.add(s);
        return s;
    }

    private static void write(SocketChannel ch, String text) throws IOException {
        write(ch, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void write(SocketChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    // ---- one request, one reply ----

    @Test
    void aCallSendsOneEnvelopeLineAndReturnsTheReplyLineWithoutItsNewline() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"1\",\"result\":{\"type\":\"pong\"}}\n");
        });
        UhpClient client = UhpClient.of(sock);
        assertEquals("{\"id\":\"1\",\"result\":{\"type\":\"pong\"}}", client.call("ping", "{}"));
        assertEquals("{\"id\":\"1\",\"method\":\"ping\",\"params\":{}}", requests.take());
        client.withToken("s3\"cr\\et\n").call("pane.split", "{\"down\":true}");
        assertEquals("{\"id\":\"1\",\"method\":\"pane.split\",\"auth\":\"s3\\\"cr\\\\et\\u000a\",\"params\":{\"down\":true}}",
                requests.take(), "the auth token quoted");
        client.withToken("").call("ping", "{}");
        assertFalse(requests.take().contains("auth"), "an empty token is no token");
    }

    @Test
    void anErrorReplyIsALineLikeAnyOther() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"1\",\"error\":{\"code\":\"not_found\",\"message\":\"no pane 9\"}}\n");
        });
        assertEquals("{\"id\":\"1\",\"error\":{\"code\":\"not_found\",\"message\":\"no pane 9\"}}",
                UhpClient.of(sock).call("pane.get", "{\"pane\":\"9\"}"));
    }

    @Test
    void aRawRequestLineGoesOutAsWrittenWithOneNewline() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"x\",\"result\":{}}\n");
        });
        UhpClient client = UhpClient.of(sock);
        client.exchange("{\"id\":\"x\",\"method\":\"ping\"}");
        client.exchange("{\"id\":\"x\",\"method\":\"ping\"}\n");
        assertEquals("{\"id\":\"x\",\"method\":\"ping\"}", requests.take());
        assertEquals("{\"id\":\"x\",\"method\":\"ping\"}", requests.take());
    }

    @Test
    void aReplyOfManyReadsAndMultiByteCharactersCutBetweenThemArrivesWhole() throws Exception {
        String big = "{\"text\":\"" + "日本語 e\u0301 ".repeat(100_000) + "\"}";
        byte[] bytes = (big + "\n").getBytes(StandardCharsets.UTF_8);
        Path sock = server(ch -> {
            request(ch);
            for (int i = 0; i < bytes.length; i += 4097) { // odd pieces: characters cut between writes
                write(ch, java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + 4097)));
            }
        });
        assertEquals(big, UhpClient.of(sock).call("pane.read", "{}"));
    }

    // ---- bounded lines ----

    @Test
    void aReplyLongerThanTheBoundIsRefusedAndItsConnectionClosed() throws Exception {
        AtomicReference<String> serverSaw = new AtomicReference<>();
        Path sock = server(ch -> {
            request(ch);
            try {
                for (int i = 0; i < 1000; i++) { // 4 MB offered; the client stops reading after 1 KiB
                    write(ch, "x".repeat(4096));
                }
                serverSaw.set("all written");
            } catch (IOException e) {
                serverSaw.set("closed by the client");
            }
        });
        UhpClient client = UhpClient.of(sock).withMaxLineBytes(1024);
        UhpClientException.TooLong e = assertThrows(UhpClientException.TooLong.class, () -> client.call("x", "{}"));
        assertTrue(e.getMessage().contains("exceeded 1024 bytes"), e.getMessage());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (serverSaw.get() == null && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals("closed by the client", serverSaw.get());
    }

    @Test
    void aLineOfExactlyTheBoundIsRead() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "y".repeat(1024) + "\n");
        });
        assertEquals(1024, UhpClient.of(sock).withMaxLineBytes(1024).call("x", "{}").length());
    }

    @Test
    void aStreamLineOverTheBoundEndsTheStream() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"1\",\"result\":{}}\n" + "z".repeat(5000) + "\n{\"after\":1}\n");
            Thread.sleep(1000);
        });
        try (UhpConnection c = UhpClient.of(sock).withMaxLineBytes(4096).open("events.subscribe", "{}")) {
            assertEquals("{\"id\":\"1\",\"result\":{}}", c.readLine());
            assertThrows(UhpClientException.TooLong.class, c::readLine);
            assertFalse(c.isOpen(), "a refused line closes the connection: the rest cannot be trusted to start a line");
        }
    }

    // ---- a server that closes early ----

    @Test
    void aServerThatClosesWithoutAReplyOrInTheMiddleOfOneIsClosedEarly() throws Exception {
        Path silent = server(ch -> request(ch));
        UhpClientException.ClosedEarly none = assertThrows(UhpClientException.ClosedEarly.class,
                () -> UhpClient.of(silent).call("ping", "{}"));
        assertEquals("the server closed the connection without a reply", none.getMessage());
        Path cut = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"1\",\"res");
        });
        UhpClientException.ClosedEarly half = assertThrows(UhpClientException.ClosedEarly.class,
                () -> UhpClient.of(cut).call("ping", "{}"));
        assertTrue(half.getMessage().contains("in the middle of a line (14 bytes)"), half.getMessage());
    }

    @Test
    void aStreamEndsWithNullAfterItsLastWholeLine() throws Exception {
        Path sock = server(ch -> {
            assertEquals("{\"id\":\"1\",\"method\":\"events.subscribe\",\"params\":{\"after_sequence\":3}}", request(ch));
            write(ch, "{\"id\":\"1\",\"result\":{\"type\":\"events_subscribed\"}}\n{\"event\":\"a\"}\n{\"event\":\"b\"}\n");
            assertEquals("\"detach\"", request(ch), "what the client sends on the open stream");
        });
        try (UhpConnection c = UhpClient.of(sock).open("events.subscribe", "{\"after_sequence\":3}")) {
            assertEquals("{\"id\":\"1\",\"result\":{\"type\":\"events_subscribed\"}}", c.readLine());
            assertEquals("{\"event\":\"a\"}", c.readLine());
            c.send("\"detach\"");
            assertEquals("{\"event\":\"b\"}", c.readLine());
            assertNull(c.readLine());
            assertNull(c.readLine(), "and again: the stream is over");
            assertEquals(77, c.bytesRead());
        }
    }

    // ---- timeouts ----

    @Test
    void aServerThatNeverAnswersIsGivenUpOnWithinTheReplyTimeout() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            Thread.sleep(5_000);
        });
        UhpClient client = UhpClient.of(sock).withTimeouts(1_000, 300);
        long t0 = System.nanoTime();
        UhpClientException.TimedOut e = assertThrows(UhpClientException.TimedOut.class,
                () -> client.call("theme.reload", "{}"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 290 && ms < 2_500, ms + " ms");
        assertEquals("the server on " + sock + " did not answer theme.reload within 300 ms", e.getMessage());
    }

    @Test
    void onAStreamEachLineMustComeWithinTheReplyTimeout() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            write(ch, "{\"id\":\"1\",\"result\":{}}\n");
            Thread.sleep(100);
            write(ch, "{\"event\":\"soon\"}\n");
            Thread.sleep(5_000);
        });
        try (UhpConnection c = UhpClient.of(sock).withTimeouts(1_000, 400).open("events.subscribe", "{}")) {
            assertEquals("{\"id\":\"1\",\"result\":{}}", c.readLine());
            assertEquals("{\"event\":\"soon\"}", c.readLine());
            long t0 = System.nanoTime();
            UhpClientException.TimedOut e = assertThrows(UhpClientException.TimedOut.class, c::readLine);
            assertTrue((System.nanoTime() - t0) / 1_000_000 >= 390, "waited the whole timeout");
            assertTrue(e.getMessage().startsWith("no line from the server on "), e.getMessage());
            assertFalse(c.isOpen());
        }
    }

    @Test
    void closingFromAnotherThreadEndsABlockedRead() throws Exception {
        Path sock = server(ch -> {
            request(ch);
            Thread.sleep(10_000);
        });
        for (UhpClient client : List.of(UhpClient.of(sock), UhpClient.of(sock).withTimeouts(1_000, 60_000))) {
            UhpConnection c = client.open("attach.pane", "{}");
            Thread closer = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                c.close();
            });
            closer.start();
            long t0 = System.nanoTime();
            assertThrows(IOException.class, c::readLine);
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000, "returned at the close, not at a timeout");
            closer.join();
        }
    }

    // ---- unreachable ----

    @Test
    void noSocketFileAndNothingListeningAreUnreachable() throws Exception {
        Path missing = dir.resolve("none.sock");
        for (UhpClient client : List.of(UhpClient.of(missing), UhpClient.of(missing).withTimeouts(500, 500))) {
            UhpClientException.Unreachable e = assertThrows(UhpClientException.Unreachable.class,
                    () -> client.call("ping", "{}"));
            assertEquals("no server is answering on " + missing, e.getMessage());
            assertThrows(UhpClientException.Unreachable.class, () -> client.open("events.subscribe", "{}"));
        }
        Path dead = dir.resolve("dead.sock");
        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(dead)).close();
        assertTrue(Files.exists(dead), "a socket file a server left behind");
        assertThrows(UhpClientException.Unreachable.class, () -> UhpClient.of(dead).call("ping", "{}"));
    }

    @Test
    void aListenerThatAcceptsNothingIsUnreachableWithinTheConnectTimeoutOnceItsBacklogIsFull() throws Exception {
        Path sock = dir.resolve("full.sock");
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(sock), 1);
        open.add(listener);
        UhpClient client = UhpClient.of(sock).withTimeouts(300, 300);
        UhpClientException.Unreachable refused = null;
        long t0 = System.nanoTime();
        for (int i = 0; i < 64 && refused == null; i++) {
            try {
                open.add(client.connect());
            } catch (UhpClientException.Unreachable e) {
                refused = e;
            }
        }
        assertTrue(refused != null, "the backlog filled up");
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000, "never waited past the connect timeout");
    }

    @Test
    void aClientMadeFromASocketLocationConnectsToTheBindPathAndNamesTheLogicalOne() throws Exception {
        Path home = dir.resolve("home");
        SocketLocation location = SocketLocation.forClient(Map.of("ARTUDITU_HOME", home.toString()), null);
        UhpClient client = UhpClient.of(location);
        assertEquals(location.bind(), client.socket());
        assertEquals(location, client.location());
        UhpClientException.Unreachable e = assertThrows(UhpClientException.Unreachable.class, () -> client.call("ping", "{}"));
        assertEquals("no server is answering on " + location.logical(), e.getMessage());
    }
}
