package io.artuditu.server.internal;

import io.artuditu.uhp.api.Caller;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.Limits;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.platform.Reply;
import io.artuditu.uhp.platform.UhpDispatcher;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketCredentials;

/**
 * The UHP endpoint: one owner-only Unix socket, one request line per connection.
 *
 * <p>Threads: one pool thread accepts; when it takes a connection it hands accepting to
 * another pool thread (an idle one, or a new one) and serves that connection itself, so a
 * request never waits for a thread to wake before it is read (leader/follower).
 *
 * <p>Bounds: at most {@code maxConnections} connections are served at once (one worker
 * thread each, reused while busy, idle workers exit after 30 s); every one past that gets
 * {@code too_many_connections} at once, written by the accepting thread, and is closed
 * shortly after ({@link Refusals}). A connection has
 * {@code initialFrameMillis} to deliver its whole request line of at most
 * {@link Limits#MAX_REQUEST_BYTES}. The peer's uid is checked before anything is read.
 */
public final class SocketServer implements AutoCloseable {
    private static final Logger LOG = System.getLogger(SocketServer.class.getName());

    /** Another live server holds the socket path. */
    public static final class AlreadyRunningException extends IOException {
        private static final long serialVersionUID = 1L;

        AlreadyRunningException(String message) {
            super(message);
        }
    }

    private final SocketLocation location;
    private final long uid;
    private final long peerUid;
    private final UhpDispatcher dispatcher;
    private final int maxConnections;
    private final int initialFrameMillis;
    private final ServerStats stats = new ServerStats();
    private final AtomicLong connectionIds = new AtomicLong();
    private final ThreadPoolExecutor workers;
    /** Refusals at capacity: written on the accepting thread, closed by at most one thread. */
    private final Refusals refusals = new Refusals();
    /**
     * Watchers of connections whose handler waits or streams (end of input means the
     * client left); at most one per active connection.
     */
    private final ThreadPoolExecutor watchers;
    /** Extra worker threads beyond the connection limit, see the constructor. */
    static final int WORKER_SLACK = 4;
    /** How long an erroring connection waits for the client to read its error and close. */
    static final int LINGER_MILLIS = 250;
    private SessionLock lock;
    private AFUNIXServerSocket listener;
    /** Whether {@link #accept} started the accept loop. */
    private boolean accepting;
    /** Counted down when an accept loop ends because the server closed, for {@link #close}. */
    private final java.util.concurrent.CountDownLatch acceptEnded = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean closed;

    public SocketServer(SocketLocation location, long uid, UhpDispatcher dispatcher, int maxConnections,
            int initialFrameMillis) {
        this(location, uid, uid, dispatcher, maxConnections, initialFrameMillis);
    }

    /** As above, admitting peers of {@code peerUid} (tests make this process a stranger). */
    SocketServer(SocketLocation location, long uid, long peerUid, UhpDispatcher dispatcher, int maxConnections,
            int initialFrameMillis) {
        this.location = location;
        this.uid = uid;
        this.peerUid = peerUid;
        this.dispatcher = dispatcher;
        this.maxConnections = maxConnections;
        this.initialFrameMillis = initialFrameMillis;
        AtomicLong threads = new AtomicLong();
        // A cached pool: idle workers are reused, new ones made only when none is idle, and
        // they exit after 30 s idle. The admission counter keeps serving tasks at
        // maxConnections, plus the one accepting; the slack covers workers that have released
        // their slot but not yet returned to the pool.
        this.workers = new ThreadPoolExecutor(0, maxConnections + 1 + WORKER_SLACK, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "uhp-conn-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        AtomicLong watcherThreads = new AtomicLong();
        this.watchers = new ThreadPoolExecutor(0, maxConnections + WORKER_SLACK, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "uhp-eof-" + watcherThreads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Binds (see {@link #bind}) and starts accepting at once. */
    public synchronized void start() throws IOException {
        bind();
        accept();
    }

    /**
     * Takes the session lock, replaces a stale socket file and binds. Clients that connect
     * before {@link #accept} wait in the listen backlog rather than meet a half-started
     * server.
     */
    public synchronized void bind() throws IOException {
        Path bind = location.bind();
        SocketLocation.ensureOwnerOnlyDirectory(location.home(), uid);
        SocketLocation.ensureOwnerOnlyDirectory(location.logical().getParent(), uid);
        SocketLocation.ensureOwnerOnlyDirectory(bind.getParent(), uid);
        lock = SessionLock.tryAcquire(bind.resolveSibling(bind.getFileName() + ".lock"));
        if (lock == null) {
            throw new AlreadyRunningException("an Artuditu server is already running on " + location.logical()
                    + "; stop it first (artu server stop) or pick another --session");
        }
        try {
            if (Files.exists(bind, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                LOG.log(Level.INFO, "replacing stale socket " + bind + " left by a server that is gone");
                Files.delete(bind);
            }
            listener = AFUNIXServerSocket.newInstance();
            listener.bind(AFUNIXSocketAddress.of(bind.toFile()), 128);
            Files.setPosixFilePermissions(bind, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** Starts the accept thread; returns false when it already runs (or the server is closed). */
    public synchronized boolean accept() {
        if (accepting || closed) {
            return false;
        }
        try {
            workers.execute(this::acceptLoop);
        } catch (RejectedExecutionException e) {
            return false;
        }
        accepting = true;
        LOG.log(Level.INFO, "listening on " + location.logical()
                + (location.aliased() ? " (bound at " + location.bind() + ")" : ""));
        return true;
    }

    ServerStats stats() {
        return stats;
    }

    public SocketLocation location() {
        return location;
    }

    /**
     * Accepts until it takes a connection it may serve, then hands accepting to another pool
     * thread and serves the connection on this one. A refused connection (at the limit, or
     * no thread left to accept next) keeps this thread accepting.
     */
    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "accept failed", e);
                }
                continue;
            }
            long id = connectionIds.incrementAndGet();
            if (stats.active.incrementAndGet() > maxConnections) {
                stats.active.decrementAndGet();
                stats.rejected.increment();
                refuse(s, ErrorCode.TOO_MANY_CONNECTIONS,
                        "the server is at its limit of " + maxConnections + " connections; retry shortly");
                continue;
            }
            try {
                workers.execute(this::acceptLoop);
            } catch (RejectedExecutionException busy) {
                stats.active.decrementAndGet();
                stats.rejected.increment();
                refuse(s, ErrorCode.TOO_MANY_CONNECTIONS,
                        "the server is at its limit of " + maxConnections + " connections; retry shortly");
                continue;
            }
            stats.accepted.increment();
            serve(s, id);
            return;
        }
        acceptEnded.countDown();
    }

    /** Answers and closes a connection this server will not serve; on the accepting thread, never waits. */
    private void refuse(Socket s, ErrorCode code, String message) {
        byte[] line = dispatcher.error(null, code, message).line();
        if (refusals.refuse(s, line)) {
            stats.bytesOut.add(line.length);
        }
    }

    /**
     * Ends a connection whose input may hold unread bytes. Closing a Unix socket with
     * unread input resets it, and the reset can destroy the error line just written, so
     * half-close and discard input until the client closes or {@link #LINGER_MILLIS} pass.
     */
    private static void drain(Socket s) throws IOException {
        s.shutdownOutput();
        long deadline = System.nanoTime() + LINGER_MILLIS * 1_000_000L;
        byte[] sink = new byte[8192];
        java.io.InputStream in = s.getInputStream();
        try {
            while (System.nanoTime() < deadline) {
                s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
                if (in.read(sink) < 0) {
                    return;
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            // lingered long enough
        }
    }

    private void serve(Socket s, long id) {
        WatchedConnection connection = new WatchedConnection(s, watchers, stats.clientDisconnects::increment);
        try (s) {
            AFUNIXSocketCredentials peer = ((AFUNIXSocket) s).getPeerCredentials();
            if (peer.getUid() != peerUid) {
                stats.peerRejected.increment();
                LOG.log(Level.WARNING, "refused connection " + id + " from uid " + peer.getUid());
                write(s, dispatcher.error(null, ErrorCode.FORBIDDEN, "only the server's owner may connect"));
                drain(s);
                return;
            }
            LineReader reader = new LineReader(Limits.MAX_REQUEST_BYTES);
            LineReader.Outcome outcome = reader.read(s, System.nanoTime() + initialFrameMillis * 1_000_000L);
            stats.bytesIn.add(reader.length() + (outcome == LineReader.Outcome.LINE ? 1 : 0));
            switch (outcome) {
                case LINE: {
                    connection.leftover(reader.leftover());
                    Reply reply;
                    try {
                        reply = dispatcher.dispatch(reader.buffer(), 0, reader.length(),
                                new Caller(id, peer.getUid(), peer.getPid()), connection);
                    } catch (RuntimeException | LinkageError e) {
                        // The dispatcher answers every line itself; should it ever throw, the
                        // client still gets one reply rather than a bare close.
                        LOG.log(Level.ERROR, "connection " + id + ": the dispatcher failed", e);
                        reply = dispatcher.error(null, ErrorCode.INTERNAL_ERROR,
                                "internal error; the server log has the details");
                    }
                    write(s, reply);
                    for (Runnable r : reply.afterReply()) {
                        r.run();
                    }
                    if (reply.stream() != null && !connection.closed()) {
                        stats.streaming.incrementAndGet();
                        try {
                            reply.stream().stream(new SocketSink(s, connection, stats));
                        } finally {
                            stats.streaming.decrementAndGet();
                        }
                    }
                    break;
                }
                case TOO_LARGE:
                    write(s, dispatcher.error(null, ErrorCode.REQUEST_TOO_LARGE,
                            "request exceeds " + Limits.MAX_REQUEST_BYTES + " bytes"));
                    drain(s);
                    break;
                case TIMEOUT:
                    stats.initialFrameTimeouts.increment();
                    write(s, dispatcher.error(null, ErrorCode.TIMEOUT,
                            "no complete request line within " + initialFrameMillis + " ms"));
                    drain(s);
                    break;
                default:
                    stats.clientDisconnects.increment();
            }
        } catch (IOException e) {
            stats.clientDisconnects.increment();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "connection " + id + " failed", e);
        } finally {
            connection.finish();
            stats.active.decrementAndGet();
        }
    }

    private void write(Socket s, Reply reply) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(reply.line());
        out.flush();
        stats.bytesOut.add(reply.line().length);
    }

    /** Stops accepting, removes the socket file, releases the lock. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (listener != null) {
                listener.close();
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the listener failed", e);
        }
        if (accepting) {
            try {
                acceptEnded.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (lock != null) {
            try {
                Files.deleteIfExists(location.bind());
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not remove " + location.bind(), e);
            }
            try {
                lock.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not release the session lock", e);
            }
        }
        refusals.close();
        watchers.shutdown();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
