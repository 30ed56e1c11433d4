package io.artuditu.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.platform.ClaimConflict;
import io.artuditu.uhp.platform.FamilyFailure;
import io.artuditu.uhp.api.schema.UhpContract;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives the real socket with real clients (the JDK's own Unix channels, not junixsocket). */
class SocketServerTest {
    private static final ObjectMapper M = new ObjectMapper();
    private final long uid = SocketLocation.currentUid();
    private final List<AutoCloseable> open = new ArrayList<>();

    @TempDir
    Path home;

    /** Answers every line with its length, so the transport is what is under test. */
    static class EchoDispatcher implements UhpDispatcher {
        @Override
        public Reply dispatch(byte[] buf, int off, int len, Caller caller) {
            ObjectNode r = M.createObjectNode();
            r.put("id", "x");
            r.putObject("result").put("type", "ok").put("len", len).put("pid", caller.pid());
            return new Reply((r + "\n").getBytes(StandardCharsets.UTF_8), null, List.of());
        }

        @Override
        public Reply error(String id, ErrorCode code, String message) {
            ObjectNode r = M.createObjectNode();
            r.putNull("id");
            r.putObject("error").put("code", code.wire()).put("message", message);
            return new Reply((r + "\n").getBytes(StandardCharsets.UTF_8), code, List.of());
        }

        @Override
        public List<MethodInfo> methods() {
            return List.of();
        }

        @Override
        public List<ClaimConflict> conflicts() {
            return List.of();
        }

        @Override
        public List<FamilyFailure> failures() {
            return List.of();
        }

        @Override
        public UhpContract contract() {
            return UhpContract.assemble(UhpContract.envelope(), List.of());
        }
    }

    private SocketServer start(long ownerUid, int max, int timeoutMillis) throws IOException {
        SocketServer s = new SocketServer(SocketLocation.resolve(home, null, uid), ownerUid, new EchoDispatcher(), max,
                timeoutMillis);
        open.add(s);
        s.start();
        return s;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private SocketChannel connect(Path p) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(p));
        open.add(ch);
        return ch;
    }

    private static void send(SocketChannel ch, String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Reads everything until the server closes: one reply line, then EOF. */
    private static String readAll(SocketChannel ch) throws IOException {
        InputStream in = Channels.newInputStream(ch);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JsonNode oneLine(String all) throws IOException {
        assertTrue(all.endsWith("\n"), "reply ends with a newline: " + all);
        assertEquals(1, all.chars().filter(c -> c == '\n').count(), "exactly one line: " + all);
        return M.readTree(all);
    }

    private static void await(BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!cond.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not reached in 10 s");
            Thread.sleep(5);
        }
    }

    private String ask(SocketServer s, String line) throws IOException {
        SocketChannel ch = connect(s.location().bind());
        send(ch, line);
        return readAll(ch);
    }

    @Test
    void oneLineInOneLineOutWithOwnerOnlyPermissions() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        Path sock = home.resolve("artuditu.sock");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(sock)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home)));
        assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(home.resolve("artuditu.sock.lock")),
                "the lock file names the server's pid");
        JsonNode r = oneLine(ask(s, "{\"id\":\"1\"}\n"));
        assertEquals(10, r.at("/result/len").asInt());
        assertEquals(ProcessHandle.current().pid(), r.at("/result/pid").asLong(), "peer pid from credentials");
        ObjectNode stats = M.createObjectNode();
        s.stats().writeTo(stats);
        assertEquals(1, stats.at("/connections/accepted").asLong());
        assertEquals(11, stats.at("/bytes/in").asLong());
    }

    @Test
    void aDispatcherThatThrowsStillGetsTheClientAnInternalError() throws Exception {
        SocketServer s = new SocketServer(SocketLocation.resolve(home, null, uid), uid, new EchoDispatcher() {
            @Override
            public Reply dispatch(byte[] buf, int off, int len, Caller caller) {
                throw new NumberFormatException("not a number");
            }
        }, 80, 5000);
        open.add(s);
        s.start();
        JsonNode r = oneLine(ask(s, "{\"id\":\"1\"}\n"));
        assertEquals("internal_error", r.at("/error/code").asText());
    }

    @Test
    void aSecondLineOnTheSameConnectionIsNotServed() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        oneLine(ask(s, "{\"a\":1}\n{\"b\":2}\n"));
    }

    @Test
    void the81stConnectionIsRefusedAndCounted() throws Exception {
        SocketServer s = start(uid, Limits.MAX_CONNECTIONS, 30_000);
        for (int i = 0; i < Limits.MAX_CONNECTIONS; i++) {
            connect(s.location().bind());
        }
        await(() -> s.stats().active.get() == Limits.MAX_CONNECTIONS);
        JsonNode r = oneLine(readAll(connect(s.location().bind())));
        assertEquals("too_many_connections", r.at("/error/code").asText());
        assertEquals(1, s.stats().rejected.sum());
        for (AutoCloseable c : open.subList(1, open.size())) {
            c.close();
        }
        await(() -> s.stats().active.get() == 0);
        assertEquals(16, oneLine(ask(s, "{\"after\":\"full\"}\n")).at("/result/len").asInt(), "serves again");
    }

    /**
     * A burst far past the limit: every refused client reads the structured refusal and its
     * end promptly (none is closed without it, none waits behind the others), the refusals
     * take one thread at most, and the server serves again once the held connections go.
     */
    @Test
    void everyConnectionOfABurstPastTheLimitGetsItsRefusalPromptly() throws Exception {
        SocketServer s = start(uid, Limits.MAX_CONNECTIONS, 30_000);
        List<SocketChannel> held = new ArrayList<>();
        for (int i = 0; i < Limits.MAX_CONNECTIONS; i++) {
            held.add(connect(s.location().bind()));
        }
        await(() -> s.stats().active.get() == Limits.MAX_CONNECTIONS);
        int burst = 200;
        List<String> replies = refusedBurst(s.location().bind(), burst, 2_000);
        for (int i = 0; i < burst; i++) {
            JsonNode r = oneLine(replies.get(i));
            assertEquals("too_many_connections", r.at("/error/code").asText(), "client " + i + ": " + replies.get(i));
            assertTrue(r.get("id").isNull(), replies.get(i));
        }
        assertEquals(burst, s.stats().rejected.sum());
        long refusers = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("uhp-refuse")).count();
        assertTrue(refusers <= 1, refusers + " refusal threads");
        for (SocketChannel c : held) {
            c.close();
        }
        await(() -> s.stats().active.get() == 0);
        assertEquals(16, oneLine(ask(s, "{\"after\":\"full\"}\n")).at("/result/len").asInt(), "serves again");
    }

    /**
     * Opens {@code n} connections at once, each sending a request line as a client would,
     * and reads each to its end on one selector; fails if any has not ended within
     * {@code boundMillis} of the burst's start. Returns what each read.
     */
    static List<String> refusedBurst(Path socket, int n, long boundMillis) throws Exception {
        long start = System.nanoTime();
        List<SocketChannel> chans = new ArrayList<>();
        List<ByteArrayOutputStream> got = new ArrayList<>();
        try (java.nio.channels.Selector sel = java.nio.channels.Selector.open()) {
            for (int i = 0; i < n; i++) {
                SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
                chans.add(ch);
                ch.connect(UnixDomainSocketAddress.of(socket));
                got.add(new ByteArrayOutputStream());
            }
            for (int i = 0; i < n; i++) {
                SocketChannel ch = chans.get(i);
                try {
                    ByteBuffer b = ByteBuffer.wrap("{\"id\":\"b\",\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                } catch (IOException refusedFirst) {
                    // a client may find the refusal before it has written; it still reads it
                }
                ch.configureBlocking(false);
                ch.register(sel, java.nio.channels.SelectionKey.OP_READ, i);
            }
            ByteBuffer buf = ByteBuffer.allocate(4096);
            int open = n;
            long deadline = start + boundMillis * 1_000_000L;
            while (open > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                assertTrue(left > 0, open + " of " + n + " refused clients still waiting after " + boundMillis + " ms");
                sel.select(left);
                for (java.nio.channels.SelectionKey k : sel.selectedKeys()) {
                    int i = (Integer) k.attachment();
                    buf.clear();
                    int r;
                    try {
                        r = chans.get(i).read(buf);
                    } catch (IOException reset) {
                        r = -1;
                    }
                    if (r > 0) {
                        got.get(i).write(buf.array(), 0, r);
                    } else if (r < 0) {
                        k.cancel();
                        open--;
                    }
                }
                sel.selectedKeys().clear();
            }
        } finally {
            for (SocketChannel ch : chans) {
                ch.close();
            }
        }
        return got.stream().map(b -> b.toString(StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aSilentClientIsClosedAtTheDeadlineAndCounted() throws Exception {
        SocketServer s = start(uid, 80, 300);
        SocketChannel ch = connect(s.location().bind());
        JsonNode r = oneLine(readAll(ch));
        assertEquals("timeout", r.at("/error/code").asText());
        assertEquals(1, s.stats().initialFrameTimeouts.sum());
    }

    @Test
    void aTricklingClientStillMeetsTheAbsoluteDeadline() throws Exception {
        SocketServer s = start(uid, 80, 400);
        SocketChannel ch = connect(s.location().bind());
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < 20; i++) {
                send(ch, "{");
                Thread.sleep(100);
            }
        } catch (IOException closedByServer) {
            // expected once the deadline passed
        }
        assertEquals(1, s.stats().initialFrameTimeouts.sum());
        assertTrue(System.nanoTime() - t0 < 2_500_000_000L);
    }

    @Test
    void anOversizedLineGetsRequestTooLarge() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        SocketChannel ch = connect(s.location().bind());
        try {
            send(ch, "x".repeat(Limits.MAX_REQUEST_BYTES + 10));
        } catch (IOException e) {
            // the server may close before taking every byte
        }
        JsonNode r = oneLine(readAll(ch));
        assertEquals("request_too_large", r.at("/error/code").asText());
    }

    @Test
    void aLineOfExactlyTheLimitIsServed() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        JsonNode r = oneLine(ask(s, "x".repeat(Limits.MAX_REQUEST_BYTES) + "\n"));
        assertEquals(Limits.MAX_REQUEST_BYTES, r.at("/result/len").asInt());
    }

    @Test
    void aClientThatLeavesMidRequestIsCountedAndTheServerGoesOn() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        SocketChannel ch = connect(s.location().bind());
        send(ch, "{\"id\":\"1\",\"meth");
        ch.close();
        await(() -> s.stats().clientDisconnects.sum() == 1);
        assertEquals(3, oneLine(ask(s, "{}\n\n")).at("/result/len").asInt() + 1);
    }

    @Test
    void anotherUsersConnectionIsRefusedBeforeItsRequestIsRead() throws Exception {
        // The server is told its owner is another uid, so this process is the stranger:
        // the real peer-credential check runs against a real connection.
        SocketServer s = new SocketServer(SocketLocation.resolve(home, null, uid), uid, uid + 1, new EchoDispatcher(),
                80, 5000);
        open.add(s);
        s.start();
        JsonNode r = oneLine(ask(s, "{\"id\":\"1\"}\n"));
        assertEquals("forbidden", r.at("/error/code").asText());
        assertEquals(1, s.stats().peerRejected.sum());
    }

    @Test
    void aStaleSocketIsReplaced() throws Exception {
        Path sock = home.resolve("artuditu.sock");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        // A socket file whose server died: bound, then the process (here: channel) gone.
        java.nio.channels.ServerSocketChannel dead = java.nio.channels.ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        dead.bind(UnixDomainSocketAddress.of(sock));
        dead.close();
        assertTrue(Files.exists(sock));
        SocketServer s = start(uid, 80, 5000);
        assertEquals(3, oneLine(ask(s, "abc\n")).at("/result/len").asInt());
    }

    @Test
    void aLiveServersSocketIsNeverStolen() throws Exception {
        SocketServer first = start(uid, 80, 5000);
        SocketServer second = new SocketServer(SocketLocation.resolve(home, null, uid), uid, new EchoDispatcher(), 80, 5000);
        SocketServer.AlreadyRunningException e = assertThrows(SocketServer.AlreadyRunningException.class, second::start);
        assertTrue(e.getMessage().contains("already running"), e.getMessage());
        assertEquals(2, oneLine(ask(first, "ab\n")).at("/result/len").asInt(), "the first server still answers");
    }

    @Test
    void closeRemovesTheSocketFileAndTheSessionCanStartAgain() throws Exception {
        SocketServer s = start(uid, 80, 5000);
        s.close();
        assertFalse(Files.exists(home.resolve("artuditu.sock")));
        SocketServer again = start(uid, 80, 5000);
        assertEquals(1, oneLine(ask(again, "a\n")).at("/result/len").asInt());
    }

    @Test
    void aLongHomeBindsAtTheShortAlias() throws Exception {
        Path deep = home.resolve("d".repeat(60)).resolve("e".repeat(60));
        SocketLocation loc = SocketLocation.resolve(deep, "s", uid);
        assertTrue(loc.aliased());
        SocketServer s = new SocketServer(loc, uid, new EchoDispatcher(), 80, 5000);
        open.add(s);
        s.start();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(loc.bind().getParent())));
        assertEquals(1, oneLine(ask(s, "a\n")).at("/result/len").asInt());
    }
}
