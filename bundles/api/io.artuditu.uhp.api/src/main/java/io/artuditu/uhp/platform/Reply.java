package io.artuditu.uhp.platform;

import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.StreamHandler;
import java.util.List;

/**
 * A serialized reply line (UTF-8 JSON, newline included) and what the transport must do
 * after writing it.
 *
 * @param line       the bytes to write, ending in {@code \n}
 * @param error      the error code, or null for a result
 * @param afterReply actions to run once the line has been flushed
 * @param stream     when not null, the connection continues as a stream run by this handler
 */
public record Reply(byte[] line, ErrorCode error, List<Runnable> afterReply, StreamHandler stream) {
    public Reply {
        afterReply = List.copyOf(afterReply);
        if (stream != null && error != null) {
            throw new IllegalArgumentException("an error reply cannot continue as a stream");
        }
    }

    /** A reply that ends the connection. */
    public Reply(byte[] line, ErrorCode error, List<Runnable> afterReply) {
        this(line, error, afterReply, null);
    }

    public boolean ok() {
        return error == null;
    }
}
