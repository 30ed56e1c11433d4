package io.artuditu.server.internal;

import io.artuditu.uhp.api.Connection;
import io.artuditu.uhp.api.StreamSink;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/** A streaming connection's output: whole lines, counted in {@code bytes.out}. */
final class SocketSink implements StreamSink {
    private final Socket socket;
    private final Connection connection;
    private final ServerStats stats;

    SocketSink(Socket socket, Connection connection, ServerStats stats) {
        this.socket = socket;
        this.connection = connection;
        this.stats = stats;
    }

    @Override
    public void write(byte[] line) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(line);
        out.flush();
        stats.bytesOut.add(line.length);
    }

    @Override
    public void abort() {
        try {
            socket.shutdownInput();
            socket.shutdownOutput();
        } catch (IOException e) {
            // already shut
        }
        try {
            socket.close();
        } catch (IOException e) {
            // closed either way
        }
    }

    @Override
    public Connection connection() {
        return connection;
    }
}
