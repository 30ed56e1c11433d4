package io.artuditu.uhp.api;

import java.io.IOException;

/**
 * Where a streaming handler writes after its acknowledgment reply: whole lines, on the
 * connection's own thread. {@link #abort} may be called from any thread.
 */
@org.osgi.annotation.versioning.ProviderType
public interface StreamSink {
    /** Writes and flushes one line; {@code line} must end with {@code \n}. Blocks while the client does not read. */
    void write(byte[] line) throws IOException;

    /** Closes the connection now, from any thread; a blocked {@link #write} then fails. */
    void abort();

    /** The connection being streamed to. */
    Connection connection();
}
