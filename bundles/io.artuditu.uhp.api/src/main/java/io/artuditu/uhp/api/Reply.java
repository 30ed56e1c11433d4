package io.artuditu.uhp.api;

import java.util.List;

/**
 * A serialized reply line (UTF-8 JSON, newline included) and what the transport must do
 * after writing it.
 *
 * @param line       the bytes to write, ending in {@code \n}
 * @param error      the error code, or null for a result
 * @param afterReply actions to run once the line has been flushed
 */
public record Reply(byte[] line, ErrorCode error, List<Runnable> afterReply) {
    public Reply {
        afterReply = List.copyOf(afterReply);
    }

    public boolean ok() {
        return error == null;
    }
}
