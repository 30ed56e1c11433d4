package io.artuditu.uhp.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One open connection to the server, read a line at a time and written a line (or raw bytes)
 * at a time: a stream's connection ({@link UhpClient#open}), or one a caller drives itself
 * ({@link UhpClient#connect}).
 *
 * <p>{@link #readLine} returns each line the server sends, without its newline, and null once
 * the server has closed the connection between lines. Every line is bounded by the client's
 * {@link UhpClient#maxLineBytes()}. When the client has a reply timeout, each line must come
 * within it. Any exception from a read leaves the connection closed: a line cut short cannot
 * be resumed.
 *
 * <p>Threading: one thread reads; any number may write ({@link #send} and {@link #sendBytes}
 * are serialised, a line never interleaves with another); {@link #close} from any thread ends
 * a blocked read. Without timeouts the channel is in blocking mode (an interrupt of a blocked
 * thread closes it, as for any interruptible channel); with them it is non-blocking and each
 * wait is a selector's.
 */
public final class UhpConnection implements Closeable {
    private final SocketChannel ch;
    private final String peer;
    private final int maxLineBytes;
    private final long replyMillis;
    /** Waits for reads (and the connect); null in blocking mode. */
    private final Selector readable;
    private final Object writing = new Object();
    /** Waits for writes, made by the first write that would block (under {@link #writing}). */
    private volatile Selector writable;
    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
    private byte[] line = new byte[512];
    private int length;
    private volatile long bytesRead;
    /** The server closed the connection after a whole line: every later read is null. */
    private boolean ended;

    private UhpConnection(SocketChannel ch, UhpClient client, Selector readable) {
        this.ch = ch;
        this.peer = client.shown().toString();
        this.maxLineBytes = client.maxLineBytes();
        this.replyMillis = client.replyMillis();
        this.readable = readable;
        in.flip();
    }

    static UhpConnection connect(UhpClient client) throws IOException {
        String shown = client.shown().toString();
        SocketChannel ch;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException e) {
            throw new UhpClientException.Unreachable("no server is answering on " + shown, e);
        }
        Selector selector = null;
        try {
            UnixDomainSocketAddress address = UnixDomainSocketAddress.of(client.socket());
            if (client.connectMillis() == 0) {
                ch.connect(address);
                if (client.replyMillis() == 0) {
                    return new UhpConnection(ch, client, null);
                }
                ch.configureBlocking(false);
                selector = Selector.open();
                ch.register(selector, SelectionKey.OP_READ);
                return new UhpConnection(ch, client, selector);
            }
            // Bounded: a non-blocking connect. A listener whose queue of pending connections is
            // full refuses it at once (EAGAIN): there is no room to wait for, so that is unreachable too.
            ch.configureBlocking(false);
            selector = Selector.open();
            SelectionKey key = ch.register(selector, SelectionKey.OP_CONNECT);
            long deadline = deadline(client.connectMillis());
            boolean connected = ch.connect(address);
            while (!connected) {
                if (!await(selector, deadline)) {
                    throw new UhpClientException.Unreachable("no server accepted a connection on " + shown + " within "
                            + client.connectMillis() + " ms", null);
                }
                connected = ch.finishConnect();
            }
            key.interestOps(SelectionKey.OP_READ);
            return new UhpConnection(ch, client, selector);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch, selector);
            if (!(e instanceof IOException) || e instanceof UhpClientException || e instanceof InterruptedIOException) {
                throw e;
            }
            throw new UhpClientException.Unreachable("no server is answering on " + shown, e);
        }
    }

    /** The deadline (System.nanoTime) {@code millis} from now; 0 for none. */
    private static long deadline(long millis) {
        return millis == 0 ? 0 : System.nanoTime() + millis * 1_000_000L;
    }

    /** The deadline of the next request or line under the client's reply timeout; 0 for none. */
    long deadline() {
        return deadline(replyMillis);
    }

    /**
     * The next line without its newline; null when the server closed the connection after
     * the last whole line.
     *
     * @throws UhpClientException.TooLong for a line over the client's bound
     * @throws UhpClientException.ClosedEarly when the connection ends in the middle of a line
     * @throws UhpClientException.TimedOut when the client's reply timeout passes first
     */
    public String readLine() throws IOException {
        return readLine(deadline(), null);
    }

    String readLine(long deadline, String what) throws IOException {
        if (ended) {
            return null;
        }
        try {
            length = 0;
            while (true) {
                byte[] a = in.array();
                int from = in.position();
                int to = in.limit();
                for (int i = from; i < to; i++) {
                    if (a[i] == '\n') {
                        append(a, from, i - from);
                        in.position(i + 1);
                        return new String(line, 0, length, StandardCharsets.UTF_8);
                    }
                }
                append(a, from, to - from);
                in.clear();
                int n = fill(deadline, what);
                in.flip();
                if (n < 0) {
                    close();
                    if (length == 0) {
                        ended = true;
                        return null;
                    }
                    throw new UhpClientException.ClosedEarly("the server on " + peer
                            + " closed the connection in the middle of a line (" + length + " bytes)");
                }
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void append(byte[] a, int from, int n) throws UhpClientException.TooLong {
        if (n == 0) {
            return;
        }
        if (length + n > maxLineBytes) {
            throw new UhpClientException.TooLong("a line from the server on " + peer + " exceeded " + maxLineBytes
                    + " bytes");
        }
        if (length + n > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(maxLineBytes, Math.max(line.length * 2L, (long) length + n)));
        }
        System.arraycopy(a, from, line, length, n);
        length += n;
    }

    /** Reads into {@link #in}: the bytes read, or -1 at the end of the stream. */
    private int fill(long deadline, String what) throws IOException {
        int n;
        if (readable == null) {
            n = ch.read(in);
        } else {
            while ((n = ch.read(in)) == 0) {
                if (!await(readable, deadline)) {
                    throw new UhpClientException.TimedOut(what == null
                            ? "no line from the server on " + peer + " within " + replyMillis + " ms"
                            : "the server on " + peer + " did not answer " + what + " within " + replyMillis + " ms");
                }
            }
        }
        if (n > 0) {
            bytesRead += n;
        }
        return n;
    }

    /** Writes {@code text} and a newline; safe from any thread. */
    public void send(String text) throws IOException {
        write(UhpClient.lineBytes(text), deadline(), null);
    }

    /** Writes {@code bytes} exactly as they are (a test's malformed request, a line in pieces); safe from any thread. */
    public void sendBytes(byte[] bytes) throws IOException {
        write(bytes, deadline(), null);
    }

    void write(byte[] bytes, long deadline, String what) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(bytes);
        synchronized (writing) {
            while (out.hasRemaining()) {
                if (ch.write(out) == 0 && readable != null) {
                    if (writable == null) {
                        Selector s = Selector.open();
                        writable = s; // before the register: a close from now on closes it
                        try {
                            ch.register(s, SelectionKey.OP_WRITE);
                        } catch (IOException e) {
                            closeQuietly(null, s);
                            throw e;
                        }
                    }
                    if (!await(writable, deadline)) {
                        close();
                        throw new UhpClientException.TimedOut("the server on " + peer + " took no "
                                + (what == null ? "line" : what) + " within " + replyMillis + " ms");
                    }
                }
            }
        }
    }

    /** Every byte read on this connection so far, newlines included. */
    public long bytesRead() {
        return bytesRead;
    }

    public boolean isOpen() {
        return ch.isOpen();
    }

    /** Closes the connection; a blocked read returns or fails at once. Never throws. */
    @Override
    public void close() {
        closeQuietly(ch, readable);
        Selector w = writable;
        if (w != null) {
            closeQuietly(null, w);
        }
    }

    /**
     * Waits until the selector's key is ready or the deadline (0: none) passes; false when it
     * passed. An interrupt ends the wait with an {@link InterruptedIOException}, the interrupt
     * status kept.
     */
    private static boolean await(Selector selector, long deadline) throws IOException {
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for the server");
            }
            long timeout = 0;
            if (deadline != 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                timeout = Math.max(1, left / 1_000_000L);
            }
            try {
                if (selector.select(timeout) > 0) {
                    selector.selectedKeys().clear();
                    return true;
                }
            } catch (ClosedSelectorException e) {
                throw new AsynchronousCloseException(); // closed by another thread while it waited
            }
        }
    }

    private static void closeQuietly(SocketChannel ch, Selector selector) {
        try {
            if (ch != null) {
                ch.close();
            }
        } catch (IOException e) {
            // closing is best effort
        }
        try {
            if (selector != null) {
                selector.close();
            }
        } catch (IOException e) {
            // closing is best effort
        }
    }
}
