package io.artuditu.server.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * Connections refused at the limit: every one gets its refusal line at once, with one
 * thread and a bounded number of sockets held, however many arrive.
 *
 * <p>{@link #refuse} runs on the accepting thread and never waits. It writes the line
 * without blocking (a connection just accepted has an empty send buffer, which always has
 * room for one short line) and shuts output down, so the client reads the line and then its
 * end straight away. The socket stays open for {@link #LINGER_MILLIS} more: a client that
 * writes its request after connecting must not meet a closed socket, or its write fails
 * before it ever reads the refusal. Then the {@code uhp-refuse} thread discards what the
 * client sent (without blocking: closing with unread input resets the connection) and
 * closes it.
 *
 * <p>Bounds: at most {@link #MAX_LINGERING} sockets wait to be closed; past that a refused
 * socket is closed right after its line, which is already in the client's buffer. The one
 * thread runs only while a socket waits. Thread safe.
 */
final class Refusals implements AutoCloseable {
    /** How long a refused socket stays open after its line, for the client's request to arrive. */
    static final long LINGER_MILLIS = 250;
    /** Refused sockets held open at most at once (a burst's worth: the listen backlog). */
    static final int MAX_LINGERING = 128;
    /** What the closer reads and discards of one client's input, at most. */
    static final int MAX_DISCARD = 64 * 1024;

    private record Waiting(Socket socket, long deadline) {
    }

    /** In deadline order: every socket waits the same time. Guarded by this. */
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    /** The closer while one runs. Guarded by this. */
    private Thread closer;
    private boolean closed;

    /**
     * Writes {@code line} to a connection just accepted and refused, and has it closed
     * shortly. Never blocks. Returns whether the whole line was written.
     */
    boolean refuse(Socket s, byte[] line) {
        boolean written = write(s, line);
        if (written) {
            synchronized (this) {
                if (!closed && waiting.size() < MAX_LINGERING) {
                    waiting.addLast(new Waiting(s, System.nanoTime() + LINGER_MILLIS * 1_000_000L));
                    if (closer == null) {
                        closer = new Thread(this::closeLoop, "uhp-refuse");
                        closer.setDaemon(true);
                        closer.start();
                    }
                    return true;
                }
            }
        }
        close(s);
        return written;
    }

    private static boolean write(Socket s, byte[] line) {
        try {
            SocketChannel ch = s.getChannel();
            if (ch != null) {
                ch.configureBlocking(false);
                ByteBuffer b = ByteBuffer.wrap(line);
                ch.write(b);
                if (b.hasRemaining()) {
                    return false;
                }
            } else {
                // Only a socket without a channel gets here (junixsocket always has one);
                // the line still fits the empty send buffer, so this write does not wait.
                OutputStream out = s.getOutputStream();
                out.write(line);
                out.flush();
            }
            s.shutdownOutput();
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // the client left first
        }
    }

    private void closeLoop() {
        ByteBuffer sink = ByteBuffer.allocate(8192);
        while (true) {
            Waiting next;
            synchronized (this) {
                while (true) {
                    next = waiting.peekFirst();
                    if (next == null) {
                        closer = null;
                        return;
                    }
                    long left = next.deadline() - System.nanoTime();
                    if (left <= 0 || closed) {
                        waiting.pollFirst();
                        break;
                    }
                    try {
                        wait(left / 1_000_000L, (int) (left % 1_000_000L));
                    } catch (InterruptedException e) {
                        closed = true;
                    }
                }
            }
            discard(next.socket(), sink);
            close(next.socket());
        }
    }

    /** Reads and drops what the client sent, as far as it is there now. */
    private static void discard(Socket s, ByteBuffer sink) {
        SocketChannel ch = s.getChannel();
        if (ch == null) {
            return;
        }
        try {
            int total = 0;
            int n;
            sink.clear();
            while (total < MAX_DISCARD && (n = ch.read(sink)) > 0) {
                total += n;
                sink.clear();
            }
        } catch (IOException | RuntimeException e) {
            // the client left; closing is all that remains
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing more to do for a refused client
        }
    }

    /** Closes every waiting socket now; later refusals close theirs at once. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            notifyAll();
            t = closer;
        }
        if (t != null) {
            try {
                t.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
