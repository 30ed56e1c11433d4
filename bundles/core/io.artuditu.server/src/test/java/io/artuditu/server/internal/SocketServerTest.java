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
import io.artuditu.uhp.client.UhpClient;
import io.artuditu.uhp.client.UhpConnection;
import io.artuditu.uhp.platform.MethodInfo;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
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

/**
 * Drives the real socket with real clients: the shared UHP client, over the JDK's own Unix
 * channels (not junixsocket).
 */
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

    private UhpConnection connect(Path p) throws IOException {
        UhpConnection ch = UhpClient.of(p).connect();
        open.add(ch);
        return ch;
    }

    private static void send(UhpConnection ch, String s) throws IOException {
        ch.sendBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads every line until the server closes (one reply line, then EOF), each with its newline. */
    private static String readAll(UhpConnection ch) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String line; (line = ch.readLine()) != null; ) {
            out.append(line).append('\n');
        }
        return out.toString();
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
        UhpConnection ch = connect(s.location().bind());
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
        List<UhpConnection> held = new ArrayList<>();
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
        for (UhpConnection c : held) {
            c.close();
        }
        await(() -> s.stats().active.get() == 0);
        assertEquals(16, oneLine(ask(s, "{\"after\":\"full\"}\n")).at("/result/len").asInt(), "serves again");
    }

    /**
     * Opens {@code n} connections at once, each sending a request line as a client would,
     * then reads each to its end, one after another (what the server already wrote waits in
     * each socket's buffer, so the last end is the time they all took); fails if that is more
     * than {@code boundMillis} after the burst's start. A guard closes every connection at
     * that bound, so a client the server never answers cannot hang the test. Returns what
     * each read.
     */
    static List<String> refusedBurst(Path socket, int n, long boundMillis) throws Exception {
        long start = System.nanoTime();
        UhpClient client = UhpClient.of(socket);
        List<UhpConnection> chans = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread guard = new Thread(() -> {
            try {
                Thread.sleep(boundMillis + 100);
            } catch (InterruptedException done) {
                return;
            }
            chans.forEach(UhpConnection::close);
        }, "burst-guard");
        guard.setDaemon(true);
        guard.start();
        List<String> got = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                chans.add(client.connect());
            }
            for (UhpConnection ch : chans) {
                try {
                    ch.sendBytes("{\"id\":\"b\",\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
                } catch (IOException refusedFirst) {
                    // a client may find the refusal before it has written; it still reads it
                }
            }
            for (UhpConnection ch : chans) {
                StringBuilder all = new StringBuilder();
                try {
                    for (String line; (line = ch.readLine()) != null; ) {
                        all.append(line).append('\n');
                    }
                } catch (IOException resetOrGuarded) {
                    // the end of this connection; the time check below tells a guarded one apart
                }
                got.add(all.toString());
            }
            long took = (System.nanoTime() - start) / 1_000_000L;
            assertTrue(took <= boundMillis, n + " refused clients took " + took + " ms to read their ends, more than "
                    + boundMillis);
        } finally {
            guard.interrupt();
            chans.forEach(UhpConnection::close);
        }
        return got;
    }

    @Test
    void aSilentClientIsClosedAtTheDeadlineAndCounted() throws Exception {
        SocketServer s = start(uid, 80, 300);
        UhpConnection ch = connect(s.location().bind());
        JsonNode r = oneLine(readAll(ch));
        assertEquals("timeout", r.at("/error/code").asText());
        assertEquals(1, s.stats().initialFrameTimeouts.sum());
    }

    @Test
    void aTricklingClientStillMeetsTheAbsoluteDeadline() throws Exception {
        SocketServer s = start(uid, 80, 400);
        UhpConnection ch = connect(s.location().bind());
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
        UhpConnection ch = connect(s.location().bind());
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
        UhpConnection ch = connect(s.location().bind());
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
