package io.artuditu.uhp.api;

import java.io.IOException;

/**
 * The rest of a connection that continues as a stream (see {@link Call#streamAfterReply}).
 * Runs on the connection's thread after the reply line was flushed; when it returns or
 * throws, the server closes the connection.
 */
@FunctionalInterface
@org.osgi.annotation.versioning.ConsumerType
public interface StreamHandler {
    void stream(StreamSink sink) throws IOException;
}
