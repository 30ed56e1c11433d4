package io.artuditu.server.internal;

import io.artuditu.uhp.api.Connection;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One served connection as a {@link Connection}. The first {@link #onClose} starts a
 * watcher (a thread from the server's bounded pool) that reads the socket until end of
 * input: one request per connection means anything after the line is discarded, and end
 * of input means the client left. {@link #finish} (the server is done with the socket)
 * runs the actions too, so they always run exactly once.
 */
final class WatchedConnection implements Connection {
    private static final Logger LOG = System.getLogger(WatchedConnection.class.getName());

    private final Socket socket;
    private final Executor watchers;
    private final Runnable clientLeft;
    private final List<Runnable> actions = new ArrayList<>(2);
    private boolean closed;
    private boolean watching;
    private byte[] leftover = new byte[0];
    private volatile java.util.function.Consumer<byte[]> lines;
    private volatile int maxLine;

    WatchedConnection(Socket socket, Executor watchers, Runnable clientLeft) {
        this.socket = socket;
        this.watchers = watchers;
        this.clientLeft = clientLeft;
    }

    void leftover(byte[] bytes) {
        leftover = bytes;
    }

    @Override
    public void onLines(int maxBytes, java.util.function.Consumer<byte[]> handler) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes < 1");
        }
        synchronized (this) {
            if (lines != null || watching) {
                throw new IllegalStateException("onLines must come once, before onClose");
            }
            maxLine = maxBytes;
            lines = handler;
        }
        onClose(() -> { });
    }

    @Override
    public void onClose(Runnable action) {
        boolean startWatch = false;
        synchronized (this) {
            if (!closed) {
                actions.add(action);
                startWatch = !watching;
                watching = true;
            }
        }
        if (startWatch) {
            watch();
        } else if (closed()) {
            action.run();
        }
    }

    private void watch() {
        try {
            socket.setSoTimeout(0);
            watchers.execute(this::readToEnd);
        } catch (IOException | RejectedExecutionException e) {
            // Without a watcher the actions still run when the server finishes the connection.
            LOG.log(Level.WARNING, "cannot watch a connection for end of input: " + e);
        }
    }

    private void readToEnd() {
        try {
            InputStream in = socket.getInputStream();
            java.util.function.Consumer<byte[]> handler = lines;
            if (handler == null) {
                byte[] discard = new byte[512];
                while (in.read(discard) >= 0) {
                    // extra bytes after the one request line are ignored
                }
            } else {
                splitLines(in, handler);
            }
        } catch (IOException e) {
            // reset or closed: the connection is over either way
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a client line handler failed; the connection ends", e);
        }
        if (!closed() && !socket.isClosed()) {
            clientLeft.run();
        }
        finish();
    }

    /** Hands each complete line to the handler; a line over the limit ends the connection. */
    private void splitLines(InputStream in, java.util.function.Consumer<byte[]> handler) throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        byte[] first = leftover;
        int n = first.length;
        byte[] buf = first;
        while (true) {
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b == '\n') {
                    handler.accept(line.toByteArray());
                    line.reset();
                } else if (line.size() >= maxLine) {
                    LOG.log(Level.DEBUG, "a client line exceeded " + maxLine + " bytes; closing");
                    return;
                } else {
                    line.write(b);
                }
            }
            buf = chunk;
            n = in.read(chunk);
            if (n < 0) {
                return;
            }
        }
    }

    @Override
    public synchronized boolean closed() {
        return closed;
    }

    /** Marks the connection over and runs the registered actions, once. */
    void finish() {
        List<Runnable> run;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            run = new ArrayList<>(actions);
            actions.clear();
        }
        for (Runnable r : run) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "a connection close action failed", e);
            }
        }
    }
}
